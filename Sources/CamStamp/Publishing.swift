import Foundation
internal import Media
import Synchronization

// `stream` with more than one file or RTP address: RTMP, SRT, HLS, the RTSP server, several
// `--to` at once, sound. One encode feeds every target through a `tee`; each network target is
// a pipeline of its own fed from an appsink, so a server that goes away fails only that target,
// which is retried with backoff while the recording goes on.

/// A network target's time without a connection, for the summary.
public struct Outage: Sendable, Equatable {
    /// The target as the user wrote it.
    public var target: String
    /// Seconds without a connection (from the failure, or the start, to the reconnection or the end).
    public var seconds: Double
    /// How many times a lost connection came back.
    public var reconnections: Int
    /// False when no connection ever held (a wrong address, a server that never came).
    public var everConnected = true
}

extension StreamOptions {
    /// Every `--to` and `--serve`, in command-line order.
    public var targets: [StreamTarget] { [target] + moreTargets }

    /// Whether a target is an MP4 file, which needs frames of at least 16x16.
    public var recordsMP4: Bool {
        targets.contains { if case .file(_, .mp4) = $0 { true } else { false } }
    }

    /// Whether the stream needs the composed output: anything beyond one file or RTP address
    /// without sound, which keep their own templates (and exactly what they wrote before). A
    /// clip's own sound into one file is copied there by the file's template (`fileAudio`).
    var isComposed: Bool {
        guard moreTargets.isEmpty else { return true }
        switch (audio, source) {
        case (nil, _), (AudioChoice.none?, _), (.auto?, .file): break
        default: return true
        }
        switch target {
        case .file, .rtp: return false
        default: return true
        }
    }

    /// `--audio`, or its default: a clip's own sound for `--source file:`, and sound when a target
    /// publishes to other people; none otherwise.
    var audioChoice: AudioChoice {
        if let audio { return audio }
        if case .file = source { return .auto }
        return publishes ? .auto : .none
    }

    /// Whether some target publishes to other people (where sound is expected by default).
    var publishes: Bool {
        targets.contains { if case .file = $0 { false } else if case .rtp = $0 { false } else { true } }
    }
}

extension StreamTarget {
    /// The target as the user wrote it, for messages.
    var description: String {
        switch self {
        case .file(let url, _): url.path
        case .rtp(let host, let port): "rtp://\(host.contains(":") ? "[\(host)]" : host):\(port)"
        case .rtmp(let url): url
        case .srt(let host, let port, let listener):
            listener ? "srt://\(host ?? ""):\(port)?mode=listener" : "srt://\(host.map { $0.contains(":") ? "[\($0)]" : $0 } ?? ""):\(port)"
        case .hls(let folder): "hls:\(folder.path)"
        case .serve(let serve): serve.description
        }
    }
}

/// The sound of a stream, as a GStreamer source.
enum AudioInput {
    /// The source element's launch text for `choice` with `source`, or nil for a silent stream.
    static func launch(_ choice: AudioChoice, source: SourceSpec, note: (String) -> Void) throws(CamStampError) -> String? {
        switch choice {
        case .none:
            return nil
        case .device(let device):
            // ALSA names look like hw:1,0, plughw:…, default; anything else is a PulseAudio source.
            let alsa = device == "default" || device.hasPrefix("hw:") || device.hasPrefix("plughw:")
            let element = alsa ? "alsasrc" : "pulsesrc"
            guard GStreamer.hasElement(element) else {
                throw .failure("--audio \(device): GStreamer's \(element) is not installed (Debian: \(alsa ? "gstreamer1.0-alsa" : "gstreamer1.0-plugins-good"))")
            }
            return "\(element) device=\(PipelineTemplate.quote(device))"
        case .auto:
            switch source {
            case .test:
                // The test camera's sound: a quiet 440 Hz tone, live like the pictures.
                return "audiotestsrc is-live=true wave=sine freq=440 volume=0.2"
            case .file(let clip):
                // The clip's own sound, decoded to be encoded as each target needs it.
                do { return try ClipStreams.probe(clip).decodedAudio(from: clip) } catch {
                    throw Camera.captureError(error, source: .file(clip))
                }
            case .auto, .v4l2, .named:
                let microphones: Int
                do { microphones = try Devices.microphones() } catch { microphones = 0 }
                for element in ["pulsesrc", "alsasrc"] where microphones > 0 && GStreamer.hasElement(element) {
                    return element
                }
                note("no microphone found: the stream has no sound (--audio none says so quietly)")
                return nil
            }
        }
    }
}

