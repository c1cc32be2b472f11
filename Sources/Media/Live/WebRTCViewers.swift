// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Synchronization

/// Why a viewer could not join, worded for the page.
public struct WebRTCJoinError: Error, CustomStringConvertible, Sendable {
    public let description: String
    /// The HTTP status that says it: 400 (the offer), 503 (too many viewers, the camera busy).
    public let status: Int
}

/// The camera page's WebRTC preview: one H.264 encode (a pipeline ending in an appsink) sent to
/// every viewer through a pipeline of its own (`appsrc ! rtph264pay ! webrtcbin`), negotiated as
/// WHEP does (the viewer's offer, camstamp's answer). A viewer who leaves, or whose connection
/// fails or goes silent, is let go with its pipeline; nobody watching costs no encode (the
/// camera pushes frames only while `isWatched`).
public final class WebRTCViewers: @unchecked Sendable {
    /// The largest offer taken (a browser's is 4 to 10 KB), and the most viewers at once.
    public static let largestOffer = 64 * 1024
    public static let mostViewers = 16
    /// A viewer whose connection is not up this long after its answer is let go.
    static let connectTimeout: Duration = .seconds(15)

    private let tap: SampleTap
    private let keyframes: KeyframeLimit
    private let shown: @Sendable (UInt64) -> Void
    private let lock = NSLock()
    private var viewers: [String: Viewer] = [:]
    private var thread: Thread?
    private let stopRequested = Atomic(false)
    private let watched = Atomic(false)

    /// Viewers fed from the appsink `tap` of `pipeline` (the preview's encode). `shown` gets the
    /// presentation time of each picture sent to a connected viewer (the ring's "on screen").
    public init(pipeline: Pipeline, tap: String, shown: @escaping @Sendable (UInt64) -> Void) throws(MediaError) {
        let tap = try SampleTap(pipeline: pipeline, name: tap)
        self.tap = tap
        keyframes = KeyframeLimit { tap.requestKeyframe() }
        self.shown = shown
    }

    /// Whether anyone watches (the camera encodes only then).
    public var isWatched: Bool { watched.load(ordering: .relaxed) }

    /// How many viewers there are now.
    public var count: Int { lock.withLock { viewers.count } }

    public func start() {
        let thread = Thread { [self] in run() }
        thread.name = "camstamp.webrtc"
        self.thread = thread
        thread.start()
    }

    /// Lets every viewer go and stops feeding them.
    public func stop() {
        stopRequested.store(true, ordering: .relaxed)
        while let thread, !thread.isFinished { usleep(10_000) }
        let all = lock.withLock {
            defer { viewers = [:] }
            return Array(viewers.values)
        }
        all.forEach { $0.pipeline.stop() }
        watched.store(false, ordering: .relaxed)
    }

    /// A viewer for `offer` (SDP, receiving H.264): its id (for `leave`) and the answer, with
    /// camstamp's candidates. Waits for the encode's next keyframe (its caps make the answer's
    /// format) and ICE gathering: a fraction of a second.
    public func join(offer: String) throws(WebRTCJoinError) -> (id: String, answer: String) {
        guard offer.utf8.count <= Self.largestOffer else {
            throw WebRTCJoinError(description: "the offer is larger than \(Self.largestOffer) bytes", status: 413)
        }
        guard let format = Self.h264Format(in: offer) else {
            throw WebRTCJoinError(
                description: "the offer has no H.264 (packetization-mode 1) to receive: this browser cannot play the "
                    + "WebRTC preview; the MJPEG one (/stream.mjpg) works everywhere", status: 400)
        }
        let viewer: Viewer
        do { viewer = try Viewer(format: format, keyframes: keyframes) } catch {
            throw WebRTCJoinError(description: "cannot start a viewer: \(error)", status: 503)
        }
        let id = Self.newID()
        let admitted = lock.withLock {
            guard viewers.count < Self.mostViewers else { return false }
            viewers[id] = viewer
            watched.store(true, ordering: .relaxed)
            return true
        }
        guard admitted else {
            viewer.pipeline.stop()
            throw WebRTCJoinError(description: "\(Self.mostViewers) viewers already watch this camera", status: 503)
        }
        keyframes.request()
        do {
            let deadline = ContinuousClock.now + .seconds(3)
            while !viewer.peer.hasCaps && ContinuousClock.now < deadline { usleep(10_000) }
            guard viewer.peer.hasCaps else {
                throw MediaError.stateChange(
                    element: "webrtcbin", message: "no picture came from the camera", debug: nil)
            }
            let answer = try viewer.peer.answer(offer: offer, timeout: .seconds(2))
            viewer.answeredAt = .now
            return (id, answer)
        } catch {
            leave(id: id)
            throw WebRTCJoinError(description: "\(error)", status: 400)
        }
    }

