import Foundation
import Media

/// The capture side of `shoot` and `stream`: `--source` resolved (what can be checked before
/// GStreamer starts is checked), the capture pipeline built from its template, and every camera
/// failure worded for the user.
struct Camera {
    let source: CaptureSource
    let frames: FrameSource
    /// What was asked of the camera (`1280x720 at 30 fps`), for the message when it cannot.
    let mode: String?

    /// Resolves `spec` and builds the capture pipeline (not started yet).
    init(spec: SourceSpec, size: FrameSize?, fps: Int?, pipeline: URL?, resources: Resources?) throws(CamStampError) {
        source = try Self.captureSource(for: spec)
        let modeParts = [size.map { "\($0.width)x\($0.height)" }, fps.map { "\($0) fps" }].compactMap { $0 }
        mode = modeParts.isEmpty ? nil : modeParts.joined(separator: " at ")
        let template = try Templates.load(pipeline, builtIn: "capture", resources: resources)
        do {
            frames = try FrameSource.capture(source, format: CaptureFormat(width: size?.width, height: size?.height, fps: fps),
                                             template: template)
        } catch {
            throw Self.captureError(error, source: source, mode: mode)
        }
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
        case .v4l2(let device):
            guard FileManager.default.fileExists(atPath: device) else {
                throw .failure("no camera at \(device); `camstamp devices` lists cameras, `--source test` uses the test camera")
            }
            guard access(device, R_OK | W_OK) == 0 else {
                throw .failure("\(device): permission denied; add yourself to the 'video' group (sudo usermod -aG video $USER, then log in again)")
            }
            return .v4l2(device: device)
        case .file(let url):
            guard FileManager.default.isReadableFile(atPath: url.path) else {
                throw .usage("--source: cannot read \(url.path)")
            }
            // A still image decodes to one frame with no rate, on which the capture pipeline's
            // videorate waits for ever: refuse it (and anything else that is not a video) now.
            let type: String
            do { type = try CaptureSource.mediaType(of: url) } catch {
                var reason = error.description
                if case .stateChange(_, let message, _) = error { reason = message.trimmingCharacters(in: CharacterSet(charactersIn: ".")) }
                throw .usage("--source: \(url.path) is not a video GStreamer can read (\(reason)); give a video file such as .mp4 or .mkv")
            }
            if type.hasPrefix("image/") {
                throw .usage("--source: \(url.path) is a still image (\(type)), not a video; give a video file, or mark photos with camstamp batch")
            }
            return .file(url)
        }
    }

    /// A GStreamer failure while capturing, worded for the source it came from.
    static func captureError(_ error: MediaError, source: CaptureSource, mode: String? = nil) -> CamStampError {
        if case .missingElements = error { return .failure(error.description) }
        guard case .v4l2(let device) = source else { return .failure("capture: \(error)") }
        if let mode, error.description.contains("not-negotiated") {
            return .failure("\(device) does not offer \(mode); `camstamp devices` lists the sizes and rates it has")
        }
        switch error.resourceProblem {
        case .notFound?:
            return .failure("no camera at \(device); `camstamp devices` lists cameras, `--source test` uses the test camera")
        case .busy?:
            return .failure("\(device) is busy: another program is using the camera; close it and try again")
        case .permissionDenied?:
            return .failure("\(device): permission denied; add yourself to the 'video' group (sudo usermod -aG video $USER, then log in again)")
        default:
            return .failure("\(device): \(error)")
        }
    }
}
