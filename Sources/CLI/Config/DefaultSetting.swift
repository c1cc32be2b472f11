// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// One value of the defaults file, and how it goes under a command line.

/// Where a value of the defaults file is written: the file, the line and the key.
public struct SettingOrigin: Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var key: String

    /// `FILE:LINE`, as errors and `config show` name it.
    public var description: String { "\(file):\(line)" }
}

/// A value as the defaults file gives it, checked against the kinds of the option it sets.
public enum SettingValue: Sendable, Equatable {
    /// A switch: `"recursive": true`.
    case flag(Bool)
    /// One value: `"jobs": 2`, `"output": "~/shots"` (`~` already expanded).
    case text(String)
    /// A repeated option's values: `"presets": ["timestamp", "credit"]`.
    case list([String])
    /// `"variables": {"author": "Studio"}`, as `--var` takes them: `author=Studio`.
    case assignments([String])

    /// The values the command line would have held for an option of `kind`; nil for a switch
    /// set to false (which leaves the option's default) or a value of another kind.
    func arguments(for kind: OptionSpec.Kind) -> [String]? {
        switch (self, kind) {
        case (.flag(let on), .flag): on ? [""] : nil
        case (.text(let text), .single): [text]
        case (.text(let text), .repeatable): [text]
        case (.list(let values), .repeatable), (.assignments(let values), .repeatable): values
        default: nil
        }
    }
}

/// One option the defaults file sets.
public struct DefaultSetting: Sendable, Equatable {
    /// The option's long name: `preset` for the key `presets`.
    public var option: String
    public var value: SettingValue
    public var origin: SettingOrigin
}

extension ParsedArguments {
    /// Puts the file's `settings` under the command line, for the options `command` takes. The
    /// command line wins: an option it gives replaces the file's values (`--preset` replaces the
    /// file's presets), but `--var` adds to the file's variables, the command line's winning for
    /// the same name (as a later `--var` wins). A file's option of a group that cannot be used
    /// together is dropped when the command line gives one of that group.
    mutating func applyDefaults(_ settings: [DefaultSetting], command: CommandSpec) {
        for setting in settings {
            guard let spec = command.options.first(where: { $0.long == setting.option }),
                let arguments = setting.value.arguments(for: spec.kind)
            else { continue }
            if has(spec.long) {
                if spec.long == Commands.variable.spec.long { values[spec.long] = arguments + values(spec.long) }
                continue
            }
            let group = command.exclusive.first { $0.contains(spec.long) } ?? []
            if group.contains(where: { has($0) && origins[$0] == nil }) { continue }
            values[spec.long] = arguments
            order.append(spec.long)
            origins[spec.long] = setting.origin
        }
    }
}
