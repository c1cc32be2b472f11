import Foundation
import Media

/// `--source` to a capture source, checking what can be checked before GStreamer starts, and the
/// messages for what goes wrong with cameras.
enum SourceResolution {
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
            return .file(url)
        }
    }

    /// A GStreamer failure while capturing, worded for the source it came from.
    static func captureError(_ error: MediaError, source: CaptureSource) -> CamStampError {
        if case .missingElements = error { return .failure(error.description) }
        guard case .v4l2(let device) = source else { return .failure("capture: \(error)") }
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
