import Dispatch
import Foundation
internal import Media
import Presets
import Synchronization

/// `camstamp stream`: a live, watermarked feed to an MP4 or MKV file or over RTP; to RTMP, SRT,
/// HLS and camstamp's own RTSP server, several at once from one encode (Publishing.swift).
///
/// One pipeline (`LiveStream`): the capture, then the marks, blended in place as each frame passes
/// (a pad probe, the clip's), then the encoder and the outputs. The camera never waits for the
/// encoder: when it falls behind, frames are dropped before it (and counted), so latency and
/// memory stay bounded. No frame crosses into a Swift thread: one copied on SIGUSR1 for a
/// snapshot, and the encoded data of network targets (their taps), are all Swift owns.
public struct StreamJob {
    /// What to capture, what to stamp, and where the video goes.
    public let options: StreamOptions
    /// Where the shipped presets, fonts and pipelines are; nil when they were not found.
    public let resources: Resources?

    /// A stream of `options`, using the shipped files in `resources`.
    public init(options: StreamOptions, resources: Resources? = Resources.locate()) {
        self.options = options
        self.resources = resources
    }

    /// What a finished stream did.
    public struct Summary: Sendable, Equatable {
        /// Frames encoded and written.
        public var framesWritten: Int
        /// Frames dropped because the encoder could not keep up.
        public var framesDropped: Int
        /// Seconds of video written.
        public var duration: Double
        /// The snapshots written on SIGUSR1.
        public var snapshots: [URL]
        /// Network targets that were without a connection for a while (retried meanwhile).
        public var outages: [Outage] = []
    }

    /// Frames queued in front of the encoder before new ones are dropped. Few: a queued frame is
    /// a buffer the capture's pool allocated and keeps for the rest of the run (at 1080p, 8 held
    /// 24 MB from the encoder's slow start on); x264 (zerolatency) takes a frame in ~15 ms, so 3
    /// still ride out a 100 ms stall.
    static let outputQueue = 3
    /// How long a camera may take to deliver its first frame before `--duration` counts anyway.
    static let startupAllowance: Duration = .seconds(10)
    /// How long the encoder and muxer get to finish the file once the stream has stopped.
    static let finishGrace: Duration = .seconds(10)

    /// Captures, stamps and writes until `duration`, or until `interrupts` asks it to stop (the file
    /// is finalised either way). On `report`: the SDP and each snapshot's path as results,
    /// warnings, the progress line.
    public func run(interrupts: Interrupts? = nil, report: JobOutput = .silent) throws(CamStampError) -> Summary {
        let recordings = Recordings(options: options)
        // However the run ends, each recording is settled: under its name if a frame of it is on
        // disk, gone if not.
        let session: Session
        do { session = try setUp(recordings: recordings, interrupts: interrupts, report: report) } catch {
            // What failed is said; a target that appeared meanwhile is not news.
            try? recordings.settle(stream: nil)
            throw error
        }
        defer { session.stream.abort() }
        defer { session.progress.finish() }
        do {
            let ending = try loop(session, interrupts: interrupts, report: report)
            return try finish(session, ending)
        } catch {
            session.abort()
            try? recordings.settle(stream: session.stream)
            throw error
        }
    }

    /// What `setUp` starts: the one pipeline, what is around it, and what marks and counts the frames.
    private struct Session {
        let capture: Camera.Plan
        let stream: LiveStream
        let recordings: Recordings
        /// The output part: what it launched, and each target's elements.
        let output: StreamOutput
        /// The relays and the RTSP server of a composed output; nil for one file or RTP address.
        let publishing: Publishing?
        /// The RTP host, resolved.
        let address: String?
        let marker: Marker
        let counts = Counts()
        let snapshotWriter: SnapshotWriter?
        let progress: ProgressLine
        /// The clip's sound copied into one MP4 recording, its edit list to put back (`soundEdit`).
        let soundEdit: RecordedSoundEdit?
        let started = ContinuousClock.now

        /// Stops everything at once, unfinished (the output is broken).
        func abort() {
            publishing?.abort()
            stream.abort()
        }
    }

