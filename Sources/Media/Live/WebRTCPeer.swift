// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CGStreamer
internal import CGstApp
internal import CGstVideo
internal import CGstWebRTC
internal import CWebRTCShim
import Foundation

/// One WebRTC connection: the `webrtcbin` of a pipeline, negotiated by whole SDP texts without
/// trickle ICE (WHIP and WHEP exchange one offer and one answer, candidates inside). Every call
/// waits, bounded, for webrtcbin's answer; none may run on the pipeline's streaming threads.
public final class WebRTCPeer: @unchecked Sendable {
    private let element: Element
    private var rtc: UnsafeMutablePointer<GstElement> { element.pointer }

    /// How long webrtcbin may take over one step (it answers at once unless something is wrong).
    static let stepTimeout: Duration = .seconds(5)

    /// The `webrtcbin` named `name` in `pipeline`.
    public init(pipeline: Pipeline, name: String) throws(MediaError) {
        element = try pipeline.element(named: name)
        guard Self.identity != nil, Self.fingerprint != nil else {
            throw .stateChange(element: "webrtcbin", message: "cannot make a DTLS certificate (libcrypto)", debug: nil)
        }
        // Each DTLS decoder gets the identity as webrtcbin adds it to its bin, before it leaves
        // the NULL state (the peer's certificate is only accepted by handlers connected then).
        let added:
            @convention(c) (
                UnsafeMutablePointer<GstBin>?, UnsafeMutablePointer<GstBin>?, UnsafeMutablePointer<GstElement>?,
                gpointer?
            ) -> Void = { _, _, element, _ in
                guard let element, let identity = WebRTCPeer.identity, let factory = gst_element_get_factory(element),
                    objectName(UnsafeMutablePointer<GstObject>(factory)) == "dtlssrtpdec"
                else { return }
                gst_util_set_object_arg(gcast(element), "pem", identity)
            }
        g_signal_connect_data(
            UnsafeMutableRawPointer(rtc), "deep-element-added", unsafeBitCast(added, to: GCallback.self), nil, nil,
            GConnectFlags(0))
    }

    /// The process's DTLS identity (ECDSA P-256), made once: aiortc and other stacks take
    /// ECDSA only, every browser takes it too.
    private static let identity: String? = takeGString(camstamp_webrtc_ecdsa_identity())

    /// The identity's certificate's SHA-256 fingerprint, as SDP writes it (`AB:CD:…`). webrtcbin
    /// 1.22 takes a description's fingerprint from the certificate its transport was made with,
    /// before the identity is in: the descriptions sent carry this one instead.
    private static let fingerprint: String? = {
        guard let identity else { return nil }
        let base64 = identity.split(separator: "\n").drop { !$0.hasPrefix("-----BEGIN CERTIFICATE") }.dropFirst()
            .prefix { !$0.hasPrefix("-----END") }.joined()
        guard let der = Data(base64Encoded: base64),
            let hex = der.withUnsafeBytes({
                takeGString(g_compute_checksum_for_data(G_CHECKSUM_SHA256, $0.baseAddress, gsize($0.count)))
            })
        else { return nil }
        var pairs: [Substring] = []
        var rest = Substring(hex.uppercased())
        while !rest.isEmpty {
            pairs.append(rest.prefix(2))
            rest = rest.dropFirst(2)
        }
        return pairs.joined(separator: ":")
    }()

    /// `text` with every fingerprint replaced by the identity's.
    private static func withOurFingerprint(_ text: String) -> String {
        guard let fingerprint else { return text }
        return text.split(separator: "\r\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix("a=fingerprint:") ? "a=fingerprint:sha-256 \(fingerprint)" : String(line)
        }.joined(separator: "\r\n")
    }

    /// Whether every sink pad has its caps (its first buffer's way is clear): webrtcbin builds an
    /// offer's formats (H.264's profile and packetization) from them.
    public var hasCaps: Bool {
        var all = true
        forEachPad(of: rtc, sink: true) { pad in
            if let caps = gst_pad_get_current_caps(pad) {
                gst_caps_unref(caps)
            } else {
                all = false
            }
        }
        return all
    }

