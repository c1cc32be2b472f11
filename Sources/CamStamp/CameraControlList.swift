// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import Media

/// One camera control (focus, exposure, white balance, brightness, power-line frequency…) as
/// `/api/state` shows it to the page: what the page needs, not all the driver says. A control the
/// camera lacks, or cannot change now, is listed with `available: false` and the reason in words,
/// so the page greys it out.
public struct ViewfinderControl: Codable, Sendable, Equatable {
    /// One choice of a menu control.
    public struct MenuItem: Codable, Sendable, Equatable {
        /// The value set to choose it.
        public var value: Int
        /// Its name as the driver gives it.
        public var label: String
        /// A choice `value` named `label`.
        public init(value: Int, label: String) {
            self.value = value
            self.label = label
        }
    }

    /// The V4L2 name as `extra-controls` takes it (`focus_automatic_continuous`).
    public var name: String
    /// `integer`, `boolean`, `menu` or `button`.
    public var type: String
    /// The smallest value.
    public var min: Int?
    /// The largest value.
    public var max: Int?
    /// The step between values.
    public var step: Int?
    /// The driver's default.
    public var `default`: Int?
    /// The current value, when the driver tells it.
    public var value: Int?
    /// A menu control's choices.
    public var menu: [MenuItem]?
    /// False when the camera lacks it or cannot change it now (greyed out on the page).
    public var available: Bool
    /// Why it is not available, in words.
    public var reason: String?

    /// A control as the page shows it.
    public init(
        name: String, type: String, min: Int? = nil, max: Int? = nil, step: Int? = nil, default: Int? = nil,
        value: Int? = nil, menu: [MenuItem]? = nil, available: Bool = true, reason: String? = nil
    ) {
        self.name = name
        self.type = type
        self.min = min
        self.max = max
        self.step = step
        self.default = `default`
        self.value = value
        self.menu = menu
        self.available = available
        self.reason = reason
    }
}

/// Where the camera's controls come from; tests pass their own.
public protocol CameraControlLister: Sendable {
    /// The controls of `device` (`/dev/video0`); throws a message when they cannot be read.
    func controls(device: String) throws -> [ViewfinderControl]
}

/// The camera's own controls, read with VIDIOC_QUERY_EXT_CTRL (`CameraControls.list(device:)`,
/// the listing `camstamp devices` prints), in the page's terms.
public struct V4L2ControlLister: CameraControlLister {
    /// The lister `CameraJob` uses by default.
    public init() {}
    public func controls(device: String) throws -> [ViewfinderControl] {
        try CameraControls.list(device: device).map { control in
            ViewfinderControl(
                name: control.name,
                type: control.type == .integerMenu ? "menu" : control.type.rawValue,
                min: Int(clamping: control.minimum), max: Int(clamping: control.maximum),
                step: Int(clamping: control.step),
                default: Int(clamping: control.defaultValue), value: control.value.map { Int(clamping: $0) },
                menu: control.menu.isEmpty
                    ? nil : control.menu.map { .init(value: Int(clamping: $0.index), label: $0.name) },
                available: control.isSettable && !control.isInactive,
                reason: control.isInactive
                    ? "set by an automatic control that is on"
                    : control.isSettable ? nil : "the camera does not let it be changed")
        }
    }
}

/// The controls a source offers, with the reason when it has none.
enum SourceControls {
    static func list(
        for source: CaptureSource, lister: CameraControlLister
    ) -> (controls: [ViewfinderControl], reason: String?) {
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
