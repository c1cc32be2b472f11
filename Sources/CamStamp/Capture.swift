// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
package import Media
import Presets

/// The capture side of `shoot` and `stream`: `--source` resolved (what can be checked before
/// GStreamer starts is checked), the capture pipeline built from its template, and every camera
/// failure worded for the user.
struct Capture {
    let source: CaptureSource
    let frames: FrameSource
    /// What was asked of the camera (`1280x720 at 30 fps`), for the message when it cannot.
    let mode: String?

    /// Resolves `spec` and builds the capture pipeline (not started yet). `controls` are checked
    /// against the camera's own and set on it as it opens (v4l2src's `extra-controls`).
    /// `exclusiveFrames` (FrameSource's): frames one pull late, to be marked in place; the camera,
    /// which copies each frame into its photo first, takes them at once.
    init(
        spec: SourceSpec, size: FrameSize?, fps: Int?, pipeline: URL?, resources: Resources?,
        controls: [ExtraControl] = [], exclusiveFrames: Bool = true
    ) throws(CamStampError) {
        let plan = try Plan(spec: spec, size: size, fps: fps, pipeline: pipeline, resources: resources)
        source = plan.source
        mode = plan.mode
        var extraControls: String?
        if !controls.isEmpty {
            guard case .v4l2(let device) = source else {
                throw .usage(
                    "--control sets V4L2 camera controls; the \(source == .test ? "test camera" : "video file") has none"
                )
            }
            let available: [CameraControl]
            do { available = try CameraControls.list(device: device) } catch {
                throw Self.captureError(error, source: source)
            }
            extraControls = ExtraControl.structure(try Self.checked(controls, against: available, device: device))
        }
        do {
            frames = try FrameSource(
                pipeline: Pipeline(plan.description), live: true, exclusiveFrames: exclusiveFrames)
            // A clip played as the camera keeps its colours: GStreamer alone makes a phone's full range limited.
            if case .file(let clip) = source { frames.pipeline.keepColours(ofClip: clip) }
            // The benches' clock in the test camera's frames (CAMSTAMP_TEST_CLOCK=1, bench/README.md).
            if source == .test { try frames.pipeline.stampTestClockIfAsked() }
            if let extraControls {
                try frames.pipeline.element(named: "camera").set("extra-controls", structure: extraControls)
            }
        } catch {
            throw Self.captureError(error, source: source, mode: mode)
        }
    }

    /// What a capture is built from: `--source` resolved, and the capture template (`--pipeline`
    /// or the shipped one) filled in for it: the launch text of the capture pipeline (shoot, the
    /// camera), or of the capture part of the stream's one pipeline.
    struct Plan {
        let source: CaptureSource
        /// What was asked of the camera (`1280x720 at 30 fps`), for the message when it cannot.
        let mode: String?
        let description: String

        init(spec: SourceSpec, size: FrameSize?, fps: Int?, pipeline: URL?, resources: Resources?) throws(CamStampError)
        {
            source = try Capture.captureSource(for: spec)
            Verbosity.log("source: \(source)")
            let modeParts = [size.map { "\($0.width)x\($0.height)" }, fps.map { "\($0) fps" }].compactMap { $0 }
            mode = modeParts.isEmpty ? nil : modeParts.joined(separator: " at ")
            let template = try Templates.load(pipeline, builtIn: "capture", resources: resources)
            do {
                description = try source.capture(
                    format: CaptureFormat(width: size?.width, height: size?.height, fps: fps), template: template)
            } catch {
                throw Capture.captureError(error, source: source, mode: mode)
            }
        }

        /// A failure of this capture, worded for the user (see `Capture.captureError`).
        func failure(_ error: MediaError) -> CamStampError { Capture.captureError(error, source: source, mode: mode) }
    }

    /// Sets V4L2 controls on the running camera (the page's controls): v4l2src applies a new
    /// `extra-controls` to an open device at once.
    func setControls(_ controls: [ExtraControl]) throws(CamStampError) {
        guard case .v4l2 = source else {
            throw .usage("the \(source == .test ? "test camera" : "video file") has no controls")
        }
        do {
            try frames.pipeline.element(named: "camera").set(
                "extra-controls", structure: ExtraControl.structure(controls))
        } catch {
            throw Self.captureError(error, source: source, mode: mode)
        }
    }

