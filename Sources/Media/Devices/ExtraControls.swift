// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CGStreamer
internal import CGstApp
internal import CGstVideo

/// One `--control NAME=VALUE`: a V4L2 control for v4l2src's `extra-controls`, its value read
/// the way GStreamer reads a structure field (`10`, `-3`, `true`, or text such as a menu label).
public struct ExtraControl: Sendable, Equatable, Hashable, CustomStringConvertible {
    public enum Value: Sendable, Equatable, Hashable, CustomStringConvertible {
        case integer(Int)
        case boolean(Bool)
        /// Text: only meaningful as a menu item's label, turned into its index against the camera.
        case text(String)

        public var description: String {
            switch self {
            case .integer(let value): String(value)
            case .boolean(let value): value ? "true" : "false"
            case .text(let value): value
            }
        }
    }

    public var name: String
    public var value: Value

    public init(name: String, value: Value) {
        self.name = name
        self.value = value
    }

    public var description: String { "\(name)=\(value)" }

    /// Parses `NAME=VALUE` through `gst_structure_from_string`, the parser v4l2src's
    /// `extra-controls` goes through: what it cannot read is refused here, with the reason,
    /// instead of being dropped without a word (`gst_util_set_object_arg` ignores a malformed
    /// structure and the camera keeps its old setting).
    public init(parsing text: String) throws(ExtraControlError) {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
            throw ExtraControlError("--control expects NAME=VALUE, e.g. --control brightness=10")
        }
        let name = String(text[..<equals])
        let rawValue = String(text[text.index(after: equals)...])
        let spelled = CameraControl.extraControlsName(name)
        guard spelled == name else {
            let hint = spelled.isEmpty ? "names are lowercase letters, digits and _" : "did you mean '\(spelled)'?"
            throw ExtraControlError(
                "--control: '\(name)' is not a control name as v4l2src spells it; \(hint) (`camstamp devices` lists them)"
            )
        }
        guard !rawValue.isEmpty else {
            throw ExtraControlError("--control \(name): the value is empty; give a number, true/false or a menu item")
        }
        do { try GStreamer.initialize() } catch {
            throw ExtraControlError("--control: \(error)")
        }
        let invalid = ExtraControlError(
            "--control \(text): GStreamer cannot read '\(rawValue)' as one value; give a whole number, true/false or a menu item (quote text with spaces as \"50 Hz\")"
        )
        guard let structure = gst_structure_from_string("controls, \(name)=\(rawValue)", nil) else { throw invalid }
        defer { gst_structure_free(structure) }
        // `a=1, b=2` in one --control would parse as two fields.
        guard gst_structure_n_fields(structure) == 1, let value = gst_structure_get_value(structure, name) else {
            throw ExtraControlError("--control \(text): one control per --control; repeat the option for more")
        }
        switch value.pointee.g_type {
        case gType(G_TYPE_INT):
            self.init(name: name, value: .integer(Int(g_value_get_int(value))))
        case gType(G_TYPE_BOOLEAN):
            self.init(name: name, value: .boolean(g_value_get_boolean(value) != 0))
        case gType(G_TYPE_STRING):
            self.init(name: name, value: .text(g_value_get_string(value).map { String(cString: $0) } ?? ""))
        default:
            // A fraction, a double, a number beyond 32 bits: v4l2src would skip it.
            throw invalid
        }
    }

    /// The `extra-controls` structure for `controls` (integers and booleans; text must have been
    /// resolved against the camera first), e.g. `controls, brightness=(int)10, …`.
    public static func structure(_ controls: [ExtraControl]) -> String {
        (["controls"]
            + controls.map { control in
                switch control.value {
                case .integer(let value): "\(control.name)=(int)\(value)"
                case .boolean(let value): "\(control.name)=(boolean)\(value ? "true" : "false")"
                case .text(let value):
                    "\(control.name)=(string)\"\(value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\""))\""
                }
            }).joined(separator: ", ")
    }
}

/// A `--control` that cannot be used, worded for the user.
public struct ExtraControlError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

let G_TYPE_INT: Int32 = 6
let G_TYPE_BOOLEAN: Int32 = 5

extension Element {
    /// Sets a GstStructure property (v4l2src's `extra-controls`) from its text, refusing text
    /// that does not parse instead of dropping it as `gst_util_set_object_arg` would.
    public func set(_ property: String, structure text: String) throws(MediaError) {
        guard let structure = gst_structure_from_string(text, nil) else {
            throw .invalidTemplate("'\(text)' is not a GStreamer structure")
        }
        let object: UnsafeMutablePointer<GObject> = gcast(pointer)
        guard
            g_object_class_find_property(
                UnsafeMutableRawPointer(object.pointee.g_type_instance.g_class)
                    .assumingMemoryBound(to: GObjectClass.self), property) != nil
        else {
            gst_structure_free(structure)
            throw .invalidTemplate("element '\(name)' has no property '\(property)'")
        }
        var value = GValue()
        g_value_init(&value, gst_structure_get_type())
        defer { g_value_unset(&value) }
        g_value_take_boxed(&value, structure)
        g_object_set_property(object, property, &value)
    }
}