/// The composed output of a stream: the output part of the stream's one pipeline (the encode, the
/// tee, a branch per target) plus the pipelines, threads and server around it.
final class Publishing: @unchecked Sendable {
    private let relays: [Relay]
    private let server: RTSPServer?
    private let serverTaps: [(tap: SampleTap, feed: String, isVideo: Bool)]
    private let pipeline: Pipeline
    private var threads: [Thread] = []
    private let stopRequested = Atomic(false)

    /// What the output part is made of, before the pipeline exists.
    struct Plan {
        /// Launch text of the output part: from `identity name=mark` to every target's sink.
        let launch: String
        fileprivate let relays: [(name: String, target: StreamTarget)]
        fileprivate let serve: RTSPServe?
        fileprivate let hasSound: Bool
    }

    /// The output part for `options`' targets; `audio` is the sound source's launch text;
    /// `recordings` where each file target is written until it has a frame (`Recordings`).
    static func plan(options: StreamOptions, rtpAddress: String?, audio: String?, recordings: [URL: URL] = [:]) throws(CamStampError) -> Plan {
        let fps = options.fps ?? 30

        var needsAAC = false, needsOpus = false
        var branches: [String] = []
        var relayPlans: [(name: String, target: StreamTarget)] = []
        var serve: RTSPServe?
        // A branch for a file takes every frame; one for the network never holds the others up.
        // A file's or HLS's elements are named by the target's index (queues inN and inNa, muxer
        // muxN, sink fileN): a failure is told apart by them (StreamJob.branches).
        let fileQueue = "queue max-size-buffers=0 max-size-bytes=0 max-size-time=3000000000"
        let leakyQueue = "queue leaky=downstream max-size-buffers=0 max-size-bytes=0 max-size-time=2000000000"
        for (index, target) in options.targets.enumerated() {
            let mux = "mux\(index)"
            switch target {
            case .file(let url, let container):
                let muxer = container == .mp4 ? "mp4mux name=\(mux) fragment-duration=1000" : "matroskamux name=\(mux)"
                branches.append("video. ! \(fileQueue) name=in\(index) ! h264parse ! \(muxer) ! filesink name=file\(index) buffer-mode=unbuffered location=\(PipelineTemplate.quote((recordings[url] ?? url).path))")
                if audio != nil {
                    if container == .mp4 { needsAAC = true } else { needsOpus = true }
                    branches.append("\(container == .mp4 ? "aac" : "opus"). ! \(fileQueue) name=in\(index)a ! \(mux).")
                }
            case .rtp(let host, let port):
                let name = options.targets.firstIndex(where: { if case .rtp = $0 { true } else { false } }) == index ? "pay" : "pay\(index)"
                branches.append("video. ! \(leakyQueue) ! rtph264pay name=\(name) config-interval=0 pt=96 ! udpsink host=\(PipelineTemplate.quote(rtpAddress ?? host)) port=\(port) sync=false async=false")
            case .rtmp:
                // flvmux waits up to 200 ms for each stream (its latency): a picture comes out of
                // the encoder after sound captured later, and taken after it, got that sound's time
                // (FLV's times only go forward), so RTMP viewers saw frames 22 to 43 ms apart.
                branches.append("video. ! \(leakyQueue) ! h264parse ! flvmux name=\(mux) streamable=true latency=200000000 ! appsink name=relay\(index)")
                if audio != nil {
                    needsAAC = true
                    branches.append("aac. ! \(leakyQueue) ! \(mux).")
                }
                relayPlans.append(("relay\(index)", target))
            case .srt:
                branches.append("video. ! \(leakyQueue) ! h264parse ! mpegtsmux name=\(mux) alignment=7 ! appsink name=relay\(index)")
                if audio != nil {
                    needsAAC = true
                    branches.append("aac. ! \(leakyQueue) ! \(mux).")
                }
                relayPlans.append(("relay\(index)", target))
            case .hls(let folder):
                do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false) } catch {
                    if !FileManager.default.fileExists(atPath: folder.path) {
                        throw .failure("--to hls:\(folder.path): cannot create the folder: \(error.localizedDescription)")
                    }
                }
                // Segments of 2 s (a keyframe each second); the playlist keeps the last 6, the
                // folder the last 12, so a long stream does not fill the disk.
                let segments = PipelineTemplate.quote(folder.appendingPathComponent("segment%05d.ts").path)
                let playlist = PipelineTemplate.quote(folder.appendingPathComponent("index.m3u8").path)
                branches.append("video. ! \(fileQueue) name=in\(index) ! h264parse ! hlssink2 name=\(mux) target-duration=2 playlist-length=6 max-files=12 location=\(segments) playlist-location=\(playlist)")
                if audio != nil {
                    needsAAC = true
                    branches.append("aac. ! \(fileQueue) name=in\(index)a ! \(mux).audio")
                }
            case .serve(let address):
                guard serve == nil else { throw .usage("--serve: one RTSP server per stream") }
                serve = address
                branches.append("video. ! \(leakyQueue) ! appsink name=rtspvideo")
                if audio != nil {
                    needsAAC = true
                    branches.append("aac. ! \(leakyQueue) ! appsink name=rtspaudio")
                }
            }
        }
        // One video encode; the tee hands the same H.264 (SPS/PPS with every keyframe, so any
        // branch can start anywhere) to every target. The frames come in at "pace" as in the
        // stream-*.pipeline templates (see there).
        var launch = "identity name=pace sync=true signal-handoffs=false ! queue name=mark ! videoconvert ! video/x-raw,format=I420 ! x264enc name=encoder speed-preset=veryfast tune=zerolatency bitrate=\(options.bitrate) key-int-max=\(max(fps, 1)) ! h264parse config-interval=-1 ! video/x-h264,stream-format=byte-stream,alignment=au ! tee name=video"
        if let audio {
            // One sound capture, encoded once per codec the containers need (each converts for
            // itself: AAC takes planar floats, Opus interleaved integers).
            launch += " \(audio) name=soundsource ! audioconvert ! audioresample ! audio/x-raw,rate=48000,channels=2 ! tee name=sound"
            if needsAAC { launch += " sound. ! queue ! audioconvert ! avenc_aac bitrate=128000 ! aacparse ! tee name=aac" }
            if needsOpus { launch += " sound. ! queue ! audioconvert ! opusenc bitrate=96000 ! opusparse ! tee name=opus" }
        }
        launch += " " + branches.joined(separator: " ")
        return Plan(launch: launch, relays: relayPlans, serve: serve, hasSound: audio != nil)
    }

    /// The relays and the RTSP server of `plan`, fed from the taps of `pipeline` (the stream's
    /// one pipeline, built with `plan.launch` as its output part).
    init(plan: Plan, pipeline: Pipeline, options: StreamOptions) throws(CamStampError) {
        self.pipeline = pipeline
        func fail(_ error: MediaError) -> CamStampError { .failure("\(options.targetDescription): \(error)") }
        var relays: [Relay] = []
        for relay in plan.relays {
            do { relays.append(try Relay(target: relay.target, tap: SampleTap(pipeline: pipeline, name: relay.name))) } catch { throw fail(error) }
        }
        self.relays = relays
        if let serve = plan.serve {
            let audio = plan.hasSound
            var feeds = ["video"], taps: [(SampleTap, String, Bool)] = []
            var media = "( appsrc name=video is-live=true format=time ! h264parse ! rtph264pay name=pay0 pt=96 config-interval=0"
            if audio {
                feeds.append("audio")
                media += " appsrc name=audio is-live=true format=time ! aacparse ! rtpmp4gpay name=pay1 pt=97"
            }
            media += " )"
            do {
                taps.append((try SampleTap(pipeline: pipeline, name: "rtspvideo"), "video", true))
                if audio { taps.append((try SampleTap(pipeline: pipeline, name: "rtspaudio"), "audio", false)) }
                let video = taps[0].0
                server = try RTSPServer(address: serve.address, port: serve.port, path: serve.path, launch: media, feeds: feeds,
                                        viewerJoins: { video.requestKeyframe() })
            } catch {
                throw .failure("--serve \(serve.description): \(error)")
            }
            serverTaps = taps.map { (tap: $0.0, feed: $0.1, isVideo: $0.2) }
        } else {
            server = nil
            serverTaps = []
        }
    }

    /// Starts the threads that carry the encode to the network (the pipeline is started by its owner).
    func start() {
        for relay in relays {
            let thread = Thread { relay.run() }
            thread.name = "camstamp.relay"
            threads.append(thread)
        }
        if let server {
            for entry in serverTaps {
                let thread = Thread { [self] in
                    while !stopRequested.load(ordering: .relaxed) {
                        switch entry.tap.pull(timeout: .milliseconds(200)) {
                        case .sample(let sample): server.push(sample, to: entry.feed, isVideo: entry.isVideo)
                        case .timeout: continue
                        case .endOfStream: return
                        }
                    }
                }
                thread.name = "camstamp.rtsp-feed"
                threads.append(thread)
            }
        }
        threads.forEach { $0.start() }
    }

    /// The RTSP server's shared medias so far (for tests and the bench: one however many viewers).
    var servedMedias: Int { server?.mediaCount ?? 0 }

    /// Ends the sound: a live sound source never ends by itself, and the muxers wait for every
    /// stream to end. Before the pictures' end goes in.
    func endSound() {
        (try? pipeline.element(named: "soundsource"))?.sendEndOfStream()
    }

    /// Ends the network taps that have carried nothing yet (a server that was never reached, a
    /// stop right after the start) and cuts their muxers off (`SampleTap.endIfNothingCame`):
    /// these would never pass the stream's end on (flvmux) or fail on what still comes
    /// (mpegtsmux). Before the sound's end and the pictures' go in.
    func endIdleTaps() {
        relays.forEach { $0.endIfIdle() }
    }

    /// Once the pipeline has ended (files got their index, HLS its last segment and ENDLIST):
    /// every relay sends what it has and stops, and the server closes.
    func finish() {
        waitForThreads(timeout: .seconds(10))
        stopRequested.store(true, ordering: .relaxed)
        relays.forEach { $0.requestStop() }
        waitForThreads(timeout: .seconds(2))
        server?.stop()
    }

    /// Stops the relays and the server at once (the pipeline is stopped by its owner).
    func abort() {
        stopRequested.store(true, ordering: .relaxed)
        relays.forEach { $0.requestStop() }
        waitForThreads(timeout: .seconds(2))
        server?.stop()
    }

    var outages: [Outage] { relays.compactMap(\.outage) }

    private func waitForThreads(timeout: Duration) {
        let deadline = ContinuousClock.now + timeout
        while threads.contains(where: { !$0.isFinished }) && ContinuousClock.now < deadline { usleep(10_000) }
    }
}

