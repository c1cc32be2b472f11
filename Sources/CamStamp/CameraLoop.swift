// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import Media
import Presets

/// The camera job's frame loop, on one thread: it applies what the page or the window changed
/// (marks, camera, controls, the preview's grid and square), takes the photos asked for from the
/// frame before the preview touches it, marks the frame once and pushes it to the previews.
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
    private let windowKeys: WindowKeys?
    private let report: JobOutput
    private var seenVersion: Int
    private var applied: CameraSession.Settings
    private var frameNumber = 0
    private var lastPreviewSize: FrameSize?
    private var quit = false
    private static let timedDone: @Sendable (Result<CameraSession.Shot, CamStampError>) -> Void = { _ in }

    init(
        job: CameraJob, camera: Capture, marker: FrameMarker, session: CameraSession, writer: StillWriter,
        decor: PreviewDecor, previews: [FrameOutput], windowPreview: FrameOutput?, report: JobOutput
    ) {
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
        if wanted.presets != applied.presets || wanted.text != applied.text || wanted.variables != applied.variables {
            applyMarks(wanted)
        }
        if wanted.source != applied.source { applySource(wanted) }
        if wanted.controls != applied.controls { applyControls(wanted) }
        decor.set(grid: wanted.grid, square: wanted.square)
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
                pipeline: options.pipeline, resources: job.resources)
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

    /// One frame: the photos asked for, then the mirror and the marks, then the previews.
    private func show(_ frame: VideoFrame) throws(CamStampError) {
        frameNumber += 1
        let settings = applied
        takeShots(of: frame, settings: settings)
        resizePreviews(for: frame)
        do {
            if settings.mirror { try frame.mirror() }
        } catch {
            session.lastError = "mirror: \(error)"
        }
        do {
            try marker.mark(
                frame,
                context: marker.context(
                    width: frame.width, height: frame.height,
                    frame: frameNumber, fps: frame.framesPerSecond))
        } catch {
            session.lastError = error.message
        }
        for output in previews {
            do { try output.push(frame) } catch {
                // Closing the window is the user's way to quit, not a failure.
                if output === windowPreview, error.isWindowClosed {
                    quit = true
                    continue
                }
                throw .failure("preview: \(error)")
            }
        }
    }

    /// The photos asked for, from this frame before the preview touches it: cropped and mirrored
    /// as asked, marked at their own size, written on the writer's thread.
    private func takeShots(of frame: VideoFrame, settings: CameraSession.Settings) {
        // A photo asked for after a change the loop has not applied yet waits a frame for it: the
        // page's "square, then shoot" is a square photo, whatever the timing.
        let requests = session.version == seenVersion ? session.takeShotRequests(timedDone: Self.timedDone) : []
        guard !requests.isEmpty else { return }
        let geometry = StillGeometry(square: settings.square, mirror: settings.mirror && job.options.mirrorPhotos)
        for request in requests {
            do {
                let still = geometry.isIdentity ? frame.copy() : try geometry.apply(to: frame)
                let context = marker.context(width: still.width, height: still.height)
                try marker.mark(still, context: context)
                let report = report
                let session = session
                writer.write(
                    still, geotag: job.options.location.stripGPS ? nil : context.location,
                    marks: ContentCredentials.marks(marker.drawnContents)
                ) { result in
                    if case .success(let shot) = result { report.result(shot.path) }
                    if case .failure(let error) = result { session.lastError = error.message }
                    request.done(result)
                }
            } catch {
                session.lastError = error.message
                request.done(.failure(error))
            }
        }
    }

    /// The previews follow the frame's size, scaled down to at most 1280 px wide.
    private func resizePreviews(for frame: VideoFrame) {
        let size = FrameSize(width: frame.width, height: frame.height)
        let preview = CameraJob.previewSize(for: size)
        guard preview != lastPreviewSize else { return }
        lastPreviewSize = preview
        session.setSizes(frame: size, preview: preview)
        let caps = "video/x-raw,width=\(preview.width),height=\(preview.height),pixel-aspect-ratio=1/1"
        for output in previews {
            try? output.pipeline.element(named: "size").set("caps", caps)
        }
    }
}
