// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

/// `batch PHOTO -o FILE` and `-o -`: one photo into one file or onto stdout; and a rerun into a
/// folder that holds the outputs already, said once.
@Suite struct BatchSingleFileTests {
    static let remedy = "for more, make -o a folder (end it with /)"

    static func photo() throws -> Data { try PhotoFixtures.jpeg(width: 160, height: 120, orientation: 1, exif: nil) }

    @Test func onePhotoAndAFileNameWriteThatFileInTheFormatItNames() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try put(Self.photo(), "one.jpg", in: folder)
        let formats = [("one-marked.jpg", [0xFF, 0xD8]), ("one.png", [0x89, 0x50]), ("sub/one.webp", [0x52, 0x49])]
        for (name, signature) in formats {
            let output = folder.appendingPathComponent(name)
            let result = try camstamp(["batch", input.path, "-o", output.path, "--text", "x"])
            #expect(
                result.status == 0 && result.stderr == "1 marked, 0 failed, 0 skipped\n",
                "\(name): \(result.stderr)")
            let data = try Data(contentsOf: output)
            #expect(Array(data.prefix(2)) == signature.map(UInt8.init), "\(name) is not a file of its format")
            let frame = try decodeImage(output)
            #expect(frame.width == 160 && frame.height == 120, "\(name)")
        }
        // --format wins over the extension, as it does for a folder's outputs.
        let png = folder.appendingPathComponent("forced.jpg")
        #expect(try camstamp(["batch", input.path, "-o", png.path, "--text", "x", "--format", "png"]).status == 0)
        #expect(Array(try Data(contentsOf: png).prefix(4)) == [0x89, 0x50, 0x4E, 0x47])

        // The file is there now: refused without --overwrite, replaced with it.
        let marked = folder.appendingPathComponent("one-marked.jpg")
        let before = try Data(contentsOf: marked)
        let again = try camstamp(["batch", input.path, "-o", marked.path, "--text", "other"])
        #expect(
            again.status == 1 && again.stderr.hasSuffix("0 marked, 0 failed, 0 skipped, 1 existing\n"),
            "\(again.stderr)")
        #expect(try Data(contentsOf: marked) == before)
        #expect(try camstamp(["batch", input.path, "-o", marked.path, "--text", "other", "--overwrite"]).status == 0)
        #expect(try Data(contentsOf: marked) != before)
        // No stray folder named after the file, nothing else written.
        #expect(listing(folder) == ["forced.jpg", "one-marked.jpg", "one.jpg", "one.png", "sub/one.webp"])
    }

    @Test func onePhotoToStandardOutputIsThePhotosBytesOnly() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try put(Self.photo(), "one.jpg", in: folder)
        let (status, data, errors) = try camstampRawStdout(["batch", input.path, "-o", "-", "--text", "x"], in: folder)
        #expect(status == 0 && errors == "1 marked, 0 failed, 0 skipped\n", "\(errors)")
        let written = try put(data, "from-stdout.jpg", in: folder)
        let frame = try decodeImage(written)
        #expect(frame.width == 160 && frame.height == 120)
        #expect(Array(data.suffix(2)) == [0xFF, 0xD9], "the JPEG and nothing after it")
        #expect(listing(folder) == ["from-stdout.jpg", "one.jpg"], "no folder named -")
        let json = try camstamp(["batch", input.path, "-o", "-", "--text", "x", "--json"], in: folder)
        #expect(
            json.status == 64
                && json.stderr == "camstamp: '--json' and '-o -' cannot be used together: stdout holds the photo\n")
    }

    @Test func severalInputsOrAFolderWithAFileNameAreOneUsageError() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = try Self.photo()
        let a = try put(photo, "in/a.jpg", in: folder), b = try put(photo, "in/b.jpg", in: folder)
        let out = folder.appendingPathComponent("out.jpg")
        let two = try camstamp(["batch", a.path, b.path, "-o", out.path, "--text", "x"])
        #expect(
            two.status == 64
                && two.stderr == "camstamp: -o out.jpg takes one photo, not 2 inputs; \(Self.remedy)\n")
        let inFolder = folder.appendingPathComponent("in")
        let whole = try camstamp(["batch", inFolder.path, "-o", "-", "--text", "x"], in: folder)
        #expect(
            whole.status == 64
                && whole.stderr == "camstamp: -o - takes one photo, not the folder \(inFolder.path); \(Self.remedy)\n")
        // A name ending in / is a folder, whatever its extension: what a folder of outputs was called.
        let named = try camstamp(["batch", a.path, b.path, "-o", out.path + "/", "--text", "x"])
        #expect(named.status == 0 && listing(out) == ["a.jpg", "b.jpg"], "\(named.stderr)")
        #expect(listing(folder).filter { !$0.hasPrefix("out.jpg/") } == ["in/a.jpg", "in/b.jpg"])
    }

    @Test func aRerunIntoTheSameFolderSaysOnceThatTheOutputsExist() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = try Self.photo()
        for name in ["a.jpg", "b.jpg", "c.jpg"] { try put(photo, "in/\(name)", in: folder) }
        let input = folder.appendingPathComponent("in"), out = folder.appendingPathComponent("out")
        #expect(try camstamp(["batch", input.path, "-o", out.path, "--text", "x"]).status == 0)
        let again = try camstamp(["batch", input.path, "-o", out.path, "--text", "x"])
        // Exit 1: nothing was done, and a script must know.
        #expect(again.status == 1)
        #expect(
            again.stderr == "camstamp: 3 outputs exist, nothing replaced: `--skip-existing` continues a batch, "
                + "`--overwrite` replaces\n0 marked, 0 failed, 0 skipped, 3 existing\n", "\(again.stderr)")
        let json = try camstamp(["batch", input.path, "-o", out.path, "--text", "x", "--json"])
        let lines = json.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(
            lines.count == 4 && lines.dropLast().allSatisfy { $0["status"] as? String == "exists" },
            "\(json.stdout)")
        let summary = lines.last?["summary"] as? [String: Any]
        #expect(
            summary?["existing"] as? Int == 3 && summary?["failed"] as? Int == 0 && summary?["marked"] as? Int == 0,
            "\(json.stdout)")
        let skipped = try camstamp(["batch", input.path, "-o", out.path, "--text", "x", "--skip-existing"])
        #expect(skipped.status == 0 && skipped.stderr == "0 marked, 0 failed, 3 skipped\n", "\(skipped.stderr)")
    }
}