/// One network target: its own pipeline (`appsrc name=feed ! … sink`), fed from the encoding
/// pipeline's appsink, rebuilt with backoff whenever the connection fails.
final class Relay: @unchecked Sendable {
    let target: StreamTarget
    private let tap: SampleTap
    private let launch: String
    private let stopRequested = Atomic(false)
    private let lock = NSLock()
    // Only the relay's thread touches these, except `outage` (under the lock).
    private var pipeline: Pipeline?
    private var feed: SampleFeed?
    private var origin: UInt64?
    private var startedAt: ContinuousClock.Instant?
    private var confirmed = false
    private var downSince: ContinuousClock.Instant?
    private var downTotal: Duration = .zero
    private var reconnections = 0
    private var everUp = false
    private var backoff: Duration = Relay.firstBackoff
    private var nextAttempt = ContinuousClock.now

    /// The first wait after a failure; it doubles up to `longestBackoff`.
    static let firstBackoff: Duration = .milliseconds(500)
    static let longestBackoff: Duration = .seconds(2)
    /// A connection that has carried the stream this long without an error counts as back.
    static let confirmation: Duration = .seconds(1)

    init(target: StreamTarget, tap: SampleTap) throws(MediaError) {
        self.target = target
        self.tap = tap
        // The source leaks the oldest buffers while a connection is being made, so memory stays bounded.
        // The feed's queue and leaking are set by SampleFeed.
        let source = "appsrc name=feed ! queue"
        switch target {
        case .rtmp(let url):
            launch = "\(source) ! rtmp2sink name=out location=\(PipelineTemplate.quote(url)) sync=false"
        case .srt(let host, let port, let listener):
            let address = host.map { $0.contains(":") ? "[\($0)]" : $0 } ?? ""
            let uri = "srt://\(address):\(port)?mode=\(listener ? "listener" : "caller")"
            // A listener streams to whoever is connected and drops data while nobody is.
            launch = "\(source) ! srtsink name=out uri=\(PipelineTemplate.quote(uri)) sync=false wait-for-connection=false"
        default:
            throw .invalidTemplate("\(target.description) is not a network target")
        }
    }

