import Dispatch
import Foundation
internal import Media
import Presets
import Synchronization

/// `camstamp stream`: a live, watermarked feed to an MP4 or MKV file or over RTP; to RTMP, SRT,
/// HLS and camstamp's own RTSP server, several at once from one encode (Publishing.swift).
///
/// One thread pulls frames from the capture pipeline, marks them in place and pushes them to the
/// output pipeline. The output never blocks the camera: when the encoder falls behind, frames are
/// dropped before it (and counted), so latency and memory stay bounded.
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
        let session = try setUp(report: report)
        defer { session.camera.stop() }
        defer { session.progress.finish() }
        let tally = try loop(session, interrupts: interrupts, report: report)
        return try finish(session, tally)
    }

    /// What `setUp` starts: the camera and the outputs, and what marks and counts the frames.
    private struct Session {
        let camera: Camera
        /// The composed output (several targets, sound), or nil for one file or RTP address.
        let publishing: Publishing?
        let output: FrameOutput
        /// The RTP host, resolved.
        let address: String?
        let marker: Marker
        let snapshotWriter: SnapshotWriter?
        let progress: ProgressLine
        let started = ContinuousClock.now

        /// Stops the output at once, unfinished (it is broken).
        func abortOutput() { if let publishing { publishing.abort() } else { output.abort() } }
    }

    /// The pull loop's counts and clocks.
    private struct Tally {
        var written = 0, dropped = 0
        /// The first frame's capture time (nanoseconds): the stream's zero.
        var firstTime: UInt64?
        /// The end of the last frame written, and one frame's length (from the caps' rate).
        var lastTime: UInt64 = 0, frameDuration: UInt64 = 33_333_333
        /// The composed output is live (sound comes from a live source): its frames are stamped
        /// on its clock, from where it stood at the first frame, so sound and pictures line up.
        var origin: UInt64?
        var sdpPrinted = false
        var firstFrameAt: ContinuousClock.Instant?
        var interrupted = false
        /// A failure of the camera or of the marks: what was recorded so far is still finalised;
        /// only a broken output is abandoned (thrown at once).
        var failure: CamStampError?
    }

    /// Checks what can be checked before the camera starts, then starts the outputs (first: they
    /// must be ready before the first frame arrives) and the camera.
    private func setUp(report: JobOutput) throws(CamStampError) -> Session {
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
        for url in outputFiles where !options.overwrite && FileManager.default.fileExists(atPath: url.path) {
            throw StillDestination.exists(url)
        }
        // An unwritable folder is said now, in shoot's words, not by the muxer once the camera runs.
        if case .file(let url, _) = options.target {
            try StillDestination.prepareFolder(url.deletingLastPathComponent(), option: "--to", create: false)
        }
        // A host that cannot be sent to is refused now, not discovered by a receiver that hears nothing.
        var address: String?
        if case .rtp(let host, let port) = rtpTarget { address = try RTPAddress.resolve(host: host, port: port) }
        let camera = try Camera(spec: options.source, size: options.size, fps: options.fps, pipeline: options.pipeline,
                                resources: resources)
        let publishing: Publishing?
        if options.isComposed {
            let audio = try AudioInput.launch(options.audio ?? (options.publishes ? .auto : .none), source: options.source,
                                              note: { report.warning($0) })
            publishing = try Publishing(options: options, rtpAddress: address, audio: audio)
        } else {
            publishing = nil
        }
        let output: FrameOutput
        if let publishing { output = publishing.output } else { output = try makeOutput(address: address, report: report) }
        let session = Session(
            camera: camera, publishing: publishing, output: output,
            address: address, marker: Marker(preset: preset, variables: variables),
            snapshotWriter: snapshotWriter,
            progress: report.progress)
        func abandon() {
            session.abortOutput()
            discardRecordings()
        }
        do {
            if let publishing { try publishing.start() } else { try session.output.start() }
        } catch {
            abandon()
            throw outputFailure(error)
        }
        do { try camera.start() } catch {
            abandon()
            throw error
        }
        Verbosity.log("capture elements: \(camera.frames.pipeline.elementSummary().joined(separator: " "))")
        Verbosity.log("output elements: \(session.output.pipeline.elementSummary().joined(separator: " "))")
        return session
    }

    /// Pulls, marks and pushes frames until the end of the source, `--duration`, an interrupt or
    /// a failure. A broken output is thrown at once (abandoned); any other failure ends the loop
    /// in `Tally.failure`, so what was recorded is still finalised.
    private func loop(_ session: Session, interrupts: Interrupts?,
                      report: JobOutput) throws(CamStampError) -> Tally {
        var tally = Tally()
        // --duration is also a hard stop in wall time: a source slower than real time (or frames
        // too large to make in time) would otherwise stretch a 10-second stream to minutes.
        let wallLimit = options.duration.map { Duration.nanoseconds(Int64($0 * 1e9)) }
        while true {
            if interrupts?.isRequested == true { tally.interrupted = true; break }
            if let wallLimit {
                let now = ContinuousClock.now
                if let firstFrameAt = tally.firstFrameAt, now - firstFrameAt >= wallLimit { break }
                if tally.firstFrameAt == nil, now - session.started >= wallLimit + Self.startupAllowance {
                    tally.failure = .failure("capture: no frame from the source within \(Self.startupAllowance)")
                    break
                }
            }
            let pulled: FrameSource.Pull
            do { pulled = try session.camera.pull() } catch {
                tally.failure = error
                break
            }
            switch pulled {
            case .timeout:
                continue
            case .endOfStream:
                return tally
            case .frame(let frame):
                guard try take(frame, session, &tally, interrupts: interrupts, report: report) else { return tally }
            }
        }
        return tally
    }

    /// Marks one frame, stamps its time and pushes it; false when the stream ends here (the
    /// duration is reached, or a failure is in `tally`).
    private func take(_ frame: VideoFrame, _ session: Session, _ tally: inout Tally, interrupts: Interrupts?,
                      report: JobOutput) throws(CamStampError) -> Bool {
        // Without --size the source picks the size (a video file's own): x264 would refuse
        // an odd one with "Can not initialize x264 encoder".
        if tally.firstFrameAt == nil, options.size == nil {
            let size = FrameSize(width: frame.width, height: frame.height)
            do { try H264Limits.check(size: size, subject: "the source's \(size) frames") } catch {
                tally.failure = .failure("capture: \(error.message); ask for that with --size")
                return false
            }
        }
        tally.firstFrameAt = tally.firstFrameAt ?? ContinuousClock.now
        let capturedAt = frame.presentationTime ?? 0
        let start = tally.firstTime ?? capturedAt
        tally.firstTime = start
        let time = capturedAt - min(start, capturedAt)
        if let limit = options.duration.map({ UInt64($0 * 1e9) }), time >= limit { return false }
        let fps = frame.framesPerSecond
        if let fps, fps > 0 { tally.frameDuration = UInt64(1e9 / fps) }
        let context = session.marker.context(width: frame.width, height: frame.height, captureDate: Date(),
                                             frame: tally.written + tally.dropped, fps: fps)
        do { try session.marker.mark(frame, context: context) } catch {
            tally.failure = error
            return false
        }
        // The output's clock starts at zero with the first frame.
        if session.publishing != nil { tally.origin = tally.origin ?? session.output.pipeline.runningTime() ?? 0 }
        frame.setTimestamps(pts: time + (tally.origin ?? 0), duration: tally.frameDuration)
        if interrupts?.takeSnapshotRequest() == true, let snapshotWriter = session.snapshotWriter { snapshotWriter.write(frame.copy()) }
        let accepted: Bool
        do { accepted = try session.output.push(frame) } catch {
            session.abortOutput()
            throw outputFailure(error)
        }
        if accepted { tally.written += 1; tally.lastTime = time + tally.frameDuration } else { tally.dropped += 1 }
        if !tally.sdpPrinted, rtpTarget != nil, let sdp = sessionDescription(session.output, address: session.address) {
            tally.sdpPrinted = true
            do { try publish(sdp: sdp, report: report) } catch {
                tally.failure = error
                return false
            }
        }
        // fps as achieved (frames written over wall time), as ffmpeg reports it.
        let elapsed = (ContinuousClock.now - session.started) / .seconds(1)
        let achieved = elapsed > 0.5 ? Double(tally.written) / elapsed : fps ?? 0
        session.progress.update("frame=\(tally.written) fps=\(String(format: "%.1f", achieved)) dropped=\(tally.dropped) time=\(clockText(seconds: Double(time) / 1e9, fraction: true))")
        return true
    }

    /// Ends the stream: EOS through the encoder and muxer (MP4 gets its index, MKV its cues), the
    /// snapshots written, then the summary, or the failure that ended the loop.
    private func finish(_ session: Session, _ tally: Tally) throws(CamStampError) -> Summary {
        session.progress.finish()
        session.output.pipeline.endFileAudio(at: tally.lastTime)
        do {
            if let publishing = session.publishing { try publishing.finish(timeout: Self.finishGrace) } else { try session.output.finish(timeout: Self.finishGrace) }
        } catch {
            throw tally.failure ?? outputFailure(error)
        }
        session.snapshotWriter?.waitUntilDone()
        if let failure = tally.failure {
            if tally.written == 0 { discardRecordings() }
            throw failure
        }
        let summary = Summary(framesWritten: tally.written, framesDropped: tally.dropped, duration: Double(tally.lastTime) / 1e9,
                              snapshots: session.snapshotWriter?.written ?? [], outages: session.publishing?.outages ?? [])
        if tally.interrupted { throw .init(.interrupted, summaryLine(summary)) }
        return summary
    }

    /// A recording that never got a frame is no recording: nothing is left in its place, for a
    /// stream that could not start as for one that failed before its first frame (a file it
    /// replaced with --overwrite was already truncated when its sink opened it).
    private func discardRecordings() {
        for case .file(let url, _) in options.targets { try? FileManager.default.removeItem(at: url) }
    }

    /// A failure of the output, worded for a file that cannot be written (a full disk, a folder
    /// made read-only meanwhile); anything else as GStreamer said it.
    private func outputFailure(_ error: Error) -> CamStampError {
        // A sound source that cannot be opened is the --audio value's fault, said in its words.
        if case .device(let device)? = options.audio, let media = error as? MediaError, let reason = media.reason(ofElement: "soundsource") {
            return .failure("--audio \(device): the sound source cannot be opened: \(reason) "
                + "(PulseAudio sources: `pactl list short sources`; ALSA devices: `arecord -L`)")
        }
        if case .file = options.target,
           let unwritable = CamStampError.unwritable(error, path: options.targetDescription, what: "the recording", option: "--to") {
            return unwritable
        }
        return .failure("\(options.targetDescription): \(error)")
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

    /// The output pipeline; `address` is the RTP host, resolved; `report` gets its warnings.
    private func makeOutput(address: String?, report: JobOutput) throws(CamStampError) -> FrameOutput {
        let fps = options.fps ?? 30
        var values: [String: PipelineTemplate.Value] = ["bitrate": .integer(options.bitrate), "keyint": .integer(max(fps, 1))]
        let name: String
        switch options.target {
        case .rtmp, .srt, .hls, .serve:
            throw .failure("\(options.targetDescription): needs the composed output")
        case .file(let url, let container):
            name = "stream-\(container.rawValue)"
            values["location"] = .quoted(url.path)
        case .rtp(let host, let port):
            name = "stream-rtp"
            values["host"] = .quoted(address ?? host)
            values["port"] = .integer(Int(port))
        }
        let template = try Templates.load(nil, builtIn: name, resources: resources)
        // The clip's streams are the source's business: what is wrong with them names --source.
        let audio: String
        do { audio = try fileAudio(report: report) } catch {
            if case .file(let clip) = options.source { throw .failure("--source file:\(clip.path): \(error)") }
            throw .failure("\(options.targetDescription): \(error)")
        }
        do {
            let description = try template.render(values) + audio
            Verbosity.log("output pipeline: \(description)")
            return try FrameOutput(pipeline: Pipeline(description), maxBuffers: Self.outputQueue, block: false)
        } catch {
            throw .failure("\(options.targetDescription): \(error)")
        }
    }

    /// The SDP a receiver needs, once the payloader has settled its caps.
    private func sessionDescription(_ output: FrameOutput, address: String?) -> String? {
        guard case .rtp(let host, let port) = rtpTarget,
              let payloader = try? output.pipeline.element(named: "pay"),
              let caps = payloader.currentCaps(pad: "src") else { return nil }
        return SessionDescription(host: address ?? host, port: port, capsFields: caps.fields).text
    }

    private func publish(sdp: String, report: JobOutput) throws(CamStampError) {
        report.result(sdp)
        guard let file = options.sdp else { return }
        do { try sdp.write(to: file, atomically: true, encoding: .utf8) } catch {
            throw .failure("--sdp \(file.path): \(error.localizedDescription)")
        }
    }
}