    /// The frames' counts and clocks: written by the marks (on the capture's streaming thread),
    /// read by the job's thread.
    private final class Counts: @unchecked Sendable {
        struct State {
            /// Frames marked (and so encoded); taken for the encoder; left out because it was behind.
            var written = 0, taken = 0, dropped = 0
            /// The numbers (`{frame}`) of the frames taken and not marked yet, in order.
            var numbers: [Int] = []
            /// The first frame's capture time (nanoseconds): the stream's zero.
            var firstTime: UInt64?
            /// The end of the last frame written, and one frame's length (from the caps' rate).
            var lastTime: UInt64 = 0, frameDuration: UInt64 = 33_333_333
            var firstFrameAt: ContinuousClock.Instant?
            /// `--duration` is reached: later frames are left out.
            var ended = false
        }
        private let lock = NSLock()
        private var state = State()

        func withLock<R>(_ body: (inout State) -> R) -> R { lock.withLock { body(&state) } }
    }

    /// How the loop ended, when not by the end of the stream itself.
    private struct Ending {
        var interrupted = false
        /// A failure of the camera or of the marks: what was recorded so far is still finalised;
        /// only a broken output is abandoned (thrown at once).
        var failure: CamStampError?
        /// The pipeline ended by itself (a file source played to its end, everything written).
        var finished = false
        /// The target that could not be written (`failure` names it); the others are finalised.
        var lostTarget: StreamTarget?
        /// Targets that could not be written and were let go while the others went on, with
        /// what failed (the stream's failure once it has ended, `lostFailure`).
        var letGo: [(target: StreamTarget, error: Error)] = []
    }

    /// Checks what can be checked before the camera starts, then builds the one pipeline and
    /// starts it.
    private func setUp(recordings: Recordings, interrupts: Interrupts?, report: JobOutput) throws(CamStampError) -> Session {
        try Self.refuseSharedFiles(options)
        let (preset, variables) = try MarkSetup.preset(names: options.presets, text: options.text,
                                                       variables: options.variables, resources: resources)
        // Snapshots asked for must be possible: a template that does not load is said now, not
        // found out by a SIGUSR1 that writes nothing.
        var snapshotWriter: SnapshotWriter?
        if let folder = options.snapshotFolder {
            try StillDestination.prepareFolder(folder, option: "--snapshot-dir", create: true)
            snapshotWriter = SnapshotWriter(folder: folder, template: try Templates.load(nil, builtIn: "still-jpeg", resources: resources),
                                            report: report)
        }
        // The recordings and the SDP file follow one rule: an existing file stays unless --overwrite.
        let outputFiles = options.targets.compactMap { target -> URL? in if case .file(let url, _) = target { url } else { nil } }
            + (options.sdp.map { [$0] } ?? [])
        // A file source is never written over, --overwrite or not (batch refuses it likewise).
        if case .file(let source) = options.source, let url = outputFiles.first(where: { OutputPath.resolved($0) == OutputPath.resolved(source) }) {
            throw .usage("\(url.path) would replace the --source file; choose another name for the recording")
        }
        for url in outputFiles where !options.overwrite && FileManager.default.fileExists(atPath: url.path) {
            throw StillDestination.exists(url)
        }
        // An unwritable folder is said now, in shoot's words, not by the muxer once the camera runs.
        if case .file(let url, _) = options.target {
            try StillDestination.prepareFolder(url.deletingLastPathComponent(), option: "--to", create: false)
        }
        recordings.begin()
        // A host that cannot be sent to is refused now, not discovered by a receiver that hears nothing.
        var address: String?
        if case .rtp(let host, let port) = rtpTarget { address = try RTPAddress.resolve(host: host, port: port) }
        let capture = try Camera.Plan(spec: options.source, size: options.size, fps: options.fps, pipeline: options.pipeline,
                                      resources: resources)
        let output = try StreamOutput.plan(options: options, rtpAddress: address, recordings: recordings.locations,
                                           resources: resources) { () throws(CamStampError) -> String? in
            if options.isComposed {
                return try AudioInput.launch(options.audioChoice, source: options.source, note: { report.warning($0) })
            }
            return try copiedAudio(report: report)
        }
        Verbosity.log("output pipeline: \(output.launch)")
        let stream: LiveStream
        do { stream = try LiveStream(capture: capture.description, output: output.launch, backlog: Self.outputQueue) } catch {
            // What is wrong with the capture template names the capture; anything else the target.
            switch error {
            case .parse(_, let text) where text == capture.description: throw capture.failure(error)
            case .missingNamedElement("frames", _), .invalidTemplate: throw capture.failure(error)
            default: throw .failure("\(options.targetDescription): \(error)")
            }
        }
        // Several targets: one whose disk fills is let go while the others go on.
        if options.isComposed && options.targets.count > 1 {
            stream.letFailAlone(output.branches.filter { !$0.heads.isEmpty }.map { LiveStream.Branch(parts: $0.parts, heads: $0.heads) })
        }
        // A clip played as the camera keeps its colours: GStreamer alone makes a phone's full range limited.
        if case .file(let clip) = capture.source { stream.pipeline.keepColours(ofClip: clip) }
        let publishing: Publishing?
        do { publishing = options.isComposed ? try Publishing(output: output, pipeline: stream.pipeline, options: options) : nil } catch {
            stream.abort()
            throw error
        }
        let session = Session(capture: capture, stream: stream, recordings: recordings, output: output, publishing: publishing,
                              address: address,
                              marker: Marker(preset: preset, variables: variables), snapshotWriter: snapshotWriter,
                              progress: report.progress, soundEdit: soundEdit(on: stream.pipeline))
        do {
            try stream.start(admit: admission(session), mark: marking(session, interrupts: interrupts),
                             accepts: { [counts = session.counts, marker = session.marker] width, height, fps in
                                 if let fps, fps > 0 { counts.withLock { $0.frameDuration = UInt64(1e9 / fps) } }
                                 if let refusal = acceptsFrames(width: width, height: height) { return refusal }
                                 // The marks are rendered now, before the first frame waits for the
                                 // encoder: rendered by it, the first frame kept the encoder from the
                                 // next ones long enough to drop a few. Only for the first format: no
                                 // frame is being marked yet (the Marker is not shared across threads).
                                 guard counts.withLock({ $0.firstTime == nil }) else { return nil }
                                 do {
                                     _ = try marker.composition(width: width, height: height,
                                                                context: marker.context(width: width, height: height, frame: 0, fps: fps))
                                 } catch { return error }
                                 return nil
                             },
                             ending: { [counts = session.counts, soundEdit = session.soundEdit] in
                                 // The clip's sound runs `late` with its edit opened: its packets up to the video's end
                                 // come that much after it (none without a video: no recording of sound before its edit).
                                 let end = counts.withLock { $0.lastTime }
                                 stream.pipeline.endFileAudio(at: end > 0 ? end + (soundEdit?.late ?? 0) : 0)
                             })
        } catch {
            session.abort()
            throw failure(error, session)
        }
        // After the start: a tap whose appsink is not playing yet says it has ended.
        publishing?.start()
        Verbosity.log("stream elements: \(stream.pipeline.elementSummary().joined(separator: " "))")
        return session
    }