    /// Lets the viewer `id` go; false if there is none.
    @discardableResult
    public func leave(id: String) -> Bool {
        let viewer = lock.withLock {
            defer { watched.store(!viewers.isEmpty, ordering: .relaxed) }
            return viewers.removeValue(forKey: id)
        }
        viewer?.pipeline.stop()
        return viewer != nil
    }

    // MARK: - Feeding

    private func run() {
        var lastSweep = ContinuousClock.now
        while !stopRequested.load(ordering: .relaxed) {
            if case .sample(let sample) = tap.pull(timeout: .milliseconds(200)) {
                let current = lock.withLock { Array(viewers.values) }
                var anyConnected = false
                for viewer in current {
                    viewer.send(sample)
                    anyConnected = anyConnected || viewer.connected
                }
                if anyConnected, let time = sample.time { shown(time) }
            }
            if ContinuousClock.now - lastSweep >= .seconds(1) {
                lastSweep = .now
                sweep()
            }
        }
    }

    /// Lets go of the viewers that have gone: failed, closed, silent, or never connected.
    private func sweep() {
        let gone = lock.withLock { viewers.filter { $0.value.hasGone }.map(\.key) }
        gone.forEach { leave(id: $0) }
    }

    // MARK: - The offer

    /// The offer's H.264 format camstamp sends (packetization-mode 1): its payload type and
    /// profile-level-id, Constrained Baseline (42e0…, 42c0…) before Baseline (4200…, which a
    /// Constrained Baseline stream is too); nil if there is none.
    static func h264Format(in offer: String) -> (payload: Int, profileLevel: String)? {
        let lines = offer.split(whereSeparator: \.isNewline).map(String.init)
        let formats = lines.compactMap { line -> (payload: Int, profileLevel: String)? in
            guard line.hasPrefix("a=rtpmap:"), line.uppercased().contains(" H264/90000"),
                let payload = Int(line.dropFirst("a=rtpmap:".count).prefix { $0.isNumber }),
                let fmtp = lines.first(where: { $0.hasPrefix("a=fmtp:\(payload) ") })?.lowercased(),
                fmtp.contains("packetization-mode=1"),
                let range = fmtp.range(of: #"profile-level-id=42[0-9a-f]{4}"#, options: .regularExpression)
            else { return nil }
            return (payload, String(fmtp[range].dropFirst("profile-level-id=".count)))
        }
        for prefix in ["42e0", "42c0", "4200"] {
            if let format = formats.first(where: { $0.profileLevel.hasPrefix(prefix) }) { return format }
        }
        return nil
    }

    static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in String(format: "%016llx", UInt64.random(in: .min ... .max, using: &generator)) }
            .joined()
    }
}

/// One viewer: its pipeline and webrtcbin, the encode's times moved into it.
private final class Viewer: @unchecked Sendable {
    let pipeline: Pipeline
    let peer: WebRTCPeer
    let feed: SampleFeed
    var timeline = FeedTimeline()
    var receiver = ReceiverWatch()
    var answeredAt: ContinuousClock.Instant?
    private(set) var connected = false
    private var failed = false

    /// The pictures as the encode hands them, payloaded with the offer's payload type and said
    /// to be its profile-level-id: x264's SPS says 42c0… (Constrained Baseline, which a Baseline
    /// or Constrained Baseline decoder plays), a browser offers 42e01f or 42001f (level 3.1, what
    /// the preview is: at most 1280 px wide at 30 fps), and webrtcbin finds no format in common
    /// unless the two are written the same.
    init(format: (payload: Int, profileLevel: String), keyframes: KeyframeLimit) throws(MediaError) {
        let payload = format.payload
        let caps = "application/x-rtp,media=video,encoding-name=H264,payload=\(payload),clock-rate=90000"
        pipeline = try Pipeline(
            "webrtcbin name=rtc bundle-policy=max-bundle "
                + "appsrc name=feed ! h264parse ! rtph264pay config-interval=0 aggregate-mode=zero-latency pt=\(payload) "
                + "! capssetter caps=\"application/x-rtp,profile-level-id=(string)\(format.profileLevel)\" ! \(caps) ! rtc."
        )
        feed = try SampleFeed(pipeline: pipeline, name: "feed")
        peer = try WebRTCPeer(pipeline: pipeline, name: "rtc")
        peer.publishOnly()
        feed.onKeyframeRequest { keyframes.request() }
        try pipeline.setState(.playing, wait: false)
    }

    func send(_ sample: EncodedSample) {
        guard !failed else { return }
        if !timeline.push(sample, into: feed, isVideo: true) { failed = true }
        if !connected && peer.state == .connected { connected = true }
    }

    /// Whether the viewer has gone (read on the feeding thread, once a second).
    var hasGone: Bool {
        if failed || pipeline.pendingError() != nil { return true }
        switch peer.state {
        case .failed, .closed: return true
        case .connected: return receiver.wentSilent(peer)
        default: return answeredAt.map { ContinuousClock.now - $0 >= WebRTCViewers.connectTimeout } ?? false
        }
    }
}
