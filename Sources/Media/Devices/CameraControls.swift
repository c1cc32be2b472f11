// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CV4L2
import Glibc

/// One V4L2 control of a camera (brightness, focus, power-line frequency…), as the driver
/// describes it.
public struct CameraControl: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Codable {
        case integer, boolean, menu, button, integer64, string, bitmask
        case integerMenu = "integer-menu"
        case other
    }

    public enum Flag: String, Sendable, Codable {
        case disabled, grabbed, inactive, slider, volatile
        case readOnly = "read-only"
        case writeOnly = "write-only"
        case update
    }

    /// One choice of a menu control: its index (the value to set) and its label, or its number
    /// for an integer menu.
    public struct MenuItem: Sendable, Equatable, Codable {
        public var index: Int64
        public var name: String
        public init(index: Int64, name: String) {
            self.index = index
            self.name = name
        }
    }

    /// The name as v4l2src's `extra-controls` spells it: `white_balance_temperature_auto`.
    public var name: String
    /// The driver's own label: `White Balance Temperature, Auto`.
    public var label: String
    public var id: UInt32
    public var type: Kind
    public var minimum: Int64
    public var maximum: Int64
    public var step: UInt64
    public var defaultValue: Int64
    /// The current value; nil when it cannot be read (a button, a write-only or string control).
    public var value: Int64?
    public var menu: [MenuItem]
    public var flags: [Flag]

    public init(
        name: String, label: String, id: UInt32, type: Kind, minimum: Int64, maximum: Int64,
        step: UInt64, defaultValue: Int64, value: Int64?, menu: [MenuItem] = [], flags: [Flag] = []
    ) {
        self.name = name
        self.label = label
        self.id = id
        self.type = type
        self.minimum = minimum
        self.maximum = maximum
        self.step = step
        self.defaultValue = defaultValue
        self.value = value
        self.menu = menu
        self.flags = flags
    }

    /// Greyed out now: another control (an "auto" one) decides its value.
    public var isInactive: Bool { flags.contains(.inactive) }
    public var isReadOnly: Bool { flags.contains(.readOnly) }

    /// Whether v4l2src's `extra-controls` can set it (the types v4l2src registers by name).
    public var isSettable: Bool {
        !isReadOnly && [.integer, .boolean, .menu, .integerMenu, .bitmask, .button].contains(type)
    }

    /// v4l2src's spelling of a driver's label, as `v4l2-ctl` writes it: letters and digits
    /// lowercased, each run of anything else between them one `_`
    /// (`Exposure (Absolute)` → `exposure_absolute`).
    public static func extraControlsName(_ label: String) -> String {
        var out = ""
        var pendingSeparator = false
        for character in label.unicodeScalars {
            let isAlphanumeric =
                character.isASCII
                && (("a"..."z").contains(character) || ("A"..."Z").contains(character)
                    || ("0"..."9").contains(character))
            if isAlphanumeric {
                if pendingSeparator && !out.isEmpty { out += "_" }
                pendingSeparator = false
                out += String(character).lowercased()
            } else {
                pendingSeparator = true
            }
        }
        return out
    }
}

/// The controls of a V4L2 camera, read from the device with ioctl(2).
public enum CameraControls {
    /// Every control `device` has (disabled ones and control-class headings left out), with its
    /// range, default, current value and menu items. Opening the device does not disturb another
    /// program that is capturing from it.
    public static func list(device: String) throws(MediaError) -> [CameraControl] {
        let fd = open(device, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw .device(path: device, operation: "open", code: errno) }
        defer { close(fd) }
        var capability = v4l2_capability()
        guard retrying({ camstamp_v4l2_querycap(fd, &capability) }) == 0 else {
            throw .device(path: device, operation: "VIDIOC_QUERYCAP", code: errno)
        }
        var controls: [CameraControl] = []
        var extended = true
        var id = UInt32(V4L2_CTRL_FLAG_NEXT_CTRL)
        while true {
            var query = v4l2_query_ext_ctrl()
            query.id = id
            if extended {
                if retrying({ camstamp_v4l2_query_ext_ctrl(fd, &query) }) != 0 {
                    // Drivers older than Linux 3.17 know only VIDIOC_QUERYCTRL.
                    if errno == ENOTTY && controls.isEmpty {
                        extended = false
                        continue
                    }
                    break
                }
            } else {
                var old = v4l2_queryctrl()
                old.id = id
                guard retrying({ camstamp_v4l2_queryctrl(fd, &old) }) == 0 else { break }
                query.id = old.id
                query.type = old.type
                query.minimum = Int64(old.minimum)
                query.maximum = Int64(old.maximum)
                query.step = UInt64(old.step)
                query.default_value = Int64(old.default_value)
                query.flags = old.flags
                withUnsafeMutableBytes(of: &query.name) { target in
                    withUnsafeBytes(of: old.name) { source in target.copyBytes(from: source.prefix(target.count)) }
                }
            }
            id = query.id | UInt32(V4L2_CTRL_FLAG_NEXT_CTRL)
            let type = v4l2_ctrl_type(rawValue: query.type)
            if query.flags & UInt32(V4L2_CTRL_FLAG_DISABLED) != 0 || type == V4L2_CTRL_TYPE_CTRL_CLASS { continue }
            controls.append(control(from: query, fd: fd))
        }
        return controls
    }

