// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import CamStamp
import Foundation
@testable import CLI
import Testing

/// The tables are built from typed keys and the builders read only through keys: every option a
/// table shows is read by its builder exactly once, and nothing outside the table is read.
@Suite struct OptionKeyTests {
    /// A line that reaches each command's builder, with as few options as it needs.
    static let lines: [[String]] = [
        [], ["shoot"], ["batch", "in", "-o", "out"], ["stream", "--to", "/tmp/out.mp4"], ["camera"], ["devices"],
        ["presets", "list"], ["presets", "show", "credit"], ["presets", "check", "a.json"], ["help", "shoot"],
        ["config", "show"], ["config", "path"], ["config", "check", "c.json"],
    ]

    @Test(arguments: lines)
    func everyOptionOfTheTableIsReadOnceAndNothingElse(line: [String]) throws {
        let parsed = try CommandLineParser.parse(line, root: Commands.root)
        let command = try #require(Commands.root.find(parsed.path))
        let values = OptionValues(parsed)
        _ = try Commands.invocation(from: values)
        // --help is the parser's own; -q and -v are read for every command.
        let expected = command.options + CommandSpec.globalOptions
        for option in expected {
            let reads = values.read.filter { $0 == option }.count
            #expect(reads == 1, "\(line): --\(option.long) read \(reads) times")
        }
        for option in values.read where !expected.contains(option) {
            Issue.record("\(line): --\(option.long) read but not in the table of '\(command.name)'")
        }
    }

    @Test func noTwoOptionsOfOneCommandShareANameAndEveryExclusiveGroupIsInTheTable() {
        for (path, command) in Generated.walk(Commands.root) {
            let options = command.allOptions
            #expect(Set(options.map(\.long)).count == options.count, "\(path): a long name twice")
            let shorts = options.compactMap(\.short)
            #expect(Set(shorts).count == shorts.count, "\(path): a short name twice")
            for name in command.exclusive.joined() {
                #expect(
                    command.options.contains { $0.long == name }, "\(path): exclusive '--\(name)' is not in the table")
            }
        }
    }

    @Test func aKeyParsesWithItsOwnNameInTheMessage() throws {
        let parsed = try CommandLineParser.parse(["batch", "in", "-o", "out", "--max-size", "0"], root: Commands.root)
        #expect(throws: OptionValueError("'--max-size' must be at least 1 (got 0)")) {
            _ = try Commands.invocation(from: OptionValues(parsed))
        }
    }
}

/// The CLI reaches the modules below CamStamp only through it: it imports no module its target in
/// Package.swift does not declare (an undeclared one links only because CamStamp happens to).
@Suite struct CLIDependencyTests {
    @Test func theCLIImportsOnlyWhatPackageSwiftDeclares() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let line = try #require(manifest.split(separator: "\n").first { $0.contains(".target(name: \"CLI\"") })
        let declared = Set(line.matches(of: /"([A-Za-z]+)"/).map { String($0.1) }).subtracting(["CLI"])
        let system: Set = ["Foundation", "Synchronization", "Dispatch", "Glibc"]
        let sources = root.appendingPathComponent("Sources/CLI")
        let files =
            FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        #expect(!files.isEmpty)
        for file in files {
            for match in try String(contentsOf: file, encoding: .utf8).matches(
                of: /(?m)^(?:@testable |internal |public )?import ([A-Za-z]+)/)
            {
                let module = String(match.1)
                #expect(
                    declared.contains(module) || system.contains(module),
                    "\(file.lastPathComponent) imports \(module), which the CLI target does not declare (\(declared.sorted()))"
                )
            }
        }
    }
}