    /// Two targets that are one file (`d.mp4` and `./d.mp4`, a link to it, an `--sdp` file that is a
    /// recording) would write over each other: refused before anything is written.
    private static func refuseSharedFiles(_ options: StreamOptions) throws(CamStampError) {
        var claimed: [String: String] = [:]
        let written = options.targets.compactMap { target -> (option: String, text: String, url: URL)? in
            switch target {
            case .file(let url, _): ("--to", target.description, url)
            case .hls(let folder): ("--to", target.description, folder)
            default: nil
            }
        } + (options.sdp.map { [("--sdp", $0.path, $0)] } ?? [])
        for (option, text, url) in written {
            let resolved = OutputPath.resolved(url)
            guard let other = claimed[resolved] else {
                claimed[resolved] = text
                continue
            }
            if other == text { throw .usage("\(option) \(text) is given twice; give each target once") }
            throw .usage("\(option) \(text): \(other) is the same file (\(resolved)); give each target once")
        }
    }

    /// Which frames go to the encoder (on the capture's thread): none past `--duration`, and none
    /// while it is behind (counted as dropped). Each frame taken gets its number among all the
    /// frames seen, for `{frame}`.
    private func admission(_ session: Session) -> LiveStream.Admit {
        let limit = options.duration.map { UInt64($0 * 1e9) }
        let counts = session.counts
        return { pts, encoderIsBehind in
            counts.withLock { state in
                state.firstFrameAt = state.firstFrameAt ?? ContinuousClock.now
                let capturedAt = pts ?? 0
                let start = state.firstTime ?? capturedAt
                state.firstTime = start
                let time = capturedAt - min(start, capturedAt)
                if state.ended { return false }
                if let limit, time >= limit {
                    state.ended = true
                    return false
                }
                if encoderIsBehind {
                    state.dropped += 1
                    return false
                }
                state.numbers.append(state.taken + state.dropped)
                state.taken += 1
                // What is taken is encoded (the queue never drops), so the end of the video is
                // known here, before the frame waits for the encoder: `ending` cuts a file's
                // sound there.
                state.lastTime = time + state.frameDuration
                return true
            }
        }
    }

