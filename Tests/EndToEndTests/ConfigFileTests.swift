// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

/// The defaults file as a user meets it: `$XDG_CONFIG_HOME/camstamp/config.json` changes what
/// `batch` writes and where, `config show` says where each value comes from, a typo is one line
/// and exit 64, and `CAMSTAMP_CONFIG=none` runs without it.
@Suite struct ConfigFileTests {
    /// A folder with `config/camstamp/config.json` holding `json`, and a photo `in/one.jpg`.
    static func setUp(_ json: String) throws -> (folder: URL, config: URL, photo: URL) {
        let folder = try temporaryFolder()
        let config = try put(Data(json.utf8), "config/camstamp/config.json", in: folder)
        let photo = try put(
            try PhotoFixtures.jpeg(width: 320, height: 240, orientation: 1, exif: nil), "in/one.jpg", in: folder)
        return (folder, config, photo)
    }

    @Test func theFilesPresetsVariablesAndOutputShapeWhatBatchWrites() throws {
        let shots = "shots-\(UUID().uuidString.prefix(6))"
        let (folder, config, photo) = try Self.setUp(
            "{\"presets\": [\"credit\"],\n \"variables\": {\"author\": \"Studio Nord\"},\n \"output\": \"OUT\", \"jobs\": 2}"
        )
        defer { try? FileManager.default.removeItem(at: folder) }
        // `output` relative to the folder batch runs in, as on the command line.
        try Data(try String(contentsOf: config, encoding: .utf8).replacing("OUT", with: shots).utf8).write(to: config)
        let environment = ["XDG_CONFIG_HOME": folder.appendingPathComponent("config").path]
        let result = try camstamp(["batch", photo.path], in: folder, environment: environment)
        #expect(result.status == 0 && result.stderr == "1 marked, 0 failed, 0 skipped\n", "\(result.stderr)")
        let written = folder.appendingPathComponent("\(shots)/one.jpg")
        let marked = try Data(contentsOf: written)
        #expect(marked != (try Data(contentsOf: photo)), "the photo was not marked")
        let frame = try decodeImage(written)
        #expect(frame.width == 320 && frame.height == 240)

        // The same preset without the file: the shipped author ("Your Name"), a different mark.
        let plain = folder.appendingPathComponent("plain.jpg")
        let none = try camstamp(
            ["batch", photo.path, "-o", plain.path, "--preset", "credit"], in: folder,
            environment: ["CAMSTAMP_CONFIG": "none"])
        #expect(none.status == 0, "\(none.stderr)")
        #expect(try Data(contentsOf: plain) != marked, "the file's author was not drawn")
        // The command line's --var wins over the file's for the same name: the very same photo.
        let named = folder.appendingPathComponent("named.jpg")
        let again = try camstamp(
            ["batch", photo.path, "-o", named.path, "--var", "author=Your Name"], in: folder, environment: environment)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try Data(contentsOf: named) == (try Data(contentsOf: plain)))
    }

    /// `name` is batch's output pattern; `keys new --name` (the certificates' subject) is another
    /// option of the same name, made once, and never taken from the file.
    @Test func batchsNameInTheFileDoesNotNameTheCertificates() throws {
        let (folder, _, photo) = try Self.setUp("{\"name\": \"{stem}-marked\", \"output\": \"out\"}")
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = ["XDG_CONFIG_HOME": folder.appendingPathComponent("config").path]
        let marked = try camstamp(["batch", photo.path, "--preset", "credit"], in: folder, environment: environment)
        #expect(marked.status == 0, "\(marked.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out/one-marked.jpg").path))
        let keys = folder.appendingPathComponent("keys")
        let made = try camstamp(["keys", "new", keys.path], in: folder, environment: environment)
        #expect(made.status == 0, "\(made.stderr)")
        let subject = String(
            decoding: try tool(
                "openssl", ["x509", "-noout", "-subject", "-in", keys.appendingPathComponent("ca.pem").path]),
            as: UTF8.self)
        #expect(subject.contains("camstamp user") && !subject.contains("marked"), "\(subject)")
    }

    @Test func configShowAndPathSayWhatIsInForceAndWhere() throws {
        let (folder, config, _) = try Self.setUp("{\"jobs\": 3,\n \"presets\": [\"credit\", \"timestamp\"]}")
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = ["XDG_CONFIG_HOME": folder.appendingPathComponent("config").path]
        let path = try camstamp(["config", "path"], environment: environment)
        #expect(path.status == 0 && path.stdout == config.path + "\n")
        let show = try camstamp(["config", "show"], environment: environment)
        #expect(show.status == 0, "\(show.stderr)")
        let lines = show.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(show.stdout)")
        #expect(lines.first == "# \(config.path)")
        #expect(
            lines.dropFirst().first == "jobs     3" + String(repeating: " ", count: 18) + "\(config.path):1  (batch)")
        // Every command that takes --preset (more come): the first ones, and what the command line does.
        let presets = lines.last ?? ""
        #expect(presets.hasPrefix("presets  credit, timestamp  \(config.path):2  (shoot, batch, stream, camera"))
        #expect(presets.hasSuffix("; --preset on the command line replaces these)"), "\(presets)")
        let batch = try camstamp(["config", "show", "batch"], environment: environment).stdout
        #expect(batch.contains("\njobs            3 "), "\(batch)")
        #expect(batch.contains("\nrecursive       false") && batch.contains("  default\n"), "\(batch)")
    }

    @Test func anUnknownKeyIsOneLineWithTheNearestKeyAndExit64() throws {
        let (folder, config, photo) = try Self.setUp("{\n  \"jobs\": 2,\n  \"preset\": [\"credit\"]\n}\n")
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = ["XDG_CONFIG_HOME": folder.appendingPathComponent("config").path]
        for line in [["batch", photo.path, "-o", folder.appendingPathComponent("out").path], ["config", "show"]] {
            let result = try camstamp(line, environment: environment)
            #expect(result.status == 64, "\(line)")
            #expect(result.stderr == "camstamp: \(config.path):3: unknown key 'preset'; did you mean 'presets'?\n")
            #expect(result.stdout.isEmpty)
        }
        // CAMSTAMP_CONFIG=none: the file is not read, the batch runs.
        let none = try camstamp(
            ["batch", photo.path, "-o", folder.appendingPathComponent("out").path, "--text", "x"],
            environment: environment.merging(["CAMSTAMP_CONFIG": "none"]) { $1 })
        #expect(none.status == 0, "\(none.stderr)")
        let check = try camstamp(["config", "check", config.path])
        #expect(check.status == 64 && check.stderr.hasSuffix("unknown key 'preset'; did you mean 'presets'?\n"))
    }

    /// The test runner's own isolation: a test that names no config folder sees none of the
    /// developer's (`~/.config/camstamp/config.json` is never read by a test).
    @Test func theTestRunnerGivesCamstampAnEmptyConfigFolder() throws {
        let path = try camstamp(["config", "path"])
        #expect(path.status == 0)
        let home = FileManager.default.homeDirectoryForCurrentUser.path
        #expect(!path.stdout.hasPrefix(home + "/.config/"), "\(path.stdout)")
        #expect(path.stdout.contains("camstamp-test-config-"), "\(path.stdout)")
        #expect(try camstamp(["config", "show"]).stdout.hasSuffix("does not exist: every option has its default\n"))
    }
}
