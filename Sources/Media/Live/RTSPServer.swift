// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CGStreamer
internal import CGstApp
internal import CGstRtspServer
internal import CGstVideo
import Foundation

/// An RTSP server (gst-rtsp-server) on its own GLib main loop, serving one shared media: every
/// viewer gets the same RTP packets, fed from the one encode through `push(_:to:)`. The media's
/// launch text names its inputs `appsrc name=FEED`; no viewer ever gets an encoder of its own.
public final class RTSPServer: @unchecked Sendable {
    private let server: UnsafeMutablePointer<GstRTSPServer>
    private let context: OpaquePointer
    private let loop: OpaquePointer
    private let source: UnsafeMutablePointer<GSource>
    private var thread: Thread?
    private let feedNames: [String]
    private let lock = NSLock()
    /// The appsrcs of the media being played, by name; empty while nobody watches.
    private var feeds: [String: SampleFeed] = [:]
    /// The current media's times, from its first keyframe.
    private var timeline = FeedTimeline()
    /// How many medias were configured: one while viewers share it.
    private var configured = 0
    /// Called when a viewer asks to play: a keyframe is wanted, so it need not wait for the next.
    private let viewerJoins: @Sendable () -> Void
    /// Holds each new viewer back until that keyframe.
    private let gate = RTSPViewerGate()

    /// Listens on `address:port` and serves `launch` at `path`. A port in use fails here.
    public init(
        address: String, port: UInt16, path: String, launch: String, feeds: [String],
        viewerJoins: @escaping @Sendable () -> Void = {}
    ) throws(MediaError) {
        try GStreamer.initialize()
        feedNames = feeds
        self.viewerJoins = viewerJoins
        server = gst_rtsp_server_new()
        gst_rtsp_server_set_address(server, address)
        gst_rtsp_server_set_service(server, String(port))
        let mounts = gst_rtsp_server_get_mount_points(server)!
        let factory = gst_rtsp_media_factory_new()!
        gst_rtsp_media_factory_set_launch(factory, launch)
        // One media for every viewer: one pipeline, one set of payloaders.
        gst_rtsp_media_factory_set_shared(factory, 1)
        context = g_main_context_new()
        loop = g_main_loop_new(context, 0)
        var error: UnsafeMutablePointer<GError>?
        guard let source = gst_rtsp_server_create_source(server, nil, &error) else {
            let message = error.map { String(cString: $0.pointee.message) } ?? "cannot listen"
            if let error { g_error_free(error) }
            g_object_unref(UnsafeMutableRawPointer(factory))
            g_object_unref(UnsafeMutableRawPointer(mounts))
            g_object_unref(UnsafeMutableRawPointer(server))
            g_main_loop_unref(loop)
            g_main_context_unref(context)
            throw .stateChange(
                element: "rtsp-server", message: "cannot listen on \(address):\(port): \(message)", debug: nil)
        }
        self.source = source
        let callback:
            @convention(c) (UnsafeMutablePointer<GstRTSPMediaFactory>?, UnsafeMutablePointer<GstRTSPMedia>?, gpointer?)
                -> Void = { _, media, data in
                    guard let media, let data else { return }
                    Unmanaged<RTSPServer>.fromOpaque(data).takeUnretainedValue().configure(media)
                }
        g_signal_connect_data(
            UnsafeMutableRawPointer(factory), "media-configure",
            unsafeBitCast(callback, to: GCallback.self), Unmanaged.passUnretained(self).toOpaque(), nil,
            GConnectFlags(0))
        let connected:
            @convention(c) (UnsafeMutablePointer<GstRTSPServer>?, UnsafeMutablePointer<GstRTSPClient>?, gpointer?) ->
                Void = { _, client, data in
                    guard let client, let data else { return }
                    let play:
                        @convention(c) (
                            UnsafeMutablePointer<GstRTSPClient>?, UnsafeMutablePointer<GstRTSPContext>?, gpointer?
                        ) -> Void = {
                            client, context, data in
                            guard let client, let data else { return }
                            let server = Unmanaged<RTSPServer>.fromOpaque(data).takeUnretainedValue()
                            // Held first, then the keyframe asked for: it cannot slip past before the hold.
                            server.gate.hold(
                                client: UnsafeMutableRawPointer(client), session: context?.pointee.sessmedia)
                            server.viewerJoins()
                        }
                    g_signal_connect_data(
                        UnsafeMutableRawPointer(client), "play-request", unsafeBitCast(play, to: GCallback.self),
                        data, nil, GConnectFlags(0))
                    // Before the PLAY sets the transports going: the pictures wait for its hold.
                    let prePlay:
                        @convention(c) (
                            UnsafeMutablePointer<GstRTSPClient>?, UnsafeMutablePointer<GstRTSPContext>?, gpointer?
                        ) -> GstRTSPStatusCode = { client, _, data in
                            if let client, let data {
                                Unmanaged<RTSPServer>.fromOpaque(data).takeUnretainedValue().gate.join(
                                    client: UnsafeMutableRawPointer(client))
                            }
                            return GST_RTSP_STS_OK
                        }
                    g_signal_connect_data(
                        UnsafeMutableRawPointer(client), "pre-play-request",
                        unsafeBitCast(prePlay, to: GCallback.self), data, nil, GConnectFlags(0))
                    let closed: @convention(c) (UnsafeMutablePointer<GstRTSPClient>?, gpointer?) -> Void = {
                        client, data in
                        guard let client, let data else { return }
                        Unmanaged<RTSPServer>.fromOpaque(data).takeUnretainedValue().gate.forget(
                            client: UnsafeMutableRawPointer(client))
                    }
                    g_signal_connect_data(
                        UnsafeMutableRawPointer(client), "closed", unsafeBitCast(closed, to: GCallback.self),
                        data, nil, GConnectFlags(0))
                }
        g_signal_connect_data(
            UnsafeMutableRawPointer(server), "client-connected", unsafeBitCast(connected, to: GCallback.self),
            Unmanaged.passUnretained(self).toOpaque(), nil, GConnectFlags(0))
        gst_rtsp_mount_points_add_factory(mounts, path, factory)
        g_object_unref(UnsafeMutableRawPointer(mounts))
        g_source_attach(source, context)
        let loop = UInt(bitPattern: Int(bitPattern: UnsafeMutableRawPointer(self.loop)))
        let thread = Thread { g_main_loop_run(OpaquePointer(bitPattern: loop)) }
        thread.name = "camstamp.rtsp"
        thread.start()
        self.thread = thread
    }

