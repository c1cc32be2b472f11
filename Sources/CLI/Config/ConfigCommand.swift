// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// `camstamp config show [COMMAND] | path | check FILE`: the defaults file, what it sets and where.
import CamStamp
import Foundation
import Presets

/// What `camstamp config` is asked.
public enum ConfigRequest: Sendable, Equatable {
    /// `config show [COMMAND] [--json]`: the file's settings, or every option of COMMAND.
    case show(command: [String], json: Bool)
    /// `config path`: where the file is read from.
    case path
    /// `config check FILE`: FILE read as a defaults file.
    case check(String)
}

/// `camstamp config`: its tables and what it prints.
enum ConfigCommand {
    static let json = Flag(
        "json", help: "Print them as JSON (file, and each setting's key, option, value, from, commands), for scripts.")

    static let show = CommandSpec(
        "show",
        overview: "Print what the defaults file sets and where each value is written (file and line).",
        arguments: [
            ArgumentSpec(
                "COMMAND", arity: .zeroOrMore,
                help: "A command, such as batch: every option it takes, from the file or its default.")
        ],
        keys: [json])
    static let path = CommandSpec("path", overview: "Print where the defaults file is read from.")
    static let check = CommandSpec(
        "check", overview: "Check a file as a defaults file (its keys and their types).",
        arguments: [ArgumentSpec("FILE", help: "A defaults file, such as a config.json to install.")])

    static let spec = CommandSpec(
        "config",
        overview: "Show the defaults file, the options you use every day, and where each comes from.",
        usage: "camstamp config [show [COMMAND] [--json] | path | check FILE]",
        subcommands: [show, path, check], defaultSubcommand: "show",
        discussion: "The file is $XDG_CONFIG_HOME/camstamp/config.json, else ~/.config/camstamp/config.json; "
            + "\(DefaultsFile.variable)=FILE reads another, \(DefaultsFile.variable)=none none. Its keys are the long "
            + "options they stand for (presets and variables for --preset and --var), applied to every command that "
            + "takes the option. The command line wins: an option given there replaces the file's value (--preset "
            + "replaces the file's presets), but --var adds to the file's variables. docs/config.md has the details.")

    /// The request the words after `config` make.
    static func request(_ values: OptionValues) throws -> ConfigRequest {
        switch values.path.last {
        case path.name: return .path
        case check.name: return .check(values.positionals[0])
        default: return .show(command: try commandPath(values.positionals), json: values.get(json))
        }
    }

    /// The commands that read the defaults file, as typed (`batch`, `presets list`).
    static func commandNames() -> [String] {
        Generated.walk(Commands.root).filter {
            DefaultsKeys.readsDefaults(path: $0.path, command: $0.command)
        }.map { $0.path.joined(separator: " ") }
    }

    /// `words` as a command that reads defaults (`batch`, `presets list`), or a one-line error.
    static func commandPath(_ words: [String]) throws(UsageError) -> [String] {
        guard !words.isEmpty else { return [] }
        let readers = commandNames()
        let name = words.joined(separator: " ")
        guard readers.contains(name) else {
            let hint =
                didYouMean(name, in: readers) ?? "the commands with options are \(readers.joined(separator: ", "))"
            throw UsageError("'config show' takes a command that has options, not '\(name)'; \(hint)")
        }
        return words
    }

    static func run(_ request: ConfigRequest, file: DefaultsFile, output: JobOutput) throws(CamStampError) {
        do {
            switch request {
            case .path:
                guard let url = file.url else {
                    output.note("no defaults file is read: \(DefaultsFile.variable) is none")
                    return
                }
                output.result(url.path)
                if PathKind(of: url) == .missing { output.note("\(url.path) does not exist yet") }
            case .check(let path):
                let checked = DefaultsFile(named: URL(fileURLWithPath: path), home: file.home)
                let count = try checked.settings().count
                output.result("\(path): ok, \(count) setting\(count == 1 ? "" : "s")")
            case .show(let command, let json):
                for line in try ConfigShow(file: file, command: command).lines(json: json) { output.result(line) }
            }
        } catch {
            throw .usage(error.message)
        }
    }
}

extension DefaultsFile {
    /// The file at `url`, which must exist (as one CAMSTAMP_CONFIG names).
    init(named url: URL, home: String) {
        self.url = url
        self.isExplicit = true
        self.home = home
    }
}