    /// Sets every transceiver to send only (WHIP publishes; nothing comes back but reports)
    /// and ICE to gather UDP host candidates only (no ICE-TCP).
    public func publishOnly() {
        forEachPad(of: rtc, sink: true) { pad in
            Self.withObject(gcast(pad), "transceiver") { gst_util_set_object_arg($0, "direction", "sendonly") }
        }
        Self.withObject(gcast(rtc), "ice-agent") { gst_util_set_object_arg($0, "ice-tcp", "false") }
    }

    /// Runs `body` on the object held by the object-valued property `name` of `object`, if set.
    private static func withObject(
        _ object: UnsafeMutablePointer<GObject>, _ name: String, _ body: (UnsafeMutablePointer<GObject>) -> Void
    ) {
        guard
            let spec = g_object_class_find_property(
                UnsafeMutableRawPointer(object.pointee.g_type_instance.g_class)
                    .assumingMemoryBound(to: GObjectClass.self), name)
        else { return }
        var value = GValue()
        g_value_init(&value, spec.pointee.value_type)
        defer { g_value_unset(&value) }
        g_object_get_property(object, name, &value)
        guard let held = g_value_get_object(&value) else { return }
        body(held.assumingMemoryBound(to: GObject.self))
    }

    /// As the one who offers (WHIP): the offer, set as the local description, with the
    /// candidates gathered within `timeout` (host candidates come at once).
    public func offer(timeout: Duration) throws(MediaError) -> String {
        let offer = try create("create-offer", reply: "offer")
        defer { gst_webrtc_session_description_free(offer) }
        try setDescription("set-local-description", offer)
        return try gatheredLocalDescription(timeout: timeout)
    }

    /// Takes the answer to `offer()`.
    public func accept(answer: String) throws(MediaError) {
        let description = try Self.description(answer, type: GST_WEBRTC_SDP_TYPE_ANSWER)
        defer { gst_webrtc_session_description_free(description) }
        try setDescription("set-remote-description", description)
    }

    /// As the one who answers (WHEP): takes `offer` and returns the answer, set as the local
    /// description, with the candidates gathered within `timeout`.
    public func answer(offer: String, timeout: Duration) throws(MediaError) -> String {
        let remote = try Self.description(offer, type: GST_WEBRTC_SDP_TYPE_OFFER)
        defer { gst_webrtc_session_description_free(remote) }
        try setDescription("set-remote-description", remote)
        let answer = try create("create-answer", reply: "answer")
        defer { gst_webrtc_session_description_free(answer) }
        try setDescription("set-local-description", answer)
        return try gatheredLocalDescription(timeout: timeout)
    }

    /// The connection as webrtcbin sees it.
    public enum State: Sendable, Equatable {
        case new, connecting, connected, disconnected, failed, closed
    }

    /// The peer connection's state (its ICE and DTLS transports' together).
    public var state: State {
        switch GstWebRTCPeerConnectionState(rawValue: UInt32(enumProperty("connection-state"))) {
        case GST_WEBRTC_PEER_CONNECTION_STATE_CONNECTING: .connecting
        case GST_WEBRTC_PEER_CONNECTION_STATE_CONNECTED: .connected
        case GST_WEBRTC_PEER_CONNECTION_STATE_DISCONNECTED: .disconnected
        case GST_WEBRTC_PEER_CONNECTION_STATE_FAILED: .failed
        case GST_WEBRTC_PEER_CONNECTION_STATE_CLOSED: .closed
        default: .new
        }
    }

    /// What the far end's receiver reports (RTCP) say it got: the sum over the streams sent of
    /// the highest sequence number each report acknowledges (it grows while the far end
    /// receives); nil before any report came or if webrtcbin does not answer.
    public func acknowledged() -> UInt64? {
        guard let reply = try? wait({ camstamp_webrtc_get_stats(rtc, $0) }) else { return nil }
        defer { gst_promise_unref(reply.promise) }
        guard let structure = reply.structure else { return nil }
        var total: UInt64 = 0, reports = 0
        for index in 0..<gst_structure_n_fields(structure) {
            guard let name = gst_structure_nth_field_name(structure, guint(index)),
                let value = gst_structure_get_value(structure, name),
                value.pointee.g_type == gst_structure_get_type(),
                let stats = gst_value_get_structure(value),
                let source = gst_structure_get_value(stats, "gst-rtpsource-stats"),
                source.pointee.g_type == gst_structure_get_type(),
                let report = gst_value_get_structure(source)
            else { continue }
            var have: gboolean = 0, sequence: guint = 0
            guard gst_structure_get_boolean(report, "have-rb", &have) != 0, have != 0,
                gst_structure_get_uint(report, "rb-exthighestseq", &sequence) != 0
            else { continue }
            total += UInt64(sequence)
            reports += 1
        }
        return reports > 0 ? total : nil
    }

