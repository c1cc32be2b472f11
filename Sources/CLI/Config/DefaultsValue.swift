// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// A defaults file's value checked against the kind of the option it sets: one line naming the
// file, the line and the key when it is of the wrong type.
import Presets

extension DefaultsFile {
    /// `node` as a value of the option `entry` stands for, paths with `~` expanded to `home`.
    static func value(
        _ node: JSONNode, entry: DefaultsKeys.Entry, origin: SettingOrigin, home: String
    ) throws(UsageError) -> SettingValue {
        let isText = DefaultsKeys.freeText.contains(entry.option)
        let expand = { (text: String) in isText ? text : expandingTilde(text, home: home) }
        if entry.option == Commands.variable.spec.long {
            return .assignments(try assignments(node, origin: origin))
        }
        if entry.kinds.contains(.flag), case .bool(let on) = node.value { return .flag(on) }
        if !entry.kinds.subtracting([.flag]).isEmpty, let text = scalar(node) { return .text(expand(text)) }
        if entry.kinds.contains(.repeatable), case .array(let items) = node.value {
            var values: [String] = []
            for item in items {
                guard let text = scalar(item) else {
                    throw UsageError(
                        "\(origin.file):\(item.line): key '\(origin.key)': each value must be a string "
                            + "(got \(item.typeName))")
                }
                values.append(expand(text))
            }
            return .list(values)
        }
        throw UsageError("\(origin): key '\(origin.key)' must be \(expected(entry)) (got \(node.typeName))")
    }

    /// `"variables": {"author": "Studio"}` as `--var` takes it: `author=Studio`.
    private static func assignments(_ node: JSONNode, origin: SettingOrigin) throws(UsageError) -> [String] {
        guard case .object(let members) = node.value else {
            throw UsageError(
                "\(origin): key '\(origin.key)' must be an object of names and values, "
                    + "e.g. {\"author\": \"Studio\"} (got \(node.typeName))")
        }
        var assignments: [String] = []
        for member in members {
            guard !member.key.isEmpty, let text = scalar(member.value) else {
                let what =
                    member.key.isEmpty ? "a variable's name must not be empty" : "'\(member.key)' must be a string"
                throw UsageError(
                    "\(origin.file):\(member.keyLine): key '\(origin.key)': \(what) (got \(member.value.typeName))")
            }
            assignments.append("\(member.key)=\(text)")
        }
        return assignments
    }

    /// A string as written, a number as the command line would write it (`2`, `2.5`); nil for
    /// anything else.
    private static func scalar(_ node: JSONNode) -> String? {
        switch node.value {
        case .string(let text): text
        case .number(let number) where number == number.rounded() && abs(number) < 1e15: String(Int(number))
        case .number(let number): String(number)
        default: nil
        }
    }

    private static func expected(_ entry: DefaultsKeys.Entry) -> String {
        var kinds: [String] = []
        if entry.kinds.contains(.flag) { kinds.append("true or false") }
        if entry.kinds.contains(.single) { kinds.append("a string or a number") }
        if entry.kinds.contains(.repeatable) { kinds.append("a string or a list of strings, e.g. [\"a\", \"b\"]") }
        return kinds.joined(separator: ", or ")
    }

    /// `~` and `~/…` at the start of `text` as a path under `home`, as a shell would have.
    static func expandingTilde(_ text: String, home: String) -> String {
        if text == "~" { return home }
        guard text.hasPrefix("~/") else { return text }
        return (home.hasSuffix("/") ? String(home.dropLast()) : home) + text.dropFirst()
    }
}
