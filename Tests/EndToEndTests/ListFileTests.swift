// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

/// `batch --list FILE`: the names from a listing made once, instead of a walk of the folder.
@Suite(.serialized) struct ListFileTests {
    /// `count` photos in two subfolders of `folder/corpus` and a hidden folder; their relative paths.
    func corpus(in folder: URL, count: Int) throws -> [String] {
        let photo = try PhotoFixtures.jpeg(width: 96, height: 64, orientation: 1, exif: nil)
        let root = folder.appendingPathComponent("corpus")
        let names = (0..<count).map { "day-\($0 % 2)/IMG_\(String(format: "%03d", $0)).jpg" }
        for name in names { _ = try put(photo, name, in: root) }
        _ = try put(photo, ".cache/IMG_x.jpg", in: root)
        return names.sorted()
    }

    /// `find . -type f -print0` of `folder/corpus`, as docs/scale.md makes the listing.
    func makeListing(of folder: URL, into name: String) throws {
        let found = try runProcess(
            "/bin/sh", ["-c", "cd corpus && find . -type f -print0 > ../\(name)"], in: folder)
        #expect(found.status == 0, "\(found.stderr)")
    }

    @Test func fourListedShardsWriteWhatOnePlainBatchWrites() throws {
        let scratch = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let photos = try corpus(in: scratch, count: 24)
        try makeListing(of: scratch, into: "list")
        // {counter} too: the listing's names are numbered as the walk numbers them.
        let plain = try camstamp(
            ["batch", "corpus", "-o", "plain", "--recursive", "--text", "{stem}", "--name", "{counter}-{stem}"],
            in: scratch)
        #expect(plain.status == 0, "\(plain.stderr)")
        var marked = 0
        for index in 1...4 {
            let shard = try camstamp(
                [
                    "batch", "corpus", "-o", "sharded", "--recursive", "--text", "{stem}", "--list", "list",
                    "--name", "{counter}-{stem}", "--shard", "\(index)/4", "--json",
                ], in: scratch)
            #expect(shard.status == 0, "shard \(index): \(shard.stderr)")
            marked += (jsonLines(shard.stdout).last?["summary"] as? [String: Any])?["marked"] as? Int ?? -100
        }
        #expect(marked == photos.count)
        let plainOut = scratch.appendingPathComponent("plain"), shardedOut = scratch.appendingPathComponent("sharded")
        let names = listing(plainOut)
        #expect(names.count == photos.count && listing(shardedOut) == names, "\(names)")
        #expect(names.contains("day-0/1-IMG_000.jpg") && names.contains("day-1/13-IMG_001.jpg"), "\(names)")
        for name in names {
            let a = try Data(contentsOf: plainOut.appendingPathComponent(name))
            let b = try Data(contentsOf: shardedOut.appendingPathComponent(name))
            #expect(a == b, "\(name): the listed shard's output differs from the plain batch's")
        }
    }

    @Test func aShardOpensOnlyItsOwnListedFiles() throws {
        let scratch = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        _ = try corpus(in: scratch, count: 12)
        // Names no walk would find: another shard's are never looked at, this shard's are refused.
        let names = (0..<40).map { "day-9/GONE_\($0).jpg" }
        try Data(names.joined(separator: "\n").utf8).write(to: scratch.appendingPathComponent("list"))
        var refused = 0
        for index in 1...2 {
            let shard = try camstamp(
                [
                    "batch", "corpus", "-o", "out", "--recursive", "--text", "x", "--list", "list", "--shard",
                    "\(index)/2",
                ],
                in: scratch)
            let lines = shard.stderr.split(separator: "\n").filter { $0.contains("but not there") }
            refused += lines.count
            #expect(shard.status != 0 && lines.allSatisfy { $0.contains("listed in ") && $0.contains("/list") })
        }
        #expect(refused == names.count, "each missing name refused by its own shard only, once")
    }

    @Test(arguments: [
        ("/etc/passwd\n", "line 1: '/etc/passwd' is not a path inside the INPUT folder"),
        ("a.jpg\n../b.jpg\n", "line 2: '../b.jpg' is not a path inside the INPUT folder"),
        ("day-0/IMG_000.jpg\n./day-0/IMG_000.jpg\n", "line 2: 'day-0/IMG_000.jpg' is listed twice"),
    ])
    func aBadListingIsRefusedNamingTheLine(text: String, message: String) throws {
        let scratch = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        _ = try corpus(in: scratch, count: 2)
        try Data(text.utf8).write(to: scratch.appendingPathComponent("list"))
        let result = try camstamp(
            ["batch", "corpus", "-o", "out", "--recursive", "--text", "x", "--list", "list"], in: scratch)
        #expect(result.status == 64 && result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: scratch.appendingPathComponent("out").path))
    }

    @Test func aSubfolderNameNeedsRecursiveAndTheListOneFolder() throws {
        let scratch = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        _ = try corpus(in: scratch, count: 2)
        try Data("day-0/IMG_000.jpg\n".utf8).write(to: scratch.appendingPathComponent("list"))
        let flat = try camstamp(["batch", "corpus", "-o", "out", "--text", "x", "--list", "list"], in: scratch)
        #expect(
            flat.stderr.contains("line 1: 'day-0/IMG_000.jpg' is in a subfolder; add --recursive"), "\(flat.stderr)")
        let two = try camstamp(
            ["batch", "corpus", "corpus/day-0", "-o", "out", "--recursive", "--text", "x", "--list", "list"],
            in: scratch)
        #expect(two.stderr == "camstamp: --list names files under one INPUT folder; give that folder alone\n")
        let missing = try camstamp(
            ["batch", "corpus", "-o", "out", "--recursive", "--text", "x", "--list", "nope"], in: scratch)
        #expect(
            missing.status == 64 && missing.stderr.contains("--list ") && missing.stderr.contains("nope: cannot open"))
    }

    @Test func namesUnderOUTDIRInTheInputAreOutputsEvenThroughALink() throws {
        let scratch = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let photos = try corpus(in: scratch, count: 4)
        let marked = try camstamp(
            ["batch", "corpus", "-o", "corpus/marked", "--recursive", "--text", "x"], in: scratch)
        #expect(marked.status == 0, "\(marked.stderr)")
        try FileManager.default.createSymbolicLink(
            at: scratch.appendingPathComponent("out"),
            withDestinationURL: scratch.appendingPathComponent("corpus/marked"))
        try makeListing(of: scratch, into: "list")
        // The listing holds the marked photos too; OUTDIR, named through a link, is the same folder.
        let again = try camstamp(
            [
                "batch", "corpus", "-o", "out", "--recursive", "--text", "x", "--list", "list", "--skip-existing",
                "--json",
            ],
            in: scratch)
        #expect(again.status == 0, "\(again.stderr)")
        let summary = jsonLines(again.stdout).last?["summary"] as? [String: Any]
        #expect(summary?["skipped"] as? Int == photos.count && summary?["marked"] as? Int == 0, "\(again.stdout)")
    }
}
