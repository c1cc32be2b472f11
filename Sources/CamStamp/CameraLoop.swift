// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import Media
import Presets

/// The camera job's frame loop, on one thread: it applies what the page or the window changed
/// (marks, camera, controls, the geometry, the preview's grid), makes each frame into the photo
/// it would be (StillGeometry, the marks), keeps it in the ring the photos are taken from, and
/// pushes it to the previews and the recording.
final class CameraLoop {
    private let job: CameraJob
    /// The camera in use: replaced when the page picks another.
    private(set) var camera: Capture
    private var marker: FrameMarker
    private let session: CameraSession
    private let writer: StillWriter
    private let decor: PreviewDecor
    private let previews: [FrameOutput]
    private let windowPreview: FrameOutput?
    /// The WebRTC preview, pushed to only while someone watches (its encode costs otherwise).
    private let webRTC: (output: FrameOutput, viewers: WebRTCViewers)?
    private let windowKeys: WindowKeys?
    private let report: JobOutput
    private var seenVersion: Int
    private var applied: CameraSession.Settings
    private var frameNumber = 0
    private var lastPreviewSize: FrameSize?
    private var lastCameraSize: FrameSize?
    private let ring: FrameRing
    private let recorder: CameraRecorder?
    private var quit = false
    private static let timedDone: @Sendable (Result<CameraSession.Shot, CamStampError>) -> Void = { _ in }

    init(
        job: CameraJob, camera: Capture, marker: FrameMarker, session: CameraSession, writer: StillWriter,
        decor: PreviewDecor, previews: [FrameOutput], windowPreview: FrameOutput?,
        webRTC: (output: FrameOutput, viewers: WebRTCViewers)?, report: JobOutput,
        ring: FrameRing, recorder: CameraRecorder?
    ) {
        self.webRTC = webRTC
        self.ring = ring
        self.recorder = recorder
        self.job = job
        self.camera = camera
        self.marker = marker
        self.session = session
        self.writer = writer
        self.decor = decor
        self.previews = previews
        self.windowPreview = windowPreview
        windowKeys = windowPreview.map { WindowKeys(pipeline: $0.pipeline) }
        self.report = report
        seenVersion = session.version
        applied = session.settings
    }

    /// Runs until Ctrl-C or SIGTERM (throws `.interrupted`) or until the window is closed or Q
    /// pressed (returns); a camera or preview failure is thrown.
    func run(interrupts: Interrupts?) throws(CamStampError) {
        while !quit {
            if interrupts?.isRequested == true { break }
            if session.version != seenVersion { applyChanges() }
            for key in windowKeys?.take() ?? [] {
                quit = job.handleKey(key, session: session, report: report) || quit
            }
            switch try camera.pull() {
            case .timeout:
                continue
            case .endOfStream:
                // A video file plays as a camera: from the start again.
                camera.stop()
                try camera.start()
            case .frame(let frame):
                try show(frame)
            }
        }
        if !quit { throw .interrupted }
    }

    /// What the page changed: marks and camera are rebuilt here, on the loop's thread.
    private func applyChanges() {
        seenVersion = session.version
        let wanted = session.settings
        if wanted.presets != applied.presets || wanted.text != applied.text || wanted.variables != applied.variables
            || wanted.marksRevision != applied.marksRevision
        {
            applyMarks(wanted)
        }
        if wanted.source != applied.source { applySource(wanted) }
        if wanted.controls != applied.controls { applyControls(wanted) }
        decor.set(grid: wanted.grid)
        applied = session.settings
    }

    private func applyMarks(_ wanted: CameraSession.Settings) {
        do {
            let variables = wanted.variables.sorted { $0.key < $1.key }
                .map { VariableAssignment(key: $0.key, value: $0.value) }
            let setup = try MarkSetup.preset(
                names: wanted.presets, text: wanted.text, variables: variables,
                resources: job.resources)
            marker = FrameMarker(preset: setup.preset, variables: setup.variables, location: session.location)
            session.lastError = nil
        } catch {
            session.lastError = error.message
        }
    }

    /// Another camera; on failure the page's choice goes back to the one still running.
    private func applySource(_ wanted: CameraSession.Settings) {
        let options = job.options
        do {
            let next = try Capture(
                spec: wanted.source, size: options.size, fps: options.fps,
                pipeline: options.pipeline, resources: job.resources, exclusiveFrames: false)
            next.deliverAtOnce()
            camera.stop()
            try next.start()
            camera = next
            session.setCamera(
                name: CameraJob.describe(next.source),
                controls: SourceControls.list(for: next.source, lister: job.controlLister))
            session.lastError = nil
        } catch {
            session.lastError = error.message
            session.update { $0.source = applied.source }
            seenVersion = session.version
            try? camera.start()
        }
    }

