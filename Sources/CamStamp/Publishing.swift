// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import Media
import Synchronization

// `stream` with more than one file or RTP address: RTMP, SRT, HLS, the RTSP server, several
// `--to` at once, sound. One encode feeds every target through a `tee`; each network target is
// a pipeline of its own fed from an appsink, so a server that goes away fails only that target,
// which is retried with backoff while the recording goes on.

/// The targets beside the encode: each network target's relay and the RTSP server, fed from the
/// taps of the stream's one pipeline (built with a composed `StreamOutput` as its output part).
final class Publishing: @unchecked Sendable {
    private let relays: [Relay]
    private let server: RTSPServer?
    private let serverTaps: [(tap: SampleTap, feed: String, isVideo: Bool)]
    private let pipeline: Pipeline
    private var threads: [Thread] = []
    private let stopRequested = Atomic(false)

    /// The relays and the RTSP server of `output`, fed from the taps of `pipeline` (the stream's
    /// one pipeline, built with `output.launch` as its output part).
    /// `report` says why a connection could not be made (a WHIP endpoint's refusal).
    init(
        output: StreamOutput, pipeline: Pipeline, options: StreamOptions,
        report: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(CamStampError) {
        self.pipeline = pipeline
        func fail(_ error: MediaError) -> CamStampError { .failure("\(options.targetDescription): \(error)") }
        var relays: [Relay] = []
        for branch in output.branches {
            guard let tap = branch.tap else { continue }
            do {
                relays.append(
                    try Relay(
                        target: branch.target, tap: SampleTap(pipeline: pipeline, name: tap),
                        soundTap: branch.soundTap.map { name throws(MediaError) in
                            try SampleTap(pipeline: pipeline, name: name)
                        },
                        whipToken: options.whipToken, report: report))
            } catch {
                throw fail(error)
            }
        }
        self.relays = relays
        if let serve = output.serve {
            let audio = output.hasSound
            var feeds = ["video"], taps: [(SampleTap, String, Bool)] = []
            // SPS/PPS before every keyframe (h264parse), not again by the payloader: a viewer's
            // first picture can be decoded whenever it joins.
            var media =
                "( appsrc name=video is-live=true format=time ! h264parse config-interval=-1 ! "
                + "rtph264pay name=pay0 pt=96 config-interval=0"
            if audio {
                feeds.append("audio")
                media += " appsrc name=audio is-live=true format=time ! aacparse ! rtpmp4gpay name=pay1 pt=97"
            }
            media += " )"
            do {
                taps.append((try SampleTap(pipeline: pipeline, name: StreamOutput.rtspVideoTap), "video", true))
                if audio {
                    taps.append((try SampleTap(pipeline: pipeline, name: StreamOutput.rtspAudioTap), "audio", false))
                }
                let video = taps[0].0
                server = try RTSPServer(
                    address: serve.address, port: serve.port, path: serve.path, launch: media, feeds: feeds,
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
        (try? pipeline.element(named: StreamOutput.soundSource))?.sendEndOfStream()
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