    // MARK: - Steps

    private func create(
        _ signal: String, reply field: String
    ) throws(MediaError)
        -> UnsafeMutablePointer<GstWebRTCSessionDescription>
    {
        let reply = try wait { camstamp_webrtc_create(rtc, signal, $0) }
        defer { gst_promise_unref(reply.promise) }
        guard let structure = reply.structure, let value = gst_structure_get_value(structure, field),
            let boxed = g_value_get_boxed(value)
        else {
            throw failure("\(signal) gave no \(field)", reply.structure)
        }
        return gst_webrtc_session_description_copy(boxed.assumingMemoryBound(to: GstWebRTCSessionDescription.self))
    }

    private func setDescription(
        _ signal: String, _ description: UnsafeMutablePointer<GstWebRTCSessionDescription>
    ) throws(MediaError) {
        let reply = try wait { camstamp_webrtc_set_description(rtc, signal, description, $0) }
        defer { gst_promise_unref(reply.promise) }
        // A refused description is said in the reply's "error" (webrtcbin 1.22 replies empty otherwise).
        if let structure = reply.structure, gst_structure_has_field(structure, "error") != 0 {
            throw failure("the other side's description was refused", reply.structure)
        }
    }

    /// The local description once ICE gathering has completed (or `timeout` has passed: what
    /// was gathered by then, at least one candidate).
    private func gatheredLocalDescription(timeout: Duration) throws(MediaError) -> String {
        let deadline = ContinuousClock.now + timeout
        while enumProperty("ice-gathering-state") != Int32(GST_WEBRTC_ICE_GATHERING_STATE_COMPLETE.rawValue),
            ContinuousClock.now < deadline
        {
            usleep(10_000)
        }
        let object: UnsafeMutablePointer<GObject> = gcast(rtc)
        var value = GValue()
        g_value_init(&value, gst_webrtc_session_description_get_type())
        defer { g_value_unset(&value) }
        g_object_get_property(object, "local-description", &value)
        guard let boxed = g_value_get_boxed(&value),
            let sdp = boxed.assumingMemoryBound(to: GstWebRTCSessionDescription.self).pointee.sdp,
            let text = takeGString(gst_sdp_message_as_text(sdp))
        else {
            throw .stateChange(element: "webrtcbin", message: "no local description", debug: nil)
        }
        guard text.contains("a=candidate:") else {
            throw .stateChange(
                element: "webrtcbin", message: "no network address to offer (ICE found none)", debug: nil)
        }
        return Self.withOurFingerprint(text)
    }

    private static func description(
        _ text: String, type: GstWebRTCSDPType
    ) throws(MediaError) -> UnsafeMutablePointer<GstWebRTCSessionDescription> {
        var message: UnsafeMutablePointer<GstSDPMessage>?
        guard gst_sdp_message_new_from_text(withoutHostnameCandidates(text), &message) == GST_SDP_OK, let message,
            gst_sdp_message_medias_len(message) > 0
        else {
            if let message { gst_sdp_message_free(message) }
            throw .stateChange(element: "webrtcbin", message: "the session description is not SDP", debug: nil)
        }
        return gst_webrtc_session_description_new(type, message)
    }

    /// `text` without the candidates whose address is a name (`….local`: browsers hide their
    /// host addresses behind mDNS names unless the page may use the camera). webrtcbin 1.22
    /// looks such a name up and, while the lookup is pending, keeps the connection alive after
    /// its pipeline stops (two threads and their memory per viewer, for good). Nothing is lost
    /// by dropping them: the far end's connectivity checks reach camstamp's own candidates, and
    /// ICE pairs with the address they come from (a peer-reflexive candidate).
    static func withoutHostnameCandidates(_ text: String) -> String {
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        return lines.filter { line in
            guard line.hasPrefix("a=candidate:") else { return true }
            let fields = line.split(separator: " ")
            guard fields.count > 4 else { return true }
            let address = fields[4]
            let ipv4 = address.allSatisfy { $0.isNumber || $0 == "." }
            let ipv6 = address.contains(":") && address.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
            return ipv4 || ipv6
        }.joined(separator: "\r\n")
    }

