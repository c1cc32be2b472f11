// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Dispatch
import Foundation
internal import Media

/// The page's video (`POST /api/record`): the marked feed, as the viewfinder shows it, recorded to
/// an MP4 in the camera's folder by the rules of `stream`: the stream's own output (StreamOutput,
/// `stream-mp4.pipeline`: fragmented, unbuffered) behind an `appsrc`, under a hidden temporary
/// name until a frame is on disk, then under its name (Recordings), so that a kill leaves a
/// playable file and a stop a finished one. The camera never waits for the encoder: a frame it
/// cannot take is dropped and counted. With `--sign`, a finished recording is signed
/// (`c2pa.created`, the marks it was last drawn with) before it is answered or served.
final class CameraRecorder: @unchecked Sendable {
    /// Why a start or a stop was refused (the API answers 409) or failed (500).
    enum Refusal: Error {
        case alreadyRecording(String)
        case notRecording
        case failed(CamStampError)

        var message: String {
            switch self {
            case .alreadyRecording(let path): "record: already recording to \(path); stop it first"
            case .notRecording: "record: not recording; start a recording first"
            case .failed(let error): error.message
            }
        }
    }

    /// What `/api/state` says of the recording under way.
    struct Status: Sendable, Equatable {
        var path: String
        var seconds: Double
        var frames: Int
        var dropped: Int
    }

    private final class Recording: @unchecked Sendable {
        let output: FrameOutput
        let recordings: Recordings
        let watches: FileSinkWatches
        let target: URL
        let started = ContinuousClock.now
        var frames = 0
        var dropped = 0
        /// The first frame's size: the recording keeps it (a frame of another shape, after Square
        /// or a turn, is scaled into it with borders).
        var size: FrameSize?
        /// The marks drawn on the last frame, for the manifest (kept only when signing).
        var marks: [ContentCredentials.Mark] = []
        init(output: FrameOutput, recordings: Recordings, watches: FileSinkWatches, target: URL) {
            self.output = output
            self.recordings = recordings
            self.watches = watches
            self.target = target
        }
    }

    private let folder: URL
    private let fps: Int?
    private let resources: Resources?
    private let credentials: ContentCredentials?
    private let lock = NSLock()
    private var current: Recording?
    private var finished: [CameraSession.Shot] = []
    /// Finishing (EOS to the muxer, the file placed) happens here, never on the camera's thread
    /// or the server's.
    private let queue = DispatchQueue(label: "camstamp.camera.recording")
    /// Frames the encoder may have waiting before the camera's next one is dropped.
    private static let backlog = 8

    init(folder: URL, fps: Int?, resources: Resources?, credentials: ContentCredentials? = nil) {
        self.folder = folder
        self.fps = fps
        self.resources = resources
        self.credentials = credentials
    }

    var status: Status? {
        lock.withLock {
            current.map {
                let elapsed = ContinuousClock.now - $0.started
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                return Status(path: $0.target.path, seconds: seconds, frames: $0.frames, dropped: $0.dropped)
            }
        }
    }

    /// Starts a recording; returns the file it will be.
    func start() throws(Refusal) -> URL {
        lock.lock()
        defer { lock.unlock() }
        if let current { throw .alreadyRecording(current.target.path) }
        let target = Self.freeName(in: folder)
        let recordings = Recordings(targets: [target])
        recordings.begin()
        do throws(CamStampError) {
            let options = StreamOptions(target: .file(target, container: .mp4), fps: fps)
            let plan = try StreamOutput.plan(
                options: options, rtpAddress: nil, recordings: recordings.locations, resources: resources,
                sound: { () throws(CamStampError) -> String? in nil })
            let output: FrameOutput
            do {
                let pipeline = try Pipeline(
                    "appsrc name=stamped ! videoscale add-borders=true ! capsfilter name=shape ! " + plan.launch)
                output = try FrameOutput(pipeline: pipeline, maxBuffers: Self.backlog, block: false)
            } catch {
                throw CamStampError.failure("record: \(error)")
            }
            let watches = FileSinkWatches(pipeline: output.pipeline)
            do { try output.start() } catch { throw CamStampError.failure("record: \(error)") }
            current = Recording(output: output, recordings: recordings, watches: watches, target: target)
            return target
        } catch {
            try? recordings.settle(onDisk: nil)
            throw .failed(error)
        }
    }