    func requestStop() { stopRequested.store(true, ordering: .relaxed) }

    /// Ends the tap here if nothing came through it yet (see `Publishing.endIdleTaps`).
    func endIfIdle() { tap.endIfNothingCame() }

    /// Time without a connection, if there was any.
    var outage: Outage? {
        lock.withLock {
            var total = downTotal
            if let downSince { total += ContinuousClock.now - downSince }
            guard total > .zero else { return nil }
            return Outage(target: target.description, seconds: Double(total.components.seconds) + Double(total.components.attoseconds) / 1e18,
                          reconnections: reconnections, everConnected: everUp)
        }
    }

    /// Carries samples until the encoding pipeline ends (EOS) or a stop is requested.
    func run() {
        while !stopRequested.load(ordering: .relaxed) {
            switch tap.pull(timeout: .milliseconds(200)) {
            case .endOfStream:
                close(endOfStream: true)
                lock.withLock { if let since = downSince { downTotal += ContinuousClock.now - since; downSince = nil } }
                return
            case .timeout:
                checkHealth()
            case .sample(let sample):
                checkHealth()
                if pipeline == nil {
                    // A new connection starts on a keyframe, or its viewers see grey until the next.
                    guard sample.isKeyframe, ContinuousClock.now >= nextAttempt else { continue }
                    connect()
                    guard pipeline != nil else { continue }
                }
                origin = origin ?? sample.time
                if feed?.push(sample, timeOrigin: origin) == false { dropConnection() }
            }
        }
        close(endOfStream: false)
        lock.withLock { if let since = downSince { downTotal += ContinuousClock.now - since; downSince = nil } }
    }