    /// What the marks do with each frame taken (on the encoder's thread): mark it, copy it for a
    /// snapshot asked for, count it written.
    private func marking(_ session: Session, interrupts: Interrupts?) -> LiveStream.Mark {
        let counts = session.counts, marker = session.marker, snapshots = session.snapshotWriter
        return { frame, _, _ in
            let number = counts.withLock { state in state.numbers.isEmpty ? state.written : state.numbers.removeFirst() }
            let context = marker.context(width: frame.width, height: frame.height, captureDate: Date(), frame: number,
                                         fps: frame.framesPerSecond)
            do { try marker.mark(frame, context: context) } catch { return .fail(error) }
            if interrupts?.takeSnapshotRequest() == true, let snapshots { snapshots.write(frame.copy()) }
            counts.withLock { $0.written += 1 }
            return .pass
        }
    }

    /// Without --size the source picks the size (a video file's own): x264 would refuse an odd
    /// one with "Can not initialize x264 encoder". Asked of every format the capture settles on.
    private func acceptsFrames(width: Int, height: Int) -> Error? {
        guard options.size == nil else { return nil }
        let size = FrameSize(width: width, height: height)
        do { try H264Limits.check(size: size, subject: "the source's \(size) frames", mp4: options.recordsMP4) } catch {
            return CamStampError.failure("capture: \(error.message); ask for that with --size")
        }
        return nil
    }

    /// Watches the stream until its end, `--duration`, an interrupt or a failure, printing the SDP
    /// and the progress line. A broken output is thrown at once (abandoned); any other failure
    /// ends the loop in `Ending.failure`, so what was recorded is still finalised.
    private func loop(_ session: Session, interrupts: Interrupts?, report: JobOutput) throws(CamStampError) -> Ending {
        var ending = Ending()
        // --duration is also a hard stop in wall time: a source slower than real time (or frames
        // too large to make in time) would otherwise stretch a 10-second stream to minutes.
        let wallLimit = options.duration.map { Duration.nanoseconds(Int64($0 * 1e9)) }
        var sdpPrinted = false
        while true {
            if interrupts?.isRequested == true {
                ending.interrupted = true
                return ending
            }
            let state = session.counts.withLock { $0 }
            if state.ended { return ending }
            if let wallLimit {
                let now = ContinuousClock.now
                if let firstFrameAt = state.firstFrameAt, now - firstFrameAt >= wallLimit { return ending }
                if state.firstFrameAt == nil, now - session.started >= wallLimit + Self.startupAllowance {
                    ending.failure = .failure("capture: no frame from the source within \(Self.startupAllowance)")
                    return ending
                }
            }
            if let failure = session.stream.failure {
                ending.failure = markFailure(failure)
                return ending
            }
            switch session.stream.poll(timeout: .milliseconds(100)) {
            case .endOfStream?:
                ending.finished = true
                return ending
            case .error(let error)?:
                // A frame refused by the marks explains what the encoder said of it.
                if let failure = session.stream.failure {
                    ending.failure = markFailure(failure)
                    return ending
                }
                if session.stream.isCapture(error) {
                    ending.failure = session.capture.failure(error)
                    return ending
                }
                // One target of several that cannot be written (a full disk) is let go (its
                // branch drops what comes, `letFailAlone`) and the others go on, until every one
                // is gone.
                if options.targets.count > 1, let target = failedTarget(error, session.output),
                   session.stream.hasLetGo(branchWith: session.output.sink(of: target)) {
                    if !ending.letGo.contains(where: { $0.target == target }) { ending.letGo.append((target, error)) }
                    if ending.letGo.count < options.targets.count { continue }
                }
                // Otherwise its error went up through the tee and stopped the encode for every
                // target, and the end follows the error down to the others: they are
                // finalised, and it alone is named.
                if options.targets.count > 1, let target = failedTarget(error, session.output) ?? ending.letGo.first?.target {
                    ending.failure = lostFailure(ending.letGo, session.output) ?? outputFailure(error, session.output)
                    ending.lostTarget = target
                    return ending
                }
                throw outputFailure(error, session.output)
            case nil:
                break
            }
            // A recording takes its name once a frame of it is on disk: a hard kill from then on
            // leaves a playable file there, one before leaves no frameless file in its place.
            try session.recordings.placeThoseWithAFrame(stream: session.stream)
            if !sdpPrinted, rtpTarget != nil, let sdp = sessionDescription(session) {
                sdpPrinted = true
                do { try publish(sdp: sdp, report: report) } catch {
                    ending.failure = error
                    return ending
                }
            }
            // fps as achieved (frames written over wall time), as ffmpeg reports it.
            let elapsed = (ContinuousClock.now - session.started) / .seconds(1)
            let achieved = elapsed > 0.5 ? Double(state.written) / elapsed : 1e9 / Double(state.frameDuration)
            session.progress.update("frame=\(state.written) fps=\(String(format: "%.1f", achieved)) dropped=\(state.dropped) time=\(clockText(seconds: Double(state.lastTime) / 1e9, fraction: true))")
        }
    }