    private func applyControls(_ wanted: CameraSession.Settings) {
        let types = Dictionary(session.camera.controls.map { ($0.name, $0.type) }) { first, _ in first }
        do {
            try camera.setControls(
                wanted.controls.sorted { $0.key < $1.key }.map { name, value in
                    ExtraControl(name: name, value: types[name] == "boolean" ? .boolean(value != 0) : .integer(value))
                })
            session.lastError = nil
        } catch {
            session.lastError = error.message
        }
    }

    /// One frame: turned, cropped and mirrored as the photo would be, marked, kept in the ring
    /// (the photos asked for are taken from it), then shown and recorded. The preview is the
    /// photo: the same pixels, only scaled and with the grid drawn on the preview's own copy.
    private func show(_ frame: VideoFrame) throws(CamStampError) {
        // Captured when the camera stamped it, not when it reached this thread.
        let age = frame.presentationTime.flatMap { camera.frames.pipeline.age(ofRunningTime: $0) } ?? 0
        let captured = ContinuousClock.now - .nanoseconds(Int64(age))
        let wall = Date(timeIntervalSinceNow: -Double(age) / 1e9)
        frameNumber += 1
        let settings = applied
        let view = photo(of: frame, settings: settings)
        // Unmarked, for the presets' thumbnails: each is drawn on the photo as it would be.
        session.offerLiveFrame(view)
        let context = marker.context(
            width: view.width, height: view.height, captureDate: wall, frame: frameNumber,
            fps: frame.framesPerSecond)
        do { try marker.mark(view, context: context) } catch { session.lastError = error.message }
        ring.keep(
            view, number: frameNumber, version: seenVersion, captured: captured, wall: wall,
            geotag: context.location)
        takeShots()
        resizePreviews(camera: frame, view: view)
        for output in previews where output !== webRTC?.output || webRTC?.viewers.isWatched == true {
            do { try output.push(view) } catch {
                // Closing the window is the user's way to quit, not a failure.
                if output === windowPreview, error.isWindowClosed {
                    quit = true
                    continue
                }
                throw .failure("preview: \(error)")
            }
        }
        recorder?.push(view, marks: ContentCredentials.marks(marker.drawnContents))
    }

    /// The frame as the photo holds it, a new frame (the camera's own is never written to, so it
    /// goes back to the camera at once): turned, cropped to the square, mirrored as asked.
    private func photo(of frame: VideoFrame, settings: CameraSession.Settings) -> VideoFrame {
        let geometry = StillGeometry(square: settings.square, mirror: settings.mirror, rotate: settings.rotate)
        guard !geometry.isIdentity else { return frame.copy() }
        do { return try geometry.apply(to: frame) } catch {
            session.lastError = error.message
            return frame.copy()
        }
    }

    /// The photos asked for, each the frame that was on screen when it was asked for (zero
    /// shutter lag), written on the writer's thread.
    private func takeShots() {
        // A photo asked for after a change the loop has not applied yet waits a frame for it: the
        // page's "square, then shoot" is a square photo, whatever the timing.
        let requests = session.version == seenVersion ? session.takeShotRequests(timedDone: Self.timedDone) : []
        for request in requests {
            guard let entry = ring.frame(at: request.pressed, version: request.version) else { continue }
            let report = report
            let session = session
            let geotag = job.options.location.stripGPS ? nil : entry.geotag
            // A frame of its own over the same pixels: the encoder stamps its own time on it.
            // The marks drawn now: a shot is of the frames just shown, marked as they are.
            let marks = ContentCredentials.marks(marker.drawnContents)
            writer.write(
                entry.frame.sharingPixels(pts: entry.pts), number: entry.number, geotag: geotag, marks: marks
            ) { result in
                if case .success(let shot) = result { report.result(shot.path) }
                if case .failure(let error) = result { session.lastError = error.message }
                request.done(result)
            }
        }
    }

    /// The previews follow the photo's size, scaled down to at most 1280 px wide.
    private func resizePreviews(camera frame: VideoFrame, view: VideoFrame) {
        let size = FrameSize(width: frame.width, height: frame.height)
        let preview = CameraJob.previewSize(for: FrameSize(width: view.width, height: view.height))
        guard preview != lastPreviewSize || size != lastCameraSize else { return }
        lastPreviewSize = preview
        lastCameraSize = size
        session.setSizes(frame: size, preview: preview)
        let caps = "video/x-raw,width=\(preview.width),height=\(preview.height),pixel-aspect-ratio=1/1"
        for output in previews {
            try? output.pipeline.element(named: "size").set("caps", caps)
        }
    }
}
