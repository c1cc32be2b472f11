// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CGStreamer
internal import CGstApp
internal import CGstRtspServer
internal import CGstVideo
import Foundation

/// Keeps a new RTSP viewer's transports shut until a keyframe reaches the shared media's
/// payloader, so a viewer who joins mid-GOP starts at a whole picture: every viewer of a shared
/// media is sent the same packets, and a delta picture before the first keyframe would give its
/// decoder nothing to refer to (ffmpeg: "non-existing PPS", "decode_slice_header error").
/// gst-rtsp-server 1.22 cannot do this itself (its drop-delta-units is 1.24's), and the
/// payloader's RTP packets do not say reliably which picture is a keyframe: the gate opens on
/// the access units going into the payloader, whose flags h264parse sets.
///
/// gst-rtsp-server sets a PLAY's transports going before it emits "play-request", so a viewer
/// could be sent the pictures payloaded in between (under load: a delta first, then decoding
/// errors). A viewer is marked as joining at its "pre-play-request"; while one is, the payloader
/// waits (at most `joinWait`) until "play-request" has shut its transports.
final class RTSPViewerGate: @unchecked Sendable {
    private struct Held {
        let client: UnsafeMutableRawPointer
        /// Each held with a reference of ours, dropped when it opens or the viewer leaves.
        let transports: [UnsafeMutablePointer<GstRTSPStreamTransport>]
    }

    private let lock = NSCondition()
    private var held: [Held] = []
    /// Viewers between their PLAY's start and its transports being shut, with when they began.
    private var joining: [UnsafeMutableRawPointer: ContinuousClock.Instant] = [:]
    /// How long the pictures wait for a joining viewer: a PLAY that fails half-way never says so.
    static let joinWait: Duration = .milliseconds(500)

    deinit { lock.withLock { held }.forEach(Self.release) }

    /// On the server's loop, when `client` asks to play, before its transports go: the
    /// payloader waits from now until `hold(client:session:)`.
    func join(client: UnsafeMutableRawPointer) {
        lock.withLock { joining[client] = .now }
    }

    /// On the server's loop, once `client`'s PLAY has set its transports going: shuts them until
    /// the next keyframe.
    func hold(client: UnsafeMutableRawPointer, session: UnsafeMutablePointer<GstRTSPSessionMedia>?) {
        defer { joined(client) }
        guard let session, let array = gst_rtsp_session_media_get_transports(session) else { return }
        defer { g_ptr_array_unref(array) }
        var transports: [UnsafeMutablePointer<GstRTSPStreamTransport>] = []
        for index in 0..<Int(array.pointee.len) {
            guard let raw = array.pointee.pdata[index] else { continue }
            let transport = raw.assumingMemoryBound(to: GstRTSPStreamTransport.self)
            g_object_ref(raw)
            gst_rtsp_stream_transport_set_active(transport, 0)
            transports.append(transport)
        }
        lock.withLock { held.append(Held(client: client, transports: transports)) }
    }

    private func joined(_ client: UnsafeMutableRawPointer) {
        lock.withLock {
            joining[client] = nil
            lock.broadcast()
        }
    }

    /// On the streaming thread, before an access unit is payloaded: while a viewer is joining,
    /// nothing goes to the transports (it could reach that viewer before its hold).
    private func waitForJoins() {
        lock.withLock {
            while let oldest = joining.values.min() {
                let deadline = oldest + Self.joinWait
                let left = ContinuousClock.now.duration(to: deadline)
                if left <= .zero {
                    joining = joining.filter { ContinuousClock.now < $0.value + Self.joinWait }
                    continue
                }
                _ = lock.wait(until: Date(timeIntervalSinceNow: left / .seconds(1)))
            }
        }
    }

    /// On the server's loop, when `client` closed: its transports are gone, never to be opened.
    func forget(client: UnsafeMutableRawPointer) {
        joined(client)
        let gone = lock.withLock {
            let gone = held.filter { $0.client == client }
            held.removeAll { $0.client == client }
            return gone
        }
        for entry in gone { entry.transports.forEach { g_object_unref(UnsafeMutableRawPointer($0)) } }
    }

    /// On the streaming thread, before a keyframe is payloaded: every held viewer gets it and
    /// what follows. Under the lock, so a viewer cannot close halfway through.
    func open() {
        lock.withLock {
            for entry in held {
                entry.transports.forEach { gst_rtsp_stream_transport_set_active($0, 1) }
                Self.release(entry)
            }
            held = []
        }
    }

    private static func release(_ entry: Held) {
        entry.transports.forEach { g_object_unref(UnsafeMutableRawPointer($0)) }
    }

    /// Watches the access units going into `payloader`: each waits while a viewer joins, and
    /// with `opensAtKeyframes` (the media's pictures, `pay0`) a keyframe opens the gate. The
    /// probe holds a reference to the gate until the pad goes.
    func watch(_ payloader: UnsafeMutablePointer<GstElement>, opensAtKeyframes: Bool) {
        guard let pad = gst_element_get_static_pad(payloader, "sink") else { return }
        defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
        let opening: GstPadProbeCallback = { _, info, data in
            guard let info, let data, let buffer = gst_pad_probe_info_get_buffer(info) else { return GST_PAD_PROBE_OK }
            let gate = Unmanaged<RTSPViewerGate>.fromOpaque(data).takeUnretainedValue()
            gate.waitForJoins()
            if buffer.pointee.mini_object.flags & GST_BUFFER_FLAG_DELTA_UNIT.rawValue == 0 { gate.open() }
            return GST_PAD_PROBE_OK
        }
        let waiting: GstPadProbeCallback = { _, _, data in
            if let data { Unmanaged<RTSPViewerGate>.fromOpaque(data).takeUnretainedValue().waitForJoins() }
            return GST_PAD_PROBE_OK
        }
        gst_pad_add_probe(
            pad, GST_PAD_PROBE_TYPE_BUFFER, opensAtKeyframes ? opening : waiting,
            Unmanaged.passRetained(self).toOpaque()
        ) {
            if let data = $0 { Unmanaged<RTSPViewerGate>.fromOpaque(data).release() }
        }
    }
}