    /// A promise handed to `emit`, waited for up to `stepTimeout`; the reply is the caller's to unref.
    private func wait(
        _ emit: (UnsafeMutablePointer<GstPromise>) -> Void
    ) throws(MediaError) -> (promise: UnsafeMutablePointer<GstPromise>, structure: UnsafePointer<GstStructure>?) {
        let done = DispatchSemaphore(value: 0)
        let box = Unmanaged.passRetained(done as AnyObject).toOpaque()
        let promise = gst_promise_new_with_change_func(
            { _, data in
                guard let data else { return }
                (Unmanaged<AnyObject>.fromOpaque(data).takeUnretainedValue() as? DispatchSemaphore)?.signal()
            }, box, { data in if let data { Unmanaged<AnyObject>.fromOpaque(data).release() } })!
        emit(promise)
        if done.wait(timeout: .now() + .nanoseconds(Int(Self.stepTimeout.nanoseconds))) == .timedOut {
            gst_promise_interrupt(promise)
        }
        guard gst_promise_wait(promise) == GST_PROMISE_RESULT_REPLIED else {
            gst_promise_unref(promise)
            throw .stateChange(element: "webrtcbin", message: "webrtcbin did not answer", debug: nil)
        }
        // No structure: an empty reply (set-*-description in 1.22 when all went well).
        return (promise, gst_promise_get_reply(promise))
    }

    private func failure(_ what: String, _ structure: UnsafePointer<GstStructure>?) -> MediaError {
        var detail: String?
        if let structure, let value = gst_structure_get_value(structure, "error"), let boxed = g_value_get_boxed(value)
        {
            let error = boxed.assumingMemoryBound(to: GError.self)
            detail = String(cString: error.pointee.message)
        }
        return .stateChange(element: "webrtcbin", message: what + (detail.map { ": \($0)" } ?? ""), debug: nil)
    }

    private func enumProperty(_ name: String) -> Int32 {
        let object: UnsafeMutablePointer<GObject> = gcast(rtc)
        guard
            let spec = g_object_class_find_property(
                UnsafeMutableRawPointer(object.pointee.g_type_instance.g_class)
                    .assumingMemoryBound(to: GObjectClass.self), name)
        else { return -1 }
        var value = GValue()
        g_value_init(&value, spec.pointee.value_type)
        defer { g_value_unset(&value) }
        g_object_get_property(object, name, &value)
        return g_value_get_enum(&value)
    }
}

/// Whether a connected peer's receiver has gone: its reports (RTCP, about one a second) have
/// acknowledged nothing new for `timeout`. WebRTC tells a sender nothing else when the far end
/// goes away without a word. Asks webrtcbin at most once a second.
public struct ReceiverWatch: Sendable {
    public static let timeout: Duration = .seconds(5)
    private var last: (value: UInt64?, changed: ContinuousClock.Instant, asked: ContinuousClock.Instant)?

    public init() {}

    /// Whether `peer`'s receiver has been silent for `timeout` (call while it is connected).
    public mutating func wentSilent(_ peer: WebRTCPeer) -> Bool {
        let now = ContinuousClock.now
        if let last, now - last.asked < .seconds(1) { return now - last.changed >= Self.timeout }
        let acknowledged = peer.acknowledged()
        if let last, acknowledged == last.value {
            self.last?.asked = now
            return now - last.changed >= Self.timeout
        }
        last = (acknowledged, now, now)
        return false
    }
}

/// Keyframe requests passed on at most once a second (a receiver repeats its PLI until it has one).
public final class KeyframeLimit: @unchecked Sendable {
    private let send: @Sendable () -> Void
    private let lock = NSLock()
    private var last: ContinuousClock.Instant?

    public init(_ send: @escaping @Sendable () -> Void) { self.send = send }

    public func request() {
        let now = ContinuousClock.now
        let due = lock.withLock {
            guard last.map({ now - $0 >= .seconds(1) }) ?? true else { return false }
            last = now
            return true
        }
        if due { send() }
    }
}
