// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Media
import Testing
import TestSupport

/// Runs `executable` with exactly `environment`, in `directory`, and waits (bounded).
func run(
    _ executable: URL, _ arguments: [String], environment: [String: String], in directory: URL? = nil,
    timeout: TimeInterval = 120
) throws -> RunResult {
    try runProcess(executable.path, arguments, environment: .only(environment), in: directory, timeout: timeout)
}

/// The environment of a clean login: no CAMSTAMP_HOME, no toolchain on the PATH, HOME in `home`.
func cleanEnvironment(home: URL, _ extra: [String: String] = [:]) -> [String: String] {
    ["PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": home.path, "G_DEBUG": "fatal-criticals", "LANG": "C.UTF-8"]
        .merging(extra) { _, new in new }
}

/// The JSON objects of `text`, one per line.
func jsonLines(_ text: String) -> [[String: Any]] {
    text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
}

@Suite(.serialized) struct InstalledCamstampTests {
    @Test func makeInstallPutsEverythingUnderPrefixAndTheBinaryRunsFromAnywhere() throws {
        let scratch = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let stage = scratch.appendingPathComponent("stage")
        // A folder that was there before the install (empty) is not uninstall's to remove.
        let before = stage.appendingPathComponent("usr/share/man/man1")
        try FileManager.default.createDirectory(at: before, withIntermediateDirectories: true)
        let make = try run(
            URL(fileURLWithPath: "/usr/bin/make"),
            [
                "-s", "-C", packageRoot.path, "install-files", "INSTALL_BIN=\(camstampBinary.path)",
                "DESTDIR=\(stage.path)", "PREFIX=/usr",
            ],
            environment: ProcessInfo.processInfo.environment)
        #expect(make.status == 0, "make install-files: \(make.stderr)")
        let installed = Set(listing(stage))
        for file in [
            "usr/bin/camstamp", "usr/lib/camstamp/libc2pa_c.so", "usr/share/camstamp/presets/credit.json",
            "usr/share/camstamp/presets/logos/camstamp.svg",
            "usr/share/camstamp/pipelines/photo-jpeg.pipeline", "usr/share/camstamp/fonts/NotoSans-Regular.ttf",
            // The camera's page and the verify page: without them an installed camera served 404s.
            "usr/share/camstamp/web/index.html", "usr/share/camstamp/web/app.js", "usr/share/camstamp/web/verify.html",
            "usr/share/man/man1/camstamp.1", "usr/share/bash-completion/completions/camstamp",
            "usr/share/zsh/site-functions/_camstamp", "usr/share/fish/vendor_completions.d/camstamp.fish",
        ] {
            #expect(installed.contains(file), "not installed: \(file); installed: \(installed.sorted())")
        }
        // Installed without its symbol table (the debug build's is most of its size).
        let symbols = try runTool(
            "/usr/bin/readelf", ["-S", "-W", stage.appendingPathComponent("usr/bin/camstamp").path])
        #expect(!symbols.contains(".symtab"), "the installed camstamp is not stripped")
        let man = try String(contentsOf: stage.appendingPathComponent("usr/share/man/man1/camstamp.1"), encoding: .utf8)
        #expect(man.contains(".TH CAMSTAMP 1") && man.contains("\\-\\-shard"))

        // From an unrelated folder, with a clean environment: the installed files are found.
        let binary = stage.appendingPathComponent("usr/bin/camstamp")
        let elsewhere = scratch.appendingPathComponent("elsewhere")
        let home = scratch.appendingPathComponent("home")
        for folder in [elsewhere, home] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        let environment = cleanEnvironment(home: home)
        let list = try run(binary, ["presets", "list", "--json"], environment: environment, in: elsewhere)
        #expect(list.status == 0, "\(list.stderr)")
        let presets = (try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]]) ?? []
        let share = stage.appendingPathComponent("usr/share/camstamp/presets").path
        #expect(
            presets.count == 6
                && presets.allSatisfy {
                    ($0["file"] as? String)?.hasPrefix(share + "/") == true && $0["origin"] as? String == "shipped"
                },
            "\(list.stdout)")

        try put(try PhotoFixtures.jpeg(width: 320, height: 240, orientation: 1, exif: nil), "in/a.jpg", in: elsewhere)
        let batch = try run(
            binary,
            ["batch", "in", "-o", "out", "--preset", "logo", "--preset", "credit", "--var", "author=Ann", "-v"],
            environment: environment, in: elsewhere)
        #expect(batch.status == 0, "\(batch.stderr)")
        #expect(
            batch.stderr.contains(
                "camstamp: verbose: pipeline template photo-jpeg: \(stage.path)/usr/share/camstamp/pipelines/photo-jpeg.pipeline"
            ),
            "\(batch.stderr)")
        let output = try decodeImage(elsewhere.appendingPathComponent("out/a.jpg"))
        #expect(output.width == 320 && output.height == 240)

        // Uninstall leaves nothing behind.
        let uninstall = try run(
            URL(fileURLWithPath: "/usr/bin/make"),
            ["-s", "-C", packageRoot.path, "uninstall", "DESTDIR=\(stage.path)", "PREFIX=/usr"],
            environment: ProcessInfo.processInfo.environment)
        #expect(uninstall.status == 0, "make uninstall: \(uninstall.stderr)")
        #expect(listing(stage).isEmpty, "left after uninstall: \(listing(stage))")
        #expect(!FileManager.default.fileExists(atPath: stage.appendingPathComponent("usr/share/camstamp").path))
        // The folders install made are gone once empty; the one that was there stays.
        let folders = (FileManager.default.enumerator(atPath: stage.path)?.allObjects as? [String] ?? []).sorted()
        #expect(folders == ["usr", "usr/share", "usr/share/man", "usr/share/man/man1"], "folders left: \(folders)")
    }

    @Test func userPresetsFromXDGConfigAreListedWithTheirOriginAndUsed() throws {
        let scratch = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let config = scratch.appendingPathComponent("config/camstamp/presets")
        let home = scratch.appendingPathComponent("home")
        let dotConfig = home.appendingPathComponent(".config/camstamp/presets")
        let mine =
            #"{"name": "mine", "description": "My own mark", "marks": [{"text": "MINE", "anchor": "center", "size": "20%"}]}"#
        try put(Data(mine.utf8), "mine.json", in: config)
        try put(
            Data(#"{"name": "credit", "description": "My credit", "marks": [{"text": "me"}]}"#.utf8), "credit.json",
            in: config)
        try put(
            Data(#"{"name": "other", "description": "From dot-config", "marks": [{"text": "o"}]}"#.utf8), "other.json",
            in: dotConfig)
        let environment = cleanEnvironment(
            home: home, ["XDG_CONFIG_HOME": scratch.appendingPathComponent("config").path])

        let list = try run(camstampBinary, ["presets", "list", "--json"], environment: environment, in: scratch)
        #expect(list.status == 0, "\(list.stderr)")
        let entries = (try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: String]]) ?? []
        let byName = Dictionary(uniqueKeysWithValues: entries.map { ($0["name"] ?? "", $0) })
        #expect(
            byName["mine"]?["origin"] == "user"
                && byName["mine"]?["file"] == config.appendingPathComponent("mine.json").path)
        #expect(
            byName["credit"]?["origin"] == "user" && byName["credit"]?["description"] == "My credit",
            "a user preset takes a shipped name")
        #expect(
            byName["other"]?["origin"] == "user"
                && byName["other"]?["file"] == dotConfig.appendingPathComponent("other.json").path)
        #expect(byName["logo"]?["origin"] == "shipped")

        let text = try run(camstampBinary, ["presets", "list"], environment: environment, in: scratch)
        #expect(
            text.stdout.split(separator: "\n").contains {
                $0.hasPrefix("mine ") && $0.hasSuffix("[user: \(config.path)]")
            }, "\(text.stdout)")

        // --preset mine finds it and draws it: the middle of a flat grey photo changes.
        try put(try PhotoFixtures.jpeg(width: 400, height: 300, orientation: 1, exif: nil), "in/a.jpg", in: scratch)
        let batch = try run(
            camstampBinary, ["batch", "in", "-o", "out", "--preset", "mine"], environment: environment, in: scratch)
        #expect(batch.status == 0, "\(batch.stderr)")
        let before = try lumaPlane(decodeImage(scratch.appendingPathComponent("in/a.jpg")))
        let after = try lumaPlane(decodeImage(scratch.appendingPathComponent("out/a.jpg")))
        let changed = (130..<170).flatMap { y in (150..<250).map { x in abs(Int(after[y][x]) - Int(before[y][x])) > 40 }
        }.filter { $0 }.count
        #expect(changed > 200, "the centred MINE changed \(changed) pixels")
    }

    @Test func quietPrintsErrorsOnlyAndVerboseSaysWhatWasChosen() throws {
        let scratch = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try put(try PhotoFixtures.jpeg(width: 320, height: 240, orientation: 1, exif: nil), "in/good.jpg", in: scratch)
        let bad = try put(Data("not a photo at all".utf8), "in/bad.jpg", in: scratch)
        let environment = ProcessInfo.processInfo.environment

        let normal = try run(
            camstampBinary, ["batch", "in", "-o", "normal", "--text", "x"], environment: environment, in: scratch)
        #expect(normal.status == 1 && normal.stderr.contains("1 marked, 1 failed, 0 skipped"), "\(normal.stderr)")

        let quiet = try run(
            camstampBinary, ["batch", "in", "-o", "quiet", "--text", "x", "-q"], environment: environment, in: scratch)
        #expect(quiet.status == 1)
        #expect(quiet.stdout.isEmpty)
        let lines = quiet.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("camstamp: \(bad.path): "), "only the failure: \(quiet.stderr)")
        #expect(FileManager.default.fileExists(atPath: scratch.appendingPathComponent("quiet/good.jpg").path))

        let quietJSON = try run(
            camstampBinary, ["batch", "in", "-o", "json", "--text", "x", "-q", "--json"], environment: environment,
            in: scratch)
        #expect(jsonLines(quietJSON.stdout).count == 3, "--json output is what was asked for: \(quietJSON.stdout)")

        let shoot = try run(
            camstampBinary, ["shoot", "-q", "--source", "test", "--text", "hi", "-o", "shot.jpg"],
            environment: environment, in: scratch)
        #expect(shoot.status == 0 && shoot.stdout.isEmpty && shoot.stderr.isEmpty, "\(shoot.stdout)\(shoot.stderr)")
        #expect(FileManager.default.fileExists(atPath: scratch.appendingPathComponent("shot.jpg").path))

        let verbose = try run(
            camstampBinary, ["shoot", "-v", "--source", "test", "--text", "hi", "-o", "verbose.jpg"],
            environment: environment, in: scratch)
        #expect(verbose.status == 0)
        for expected in [
            "camstamp: verbose: source: test", "camstamp: verbose: encoder pipeline: appsrc",
            "camstamp: verbose: capture elements: videotestsrc:camera ",
            "camstamp: verbose: camera start: ", "camstamp: verbose: total: ",
        ] {
            #expect(verbose.stderr.contains(expected), "\(expected) not in \(verbose.stderr)")
        }
        #expect(
            try run(camstampBinary, ["devices", "-q", "-v"], environment: environment).stderr
                == "camstamp: '--quiet' and '--verbose' cannot be used together\n")
    }
}

