// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import CamStamp
@testable import CLI
import Foundation
import Testing
import TestSupport

/// The defaults file (`config.json`): where it is, its keys from the command tables, its errors
/// (file, line, key) and how it goes under the command line.
@Suite struct DefaultsFileTests {
    /// The contract's example (docs/product.md, "Defaults file"), over three lines.
    static let example = """
        {"presets": ["timestamp", "credit"], "variables": {"author": "Studio"},
         "output": "~/shots", "jobs": 2,
         "sign": "~/keys/chain.pem", "sign-key": "~/keys/key.pem"}
        """

    /// A defaults file holding `text`, as CAMSTAMP_CONFIG names it, with HOME /home/u.
    static func file(_ text: String) throws -> (DefaultsFile, URL) {
        let url = try temporaryFolder().appendingPathComponent("config.json")
        try Data(text.utf8).write(to: url)
        return (DefaultsFile(environment: ["CAMSTAMP_CONFIG": url.path, "HOME": "/home/u"]), url)
    }

    static func settings(_ text: String) throws(UsageError) -> [DefaultSetting] {
        try DefaultsFile.settings(in: Data(text.utf8), file: "c.json", keys: DefaultsKeys.table(), home: "/home/u")
    }

    static func message(_ text: String) -> String? {
        do {
            _ = try settings(text)
            return nil
        } catch { return error.message }
    }

    @Test func theFileIsFoundFromTheEnvironment() {
        let xdg = DefaultsFile(environment: ["XDG_CONFIG_HOME": "/cfg", "HOME": "/home/u"])
        #expect(xdg.url?.path == "/cfg/camstamp/config.json" && !xdg.isExplicit)
        #expect(DefaultsFile(environment: ["HOME": "/home/u"]).url?.path == "/home/u/.config/camstamp/config.json")
        // XDG's rule: a relative XDG_CONFIG_HOME is ignored.
        let relative = DefaultsFile(environment: ["XDG_CONFIG_HOME": "cfg", "HOME": "/home/u"])
        #expect(relative.url?.path == "/home/u/.config/camstamp/config.json")
        #expect(DefaultsFile(environment: ["CAMSTAMP_CONFIG": "none", "HOME": "/home/u"]).url == nil)
        let named = DefaultsFile(environment: ["CAMSTAMP_CONFIG": "/etc/c.json", "XDG_CONFIG_HOME": "/cfg"])
        #expect(named.url?.path == "/etc/c.json" && named.isExplicit)
        // Empty is as if unset, so a test runner can clear the developer's own.
        let empty = DefaultsFile(environment: ["CAMSTAMP_CONFIG": "", "XDG_CONFIG_HOME": "/cfg"])
        #expect(empty.url?.path == "/cfg/camstamp/config.json")
    }

    @Test func everyLongOptionOfACommandIsAKeyOfOneKind() {
        let keys = DefaultsKeys.table()
        for (path, command) in Generated.walk(Commands.root)
        where DefaultsKeys.readsDefaults(path: path, command: command) {
            for option in command.options {
                let entry = keys[DefaultsKeys.key(for: option.long)]
                #expect(entry?.option == option.long, "\(path): --\(option.long) has no key")
            }
        }
        #expect(keys["presets"]?.option == "preset" && keys["variables"]?.option == "var")
        #expect(keys["preset"] == nil && keys["var"] == nil && keys["help"] == nil && keys["version"] == nil)
        #expect(keys["sign"] != nil && keys["sign-key"] != nil)
        // A key's type is checked as the file is read: the tables must agree on it.
        for entry in keys.values { #expect(entry.kinds.count == 1, "\(entry.key): \(entry.kinds)") }
        #expect(keys["output"]?.commands.starts(with: ["shoot", "batch", "camera"]) == true)
        #expect(keys["jobs"]?.commands == ["batch"])
    }

    @Test func theContractsExampleReadsWithLinesAndHomesExpanded() throws {
        let settings = try Self.settings(Self.example)
        #expect(settings.map(\.option) == ["preset", "var", "output", "jobs", "sign", "sign-key"])
        #expect(settings.map(\.origin.line) == [1, 1, 2, 2, 3, 3])
        #expect(settings[0].value == .list(["timestamp", "credit"]))
        #expect(settings[1].value == .assignments(["author=Studio"]))
        #expect(settings[2].value == .text("/home/u/shots"))
        #expect(settings[3].value == .text("2"))
        #expect(settings[4].value == .text("/home/u/keys/chain.pem"))
        // Text is text: a mark's `~` is kept.
        #expect(
            try Self.settings(#"{"text": "~/x", "variables": {"a": "~/b"}}"#).map(\.value) == [
                .text("~/x"), .assignments(["a=~/b"]),
            ])
    }

