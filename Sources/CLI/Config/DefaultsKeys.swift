// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// The keys a defaults file may hold, read from the command tables: a key is the long option it
// stands for, so an option added to a table is a key at once.

/// What the defaults file's keys stand for.
enum DefaultsKeys {
    /// A key and the option it sets in every command that takes it.
    struct Entry: Sendable, Equatable {
        /// As written in the file: `presets`, `jobs`.
        var key: String
        /// The option's long name: `preset`, `jobs`.
        var option: String
        /// How the commands that take it take it (one kind, unless two tables disagree).
        var kinds: Set<OptionSpec.Kind>
        /// The commands that take it, as typed: `batch`, `presets list`.
        var commands: [String]
    }

    /// Keys named otherwise than their option: a list of presets, a map of variables.
    static let renamed = ["preset": "presets", "var": "variables"]

    /// Keys the contract names before an option stands for them (the signing options), so that
    /// the contract's example file loads; when a table takes them, the table's kind is used.
    static let announced: [String: OptionSpec.Kind] = ["sign": .single, "sign-key": .single]

    /// Options whose values are text rather than paths: `~` is left as written.
    static let freeText: Set<String> = ["text", "var", "name", "set-metadata", "token"]

    /// The key standing for the option `long`.
    static func key(for long: String) -> String { renamed[long] ?? long }

    /// Commands that never read the file: `config`, which shows it; `keys`, made once, whose
    /// `--name` (the certificates' subject) is another option than batch's `--name` pattern; and
    /// `verify`, whose `--serve` is a switch where stream's is a URL: a defaults file's `serve`
    /// for streams must not turn a check into a server, and a check is judged by what is given.
    static let ignoring: Set<String> = [ConfigCommand.spec.name, Commands.Keys.spec.name, Commands.Verify.spec.name]

    /// Whether the command at `path` takes values from the defaults file: every command with
    /// options but those `ignoring` it and the top level (`--version`).
    static func readsDefaults(path: [String], command: CommandSpec) -> Bool {
        guard let first = path.first else { return false }
        return !ignoring.contains(first) && !command.options.isEmpty
    }

    /// Every key, by name, from the commands under `root` that read defaults.
    static func table(_ root: CommandSpec = Commands.root) -> [String: Entry] {
        var entries: [String: Entry] = [:]
        for (path, command) in Generated.walk(root) where readsDefaults(path: path, command: command) {
            for option in command.options {
                let key = key(for: option.long)
                var entry = entries[key] ?? Entry(key: key, option: option.long, kinds: [], commands: [])
                entry.kinds.insert(option.kind)
                entry.commands.append(path.joined(separator: " "))
                entries[key] = entry
            }
        }
        for (key, kind) in announced where entries[key] == nil {
            entries[key] = Entry(key: key, option: key, kinds: [kind], commands: [])
        }
        return entries
    }
}
