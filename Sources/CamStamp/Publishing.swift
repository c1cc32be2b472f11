import Foundation
internal import Media
import Synchronization

// `stream` with more than one file or RTP address: RTMP, SRT, HLS, the RTSP server, several
// `--to` at once, sound. One encode feeds every target through a `tee`; each network target is
// a pipeline of its own fed from an appsink, so a server that goes away fails only that target,
// which is retried with backoff while the recording goes on.

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