    @Test func anUnknownKeyNamesFileLineAndTheNearestKey() {
        #expect(
            Self.message("{\n  \"jobs\": 2,\n  \"preset\": [\"credit\"]\n}")
                == "c.json:3: unknown key 'preset'; did you mean 'presets'?")
        #expect(Self.message("{\"qualty\": 90}") == "c.json:1: unknown key 'qualty'; did you mean 'quality'?")
        #expect(Self.message("{\"colour\": 1}")?.hasPrefix("c.json:1: unknown key 'colour'; the keys are") == true)
    }

    @Test func aWrongTypeIsOneLineNamingFileLineAndKey() {
        #expect(
            Self.message("{\n \"jobs\": true}") == "c.json:2: key 'jobs' must be a string or a number (got a boolean)")
        #expect(
            Self.message("{\"recursive\": \"yes\"}") == "c.json:1: key 'recursive' must be true or false (got a string)"
        )
        #expect(
            Self.message("{\"presets\": {}}")
                == "c.json:1: key 'presets' must be a string or a list of strings, e.g. [\"a\", \"b\"] (got an object)")
        #expect(
            Self.message("{\"presets\": [\n\"a\",\n 3,\n {}]}")
                == "c.json:4: key 'presets': each value must be a string (got an object)")
        #expect(
            Self.message("{\"variables\": [\"a=b\"]}")
                == "c.json:1: key 'variables' must be an object of names and values, e.g. {\"author\": \"Studio\"} (got an array)"
        )
        #expect(
            Self.message("{\"variables\": {\n\"\": \"x\"}}")
                == "c.json:2: key 'variables': a variable's name must not be empty (got a string)")
        #expect(
            Self.message("[1]")
                == "c.json:1: a defaults file is an object of options, e.g. {\"presets\": [\"credit\"]} (got an array)")
        #expect(Self.message("{\n\"jobs\": 2,\n}") == "c.json:3:1: trailing comma before '}'")
        #expect(Self.message("{\"jobs\": 2, \"jobs\": 3}")?.hasPrefix("c.json:1:") == true)
    }

    @Test func theCommandLineWinsAndVariablesAdd() throws {
        let (file, _) = try Self.file(Self.example + "\n")
        guard case .batch(let batch) = try parseInvocation(["batch", "in"], defaults: file).command else {
            Issue.record("not a batch")
            return
        }
        #expect(batch.outputFolder.path == "/home/u/shots" && batch.jobs == 2)
        #expect(
            batch.presets == ["timestamp", "credit"]
                && batch.variables == [VariableAssignment(key: "author", value: "Studio")])
        let line = ["batch", "in", "-o", "out", "--jobs", "3", "--preset", "p", "--var", "author=Me", "--var", "job=1"]
        guard case .batch(let given) = try parseInvocation(line, defaults: file).command else { return }
        #expect(given.outputFolder.lastPathComponent == "out" && given.jobs == 3 && given.presets == ["p"])
        #expect(given.variables.map { "\($0.key)=\($0.value)" } == ["author=Studio", "author=Me", "job=1"])
        // shoot takes no --jobs: the key is not an error there, and -o is shoot's own.
        guard case .shoot(let shoot) = try parseInvocation(["shoot"], defaults: file).command else { return }
        #expect(shoot.presets == ["timestamp", "credit"] && shoot.output?.path == "/home/u/shots")
        #expect(shoot.output?.hasDirectoryPath == true)
        // Without a defaults file (parseInvocation's default) nothing is read.
        #expect(throws: UsageError("missing required option '-o OUTDIR' for 'camstamp batch'")) {
            try parseInvocation(["batch", "in"])
        }
    }

    @Test func switchesAndGroupsThatExcludeEachOther() throws {
        let (file, url) = try Self.file("{\"recursive\": true, \"strict\": false, \"skip-existing\": true}")
        guard case .batch(let batch) = try parseInvocation(["batch", "in", "-o", "o"], defaults: file).command else {
            return
        }
        #expect(batch.recursive && !batch.strict && batch.existing == .skip)
        // The command line's --overwrite takes the place of the file's --skip-existing.
        guard
            case .batch(let over) = try parseInvocation(["batch", "in", "-o", "o", "--overwrite"], defaults: file)
                .command
        else { return }
        #expect(over.existing == .overwrite)
        try Data("{\"skip-existing\": true,\n\"overwrite\": true}".utf8).write(to: url)
        #expect(
            throws: UsageError(
                "'--skip-existing' (from \(url.path):1) and '--overwrite' (from \(url.path):2) cannot be used together")
        ) { try parseInvocation(["batch", "in", "-o", "o"], defaults: file) }
    }

    @Test func aBadValueNamesFileLineAndKeyAndHelpStillWorks() throws {
        let (file, url) = try Self.file("{\n\"quality\": 200}")
        #expect(
            throws: UsageError("\(url.path):2: key 'quality': '--quality' must be between 1 and 100 (got 200)")
        ) { try parseInvocation(["batch", "in", "-o", "o"], defaults: file) }
        // The command line's value is used: the file's is not read.
        #expect(throws: Never.self) {
            try parseInvocation(["batch", "in", "-o", "o", "--quality", "80"], defaults: file)
        }
        try Data("{\"nmae\": 1}".utf8).write(to: url)
        // Help, the version and `config path` do not need the file to be right.
        for line in [
            ["batch", "--help"], ["--version"], ["config", "path"], ["help", "batch"], ["presets", "show", "x"],
        ] {
            #expect(throws: Never.self, "\(line)") { try parseInvocation(line, defaults: file) }
        }
        #expect(throws: UsageError("\(url.path):1: unknown key 'nmae'; did you mean 'name'?")) {
            try parseInvocation(["devices"], defaults: file)
        }
    }

    @Test func aFileTooLargeOrNotThereIsSaid() throws {
        let (file, url) = try Self.file("{\"jobs\": 2" + String(repeating: " ", count: 70_000) + "}")
        #expect(
            throws: UsageError(
                "\(url.path): is 70011 bytes, more than the 65536 bytes of a defaults file; it holds options, not presets"
            )
        ) { try file.settings() }
        let missing = DefaultsFile(environment: ["CAMSTAMP_CONFIG": "/nonexistent/c.json"])
        #expect(
            throws: UsageError(
                "/nonexistent/c.json: no such file; set CAMSTAMP_CONFIG to a file, or to none to read no defaults file")
        ) { try missing.settings() }
        // The usual place, empty: no defaults, no error.
        #expect(try DefaultsFile(environment: ["XDG_CONFIG_HOME": "/nonexistent"]).settings().isEmpty)
    }

    @Test func configIsInTheHelpTheManPageAndTheCompletions() throws {
        let help = try #require(helpText(for: []))
        #expect(help.contains("\n  config "), "\(help)")
        let man = ManPage.render(Commands.root)
        #expect(man.contains(".SS \"camstamp config show\"") && man.contains("CAMSTAMP_CONFIG"))
        #expect(man.contains("camstamp/config.json"))
        #expect(Completions.bash(Commands.root).contains("\"config show\")"))
        #expect(Completions.fish(Commands.root).contains("config"))
        // `config show <TAB>` offers the commands, one word each.
        let words = try #require(try Generated.output(for: ["--complete", "commands"])?.get())
        let first = ConfigCommand.commandNames().map { String($0.split(separator: " ")[0]) }
        #expect(
            words.split(separator: "\n").map(String.init)
                == first.reduce(into: []) { if !$0.contains($1) { $0.append($1) } })
        #expect(["shoot", "batch", "presets"].allSatisfy(first.contains) && !first.contains("config"))
    }

    @Test func configShowSaysWhereEachValueComesFrom() throws {
        let (file, url) = try Self.file(Self.example)
        let lines = try ConfigShow(file: file, command: []).lines(json: false)
        #expect(lines.first == "# \(url.path)")
        #expect(lines.count == 7)
        let commands = try #require(DefaultsKeys.table()["presets"]).commands.joined(separator: ", ")
        #expect(
            lines[1] == "presets    timestamp, credit       \(url.path):1  (\(commands); "
                + "--preset on the command line replaces these)")
        #expect(lines[6].hasPrefix("sign-key   /home/u/keys/key.pem    \(url.path):3  ("))
        let batch = try ConfigShow(file: file, command: ["batch"]).lines(json: false)
        #expect(batch.contains { $0.hasPrefix("jobs ") && $0.hasSuffix(" \(url.path):2") })
        #expect(batch.contains { $0.hasPrefix("format ") && $0.contains(" keep ") && $0.hasSuffix(" default") })
        // batch takes --sign and --sign-key (issue 24): the file's values are listed for it.
        #expect(batch.contains { $0.hasPrefix("sign ") && $0.hasSuffix(":3") })
        let json = try ConfigShow(file: file, command: ["batch"]).lines(json: true).joined()
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        let rows = try #require(object?["settings"] as? [[String: Any]])
        let presets = try #require(rows.first { $0["key"] as? String == "presets" })
        #expect(
            presets["value"] as? [String] == ["timestamp", "credit"] && presets["command_line"] as? String == "replaces"
        )
        #expect(rows.first { $0["key"] as? String == "max-size" }?["from"] as? String == "default")
    }
}
