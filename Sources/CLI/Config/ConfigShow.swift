// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// What `camstamp config show` prints: each value in force and where it comes from.
import Foundation

/// The rows of `config show`: the file's settings, or every option of one command.
struct ConfigShow {
    /// One key: its value and where it comes from.
    struct Row: Encodable {
        var key: String
        /// `--preset`.
        var option: String
        var value: Shown
        /// `FILE:LINE`, or `default`.
        var from: String
        /// The commands that take it (`batch`, `presets list`).
        var commands: [String]
        /// For a repeated option: what the command line does to the file's values (`replaces`, `adds`).
        var commandLine: String?

        enum CodingKeys: String, CodingKey {
            case key, option, value, from, commands
            case commandLine = "command_line"
        }
    }

    /// A value as `--json` writes it: a string, a boolean, a list, an object, or null (not set).
    enum Shown: Encodable {
        case text(String)
        case flag(Bool)
        case list([String])
        case object([String: String])
        case unset

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .text(let text): try container.encode(text)
            case .flag(let on): try container.encode(on)
            case .list(let values): try container.encode(values)
            case .object(let pairs): try container.encode(pairs)
            case .unset: try container.encodeNil()
            }
        }

        /// As the text table shows it.
        var text: String {
            switch self {
            case .text(let text): text
            case .flag(let on): on ? "true" : "false"
            case .list(let values): values.joined(separator: ", ")
            case .object(let pairs):
                pairs.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
            case .unset: "-"
            }
        }
    }

    private struct Document: Encodable {
        var file: String?
        var exists: Bool
        var command: String?
        var settings: [Row]
    }

    let file: DefaultsFile
    /// Empty for the file's settings; `["batch"]` for every option of batch.
    let command: [String]

    func lines(json: Bool) throws(UsageError) -> [String] {
        let exists = try file.contents() != nil
        let rows = try rows()
        if json {
            let name = command.isEmpty ? nil : command.joined(separator: " ")
            return [jsonText(Document(file: file.url?.path, exists: exists, command: name, settings: rows))]
        }
        var lines = [header(exists: exists)]
        let keyWidth = rows.map(\.key.count).max() ?? 0
        let valueWidth = min(40, rows.map(\.value.text.count).max() ?? 0)
        for row in rows {
            var line = pad(row.key, keyWidth) + "  " + pad(row.value.text, valueWidth) + "  " + row.from
            if command.isEmpty {
                line +=
                    "  (" + (row.commands.isEmpty ? "no command takes it yet" : row.commands.joined(separator: ", "))
                line += row.commandLine.map { "; " + Self.commandLineNote(row.option, $0) } ?? ""
                line += ")"
            } else if let commandLine = row.commandLine, row.from != "default" {
                line += "  (" + Self.commandLineNote(row.option, commandLine) + ")"
            }
            lines.append(line)
        }
        return lines
    }

    /// `--preset replaces these`, `--var adds to these`.
    private static func commandLineNote(_ option: String, _ effect: String) -> String {
        "\(option) on the command line \(effect == "adds" ? "adds to" : "replaces") these"
    }

    private func header(exists: Bool) -> String {
        guard let url = file.url else {
            return "# no defaults file is read (\(DefaultsFile.variable)=none): every option has its default"
        }
        return exists ? "# \(url.path)" : "# \(url.path) does not exist: every option has its default"
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text.padding(toLength: width, withPad: " ", startingAt: 0)
    }

    private func rows() throws(UsageError) -> [Row] {
        let keys = DefaultsKeys.table()
        let settings = try file.settings(keys: keys)
        guard !command.isEmpty, let spec = Commands.root.find(command) else {
            return settings.map { setting in
                let entry = keys[setting.origin.key]!
                return row(entry: entry, value: Self.shown(setting.value), from: setting.origin.description)
            }
        }
        var arguments = ParsedArguments()
        arguments.applyDefaults(settings, command: spec)
        return spec.options.map { option in
            let entry = keys[DefaultsKeys.key(for: option.long)]!
            guard let origin = arguments.origins[option.long],
                let setting = settings.last(where: { $0.origin == origin })
            else {
                let value: Shown =
                    option.defaultText.map { .text(Self.firstClause($0)) }
                    ?? (option.kind == .flag ? .flag(false) : .unset)
                return row(entry: entry, value: value, from: "default")
            }
            return row(entry: entry, value: Self.shown(setting.value), from: origin.description)
        }
    }

    private func row(entry: DefaultsKeys.Entry, value: Shown, from: String) -> Row {
        let commandLine: String? =
            !entry.kinds.contains(.repeatable) ? nil : entry.option == Commands.variable.spec.long ? "adds" : "replaces"
        return Row(
            key: entry.key, option: "--\(entry.option)", value: value, from: from, commands: entry.commands,
            commandLine: commandLine)
    }

    /// A default as its help says it, up to the first comma or semicolon: a table's cell, not a sentence.
    private static func firstClause(_ text: String) -> String {
        String(text.prefix { $0 != "," && $0 != ";" })
    }

    private static func shown(_ value: SettingValue) -> Shown {
        switch value {
        case .flag(let on): .flag(on)
        case .text(let text): .text(text)
        case .list(let values): .list(values)
        case .assignments(let pairs):
            .object(
                Dictionary(
                    pairs.map { pair in
                        let equals = pair.firstIndex(of: "=")!
                        return (String(pair[..<equals]), String(pair[pair.index(after: equals)...]))
                    }, uniquingKeysWith: { $1 }))
        }
    }
}
