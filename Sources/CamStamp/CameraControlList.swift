import Foundation
import Media

/// One camera control (focus, exposure, white balance, brightness, power-line frequency…) as
/// `/api/state` shows it to the page: what the page needs, not all the driver says. A control the
/// camera lacks, or cannot change now, is listed with `available: false` and the reason in words,
/// so the page greys it out.
public struct ViewfinderControl: Codable, Sendable, Equatable {
    public struct MenuItem: Codable, Sendable, Equatable {
        public var value: Int
        public var label: String
        public init(value: Int, label: String) { self.value = value; self.label = label }
    }

    /// The V4L2 name as `extra-controls` takes it (`focus_automatic_continuous`).
    public var name: String
    /// `integer`, `boolean`, `menu` or `button`.
    public var type: String
    public var min: Int?
    public var max: Int?
    public var step: Int?
    public var `default`: Int?
    public var value: Int?
    public var menu: [MenuItem]?
    public var available: Bool
    public var reason: String?

    public init(name: String, type: String, min: Int? = nil, max: Int? = nil, step: Int? = nil, default: Int? = nil,
                value: Int? = nil, menu: [MenuItem]? = nil, available: Bool = true, reason: String? = nil) {
        self.name = name; self.type = type; self.min = min; self.max = max; self.step = step
        self.default = `default`; self.value = value; self.menu = menu; self.available = available; self.reason = reason
    }
}

/// Where the camera's controls come from. The V4L2 listing (VIDIOC_QUERYCTRL) is
/// `CameraControls.list(device:)` (Sources/Media/CameraControls.swift, from shoot's work); until a
/// lister over it is passed to `CameraJob`, a camera device is reported with no controls and the
/// reason.
public protocol CameraControlLister: Sendable {
    /// The controls of `device` (`/dev/video0`); throws a message when they cannot be read.
    func controls(device: String) throws -> [ViewfinderControl]
}

/// The lister in use before V4L2 control listing is wired in.
public struct UnwiredControlLister: CameraControlLister {
    public init() {}
    public func controls(device: String) throws -> [ViewfinderControl] {
        throw CamStampError.failure("reading \(device)'s controls is not built into this camstamp yet")
    }
}

/// The controls a source offers, with the reason when it has none.
enum SourceControls {
    static func list(for source: CaptureSource, lister: CameraControlLister) -> (controls: [ViewfinderControl], reason: String?) {
        switch source {
        case .test:
            return ([], "the test camera has no controls (focus, exposure and white balance belong to a real camera)")
        case .file:
            return ([], "a video file has no camera controls")
        case .v4l2(let device):
            do {
                let controls = try lister.controls(device: device)
                return (controls, controls.isEmpty ? "\(device) exposes no controls" : nil)
            } catch {
                return ([], "\(error)")
            }
        }
    }
}
