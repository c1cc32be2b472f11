// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Presets
/// A command line split against the tables, before any value is validated.
public struct ParsedArguments: Sendable, Equatable {
    /// The subcommands chosen, below the root: `["presets", "show"]`; empty for the root itself.
    public var path: [String] = []
    /// Values by long option name, in command-line order; a flag given has one empty value.
    public var values: [String: [String]] = [:]
    /// Long option names in the order they were first given.
    public var order: [String] = []
    public var positionals: [String] = []
    /// `--help` or `-h` was given: show help for `path` and ignore everything else.
    public var helpRequested = false
    /// The options whose values came from the defaults file, and where each is written there.
    public var origins: [String: SettingOrigin] = [:]

    public init() {}

    /// The value of a single-value option, if given.
    public func value(_ long: String) -> String? { values[long]?.last }
    /// Every value of a repeatable option, in order.
    public func values(_ long: String) -> [String] { values[long] ?? [] }
    /// Whether an option (flag or not) was given.
    public func has(_ long: String) -> Bool { values[long] != nil }
}

/// What the defaults file sets for the command at `path` (its words below the root) whose table
/// is `command`; asked only once the command is known and no help is asked for.
public typealias DefaultsProvider = (_ path: [String], _ command: CommandSpec) throws(UsageError) -> [DefaultSetting]

