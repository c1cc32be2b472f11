// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import CamStamp
@testable import CLI
import Foundation
import Testing
import TestSupport

/// The man page and the completions are generated from the tables --help prints: every option
/// of every command must appear in each, in that command's own part.
@Suite struct GeneratedDocsTests {
    static let commands = Generated.walk(Commands.root)

    func generated(_ arguments: String...) throws -> String {
        guard case .success(let text)? = Generated.output(for: arguments) else {
            Issue.record("\(arguments) generated nothing")
            return ""
        }
        return text
    }

    /// The lines of `text` from the first that contains `start` up to (not including) the next
    /// line that starts like it (`.SS`, the next zsh function).
    func section(_ text: String, from start: String, nextStartsWith marker: String) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let first = lines.firstIndex(where: { $0.contains(start) }) else { return "" }
        let end = lines[(first + 1)...].firstIndex { $0.hasPrefix(marker) } ?? lines.endIndex
        return lines[first..<end].joined(separator: "\n")
    }

    @Test func theManPageHasEveryOptionOfEveryCommandInItsSection() throws {
        let man = try generated("--generate-man")
        #expect(man.hasPrefix(".\\\" Generated"))
        #expect(man.contains(".TH CAMSTAMP 1"))
        for name in ["CAMSTAMP_HOME", "CAMSTAMP_FONTS", "XDG_CONFIG_HOME"] { #expect(man.contains(name)) }
        for (path, command) in Self.commands {
            let part =
                path.isEmpty
                ? section(man, from: ".SH GLOBAL OPTIONS", nextStartsWith: ".SH")
                : section(man, from: ".SS \"\((["camstamp"] + path).joined(separator: " "))\"", nextStartsWith: ".S")
            #expect(!part.isEmpty, "no section for \(path)")
            for option in command.allOptions {
                #expect(
                    part.contains("\\fB\\-\\-\(ManPage.escape(option.long))\\fR"), "man: \(path) lacks --\(option.long)"
                )
                if let short = option.short {
                    #expect(part.contains("\\fB\\-\(short)\\fR"), "man: \(path) lacks -\(short)")
                }
            }
        }
    }

    @Test func bashCompletesEveryOptionOfEveryCommand() throws {
        let bash = try generated("--generate-completion", "bash")
        for (path, command) in Self.commands {
            let part = section(
                bash, from: "        \"\(path.joined(separator: " "))\")", nextStartsWith: "            ;;")
            let words =
                part.split(separator: "\n").first { $0.contains("opts=\"") }.map {
                    $0.split(separator: "\"")[1].split(separator: " ")
                } ?? []
            for option in command.allOptions {
                #expect(words.contains("--\(option.long)"[...]), "bash: \(path) lacks --\(option.long)")
                if let short = option.short {
                    #expect(words.contains("-\(short)"[...]), "bash: \(path) lacks -\(short)")
                }
            }
            for sub in command.subcommands { #expect(part.contains("subcommands=\"") && part.contains(sub.name)) }
        }
    }

    @Test func zshCompletesEveryOptionOfEveryCommand() throws {
        let zsh = try generated("--generate-completion=zsh")
        #expect(zsh.hasPrefix("#compdef camstamp\n"))
        for (path, command) in Self.commands {
            let part = section(zsh, from: "\(Completions.zshFunction(path))() {", nextStartsWith: "}")
            for option in command.allOptions {
                #expect(part.contains("--\(option.long)"), "zsh: \(path) lacks --\(option.long)")
                if let short = option.short { #expect(part.contains("-\(short),"), "zsh: \(path) lacks -\(short)") }
            }
        }
    }

    @Test func fishCompletesEveryOptionOfEveryCommand() throws {
        let fish = try generated("--generate-completion", "fish")
        for (path, command) in Self.commands {
            let condition = "-n '\(Completions.fishCondition(path, among: Commands.root))'"
            let lines = fish.split(separator: "\n").filter { $0.contains(condition) }
            for option in command.allOptions {
                #expect(lines.contains { $0.contains(" -l \(option.long) ") }, "fish: \(path) lacks --\(option.long)")
                if let short = option.short {
                    #expect(
                        lines.contains { $0.contains(" -s \(short) -l \(option.long) ") },
                        "fish: \(path) lacks -\(short)")
                }
            }
        }
    }

    /// Runs `shell` with `arguments`; returns stdout, recording stderr and a non-zero exit.
    func shell(_ shell: String, _ arguments: [String]) throws -> String {
        let result = try runProcess("/usr/bin/\(shell)", arguments)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(shell) \(arguments): \(result.stderr)")
        return result.stdout
    }

    /// The completions, loaded into the real shells (make deps installs zsh and fish): they parse,
    /// and bash and fish offer the words the tables say.
    @Test func theCompletionsWorkInTheirShells() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var files: [String: String] = [:]
        for name in Generated.shells {
            let file = folder.appendingPathComponent("camstamp.\(name)")
            try generated("--generate-completion", name).write(to: file, atomically: true, encoding: .utf8)
            files[name] = file.path
        }
        let lines = [
            "camstamp batch --sh", "camstamp presets ", "camstamp presets list --j", "camstamp batch --format ",
            "camstamp stream -",
        ]
        let expected = ["--shard", "check list render show", "--json", "heic jpg keep png tiff webp"]
        let bash = try shell(
            "bash",
            [
                "-c",
                """
                source "$1"; shift
                for line in "$@"; do
                    read -ra COMP_WORDS <<< "$line"; [[ "$line" == *" " ]] && COMP_WORDS+=("")
                    COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _camstamp
                    printf '%s\\n' "$(printf '%s\\n' "${COMPREPLY[@]}" | sort | tr '\\n' ' ')"
                done
                """, "bash", files["bash"]!,
            ] + lines
        ).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(Array(bash.prefix(4)) == expected)
        #expect(
            bash.last?.split(separator: " ").contains("--snapshot-dir") == true
                && bash.last?.contains("--quiet") == true, "\(bash)")

        _ = try shell("zsh", ["-n", files["zsh"]!])
        _ = try shell("fish", ["-n", files["fish"]!])
        for (line, words) in zip(lines, expected) {
            let offered = try shell(
                "fish", ["--no-config", "-c", "source $argv[1]; complete -C$argv[2]", files["fish"]!, line]
            )
            .split(separator: "\n").map { String($0.split(separator: "\t")[0]) }.sorted().joined(separator: " ")
            #expect(offered == words, "fish: \(line)")
        }
    }

    @Test func aShellThatIsNotKnownIsAUsageError() {
        guard case .failure(let error)? = Generated.output(for: ["--generate-completion", "tcsh"]) else {
            Issue.record("tcsh accepted")
            return
        }
        #expect(error.message == "invalid value 'tcsh' for '--generate-completion': expected bash, zsh or fish")
        #expect(Generated.output(for: ["batch", "--generate-man"]) == nil, "only as the first word")
    }

    @Test func theGeneratorsAreListedInHelpButTheCompletionQueryIsNot() throws {
        let help = helpText(for: [])!
        #expect(help.contains("--generate-man") && help.contains("--generate-completion bash|zsh|fish"))
        #expect(!help.contains(Generated.completeOption + " "))
    }

    @Test(arguments: CommandLineTests.allCommands)
    func everyCommandTakesQuietAndVerbose(path: [String]) throws {
        let help = helpText(for: path)!
        #expect(help.contains("-q, --quiet") && help.contains("-v, --verbose"), "\(path)")
    }

    @Test func quietAndVerboseReachTheInvocation() throws {
        #expect(try parseInvocation(["batch", "in", "-o", "out", "--text", "x", "-q"]).verbosity == .quiet)
        #expect(try parseInvocation(["shoot", "--verbose"]).verbosity == .verbose)
        #expect(try parseInvocation(["devices"]).verbosity == .normal)
        // Before the subcommand name too, and for a default subcommand.
        #expect(try parseInvocation(["presets", "-q", "list"]).verbosity == .quiet)
        #expect(
            try parseInvocation(["presets", "-v"])
                == Invocation(command: .presetsList, verbosity: .verbose, json: false))
        #expect(try parseInvocation(["presets", "list", "--json"]).json)
        #expect(throws: UsageError("'--quiet' and '--verbose' cannot be used together")) {
            try parseInvocation(["devices", "-q", "-v"])
        }
    }
}