    /// A failure of the marks (or of a format they refused), as the job says it.
    private func markFailure(_ error: Error) -> CamStampError {
        error as? CamStampError ?? .failure("mark: \(error)")
    }

    /// A failure of the pipeline, worded for the side it came from.
    private func failure(_ error: MediaError, _ session: Session) -> CamStampError {
        session.stream.isCapture(error) ? session.capture.failure(error) : outputFailure(error, session.output)
    }

    /// Ends the stream: EOS through the encoder and muxers (MP4 gets its index, MKV its cues), the
    /// snapshots written, then the summary, or the failure that ended the loop.
    private func finish(_ session: Session, _ ending: Ending) throws(CamStampError) -> Summary {
        session.progress.finish()
        if !ending.finished {
            // Idle taps first: a sound that ends before its encoder made anything leaves the
            // muxers' sound pads without caps, and its end must not reach an idle tap's muxer.
            session.publishing?.endIdleTaps()
            session.publishing?.endSound()
            // What the lost target set off (its muxer's and the queues' "Internal data stream
            // error") is passed over; another target failing is not.
            if let lost = ending.lostTarget {
                session.stream.endBranches(of: StreamOutput.videoTee, afterLosing: session.output.sink(of: lost))
            }
            // The targets let go get no end from upstream: their sinks are ended by hand.
            for lost in ending.letGo where lost.target != ending.lostTarget {
                // A file's sink ends (its muxer's error left it as it was); hlssink2 takes no end
                // after a write error, and is taken out.
                let sink = session.output.sink(of: lost.target)
                if case .hls = lost.target { session.stream.removeSink(named: sink) } else { session.stream.endSink(named: sink) }
            }
            let passingOver = { [self] (error: MediaError) in
                let target = failedTarget(error, session.output)
                if let target, ending.letGo.contains(where: { $0.target == target }) { return true }
                return ending.lostTarget != nil && (target.map { $0 == ending.lostTarget } ?? true)
            }
            do { try session.stream.finish(timeout: Self.finishGrace, passingOver: passingOver) } catch {
                throw ending.failure ?? lostFailure(ending.letGo, session.output) ?? outputFailure(error, session.output)
            }
        }
        session.publishing?.finish()
        session.snapshotWriter?.waitUntilDone()
        let state = session.counts.withLock { $0 }
        if let failure = ending.failure { throw failure }
        // A file finalised after its frames takes its name now (one that never got a frame, as
        // on a Ctrl-C before the first, is removed).
        try session.recordings.settle(stream: session.stream, finishedWithFrames: state.written > 0)
        if state.written > 0 { try keepSoundEdit(session.soundEdit) }
        let summary = Summary(framesWritten: state.written, framesDropped: state.dropped, duration: Double(state.lastTime) / 1e9,
                              snapshots: session.snapshotWriter?.written ?? [], outages: session.publishing?.outages ?? [])
        // The others are recorded and placed; the target let go is the news (exit 1).
        if let lost = lostFailure(ending.letGo, session.output) { throw lost }
        if ending.interrupted { throw .init(.interrupted, summaryLine(summary)) }
        if let unreached = nothingDelivered(summary) { throw .failure(unreached) }
        return summary
    }