/// Splits arguments against a `CommandSpec` tree: options (`--opt value`, `--opt=value`,
/// `-o value`, `-oVALUE`, repeated ones), `--` to end options, subcommands and positionals.
public enum CommandLineParser {
    /// Parses `arguments` (without the program name) against `root`, with `defaults` under the
    /// command line. Help wins over every error so that `camstamp shoot --qualty 5 --help` still
    /// shows help.
    public static func parse(
        _ arguments: [String], root: CommandSpec, defaults: DefaultsProvider? = nil
    ) throws(UsageError) -> ParsedArguments {
        var state = State(root: root)
        var index = 0
        var endOfOptions = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if !endOfOptions && argument == "--" {
                endOfOptions = true
            } else if !endOfOptions && argument.hasPrefix("-") && argument != "-" {
                state.option(
                    argument, next: index < arguments.count ? arguments[index] : nil,
                    consumedNext: &index)
            } else if state.expectsSubcommand {
                if let stop = state.enterSubcommand(argument) {
                    if state.result.helpRequested { return state.result }
                    throw stop
                }
            } else {
                state.result.positionals.append(argument)
            }
        }
        if state.result.helpRequested { return state.result }
        if let error = state.firstError { throw error }
        try state.finish(defaults: defaults)
        return state.result
    }

    /// The parse in progress: where in the command tree we are and the first error met.
    private struct State {
        let root: CommandSpec
        var command: CommandSpec
        var result = ParsedArguments()
        var firstError: UsageError?
        var subcommandChosen = false

        init(root: CommandSpec) {
            self.root = root
            command = root
        }

        /// `camstamp presets show`, as messages name it.
        var commandName: String { ([root.name] + result.path).joined(separator: " ") }

        var expectsSubcommand: Bool { !command.subcommands.isEmpty && !subcommandChosen }

        mutating func fail(_ message: String) {
            if firstError == nil { firstError = UsageError(message) }
        }

        /// Handles one argument that starts with `-`, taking the next one as its value when needed.
        mutating func option(_ argument: String, next: String?, consumedNext index: inout Int) {
            let options = command.allOptions
            var spec: OptionSpec?
            var inline: String?
            if argument.hasPrefix("--") {
                let body = argument.dropFirst(2)
                let name = body.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                spec = options.first { $0.long == name[0] }
                inline = name.count == 2 ? String(name[1]) : nil
            } else {
                let letter = argument.dropFirst().first
                spec = options.first { $0.short != nil && $0.short == letter }
                let rest = argument.dropFirst(2)
                if let found = spec, !rest.isEmpty {
                    if found.takesValue {
                        inline = String(rest.hasPrefix("=") ? rest.dropFirst() : rest)
                    } else {
                        spec = nil
                    }
                }
            }
            guard let spec else {
                unknownOption(argument)
                return
            }
            if spec == CommandSpec.helpOption {
                result.helpRequested = true
                return
            }
            let value: String
            if !spec.takesValue {
                if inline != nil {
                    fail("'\(spec.displayName)' does not take a value")
                    return
                }
                value = ""
            } else if let inline {
                value = inline
            } else if let next, !looksLikeOption(next) {
                value = next
                index += 1
            } else {
                fail("missing value for '\(argument)'")
                return
            }
            if spec.kind == .single, result.has(spec.long) {
                fail("'\(spec.displayName)' can be given only once")
                return
            }
            if !result.has(spec.long) { result.order.append(spec.long) }
            result.values[spec.long, default: []].append(value)
        }

        /// Whether `text`, met where a value is expected, is rather the next option: `--anything`
        /// or a short option of this command. `--text -5` still takes `-5`; `--text=--x` takes `--x`.
        func looksLikeOption(_ text: String) -> Bool {
            if text.hasPrefix("--") { return true }
            guard text.hasPrefix("-"), text.count == 2, let letter = text.dropFirst().first else {
                return false
            }
            return command.allOptions.contains { $0.short == letter }
        }

        mutating func unknownOption(_ argument: String) {
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            let bare = String(name.drop { $0 == "-" })
            let longNames = command.allOptions.map(\.long)
            if let match = closest(to: bare, in: longNames) {
                fail("unknown option '\(name)' for '\(commandName)'; did you mean '--\(match)'?")
            } else if let owner = commandOwning(bare) {
                fail("unknown option '\(name)' for '\(commandName)'; it is an option of '\(owner)'")
            } else {
                fail("unknown option '\(name)' for '\(commandName)'; see '\(commandName) --help'")
            }
        }

        /// The first other command (depth first, `camstamp stream`) whose table has `--long`, so that
        /// `shoot --to` can point at `stream`.
        func commandOwning(_ long: String) -> String? {
            func search(_ spec: CommandSpec, _ name: String) -> String? {
                if spec.options.contains(where: { $0.long == long }) { return name }
                for sub in spec.subcommands {
                    if let found = search(sub, "\(name) \(sub.name)") { return found }
                }
                return nil
            }
            return search(root, root.name)
        }

        /// Moves into the subcommand `name`; returns the error to stop with when there is none.
        mutating func enterSubcommand(_ name: String) -> UsageError? {
            guard let next = command.subcommand(named: name) else {
                let names = command.subcommands.map(\.name)
                let what = result.path.isEmpty ? "command" : "subcommand"
                let prefix = result.path.isEmpty ? "" : " for '\(commandName)'"
                if let match = closest(to: name, in: names) {
                    return UsageError("unknown \(what) '\(name)'\(prefix); did you mean '\(match)'?")
                }
                return UsageError("unknown \(what) '\(name)'\(prefix); see '\(commandName) --help'")
            }
            if let given = result.order.first(where: { !CommandSpec.isGlobal($0) }) {
                fail("'--\(given)' cannot be used with '\(commandName) \(name)'")
            }
            result.path.append(name)
            // -q and -v hold for the whole line: `camstamp presets -q list`.
            result.order = result.order.filter(CommandSpec.isGlobal)
            result.values = result.values.filter { CommandSpec.isGlobal($0.key) }
            command = next
            subcommandChosen = false
            return nil
        }

        /// The checks that need the whole line: default subcommand, positionals, required and
        /// mutually exclusive options.
        mutating func finish(defaults: DefaultsProvider?) throws(UsageError) {
            if expectsSubcommand {
                guard let name = command.defaultSubcommand, result.order.allSatisfy(CommandSpec.isGlobal) else {
                    return
                }
                if let error = enterSubcommand(name) { throw error }
            }
            if let defaults { result.applyDefaults(try defaults(result.path, command), command: command) }
            for group in command.exclusive {
                let given = result.order.filter(group.contains)
                if given.count > 1 {
                    let names = given.map { long in
                        "'--\(long)'" + (result.origins[long].map { " (from \($0))" } ?? "")
                    }
                    let list = names.dropLast().joined(separator: ", ") + " and " + names.last!
                    throw UsageError("\(list) cannot be used together")
                }
            }
            try checkPositionals()
            for spec in command.options where spec.isRequired && !result.has(spec.long) {
                throw UsageError("missing required option '\(spec.usageForm)' for '\(commandName)'")
            }
        }

        func checkPositionals() throws(UsageError) {
            var remaining = result.positionals[...]
            for argument in command.arguments {
                if remaining.count < argument.minimum {
                    let what = argument.isRepeated ? "at least one \(argument.name)" : argument.name
                    throw UsageError("missing \(what) for '\(commandName)'")
                }
                remaining = argument.isRepeated ? [] : remaining.dropFirst()
            }
            if let extra = remaining.first {
                throw UsageError("unexpected argument '\(extra)' for '\(commandName)'")
            }
        }
    }
}
