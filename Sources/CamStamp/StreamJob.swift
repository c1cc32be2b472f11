// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Dispatch
import Foundation
internal import Media
import Presets
import Synchronization

/// `camstamp stream`: a live, watermarked feed to an MP4 or MKV file or over RTP; to RTMP, SRT,
/// HLS and camstamp's own RTSP server, several at once from one encode (StreamOutput.swift).
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
    /// How long the pictures wait for a microphone's first sound before they go without it.
    static let soundWait: Duration = .seconds(3)
    /// How long the encoder and muxer get to finish the file once the stream has stopped.
    static let finishGrace: Duration = .seconds(10)

    /// Captures, stamps and writes until `duration`, or until `interrupts` asks it to stop (the file
    /// is finalised either way). On `report`: the SDP and each snapshot's path as results,
    /// warnings, the progress line.
    public func run(interrupts: Interrupts? = nil, report: JobOutput = .silent) throws(CamStampError) -> Summary {
        // From here a first Ctrl-C or SIGTERM asks this job to finish its outputs.
        interrupts?.finishesOnRequest()
        // The certificate, key and SDK checked before the camera starts.
        let credentials = try options.signing.map { (signing) throws(CamStampError) in try ContentCredentials(signing) }
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
            let summary = try finish(session, ending, report: report)
            try credentials.map { (credentials) throws(CamStampError) in
                try sign(recordings: options.targets, with: credentials, marker: session.marker)
            }
            return summary
        } catch {
            session.abort()
            try? recordings.settle(stream: session.stream)
            throw error
        }
    }

    /// What `setUp` starts: the one pipeline, what is around it, and what marks and counts the frames.
    struct Session {
        let capture: Capture.Plan
        let stream: LiveStream
        let recordings: Recordings
        /// The output part: what it launched, and each target's elements.
        let output: StreamOutput
        /// The relays and the RTSP server of a composed output; nil for one file or RTP address.
        let publishing: Publishing?
        /// The RTP host, resolved.
        let address: String?
        let marker: FrameMarker
        let counts = Counts()
        let snapshotWriter: SnapshotWriter?
        let progress: ProgressLine
        /// The clip's sound copied into one MP4 recording, its edit list to put back (`soundEdit`).
        let soundEdit: RecordedSoundEdit?
        /// A microphone's first sound, which the pictures wait for (at most `soundWait`).
        let sound: FirstBufferWatch?
        let started = ContinuousClock.now

        /// Stops everything at once, unfinished (the output is broken).
        func abort() {
            publishing?.abort()
            stream.abort()
        }
    }

    /// The frames' counts and clocks: written by the marks (on the capture's streaming thread),
    /// read by the job's thread.
    final class Counts: @unchecked Sendable {
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
            /// When the first picture came while the sound had not started.
            var soundAwaitedSince: ContinuousClock.Instant?
            /// `--duration` is reached: later frames are left out.
            var ended = false
        }
        private let lock = NSLock()
        private var state = State()

        func withLock<R>(_ body: (inout State) -> R) -> R { lock.withLock { body(&state) } }
    }

    /// How the loop ended, when not by the end of the stream itself.
    struct Ending {
        var interrupted = false
        /// A failure of the camera or of the marks: what was recorded so far is still finalised;
        /// only a broken output is abandoned (thrown at once).
        var failure: CamStampError?
        /// The pipeline ended by itself (a file source played to its end, everything written).
        var finished = false
        /// The target that could not be written (`failure` names it); the others are finalised.
        var lostTarget: StreamTarget?
        /// Targets that could not be written and were isolated while the others went on, with
        /// what failed (the stream's failure once it has ended, `lostFailure`).
        var isolated: [(target: StreamTarget, error: Error)] = []
    }

    /// Checks what can be checked before the camera starts, then builds the one pipeline and
    /// starts it.
    private func setUp(
        recordings: Recordings, interrupts: Interrupts?, report: JobOutput
    ) throws(CamStampError) -> Session {
        try Self.refuseSharedFiles(options)
        let (preset, variables) = try MarkSetup.preset(
            names: options.presets, text: options.text,
            variables: options.variables, resources: resources)
        try ContentCredentials.checkProof(preset, signing: nil, job: "stream")
        let snapshotWriter = try prepareOutputs(recordings: recordings, report: report)
        // A host that cannot be sent to is refused now, not discovered by a receiver that hears nothing.
        var address: String?
        if case .rtp(let host, let port) = rtpTarget { address = try RTPAddress.resolve(host: host, port: port) }
        let capture = try Capture.Plan(
            spec: options.source, size: options.size, fps: options.fps, pipeline: options.pipeline,
            resources: resources)
        let output = try StreamOutput.plan(
            options: options, rtpAddress: address, recordings: recordings.locations,
            resources: resources
        ) { () throws(CamStampError) -> String? in
            if options.isComposed {
                return try AudioInput.launch(options.audioChoice, source: options.source, note: { report.warning($0) })
            }
            return try copiedAudio(report: report)
        }
        let stream = try makeStream(capture: capture, output: output)
        // A microphone (PulseAudio, ALSA) starts late on a busy machine: the pictures wait for it.
        let sound =
            output.hasSound && options.isComposed && AudioInput.isDevice(options.audioChoice, source: options.source)
            ? (try? stream.pipeline.element(named: StreamOutput.soundSource)).flatMap(FirstBufferWatch.init) : nil
        let publishing: Publishing?
        do {
            publishing =
                options.isComposed
                ? try Publishing(
                    output: output, pipeline: stream.pipeline, options: options, report: { report.warning($0) })
                : nil
        } catch {
            stream.abort()
            throw error
        }
        let marker = FrameMarker(preset: preset, variables: variables)
        // Stopped when the marker goes, with the session.
        marker.location = LocationFeed(option: options.location.gps, report: report)
        let session = Session(
            capture: capture, stream: stream, recordings: recordings, output: output, publishing: publishing,
            address: address,
            marker: marker, snapshotWriter: snapshotWriter,
            progress: report.progress, soundEdit: soundEdit(on: stream.pipeline), sound: sound)
        do { try start(session, interrupts: interrupts) } catch {
            session.abort()
            throw failure(error, session)
        }
        // After the start: a tap whose appsink is not playing yet says it has ended.
        publishing?.start()
        Verbosity.log("stream elements: \(stream.pipeline.elementSummary().joined(separator: " "))")
        return session
    }

    /// Checks the snapshot folder and the files to be written, and picks the recordings'
    /// temporary names; the snapshot writer when snapshots are asked for.
    private func prepareOutputs(recordings: Recordings, report: JobOutput) throws(CamStampError) -> SnapshotWriter? {
        // Snapshots asked for must be possible: a template that does not load is said now, not
        // found out by a SIGUSR1 that writes nothing.
        var snapshotWriter: SnapshotWriter?
        if let folder = options.snapshotFolder {
            try StillDestination.prepareFolder(folder, option: "--snapshot-dir", create: true)
            snapshotWriter = SnapshotWriter(
                folder: folder, template: try Templates.load(nil, builtIn: "still-jpeg", resources: resources),
                report: report)
        }
        // The recordings and the SDP file follow one rule: an existing file stays unless --overwrite.
        let outputFiles =
            options.targets.compactMap { target -> URL? in if case .file(let url, _) = target { url } else { nil } }
            + (options.sdp.map { [$0] } ?? [])
        // A file source is never written over, --overwrite or not (batch refuses it likewise).
        if case .file(let source) = options.source,
            let url = outputFiles.first(where: { OutputPath.resolved($0) == OutputPath.resolved(source) })
        {
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
        return snapshotWriter
    }

    /// The one pipeline: the capture linked to `output`.
    private func makeStream(capture: Capture.Plan, output: StreamOutput) throws(CamStampError) -> LiveStream {
        Verbosity.log("output pipeline: \(output.launch)")
        let stream: LiveStream
        do {
            stream = try LiveStream(capture: capture.description, output: output.launch, backlog: Self.outputQueue)
        } catch {
            // What is wrong with the capture template names the capture; anything else the target.
            switch error {
            case .parse(_, let text) where text == capture.description: throw capture.failure(error)
            case .missingNamedElement("frames", _), .invalidTemplate: throw capture.failure(error)
            default: throw .failure("\(options.targetDescription): \(error)")
            }
        }
        // Several targets: one whose disk fills is isolated while the others go on.
        if options.isComposed && options.targets.count > 1 {
            let isolable = output.branches.filter { !$0.heads.isEmpty }
            stream.isolateFailedBranches(isolable.map { LiveStream.Branch(parts: $0.parts, heads: $0.heads) })
        }
        // A clip played as the camera keeps its colours: GStreamer alone makes a phone's full range limited.
        if case .file(let clip) = capture.source { stream.pipeline.keepColours(ofClip: clip) }
        return stream
    }

    /// Starts `session`'s stream with what marks, counts and ends its frames.
    private func start(_ session: Session, interrupts: Interrupts?) throws(MediaError) {
        let stream = session.stream
        try stream.start(
            admit: admission(session), mark: marking(session, interrupts: interrupts),
            accepts: { [counts = session.counts, marker = session.marker] width, height, fps in
                if let fps, fps > 0 { counts.withLock { $0.frameDuration = UInt64(1e9 / fps) } }
                if let refusal = acceptsFrames(width: width, height: height) { return refusal }
                // The marks are rendered now, before the first frame waits for the
                // encoder: rendered by it, the first frame kept the encoder from the
                // next ones long enough to drop a few. Only for the first format: no
                // frame is being marked yet (the FrameMarker is not shared across threads).
                guard counts.withLock({ $0.firstTime == nil }) else { return nil }
                do {
                    _ = try marker.composition(
                        width: width, height: height,
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
    }

    /// Two targets that are one file (`d.mp4` and `./d.mp4`, a link to it, an `--sdp` file that is a
    /// recording) would write over each other: refused before anything is written.
    private static func refuseSharedFiles(_ options: StreamOptions) throws(CamStampError) {
        var claimed: [String: String] = [:]
        let written =
            options.targets.compactMap { target -> (option: String, text: String, url: URL)? in
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

    /// Each finished MP4 recording signed, the last write: into a temporary file beside it, then
    /// renamed over it. A recording that was never placed (no frame) is not there to sign.
    private func sign(
        recordings targets: [StreamTarget], with credentials: ContentCredentials, marker: FrameMarker
    ) throws(CamStampError) {
        for case .file(let url, .mp4) in targets where FileManager.default.fileExists(atPath: url.path) {
            try credentials.signRecording(url, marks: ContentCredentials.marks(marker.drawnContents))
        }
    }
}