@Suite(.serialized) struct ShardTests {
    /// `count` photos in four subfolders of `folder/corpus`, plus a text file; returns the photos' relative paths.
    func corpus(in folder: URL, count: Int, width: Int = 160, height: Int = 120) throws -> [String] {
        let photo = try PhotoFixtures.jpeg(width: width, height: height, orientation: 1, exif: nil)
        let names = (0..<count).map { "day-\($0 % 4)/IMG_\(String(format: "%04d", $0)).jpg" }
        for name in names { try put(photo, name, in: folder.appendingPathComponent("corpus")) }
        try put(Data("notes".utf8), "day-0/notes.txt", in: folder.appendingPathComponent("corpus"))
        return names.sorted()
    }

    @Test func fourShardsAtOnceWriteEachOutputExactlyOnceIntoOneTree() throws {
        let scratch = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let photos = try corpus(in: scratch, count: 40)
        let shards = try (1...4).map { index in
            try RunningCamstamp(
                [
                    "batch", "corpus", "-o", "out", "--recursive", "--text", "{stem}", "--jobs", "1",
                    "--shard", "\(index)/4", "--json",
                ], in: scratch)
        }
        let results = shards.map { $0.finish(timeout: 120) }
        var marked: [String] = []
        var totals = (marked: 0, skipped: 0, failed: 0)
        for (index, result) in results.enumerated() {
            #expect(result.status == 0, "shard \(index + 1): \(result.stderr)")
            let objects = jsonLines(result.stdout)
            let mine = objects.filter { $0["status"] as? String == "marked" }.compactMap { $0["input"] as? String }
            #expect(!mine.isEmpty, "shard \(index + 1) got no photo")
            marked += mine
            let summary = objects.last?["summary"] as? [String: Any]
            #expect(summary?["shard"] as? String == "\(index + 1)/4", "\(result.stdout)")
            totals.marked += summary?["marked"] as? Int ?? 0
            totals.skipped += summary?["skipped"] as? Int ?? 0
            totals.failed += summary?["failed"] as? Int ?? 0
        }
        #expect(
            marked.count == photos.count && Set(marked).count == photos.count, "each photo stamped by exactly one shard"
        )
        #expect(totals == (40, 1, 0), "the merged summaries: \(totals)")
        #expect(listing(scratch.appendingPathComponent("out")) == photos, "one output per input, nothing else")
    }

    @Test func aKilledShardRerunWithSkipExistingFinishesTheRest() throws {
        let scratch = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        _ = try corpus(in: scratch, count: 60, width: 2400, height: 1800)
        let arguments = [
            "batch", "corpus", "-o", "out", "--recursive", "--text", "{stem}", "--jobs", "1", "--shard", "1/2",
        ]
        let planned = try camstamp(arguments + ["--dry-run"], in: scratch)
        let expected = planned.stdout.split(separator: "\n").map { line in
            String(line.split(separator: " -> ")[1]).replacingOccurrences(
                of: scratch.appendingPathComponent("out").path + "/", with: "")
        }.sorted()
        #expect(expected.count > 10 && expected.count < 50, "\(expected.count) photos in shard 1/2")

        let first = try RunningCamstamp(arguments, in: scratch)
        let out = scratch.appendingPathComponent("out")
        let deadline = Date().addingTimeInterval(60)
        while first.isRunning && Date() < deadline && listing(out).filter({ !$0.contains("/.") }).count < 3 {
            Thread.sleep(forTimeInterval: 0.01)
        }
        first.send(SIGKILL)
        _ = first.finish()
        let done = listing(out).filter { !$0.contains("/.") }
        #expect(done.count < expected.count, "killed before the end: \(done.count) of \(expected.count)")

        let rerun = try camstamp(arguments + ["--skip-existing", "--json"], in: scratch, timeout: 180)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        let summary = jsonLines(rerun.stdout).last?["summary"] as? [String: Any]
        #expect(summary?["marked"] as? Int == expected.count - done.count, "\(rerun.stdout.suffix(300))")
        #expect(listing(out) == expected, "every output of the shard, and no temporary file left")
        for name in expected {
            let frame = try decodeImage(out.appendingPathComponent(name))
            #expect(frame.width == 2400 && frame.height == 1800, "\(name) is whole")
        }
    }
}
