// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
/// Help text in OVERVIEW / USAGE / ARGUMENTS / OPTIONS form, built from the tables and wrapped.
public enum HelpFormatter {
    /// The full help of `command`, whose words from the root are `name` (`camstamp presets show`).
    public static func help(for command: CommandSpec, name: String, width: Int = 80) -> String {
        var lines: [String] = []
        lines += wrap(command.overview, width: width, first: "OVERVIEW: ", rest: "          ")
        lines.append("")
        lines += usageLines(for: command, name: name, width: width)

        let options = command.allOptions
        let anyShort = options.contains { $0.short != nil }
        let optionRows = options.map { option -> (String, String) in
            let label = option.short == nil && anyShort ? "    " + option.helpLabel : option.helpLabel
            let text = option.defaultText.map { "\(option.help) (default: \($0))" } ?? option.help
            return (label, text)
        }
        let argumentRows = command.arguments.map { ($0.isRepeated ? "\($0.name)..." : $0.name, $0.help) }
        let commandRows = command.subcommands.map { sub -> (String, String) in
            let text = sub.name == command.defaultSubcommand ? "\(sub.overview) (default)" : sub.overview
            return (sub.name, text)
        }
        // One label column for every table so that the help reads as one grid.
        let labels = (optionRows + argumentRows + commandRows).map(\.0.count)
        let column = min(labels.max() ?? 0, maxLabelWidth)

        for (title, rows) in [("ARGUMENTS", argumentRows), ("COMMANDS", commandRows), ("OPTIONS", optionRows)]
        where !rows.isEmpty {
            lines.append("")
            lines.append("\(title):")
            for (label, text) in rows {
                lines += table(label: label, text: text, column: column, width: width)
            }
        }
        if let discussion = command.discussion {
            for paragraph in discussion.split(separator: "\n", omittingEmptySubsequences: false) {
                lines.append("")
                lines += wrap(String(paragraph), width: width, first: "", rest: "")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Labels longer than this put their text on the next line instead of widening the column.
    static let maxLabelWidth = 26

    /// `USAGE: camstamp batch INPUT... -o OUTDIR [--preset P]...`, wrapped under its first item.
    static func usageLines(for command: CommandSpec, name: String, width: Int) -> [String] {
        if let usage = command.usage {
            return usage.split(separator: "\n").enumerated().map { index, line in
                (index == 0 ? "USAGE: " : "       ") + line
            }
        }
        let prefix = "USAGE: \(name) "
        let items = usageItems(for: command)
        if items.isEmpty { return ["USAGE: \(name)"] }
        return fill(items, width: width, first: prefix, rest: String(repeating: " ", count: prefix.count))
    }

    /// The usage words: positionals, then options in table order, exclusive groups as `[-a | -b]`.
    static func usageItems(for command: CommandSpec) -> [String] {
        var items: [String] = []
        if !command.subcommands.isEmpty {
            items.append(command.defaultSubcommand == nil ? "COMMAND" : "[COMMAND]")
        }
        items += command.arguments.map(\.usageForm)
        var done: Set<String> = []
        for option in command.options where !done.contains(option.long) {
            if let group = command.exclusive.first(where: { $0.contains(option.long) }) {
                let forms = group.compactMap { long in command.options.first { $0.long == long }?.usageForm }
                items.append("[" + forms.joined(separator: " | ") + "]")
                done.formUnion(group)
                continue
            }
            switch (option.isRequired, option.kind) {
            case (true, _): items.append(option.usageForm)
            case (false, .repeatable): items.append("[\(option.usageForm)]...")
            case (false, _): items.append("[\(option.usageForm)]")
            }
            done.insert(option.long)
        }
        return items
    }

    /// One row of a two-column table: the label indented by two, the text wrapped in its column.
    static func table(label: String, text: String, column: Int, width: Int) -> [String] {
        let indent = String(repeating: " ", count: 2 + column + 2)
        let padded = "  " + label.padding(toLength: max(column, label.count), withPad: " ", startingAt: 0)
        if label.count > column {
            return [padded] + wrap(text, width: width, first: indent, rest: indent)
        }
        return wrap(text, width: width, first: padded + "  ", rest: indent)
    }

    /// Word-wraps `text` to `width` columns; `first` and `rest` start the first and later lines.
    static func wrap(_ text: String, width: Int, first: String, rest: String) -> [String] {
        fill(text.split(separator: " ").map(String.init), width: width, first: first, rest: rest)
    }

    /// Lays out `words` (which may contain spaces of their own) on lines of at most `width`
    /// columns; a word longer than a line gets a line to itself.
    static func fill(_ words: [String], width: Int, first: String, rest: String) -> [String] {
        var lines: [String] = []
        var line = first
        var lineHasWord = false
        for word in words {
            if lineHasWord && line.count + 1 + word.count > width {
                lines.append(line)
                line = rest
                lineHasWord = false
            }
            line += (lineHasWord ? " " : "") + word
            lineHasWord = true
        }
        lines.append(line)
        return lines.map { $0.hasSuffix(" ") ? String($0.reversed().drop { $0 == " " }.reversed()) : $0 }
    }
}
