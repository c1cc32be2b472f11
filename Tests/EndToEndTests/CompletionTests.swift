// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

/// The generated completions, loaded into bash, zsh and fish, asking the built binary for what
/// only camstamp knows: the preset names (shipped and the user's) and the sources.
@Suite struct CompletionTests {
    /// A scratch HOME with a preset of the user's, `camstamp` on the PATH, and the three scripts.
    struct Setup {
        let folder: URL
        let environment: [String: String]
        let scripts: [String: String]

        init() throws {
            folder = try temporaryFolder("completions")
            let presets = folder.appendingPathComponent("config/camstamp/presets")
            try FileManager.default.createDirectory(at: presets, withIntermediateDirectories: true)
            try #"{"description": "mine", "marks": [{"text": "x"}]}"#
                .write(to: presets.appendingPathComponent("my-studio.json"), atomically: true, encoding: .utf8)
            // The scripts call `camstamp` by name, as an installed one is found.
            let bin = folder.appendingPathComponent("bin")
            try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(
                at: bin.appendingPathComponent("camstamp"),
                withDestinationURL: camstampBinary)
            var environment = ProcessInfo.processInfo.environment
            environment["PATH"] = bin.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
            environment["HOME"] = folder.path
            environment["XDG_CONFIG_HOME"] = folder.appendingPathComponent("config").path
            self.environment = environment
            var scripts: [String: String] = [:]
            for shell in ["bash", "zsh", "fish"] {
                let file = folder.appendingPathComponent("camstamp.\(shell)")
                let generated = try run(camstampBinary, ["--generate-completion", shell], environment: environment)
                try generated.stdout.write(to: file, atomically: true, encoding: .utf8)
                scripts[shell] = file.path
            }
            self.scripts = scripts
        }

        /// Runs `shell` with `arguments`; its stdout, split in lines.
        func lines(_ shell: String, _ arguments: [String]) throws -> [String] {
            let result = try run(URL(fileURLWithPath: "/usr/bin/\(shell)"), arguments, environment: environment)
            #expect(result.status == 0 && result.stderr.isEmpty, "\(shell): \(result.stderr)")
            return result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        }
    }

    /// A line of words offered, in sorted order.
    func sorted(_ line: String) -> String { line.split(separator: " ").sorted().joined(separator: " ") }

    /// What each case must offer: the presets (by `presets list`, plus the user's), the sources.
    func expectations(_ setup: Setup) throws -> (presets: String, sources: String) {
        let listed = try run(camstampBinary, ["presets", "list", "--json"], environment: setup.environment)
        let list = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: String]]
        let names = try #require(list).compactMap { $0["name"] }
        #expect(names.contains("my-studio") && names.contains("credit"), "\(names)")
        // No camera here: the sources are the words every machine has.
        return (names.sorted().joined(separator: " "), "auto file: test")
    }

    @Test func bashOffersPresetsAndSources() throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(at: setup.folder) }
        let (presets, sources) = try expectations(setup)
        let cases = [
            "camstamp batch --preset ", "camstamp presets show ", "camstamp shoot --source ",
            "camstamp stream --source t", "camstamp camera --preset my", "camstamp config show b",
            "camstamp presets render cr",
        ]
        let offered = try setup.lines(
            "bash",
            [
                "-c",
                """
                source "$1"; shift
                for line in "$@"; do
                    read -ra COMP_WORDS <<< "$line"; [[ "$line" == *" " ]] && COMP_WORDS+=("")
                    COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _camstamp
                    printf '%s\\n' "${COMPREPLY[*]}"
                done
                """, "bash", setup.scripts["bash"]!,
            ] + cases)
        #expect(offered.map(sorted) == [presets, presets, sources, "test", "my-studio", "batch", "credit"])
    }

    @Test func zshOffersPresetsAndSources() throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(at: setup.folder) }
        let (presets, sources) = try expectations(setup)
        // Without a terminal zsh's completion system does not run: each command's function is
        // called with _arguments recording its specs, and the action of the spec asked for is
        // run as _arguments would run it, compadd printing what it would offer.
        let offered = try setup.lines(
            "zsh",
            [
                "-f", "-c",
                """
                _arguments() { specs=("$@") }
                compadd() { [[ $1 == -a ]] && print -rl -- "${(@P)2}" }
                source "$1" >/dev/null; shift
                for fn pattern in "$@"; do
                    $fn
                    spec=${specs[(r)$~pattern]}
                    print -r -- "${(f)$(eval "${spec##*:}")}"
                done
                """, "zsh", setup.scripts["zsh"]!,
                "_camstamp_batch", "*--preset\\[*", "_camstamp_presets_show", ":NAME:*",
                "_camstamp_shoot", "*--source\\[*", "_camstamp_presets_render", ":NAME:*",
            ])
        #expect(offered.map(sorted) == [presets, presets, sources, presets])
    }

    @Test func fishOffersPresetsAndSources() throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(at: setup.folder) }
        let (presets, sources) = try expectations(setup)
        var offered: [String] = []
        let cases = [
            "camstamp batch --preset ", "camstamp presets show ", "camstamp shoot --source ",
            "camstamp stream --source t", "camstamp presets render cr",
        ]
        for line in cases {
            let words = try setup.lines(
                "fish",
                [
                    "--no-config", "-c", "source $argv[1]; complete -C$argv[2]",
                    setup.scripts["fish"]!, line,
                ]
            )
            .map { String($0.split(separator: "\t")[0]) }
            offered.append(words.sorted().joined(separator: " "))
        }
        #expect(offered == [presets, presets, sources, "test", "credit"])
    }

    @Test func theHiddenQueryIsCheapAndQuiet() throws {
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(at: setup.folder) }
        let sources = try run(camstampBinary, ["--complete", "sources"], environment: setup.environment)
        #expect(sources.status == 0 && sources.stdout.hasPrefix("auto\ntest\nfile:\n"), "\(sources)")
        let wrong = try run(camstampBinary, ["--complete", "colours"], environment: setup.environment)
        #expect(wrong.status == 64)
        #expect(wrong.stderr == "camstamp: '--complete' takes one of: presets, sources, commands\n")
    }
}