    /// `requested` checked against the controls `device` has: each name known and settable, each
    /// value of the control's type and in its range, menu items given by label turned into their
    /// index. Errors name the control and what it accepts.
    static func checked(
        _ requested: [ExtraControl], against available: [CameraControl],
        device: String
    ) throws(CamStampError) -> [ExtraControl] {
        var result: [ExtraControl] = []
        for control in requested {
            guard let known = available.first(where: { $0.name == control.name }) else {
                let hint =
                    didYouMean(control.name, in: available.map(\.name)).map { "; \($0)" }
                    ?? (available.isEmpty ? "; it has no controls" : "")
                throw .usage(
                    "--control \(control.name): \(device) has no such control\(hint) (`camstamp devices` lists them)")
            }
            guard known.isSettable else {
                let why = known.isReadOnly ? "read-only" : "a \(known.type.rawValue) control, which v4l2src cannot set"
                throw .usage("--control \(control.name): \(why) on \(device)")
            }
            let range = "\(known.minimum)…\(known.maximum)"
            switch (known.type, control.value) {
            case (.button, .integer), (.button, .boolean):
                // Setting a button presses it, whatever the value (its range is 0…0).
                result.append(ExtraControl(name: control.name, value: .integer(1)))
            case (.boolean, .boolean):
                result.append(control)
            case (.boolean, .integer(let value)) where value == 0 || value == 1:
                result.append(ExtraControl(name: control.name, value: .boolean(value == 1)))
            case (.boolean, _):
                throw .usage("--control \(control): \(control.name) is on/off; give true or false")
            case (.menu, .text(let label)), (.integerMenu, .text(let label)):
                guard let item = known.menu.first(where: { $0.name.caseInsensitiveCompare(label) == .orderedSame })
                else {
                    throw .usage("--control \(control): not one of \(control.name)'s items: \(menuText(known))")
                }
                result.append(ExtraControl(name: control.name, value: .integer(Int(item.index))))
            case (.menu, .integer(let index)), (.integerMenu, .integer(let index)):
                guard known.menu.contains(where: { $0.index == Int64(index) }) else {
                    throw .usage("--control \(control): not one of \(control.name)'s items: \(menuText(known))")
                }
                result.append(control)
            case (_, .integer(let value)):
                guard Int64(value) >= known.minimum, Int64(value) <= known.maximum else {
                    throw .usage(
                        "--control \(control): out of range; \(control.name) takes \(range) (default \(known.defaultValue))"
                    )
                }
                result.append(control)
            default:
                throw .usage(
                    "--control \(control): \(control.name) takes a whole number, \(range) (default \(known.defaultValue))"
                )
            }
        }
        return result
    }

    private static func menuText(_ control: CameraControl) -> String {
        control.menu.map { "\($0.index) (\($0.name))" }.joined(separator: ", ")
    }

    /// Frames as soon as a live camera gives them, not held until their time plus the capture's
    /// latency (a frame at 30 fps): a viewfinder and a zero-lag shutter want them at once. A
    /// video file played as the camera keeps being paced by the clock.
    func deliverAtOnce() {
        if case .file = source { return }
        try? frames.pipeline.element(named: "frames").set("sync", false)
    }

    func start() throws(CamStampError) {
        do { try frames.start() } catch { throw Self.captureError(error, source: source, mode: mode) }
    }

    /// The next frame (bounded wait); camera errors come out worded for the user.
    func pull() throws(CamStampError) -> FrameSource.Pull {
        do { return try frames.pull() } catch { throw Self.captureError(error, source: source, mode: mode) }
    }

    func stop() { frames.stop() }

    static func captureSource(for spec: SourceSpec) throws(CamStampError) -> CaptureSource {
        switch spec {
        case .test:
            return .test
        case .auto:
            let cameras: [CameraDevice]
            do { cameras = try Devices.cameras() } catch { throw .failure("devices: \(error)") }
            guard let path = cameras.compactMap(\.path).first(where: { $0.hasPrefix("/dev/") }) else {
                throw .failure("no camera found; connect one, or use `--source test` for the built-in test camera")
            }
            return .v4l2(device: path)
        case .named(let name):
            let cameras: [CameraDevice]
            do { cameras = try Devices.cameras() } catch { throw .failure("devices: \(error)") }
            let choices = cameras.compactMap { camera in camera.path.map { (name: camera.name, path: $0) } }
                .filter { $0.path.hasPrefix("/dev/") }
            return try captureSource(for: .v4l2(device: choose(name, among: choices)))
        case .v4l2(let device):
            guard FileManager.default.fileExists(atPath: device) else {
                throw .failure(
                    "no camera at \(device); `camstamp devices` lists cameras, `--source test` uses the test camera")
            }
            guard access(device, R_OK | W_OK) == 0 else {
                throw .failure(
                    "\(device): permission denied; add yourself to the 'video' group (sudo usermod -aG video $USER, then log in again)"
                )
            }
            return .v4l2(device: device)
        case .file(let url):
            guard FileManager.default.isReadableFile(atPath: url.path) else {
                throw .usage("--source: cannot read \(url.path)")
            }
            // A still image decodes to one frame with no rate (with --fps, the capture's videorate
            // would wait for ever for a second one): refuse it, and anything else not a video, now.
            let type: String
            do { type = try CaptureSource.mediaType(of: url) } catch {
                var reason = error.description
                if case .stateChange(_, let message, _) = error {
                    reason = message.trimmingCharacters(in: CharacterSet(charactersIn: "."))
                }
                throw .usage(
                    "--source: \(url.path) is not a video GStreamer can read (\(reason)); give a video file such as .mp4 or .mkv"
                )
            }
            if type.hasPrefix("image/") {
                throw .usage(
                    "--source: \(url.path) is a still image (\(type)), not a video; give a video file, or mark photos with camstamp batch"
                )
            }
            return .file(url)
        }
    }