    /// When every target is a server camstamp calls (RTMP, an SRT caller) and none ever answered,
    /// the stream reached nobody: that is a failure (exit 1), said as one, not a summary line.
    private func nothingDelivered(_ summary: Summary) -> String? {
        let called = options.targets.allSatisfy { target in
            switch target {
            case .rtmp, .srt(_, _, listener: false): true
            default: false
            }
        }
        let unreached = summary.outages.filter { !$0.everConnected }
        guard called, unreached.count == options.targets.count else { return nil }
        let seconds = unreached.map(\.seconds).max() ?? 0
        return "\(unreached.map(\.target).joined(separator: ", ")): never connected in \(String(format: "%.1f", seconds)) s "
            + "(\(summary.framesWritten) frames encoded, none delivered); check that the server is running and the address is right"
    }

    /// A failure of the output, worded for a file that cannot be written (a full disk, a folder
    /// made read-only meanwhile); anything else as GStreamer said it.
    private func outputFailure(_ error: Error, _ output: StreamOutput) -> CamStampError {
        // A sound source that cannot be opened is the --audio value's fault, said in its words.
        if case .device(let device)? = options.audio, let media = error as? MediaError, let reason = media.reason(ofElement: StreamOutput.soundSource) {
            return .failure("--audio \(device): the sound source cannot be opened: \(reason) "
                + "(PulseAudio sources: `pactl list short sources`; ALSA devices: `arecord -L`)")
        }
        let target = failedTarget(error, output) ?? (options.targets.count == 1 ? options.target : nil)
        switch target {
        case .file?:
            if let unwritable = CamStampError.unwritable(error, path: target!.description, what: "the recording", option: "--to") { return unwritable }
        case .hls?:
            if let unwritable = CamStampError.unwritable(error, path: target!.description, what: "the segments", option: "--to") { return unwritable }
        default:
            break
        }
        return .failure("\(target?.description ?? options.targetDescription): \(error)")
    }

    /// The targets let go, said in one line: `x.mp4: cannot write the recording (the disk is
    /// full); …`, or for several `x.mp4, y.mkv: …` as the first said it; nil for none.
    private func lostFailure(_ letGo: [(target: StreamTarget, error: Error)], _ output: StreamOutput) -> CamStampError? {
        guard let first = letGo.first else { return nil }
        var failure = outputFailure(first.error, output)
        let named = first.target.description + ": "
        if letGo.count > 1, failure.message.hasPrefix(named) {
            failure.message = letGo.map(\.target.description).joined(separator: ", ") + ": " + failure.message.dropFirst(named.count)
        }
        return failure
    }

    /// The target whose branch of `output` `error` came from, when it has one.
    private func failedTarget(_ error: Error, _ output: StreamOutput) -> StreamTarget? {
        guard let error = error as? MediaError else { return nil }
        // An element taken out of the pipeline (`removeSink`) has no parents left in its path.
        return output.branches.first { branch in branch.parts.contains { error.isInside(part: $0) || error.reason(ofElement: $0) != nil } }?
            .target
    }

    /// `out.mp4: 90 frames, 0 dropped, 00:00:03.00`; a network target that was down says for how
    /// long: `; rtmp://h/live/key down 4.2 s, reconnected 1 time`.
    public func summaryLine(_ summary: Summary) -> String {
        var line = "\(options.targetDescription): \(summary.framesWritten) frames written, \(summary.framesDropped) dropped, \(clockText(seconds: summary.duration, fraction: true))"
        for outage in summary.outages {
            line += "; \(outage.target) down \(String(format: "%.1f", outage.seconds)) s, "
                + (outage.everConnected ? "reconnected \(outage.reconnections) time\(outage.reconnections == 1 ? "" : "s")" : "never connected")
        }
        return line
    }

    /// The first RTP target, whose SDP is printed.
    private var rtpTarget: StreamTarget? {
        options.targets.first { if case .rtp = $0 { true } else { false } }
    }

    /// The SDP a receiver needs, once the first RTP target's payloader has settled its caps.
    private func sessionDescription(_ session: Session) -> String? {
        guard let branch = session.output.branches.first(where: { if case .rtp = $0.target { true } else { false } }),
              case .rtp(let host, let port) = branch.target, let name = branch.payloader,
              let payloader = try? session.stream.pipeline.element(named: name),
              let caps = payloader.currentCaps(pad: "src") else { return nil }
        return SessionDescription(host: session.address ?? host, port: port, capsFields: caps.fields).text
    }

    private func publish(sdp: String, report: JobOutput) throws(CamStampError) {
        report.result(sdp)
        guard let file = options.sdp else { return }
        do { try sdp.write(to: file, atomically: true, encoding: .utf8) } catch {
            throw .failure("--sdp \(file.path): \(error.localizedDescription)")
        }
    }
}