    private func connect() {
        do {
            let pipeline = try Pipeline(launch)
            feed = try SampleFeed(pipeline: pipeline, name: "feed")
            // Not waited for: a live source never prerolls; a failed connection comes on the bus.
            try pipeline.setState(.playing, wait: false)
            self.pipeline = pipeline
            origin = nil
            let now = ContinuousClock.now
            startedAt = now
            confirmed = false
            // Down until this connection is confirmed (then it is counted from when it was made).
            lock.withLock { if downSince == nil { downSince = now } }
        } catch {
            feed = nil
            pipeline = nil
            lock.withLock { if downSince == nil { downSince = ContinuousClock.now } }
            scheduleRetry()
        }
    }

    /// A bus error ends this connection; one that ran long enough without one counts as back.
    private func checkHealth() {
        guard let pipeline else { return }
        if pipeline.pendingError() != nil {
            dropConnection()
            return
        }
        if !confirmed, let startedAt, ContinuousClock.now - startedAt >= Self.confirmation, carriesTheStream {
            confirmed = true
            backoff = Self.firstBackoff
            lock.withLock {
                if let since = downSince {
                    // Down until the connection that held was made.
                    if startedAt > since { downTotal += startedAt - since }
                    downSince = nil
                    if everUp { reconnections += 1 }
                }
                everUp = true
            }
        }
    }

    /// Whether the connection is carrying the stream, as far as the sink can tell. An SRT caller
    /// retries its handshake inside srtsink for 3 s before it fails, without an error meanwhile:
    /// its statistics count packets sent only once a listener answered. An RTMP server that
    /// takes the connection and never answers the handshake (another service on the port, a
    /// proxy, `rtmps://` to a plain server) holds rtmp2sink without an error until its 5 s
    /// timeout: a server that answered has sent bytes (the handshake's, its window size and
    /// the publish's result). Nothing else fails silently.
    private var carriesTheStream: Bool {
        switch target {
        case .srt(_, _, false):
            guard let out = try? pipeline?.element(named: "out") else { return false }
            return out.structure("stats")?.fields["packets-sent"] != nil
        case .rtmp:
            guard let out = try? pipeline?.element(named: "out") else { return false }
            return (out.structure("stats")?.fields["in-bytes-total"].flatMap { UInt64($0) } ?? 0) > 0
        default:
            return true
        }
    }

    private func dropConnection() {
        pipeline?.stop()
        pipeline = nil
        feed = nil
        lock.withLock {
            if downSince == nil { downSince = confirmed ? ContinuousClock.now : (startedAt ?? ContinuousClock.now) }
        }
        confirmed = false
        scheduleRetry()
    }

    private func scheduleRetry() {
        nextAttempt = ContinuousClock.now + backoff
        backoff = min(backoff * 2, Self.longestBackoff)
    }

    private func close(endOfStream: Bool) {
        guard let pipeline else { return }
        // The end waits for a connection that carries the stream; a caller still knocking would
        // hold the end of the whole stream for as long as its handshake lasts.
        if endOfStream && carriesTheStream {
            feed?.endOfStream()
            _ = pipeline.waitForEndOrError(timeout: .seconds(3))
        }
        pipeline.stop()
        self.pipeline = nil
        feed = nil
    }
}