extension StreamOptions {
    /// The target as the user wrote it, for messages.
    var targetDescription: String {
        targets.map(\.description).joined(separator: ", ")
    }
}

/// An SDP for H.264 over RTP (RFC 6184), built from the payloader's caps.
struct SessionDescription {
    let host: String
    let port: UInt16
    let capsFields: [String: String]

    var text: String {
        let family = host.contains(":") ? "IP6" : "IP4"
        let payload = capsFields["payload"].flatMap { Int($0) } ?? 96
        var fmtp = ["packetization-mode=\(capsFields["packetization-mode"] ?? "1")"]
        if let profile = capsFields["profile-level-id"] { fmtp.append("profile-level-id=\(profile)") }
        if let sets = capsFields["sprop-parameter-sets"] { fmtp.append("sprop-parameter-sets=\(sets)") }
        return """
        v=0
        o=- 0 0 IN \(family) \(host)
        s=camstamp
        c=IN \(family) \(host)
        t=0 0
        m=video \(port) RTP/AVP \(payload)
        a=rtpmap:\(payload) H264/90000
        a=fmtp:\(payload) \(fmtp.joined(separator: ";"))

        """
    }
}

/// Encodes snapshot frames to JPEG off the streaming thread, each written atomically.
final class SnapshotWriter: @unchecked Sendable {
    private let folder: URL
    private let template: PipelineTemplate
    private let queue = DispatchQueue(label: "camstamp.snapshots")
    private let report: JobOutput
    private let lock = NSLock()
    private var files: [URL] = []

    init(folder: URL, template: PipelineTemplate, report: JobOutput) {
        self.folder = folder
        self.template = template
        self.report = report
    }

    var written: [URL] { lock.withLock { files } }

    func write(_ frame: VideoFrame) {
        queue.async { [self] in
            do {
                let destination = try StillDestination(output: folder, format: .jpg, prefix: "snapshot")
                let file = try destination.write { (temporary: URL) throws(CamStampError) in
                    do {
                        try StillDestination.encode(frame, template: template, quality: 92, to: temporary)
                    } catch {
                        throw CamStampError.unwritable(error, path: folder.path, what: "the snapshot", option: "--snapshot-dir")
                            ?? .failure("snapshot: \(error)")
                    }
                }
                lock.withLock { files.append(file) }
                report.result(file.path)
            } catch {
                report.error("\(error)")
            }
        }
    }

    func waitUntilDone() { queue.sync {} }
}
