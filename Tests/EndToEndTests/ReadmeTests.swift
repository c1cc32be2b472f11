// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

/// The README's and the manual's commands run as written (issue 8, "the README tells the truth";
/// issue 22 moved the manual into docs/), with the test camera where they name a webcam: every
/// `camstamp` line of the `sh` blocks of README.md and of every docs/*.md page, and a page's
/// example preset through `presets check`.
@Suite struct ReadmeTests {
    /// README.md and every page of docs/, as paths under the package root. A page added to docs/
    /// is read without being named here.
    static let pages: [String] = {
        let folder = packageRoot.appendingPathComponent("docs").path
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }()

    /// The `camstamp` command lines of a page, each adapted only where this machine differs: the
    /// test camera instead of a webcam, a one-second stream instead of one stopped by Ctrl-C.
    static func commands(_ page: String) -> [String] {
        var lines: [String] = [], inShell = false, continued: String?
        for raw in page.split(separator: "\n", omittingEmptySubsequences: false) {
            if raw.hasPrefix("```") {
                inShell = raw == "```sh"
                continued = nil
                continue
            }
            guard inShell else { continue }
            // A command split over lines with a trailing backslash (a script's) is one line.
            let joined = continued.map { $0 + " " + raw.trimmingCharacters(in: .whitespaces) } ?? String(raw)
            if joined.hasSuffix("\\") {
                continued = String(joined.dropLast())
                continue
            }
            continued = nil
            guard let command = adapted(joined) else { continue }
            lines.append(command)
        }
        return lines
    }

    /// One line of a shell block as the test runs it, or nil when it is no `camstamp` command or
    /// one that other suites run in its place.
    static func adapted(_ line: String) -> String? {
        guard line.hasPrefix("camstamp ") else { return nil }
        // A trailing comment and a background `&` (the kill -USR1 example) go.
        var command = String(line.split(separator: "#", maxSplits: 1)[0]).trimmingCharacters(in: .whitespaces)
        if command.hasSuffix("&") { command = String(command.dropLast()).trimmingCharacters(in: .whitespaces) }
        // --control needs a real camera's controls (the test camera has none); `camera` runs
        // until Ctrl-C on a fixed port or a display (CameraTests run it on free ports and Xvfb).
        if command.contains("--control ") || command.hasPrefix("camstamp camera") { return nil }
        // Publishing examples name servers elsewhere and fixed ports: LiveTargetTests and
        // WHIPTests run each target against servers they start on 127.0.0.1.
        if ["rtmp://", "srt://", "hls:", "--serve ", "whip://", "whips://"].contains(where: command.contains) {
            return nil
        }
        // A quoted camera name is one word.
        command = command.replacing(#/--source ("[^"]*"|\S+)/#, with: "--source test")
        // A cluster's shared mount (docs/scale.md) is a folder of the test's home.
        command = command.replacing("/shared/", with: "shared/")
        var words = command.split(separator: " ").map(String.init)
        if ["shoot", "stream"].contains(words[1]) {
            if !words.contains("--source") { words.insert(contentsOf: ["--source", "test"], at: 2) }
            // A time-lapse of hours becomes two photos a moment apart.
            if let index = words.firstIndex(of: "--count") { words[index + 1] = "2" }
            if let index = words.firstIndex(of: "--interval") { words[index + 1] = "0.2" }
            if words[1] == "stream", !words.contains("--duration") { words += ["--duration", "1"] }
            // Tests send traffic to this machine only: the page's receiver becomes 127.0.0.1.
            words = words.map { word in
                guard let rest = word.split(separator: "://", maxSplits: 1).last, word.contains("://"),
                    let colon = rest.lastIndex(of: ":")
                else { return word }
                return word.prefix(upTo: word.range(of: "://")!.upperBound) + "127.0.0.1" + rest[colon...]
            }
        }
        return words.joined(separator: " ")
    }

    @Test func aScriptsContinuedLineIsOneCommand() {
        let page = "```sh\ncamstamp batch /shared/in -o out \\\n  --shard \"${K}/${N}\" --json \\\n  >> r.jsonl\n```\n"
        #expect(Self.commands(page) == [#"camstamp batch shared/in -o out --shard "${K}/${N}" --json >> r.jsonl"#])
    }

    @Test func everyPageIsReadAndItsCommandsStayOnThisMachine() throws {
        #expect(Self.pages.count >= 10, "\(Self.pages)")
        let commands = try Self.pages.flatMap { Self.commands(try Self.text(of: $0)) }
        #expect(commands.count >= 12, "\(commands)")
        #expect(commands.allSatisfy { !$0.contains("://") || $0.contains("://127.0.0.1:") }, "\(commands)")
    }

    @Test(.serialized, arguments: pages)
    func everyCommandOfThePageRunsAsWritten(page: String) throws {
        let text = try Self.text(of: page)
        let home = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: home) }
        try Self.furnish(home, exampleFrom: text)
        for command in Self.commands(text) {
            let path =
                home.appendingPathComponent("bin").path + ":"
                + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
            // docs/scale.md's Slurm script, as task 1 of a one-task array on a 1-CPU allocation.
            let environment = [
                "HOME": home.path, "PATH": path, "G_DEBUG": "fatal-criticals",
                // The home's own defaults file, never the developer's (docs/config.md).
                "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path, "CAMSTAMP_CONFIG": "",
                "K": "1", "N": "1", "SLURM_CPUS_PER_TASK": "1",
            ]
            let result = try runProcess(
                "/bin/sh", ["-c", command], environment: .inherited(environment), in: home,
                stdout: .discard, timeout: 120)
            #expect(result.status == 0, "\(page): \(command): \(result.stderr)")
        }
    }

    static func text(of page: String) throws -> String {
        try String(contentsOf: packageRoot.appendingPathComponent(page), encoding: .utf8)
    }

    /// What the commands expect to find in their home: a card and folders of shots, a cluster's
    /// shared archive and its listing, the page's example preset (its first `json` block) and its logo.
    static func furnish(_ home: URL, exampleFrom text: String) throws {
        let manager = FileManager.default
        let folders = [
            "card/DCIM/100CAM", "shoot", "phone", "clips", "logos", "bin", "shared/archive", "shared/reports",
        ]
        for folder in folders {
            try manager.createDirectory(at: home.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        // `phone/` and `clips/` are marked into the same folder: their photos need names of their own.
        let photos = [
            ("card/DCIM/100CAM", "photo.jpg"), ("shoot", "photo.jpg"), ("phone", "photo.jpg"),
            ("clips", "still.jpg"), ("shared/archive", "photo.jpg"),
        ]
        for (folder, name) in photos {
            try manager.copyItem(
                at: makerNoteFixtures.appendingPathComponent("samsung-preview.jpg"),
                to: home.appendingPathComponent(folder).appendingPathComponent(name))
        }
        // docs/scale.md's listing, as its `find . -type f -print0` line (not a camstamp line) makes it.
        try Data("./photo.jpg\0".utf8).write(to: home.appendingPathComponent("shared/reports/archive.list"))
        try manager.copyItem(
            at: packageRoot.appendingPathComponent("presets/logos/camstamp.svg"),
            to: home.appendingPathComponent("logos/camstamp.svg"))
        let example = text.components(separatedBy: "```json\n").dropFirst().first
        if let json = example?.components(separatedBy: "```").first {
            try json.write(to: home.appendingPathComponent("my.json"), atomically: true, encoding: .utf8)
        }
        try manager.createSymbolicLink(
            at: home.appendingPathComponent("bin/camstamp"),
            withDestinationURL: camstampBinary)
    }
}