@Suite struct ShardOptionTests {
    @Test func fnv1aIsTheStandardHash() {
        // Test vectors of FNV-1a 64 (http://www.isthe.com/chongo/tech/comp/fnv/).
        #expect(Shard.fnv1a("") == 0xcbf2_9ce4_8422_2325)
        #expect(Shard.fnv1a("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(Shard.fnv1a("foobar") == 0x8594_4171_f739_67e8)
    }

    @Test func everyPathIsInExactlyOneShardAndTheSplitIsEven() {
        let paths = (0..<4000).map { "2024/day-\($0 % 31)/IMG_\($0).jpg" }
        var counts = [0, 0, 0, 0]
        for path in paths {
            let owners = (1...4).filter { Shard(index: $0, count: 4).contains(relativePath: path) }
            #expect(owners.count == 1, "\(path): \(owners)")
            counts[owners[0] - 1] += 1
        }
        #expect(counts.allSatisfy { $0 > 800 && $0 < 1200 }, "\(counts)")
    }

    @Test func theOptionIsParsedAndCheckedWithExactMessages() throws {
        guard
            case .batch(let options) = try parseCommandLine([
                "batch", "in", "-o", "out", "--text", "x", "--shard", "3/8",
            ])
        else {
            Issue.record("not a batch")
            return
        }
        #expect(options.shard == Shard(index: 3, count: 8))
        for (value, message) in [
            ("0/4", "invalid value '0/4' for '--shard': K must be 1 to 4 (shards count from 1)"),
            ("5/4", "invalid value '5/4' for '--shard': K must be 1 to 4 (shards count from 1)"),
            ("2", "invalid value '2' for '--shard': expected K/N with 1 ≤ K ≤ N, such as 2/8"),
            ("1/0", "invalid value '1/0' for '--shard': expected K/N with 1 ≤ K ≤ N, such as 2/8"),
        ] {
            #expect(throws: UsageError(message)) {
                try parseCommandLine(["batch", "in", "-o", "out", "--text", "x", "--shard", value])
            }
        }
    }
}