    deinit {
        stop()
        g_source_unref(source)
        g_main_loop_unref(loop)
        g_main_context_unref(context)
        g_object_unref(UnsafeMutableRawPointer(server))
    }

    /// How many shared medias were made so far (a second viewer joining the first adds none).
    public var mediaCount: Int { lock.withLock { configured } }

    /// Sends `sample` to every viewer through the media's appsrc `feed`; dropped while nobody watches.
    public func push(_ sample: EncodedSample, to feed: String, isVideo: Bool) {
        lock.lock()
        defer { lock.unlock() }
        guard let target = feeds[feed] else { return }
        if !timeline.push(sample, into: target, isVideo: isVideo) {
            // The last viewer left: that media is gone; the next viewer gets a new one.
            feeds = [:]
            timeline.reset()
        }
    }

    /// Stops serving: the main loop ends, viewers are disconnected.
    public func stop() {
        guard let thread else { return }
        self.thread = nil
        g_source_destroy(source)
        g_main_loop_quit(loop)
        while !thread.isFinished { usleep(1000) }
        lock.withLock { feeds = [:] }
    }

    private func configure(_ media: UnsafeMutablePointer<GstRTSPMedia>) {
        guard let bin = gst_rtsp_media_get_element(media) else { return }
        defer { gst_object_unref(UnsafeMutableRawPointer(bin)) }
        // The pictures (pay0) open the gate at a keyframe; the sound (pay1) only waits with them
        // while a viewer joins, or it reached the viewer first and the recording started before
        // its pictures.
        for (name, opens) in [("pay0", true), ("pay1", false)] {
            guard let payloader = gst_bin_get_by_name_recurse_up(gcast(bin), name) else { continue }
            gate.watch(payloader, opensAtKeyframes: opens)
            gst_object_unref(UnsafeMutableRawPointer(payloader))
        }
        var found: [String: SampleFeed] = [:]
        for name in feedNames {
            guard let element = gst_bin_get_by_name_recurse_up(gcast(bin), name),
                let feed = try? SampleFeed(element: Element(adopting: element))
            else { continue }
            found[name] = feed
        }
        lock.withLock {
            feeds = found
            timeline.reset()
            configured += 1
        }
    }
}