    /// The camera loop's frame, marked with `marks`: recorded on the recording's own clock, from 0.
    func push(_ frame: VideoFrame, marks: @autoclosure () -> [ContentCredentials.Mark] = []) {
        lock.withLock {
            guard let current else { return }
            if credentials != nil { current.marks = marks() }
            if current.size == nil {
                let size = FrameSize(width: frame.width, height: frame.height)
                current.size = size
                let caps = "video/x-raw,width=\(size.width),height=\(size.height),pixel-aspect-ratio=1/1"
                try? current.output.pipeline.element(named: "shape").set("caps", caps)
            }
            let elapsed = ContinuousClock.now - current.started
            let pts =
                UInt64(elapsed.components.seconds) * 1_000_000_000
                + UInt64(elapsed.components.attoseconds / 1_000_000_000)
            do {
                if try current.output.push(frame.sharingPixels(pts: pts)) {
                    current.frames += 1
                } else {
                    current.dropped += 1
                }
                if !current.recordings.allSettled {
                    try current.recordings.placeThoseWithAFrame(onDisk: current.watches.hasFrameOnDisk(location:))
                }
            } catch {
                current.dropped += 1
            }
        }
    }

    /// Stops the recording: `done` gets the file once it is finished and in place (on the
    /// recorder's thread).
    func stop(done: @escaping @Sendable (Result<CameraSession.Shot, Refusal>) -> Void) {
        let ending: Recording? = lock.withLock {
            defer { current = nil }
            return current
        }
        guard let ending else {
            done(.failure(.notRecording))
            return
        }
        queue.async { [self] in
            let result = Self.finish(ending, signing: credentials)
            if case .success(let file) = result { lock.withLock { finished.append(file) } }
            done(result)
        }
    }

    /// Finishes a recording under way (the camera is stopping) and waits for it.
    func finishAll() {
        stop { _ in }
        queue.sync {}
    }

    private static func finish(
        _ recording: Recording, signing credentials: ContentCredentials?
    ) -> Result<CameraSession.Shot, Refusal> {
        var failure: CamStampError?
        do { try recording.output.finish() } catch { failure = .failure("record: \(error)") }
        let frames = recording.frames > 0 && failure == nil
        do {
            try recording.recordings.settle(
                onDisk: recording.watches.hasFrameOnDisk(location:), finishedWithFrames: frames)
        } catch {
            failure = failure ?? error
        }
        if let failure { return .failure(.failed(failure)) }
        if let credentials, access(recording.target.path, F_OK) == 0 {
            // Signed in place (a new file renamed over it): the file served is the signed one.
            do { try credentials.signRecording(recording.target, marks: recording.marks) } catch {
                return .failure(.failed(.failure("record: \(error.message)")))
            }
        }
        var written = stat()
        guard lstat(recording.target.path, &written) == 0 else {
            return .failure(.failed(.failure("record: no frame was recorded")))
        }
        return .success(
            CameraSession.Shot(
                name: recording.target.lastPathComponent, path: recording.target.path,
                width: recording.size?.width ?? 0, height: recording.size?.height ?? 0, taken: Date(),
                device: UInt64(written.st_dev), inode: UInt64(written.st_ino)))
    }

    /// The recording named `name` that this camera finished, if any (nothing else is served).
    func recording(named name: String) -> CameraSession.Shot? {
        lock.withLock { finished.first { $0.name == name } }
    }

    /// `camstamp-YYYYMMDD-HHMMSS-N.mp4`, the first N not taken (the photos' names, as a video).
    private static func freeName(in folder: URL) -> URL {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let stamp = formatter.string(from: Date())
        var counter = 1
        while true {
            let target = folder.appendingPathComponent("camstamp-\(stamp)-\(counter).mp4")
            if !FileManager.default.fileExists(atPath: target.path) { return target }
            counter += 1
        }
    }
}
