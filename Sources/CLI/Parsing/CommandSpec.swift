// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
/// The tables the parser reads: one `CommandSpec` per command, one `OptionSpec` per flag.

/// One option of a command: its names, value, help line and how often it may be given.
public struct OptionSpec: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// No value: `--json`.
        case flag
        /// One value, at most once: `--size 1280x720`, `--size=1280x720`.
        case single
        /// A value each time, kept in order: `--preset a --preset b`.
        case repeatable
    }

    /// Without dashes: `quality` for `--quality`.
    public var long: String
    /// Without the dash: `o` for `-o`.
    public var short: Character?
    /// Shown after the name in help and usage: `--size WxH`. Unused for flags.
    public var valueName: String
    public var help: String
    public var kind: Kind
    /// Shown as `(default: …)` at the end of the help line.
    public var defaultText: String?
    /// The command cannot run without it.
    public var isRequired: Bool

    public init(
        _ long: String, short: Character? = nil, value valueName: String = "",
        kind: Kind? = nil, help: String, default defaultText: String? = nil,
        required isRequired: Bool = false
    ) {
        self.long = long
        self.short = short
        self.valueName = valueName
        self.kind = kind ?? (valueName.isEmpty ? .flag : .single)
        self.help = help
        self.defaultText = defaultText
        self.isRequired = isRequired
    }

    /// A switch such as `--recursive`.
    public static func flag(_ long: String, short: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(long, short: short, kind: .flag, help: help)
    }

    /// An option given at most once with a value.
    public static func single(
        _ long: String, short: Character? = nil, value: String, help: String,
        default defaultText: String? = nil, required: Bool = false
    ) -> OptionSpec {
        OptionSpec(
            long, short: short, value: value, kind: .single, help: help, default: defaultText,
            required: required)
    }

    /// An option that may be repeated, each value kept in order.
    public static func repeatable(
        _ long: String, short: Character? = nil, value: String,
        help: String
    ) -> OptionSpec {
        OptionSpec(long, short: short, value: value, kind: .repeatable, help: help)
    }

    var takesValue: Bool { kind != .flag }

    /// `--quality` (always the long form, which every option has).
    var displayName: String { "--\(long)" }

    /// How the option is written in a usage line: `-o PATH`, `--size WxH`, `--json`.
    var usageForm: String {
        let name = short.map { "-\($0)" } ?? displayName
        return takesValue ? "\(name) \(valueName)" : name
    }

    /// The left column of the help table: `-o, --output PATH` or `--size WxH`.
    var helpLabel: String {
        var label = short.map { "-\($0), --\(long)" } ?? "--\(long)"
        if takesValue { label += " \(valueName)" }
        return label
    }
}

/// A positional argument of a command.
public struct ArgumentSpec: Sendable, Equatable {
    public enum Arity: Sendable, Equatable {
        case one
        case optional
        case oneOrMore
        case zeroOrMore
    }

    /// Shown in usage and help: `INPUT`, `NAME`.
    public var name: String
    public var help: String
    public var arity: Arity

    public init(_ name: String, arity: Arity = .one, help: String) {
        self.name = name
        self.help = help
        self.arity = arity
    }

    var isRepeated: Bool { arity == .oneOrMore || arity == .zeroOrMore }
    var minimum: Int { arity == .one || arity == .oneOrMore ? 1 : 0 }

    /// `NAME`, `[NAME]`, `FILE...` or `[FILE...]`.
    var usageForm: String {
        let base = isRepeated ? "\(name)..." : name
        return minimum == 0 ? "[\(base)]" : base
    }
}

/// A command: its help, its positional arguments, its option table and its subcommands.
public struct CommandSpec: Sendable, Equatable {
    /// The word typed to run it: `shoot`; the program name for the root.
    public var name: String
    /// One sentence shown in the parent's command list and after `OVERVIEW:`.
    public var overview: String
    /// Replaces the usage line built from the tables when set.
    public var usage: String?
    public var arguments: [ArgumentSpec]
    public var options: [OptionSpec]
    /// Groups of options (long names) of which at most one may be given.
    public var exclusive: [[String]]
    public var subcommands: [CommandSpec]
    /// Run when the command has subcommands and none is given: `presets` means `presets list`.
    public var defaultSubcommand: String?
    /// Paragraphs printed after the tables.
    public var discussion: String?

    public init(
        _ name: String, overview: String, usage: String? = nil, arguments: [ArgumentSpec] = [],
        options: [OptionSpec] = [], exclusive: [[String]] = [], subcommands: [CommandSpec] = [],
        defaultSubcommand: String? = nil, discussion: String? = nil
    ) {
        self.name = name
        self.overview = overview
        self.usage = usage
        self.arguments = arguments
        self.options = options
        self.exclusive = exclusive
        self.subcommands = subcommands
        self.defaultSubcommand = defaultSubcommand
        self.discussion = discussion
    }

    /// `--help` and `-h`, which every command takes without listing them in its table.
    static let helpOption = OptionSpec.flag("help", short: "h", help: "Show this help.")

    /// `-q` and `-v`, which every command takes too; they may come before a subcommand's name.
    static let quiet = Flag(
        "quiet", short: "q",
        help: "Print errors only: no progress, results, warnings or summary "
            + "(output asked for with --json, and the camera's address, are still printed).")
    static let verbose = Flag(
        "verbose", short: "v",
        help: "Also say what was chosen (resource folder, presets, pipelines, "
            + "GStreamer elements) and how long each stage took.")
    static let globalOptions: [OptionSpec] = [quiet.spec, verbose.spec]

    static func isGlobal(_ long: String) -> Bool { globalOptions.contains { $0.long == long } }

    /// The table with `-q`, `-v` and `--help` appended.
    var allOptions: [OptionSpec] { options + Self.globalOptions + [Self.helpOption] }

    func subcommand(named name: String) -> CommandSpec? {
        subcommands.first { $0.name == name }
    }

    /// The command at `path` below this one, if the path names one.
    public func find(_ path: [String]) -> CommandSpec? {
        var command = self
        for name in path {
            guard let next = command.subcommand(named: name) else { return nil }
            command = next
        }
        return command
    }
}
