// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import CamStamp

/// `camstamp --generate-man` and `camstamp --generate-completion bash|zsh|fish`: options of the
/// root table (so --help lists them) handled before parsing, that print documents built from the
/// same `CommandSpec` tables as --help, so the man page and completions never drift from the
/// parser. `make install` runs them.
enum Generated {
    static let shells = ["bash", "zsh", "fish"]

    /// The document `arguments` ask for, or nil when they are an ordinary command line.
    static func output(for arguments: [String]) -> Result<String, UsageError>? {
        guard let first = arguments.first else { return nil }
        if first == completeOption {
            // What the completions ask while a user presses TAB: errors would land on their prompt.
            switch arguments.dropFirst().first {
            case "presets" where arguments.count == 2: return .success(PresetsCommand.names().joined(separator: "\n"))
            case "sources" where arguments.count == 2:
                return .success((sourceWords + CameraListing.sourceWords()).joined(separator: "\n"))
            case "commands" where arguments.count == 2:
                // First words only: `presets list` is two words on the line.
                var seen = Set<String>()
                let words = ConfigCommand.commandNames().compactMap { $0.split(separator: " ").first.map(String.init) }
                return .success(words.filter { seen.insert($0).inserted }.joined(separator: "\n"))
            default: return .failure(UsageError("'\(completeOption)' takes one of: presets, sources, commands"))
            }
        }
        if first == "--generate-man" {
            guard arguments.count == 1 else { return .failure(UsageError("'--generate-man' takes no other argument")) }
            return .success(ManPage.render(Commands.root))
        }
        let shell: String
        if first == "--generate-completion", arguments.count == 2 {
            shell = arguments[1]
        } else if first.hasPrefix("--generate-completion="), arguments.count == 1 {
            shell = String(first.dropFirst("--generate-completion=".count))
        } else if first == "--generate-completion" || first.hasPrefix("--generate-completion=") {
            return .failure(UsageError("'--generate-completion' takes one shell: bash, zsh or fish"))
        } else {
            return nil
        }
        switch shell {
        case "bash": return .success(Completions.bash(Commands.root))
        case "zsh": return .success(Completions.zsh(Commands.root))
        case "fish": return .success(Completions.fish(Commands.root))
        default:
            return .failure(
                UsageError("invalid value '\(shell)' for '--generate-completion': expected bash, zsh or fish"))
        }
    }

    /// `camstamp --complete presets|sources`: the words a completion offers for a value that only
    /// camstamp knows, one a line. Hidden: it is for the scripts below, not for people.
    static let completeOption = "--complete"
    /// What `--source` takes besides the cameras (`file:` is completed on by the user).
    static let sourceWords = ["auto", "test", "file:"]

    /// What a value or positional completes to when camstamp itself must be asked: `presets`
    /// (`--preset`, `presets show NAME`) or `sources` (`--source`); nil for files and choices.
    static func dynamicWords(_ option: OptionSpec) -> String? {
        switch option.long {
        case "preset": "presets"
        case "source": "sources"
        default: nil
        }
    }

    /// `dynamicWords` for a command's positionals: `presets show|render NAME` takes a preset's name,
    /// `config show COMMAND` a command's.
    static func dynamicWords(argumentsOf path: [String]) -> String? {
        switch path {
        case ["presets", "show"], ["presets", "render"]: "presets"
        case ["config", "show"]: "commands"
        default: nil
        }
    }

    /// Every command of the tree with its words from the root: `([], root)`, `(["presets", "list"], …)`.
    static func walk(_ root: CommandSpec) -> [(path: [String], command: CommandSpec)] {
        var found: [(path: [String], command: CommandSpec)] = []
        func visit(_ command: CommandSpec, _ path: [String]) {
            found.append((path, command))
            for sub in command.subcommands { visit(sub, path + [sub.name]) }
        }
        visit(root, [])
        return found
    }

    /// The words of a value name such as `keep|jpg|png` when it lists choices; nil for `PATH`.
    static func choices(_ option: OptionSpec) -> [String]? {
        let words = option.valueName.split(separator: "|").map(String.init)
        guard words.count > 1, words.allSatisfy({ $0.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" } }) else {
            return nil
        }
        return words
    }

    /// The first sentence of a help text: completion menus have one line per option.
    static func firstSentence(_ text: String) -> String {
        if let end = text.range(of: ". ") { return String(text[..<end.lowerBound]) }
        return text.hasSuffix(".") ? String(text.dropLast()) : text
    }
}