    private static func control(from query: v4l2_query_ext_ctrl, fd: Int32) -> CameraControl {
        let label = withUnsafeBytes(of: query.name) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        let kind: CameraControl.Kind =
            switch v4l2_ctrl_type(rawValue: query.type) {
            case V4L2_CTRL_TYPE_INTEGER: .integer
            case V4L2_CTRL_TYPE_BOOLEAN: .boolean
            case V4L2_CTRL_TYPE_MENU: .menu
            case V4L2_CTRL_TYPE_INTEGER_MENU: .integerMenu
            case V4L2_CTRL_TYPE_BUTTON: .button
            case V4L2_CTRL_TYPE_INTEGER64: .integer64
            case V4L2_CTRL_TYPE_STRING: .string
            case V4L2_CTRL_TYPE_BITMASK: .bitmask
            default: .other
            }
        let flagBits: [(UInt32, CameraControl.Flag)] = [
            (UInt32(V4L2_CTRL_FLAG_GRABBED), .grabbed), (UInt32(V4L2_CTRL_FLAG_READ_ONLY), .readOnly),
            (UInt32(V4L2_CTRL_FLAG_UPDATE), .update), (UInt32(V4L2_CTRL_FLAG_INACTIVE), .inactive),
            (UInt32(V4L2_CTRL_FLAG_SLIDER), .slider), (UInt32(V4L2_CTRL_FLAG_WRITE_ONLY), .writeOnly),
            (UInt32(V4L2_CTRL_FLAG_VOLATILE), .volatile),
        ]
        let flags = flagBits.filter { query.flags & $0.0 != 0 }.map(\.1)
        var menu: [CameraControl.MenuItem] = []
        if kind == .menu || kind == .integerMenu, query.minimum >= 0, query.maximum >= query.minimum,
            query.maximum - query.minimum < 256
        {
            for index in query.minimum...query.maximum {
                var item = v4l2_querymenu()
                item.id = query.id
                item.index = UInt32(index)
                // Indices a driver skips fail with EINVAL: they are not choices.
                guard retrying({ camstamp_v4l2_querymenu(fd, &item) }) == 0 else { continue }
                let name: String =
                    kind == .integerMenu
                    ? String(item.value)
                    : withUnsafeBytes(of: item.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                menu.append(.init(index: index, name: name))
            }
        }
        var value: Int64?
        let readable =
            [.integer, .boolean, .menu, .integerMenu, .integer64, .bitmask].contains(kind)
            && !flags.contains(.writeOnly)
        if readable {
            var one = v4l2_ext_control()
            one.id = query.id
            value = withUnsafeMutablePointer(to: &one) { pointer -> Int64? in
                var request = v4l2_ext_controls()
                request.which = UInt32(V4L2_CTRL_WHICH_CUR_VAL)
                request.count = 1
                request.controls = pointer
                guard retrying({ camstamp_v4l2_g_ext_ctrls(fd, &request) }) == 0 else { return nil }
                return kind == .integer64 ? pointer.pointee.value64 : Int64(pointer.pointee.value)
            }
        }
        return CameraControl(
            name: CameraControl.extraControlsName(label), label: label, id: query.id, type: kind,
            minimum: query.minimum, maximum: query.maximum, step: query.step,
            defaultValue: query.default_value, value: value, menu: menu, flags: flags)
    }

    /// Runs an ioctl again when a signal interrupted it.
    private static func retrying(_ call: () -> Int32) -> Int32 {
        while true {
            let result = call()
            if result == -1 && errno == EINTR { continue }
            return result
        }
    }
}