    /// The device of the camera called `name` (`--source "HD Webcam"`): the camera of exactly that
    /// name, else the one whose name starts with it, else the one whose name contains it (case
    /// ignored). None, or more than one at the step that matched: an error listing the cameras.
    static func choose(_ name: String, among cameras: [(name: String, path: String)]) throws(CamStampError) -> String {
        let lowered = name.lowercased()
        let steps: [((name: String, path: String)) -> Bool] = [
            { $0.name == name },
            { $0.name.lowercased().hasPrefix(lowered) },
            { $0.name.lowercased().contains(lowered) },
        ]
        for step in steps {
            let matches = cameras.filter(step)
            if matches.count == 1 { return matches[0].path }
            if matches.count > 1 {
                throw .failure(
                    "--source '\(name)': \(matches.count) cameras match: \(listing(matches)); give more of the name or the /dev/videoN path"
                )
            }
        }
        if cameras.isEmpty {
            throw .failure(
                "--source '\(name)': no camera found; connect one, or use `--source test` for the built-in test camera")
        }
        throw .failure("--source '\(name)': no camera of that name; cameras: \(listing(cameras)) (or `--source test`)")
    }

    private static func listing(_ cameras: [(name: String, path: String)]) -> String {
        cameras.map { "'\($0.name)' (\($0.path))" }.joined(separator: ", ")
    }

    /// A GStreamer failure while capturing, worded for the source it came from.
    static func captureError(_ error: MediaError, source: CaptureSource, mode: String? = nil) -> CamStampError {
        if case .missingElements = error { return .failure(error.description) }
        // A file whose streams give the capture nothing to link: no video in it (sound only, or data).
        if case .file(let url) = source, error.description.contains("not-linked") {
            return .failure(
                "--source file:\(url.path): the file has no video stream camstamp can decode; give a video clip")
        }
        // Anything else a clip's demuxer or decoder says is about that file (damaged data, say).
        if case .file(let url) = source, let message = error.elementMessage {
            let reason = message.trimmingCharacters(in: CharacterSet(charactersIn: ". "))
            return .failure("--source file:\(url.path): the clip cannot be played: \(reason); give another video file")
        }
        if case .file(let url) = source { return .failure("--source file:\(url.path): \(error)") }
        guard case .v4l2(let device) = source else { return .failure("capture: \(error)") }
        if let mode, error.description.contains("not-negotiated") {
            return .failure("\(device) does not offer \(mode); `camstamp devices` lists the sizes and rates it has")
        }
        switch error.resourceProblem {
        case .notFound?:
            return .failure(
                "no camera at \(device); `camstamp devices` lists cameras, `--source test` uses the test camera")
        case .busy?:
            return .failure("\(device) is busy: another program is using the camera; close it and try again")
        case .permissionDenied?:
            return .failure(
                "\(device): permission denied; add yourself to the 'video' group (sudo usermod -aG video $USER, then log in again)"
            )
        default:
            if case .device = error { return .failure(error.description) }
            return .failure("\(device): \(error)")
        }
    }
}

/// Camera failures worded for the user, for code outside the jobs (`camstamp devices`).
package enum CameraErrors {
    /// `error` from `device` as one line: busy, no permission (the 'video' group), no such
    /// camera, not a V4L2 camera.
    package static func worded(_ error: MediaError, device: String) -> CamStampError {
        Capture.captureError(error, source: .v4l2(device: device))
    }
}
