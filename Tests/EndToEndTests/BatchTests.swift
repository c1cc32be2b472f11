// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Media
import PhotoMetadata
import Testing
import TestSupport

@Suite struct BatchTests {
    @Test func landscapeAndPortraitOfTheSameShortSideEachGetTheirOwnPlacement() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // One worker takes both, landscape first: the portrait must not reuse the landscape's placement.
        try put(PhotoFixtures.jpeg(width: 320, height: 240, orientation: 1, exif: nil), "in/a.jpg", in: folder)
        try put(PhotoFixtures.jpeg(width: 240, height: 320, orientation: 1, exif: nil), "in/b.jpg", in: folder)
        let out = folder.appendingPathComponent("out")
        let result = try camstamp([
            "batch", folder.appendingPathComponent("in").path, "-o", out.path, "--text", "MARK", "--jobs", "1",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        for name in ["a.jpg", "b.jpg"] {
            let frame = try decodeImage(out.appendingPathComponent(name))
            let luma = try lumaPlane(frame)
            // Only the mark differs from the grey background in the lower half.
            let lower = Array(luma[(frame.height / 2)...]).map { Array($0) }
            let found = changedBounds(lower, background: PhotoFixtures.grey, tolerance: 40)
            guard let bounds = found else {
                Issue.record("\(name) has no mark in its lower half")
                continue
            }
            #expect(
                frame.width - 1 - bounds.maxX < frame.width / 10,
                "\(name): mark ends at x=\(bounds.maxX) of \(frame.width)")
            #expect(
                frame.height / 2 - 1 - bounds.maxY < frame.height / 10,
                "\(name): mark ends at y=\(bounds.maxY + frame.height / 2)")
        }
    }

    @Test func metadataIsKeptAndGPSCanBeStripped() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try put(
            PhotoFixtures.jpeg(width: 160, height: 120, orientation: 1, exif: PhotoFixtures.exif(orientation: 1)),
            "a.jpg", in: folder)
        let kept = folder.appendingPathComponent("kept"), noGPS = folder.appendingPathComponent("nogps"),
            none = folder.appendingPathComponent("none")
        #expect(try camstamp(["batch", input.path, "-o", kept.path, "--text", "{exif:Model}"]).status == 0)
        #expect(try camstamp(["batch", input.path, "-o", noGPS.path, "--text", "x", "--strip-gps"]).status == 0)
        #expect(try camstamp(["batch", input.path, "-o", none.path, "--text", "x", "--strip-metadata"]).status == 0)
        let full = try #require(try readEXIF(kept.appendingPathComponent("a.jpg")))
        #expect(full.values["Model"] == "Fixture Cam 1" && full.values["Make"] == "Camstamp Labs")
        #expect(full.hasGPS)
        #expect(full.values["DateTimeOriginal"] == "2024:05:06 07:08:09")
        let stripped = try #require(try readEXIF(noGPS.appendingPathComponent("a.jpg")))
        #expect(!stripped.hasGPS)
        #expect(stripped.values["Model"] == "Fixture Cam 1")
        #expect(try readEXIF(none.appendingPathComponent("a.jpg")) == nil)
        // Re-encoded, the photo's metadata goes through PhotoFacts.withMetadata, where
        // --strip-metadata is decided (PhotoMetadata only knows with or without the location).
        let reencoded = folder.appendingPathComponent("none-reencoded")
        #expect(
            try camstamp(["batch", input.path, "-o", reencoded.path, "--text", "x", "--strip-metadata", "--reencode"])
                .status == 0)
        #expect(try readEXIF(reencoded.appendingPathComponent("a.jpg")) == nil)
    }

    @Test func badFilesAreReportedAndTheRestAreMarked() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("card")
        let good = try PhotoFixtures.jpeg(width: 160, height: 120, orientation: 1, exif: nil)
        try put(good, "IMG 0001.JPG", in: input)
        try put(good, "照片 二.jpeg", in: input)
        try put(good.prefix(good.count / 2), "truncated.jpg", in: input)
        try put(Data(), "empty.jpg", in: input)
        try put(Data("not a photo\n".utf8), "text.jpg", in: input)
        // Well-formed markers around garbage: only the decoder can tell, and it must not hang.
        try put(
            Data(
                [0xFF, 0xD8, 0xFF, 0xDB, 0x00, 0x04, 0x00, 0x00] + [UInt8](repeating: 0x42, count: 2000) + [0xFF, 0xD9]),
            "damaged.jpg", in: input)
        try put(Data("<x:xmpmeta/>".utf8), "IMG 0001.xmp", in: input)
        try put(Data([0]), ".DS_Store", in: input)
        try put(good, "nested/deeper/three.jpg", in: input)
        let before = listing(input).map { ($0, try? Data(contentsOf: input.appendingPathComponent($0))) }
        let out = folder.appendingPathComponent("out")
        let result = try camstamp([
            "batch", input.path, "-o", out.path, "--recursive", "--text", "{filename}", "--json",
        ])
        #expect(result.status == 1, "stderr: \(result.stderr)")
        #expect(listing(out) == ["IMG 0001.JPG", "nested/deeper/three.jpg", "照片 二.jpeg"])
        let failures = result.stderr.split(separator: "\n").filter {
            $0.hasPrefix("camstamp: ") && !$0.contains(": skipped: ")
        }
        #expect(failures.count == 4, "\(result.stderr)")
        // The files that are not photos are named too (issue 11), not only counted.
        for name in ["IMG 0001.xmp", ".DS_Store"] {
            #expect(
                result.stderr.contains("camstamp: \(input.appendingPathComponent(name).path): skipped: not a photo"),
                "\(name) not named")
        }
        for name in ["truncated.jpg", "empty.jpg", "text.jpg", "damaged.jpg"] {
            #expect(
                failures.contains { $0.hasPrefix("camstamp: \(input.appendingPathComponent(name).path): ") },
                "\(name) not reported")
        }
        #expect(result.stderr.hasSuffix("3 marked, 4 failed, 2 skipped\n"), "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 10, "one line per file, then the summary")
        let objects = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(
            objects.count == 10
                && objects.dropLast().allSatisfy {
                    $0["input"] is String && $0["status"] is String && $0["milliseconds"] is Int
                })
        let summary = objects.last?["summary"] as? [String: Any]
        #expect(
            summary?["marked"] as? Int == 3 && summary?["failed"] as? Int == 4 && summary?["skipped"] as? Int == 2
                && summary?["not_started"] as? Int == 0 && summary?["interrupted"] as? Bool == false,
            "\(lines.last ?? "")")
        // Inputs are byte-for-byte unchanged.
        for (name, data) in before {
            #expect((try? Data(contentsOf: input.appendingPathComponent(name))) == data, "\(name) changed")
        }
    }

    @Test func existingOutputsAreRefusedSkippedOrReplacedAsAsked() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try put(
            PhotoFixtures.jpeg(width: 160, height: 120, orientation: 1, exif: nil), "in/a.jpg", in: folder)
        let out = folder.appendingPathComponent("out")
        let existing = try put(Data("keep me".utf8), "a.jpg", in: out)
        let refused = try camstamp(["batch", input.path, "-o", out.path, "--text", "x"])
        #expect(refused.status == 1)
        #expect(
            refused.stderr == "camstamp: 1 output exists, nothing replaced: `--skip-existing` continues a batch, "
                + "`--overwrite` replaces\n0 marked, 0 failed, 0 skipped, 1 existing\n", "\(refused.stderr)")
        #expect(try Data(contentsOf: existing) == Data("keep me".utf8))
        let skipped = try camstamp(["batch", input.path, "-o", out.path, "--text", "x", "--skip-existing"])
        #expect(skipped.status == 0 && skipped.stderr.hasSuffix("0 marked, 0 failed, 1 skipped\n"), "\(skipped.stderr)")
        #expect(try Data(contentsOf: existing) == Data("keep me".utf8))
        let replaced = try camstamp(["batch", input.path, "-o", out.path, "--text", "x", "--overwrite"])
        #expect(replaced.status == 0)
        #expect(try decodeImage(existing).width == 160)
        #expect(listing(out) == ["a.jpg"])
    }

    @Test func writingOverAnInputIsRefusedBeforeAnyWork() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = try PhotoFixtures.jpeg(width: 160, height: 120, orientation: 1, exif: nil)
        try put(photo, "a.jpg", in: folder)
        try put(photo, "b.jpg", in: folder)
        let result = try camstamp(["batch", folder.path, "-o", folder.path, "--text", "x", "--overwrite"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("would replace an input photo"), "\(result.stderr)")
        #expect(try Data(contentsOf: folder.appendingPathComponent("a.jpg")) == photo)
        let renamed = try camstamp(["batch", folder.path, "-o", folder.path, "--text", "x", "--name", "{stem}-marked"])
        #expect(renamed.status == 0, "\(renamed.stderr)")
        #expect(listing(folder) == ["a-marked.jpg", "a.jpg", "b-marked.jpg", "b.jpg"])
    }

    /// `camstamp batch . -o marked --recursive` run again (new photos, --skip-existing) must not
    /// take its own outputs for inputs: the second run was refused ("would replace an input photo").
    @Test func anOutputFolderInsideTheInputIsNotReadAsInput() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = try PhotoFixtures.jpeg(width: 160, height: 120, orientation: 1, exif: nil)
        try put(photo, "a.jpg", in: folder)
        try put(photo, "trip/b.jpg", in: folder)
        let out = folder.appendingPathComponent("marked")
        let first = try camstamp(["batch", folder.path, "-o", out.path, "--recursive", "--text", "x"])
        #expect(first.status == 0, "\(first.stderr)")
        try put(photo, "c.jpg", in: folder)
        let again = try camstamp([
            "batch", folder.path, "-o", out.path, "--recursive", "--text", "x", "--skip-existing",
        ])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr == "1 marked, 0 failed, 2 skipped\n", "\(again.stderr)")
        #expect(listing(out) == ["a.jpg", "c.jpg", "trip/b.jpg"])
    }

    /// A read-only disk is called that, not "permission denied" (which sends a user to chmod).
    /// Needs a tmpfs mounted read-only (root, as `make test` runs on CI).
    @Test(.mountsTmpfs) func aReadOnlyDiskIsCalledThat() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try put(
            try PhotoFixtures.jpeg(width: 160, height: 120, orientation: 1, exif: nil), "in/a.jpg", in: folder)
        let disk = folder.appendingPathComponent("disk")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        try mountTmpfs(at: disk, options: "size=16k,ro")
        defer { unmount(disk) }
        let result = try camstamp(["batch", input.path, "-o", disk.path, "--text", "x"])
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "camstamp: \(disk.path): cannot write here (read-only file system); choose another folder with -o\n")
    }

    /// A batch writes each output with write(2) and close(2), never fsync (docs/scale.md says so):
    /// Foundation's Data.write fsynced every photo, each worker waiting for the disk. Counted with
    /// strace over all threads, on the stamped-in-coefficients path and the re-encoding one.
    @Test func outputsAreWrittenWithoutFsync() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["a.jpg", "b.jpg"] {
            _ = try put(
                try PhotoFixtures.jpeg(width: 320, height: 240, orientation: 1, exif: nil), "in/\(name)", in: folder)
        }
        for extra in [[], ["--reencode"]] {
            let out = folder.appendingPathComponent("out\(extra.count)")
            let trace = folder.appendingPathComponent("trace\(extra.count).txt")
            try tool(
                "strace",
                [
                    "-f", "-qq", "-e", "trace=fsync,fdatasync,sync_file_range", "-o", trace.path, camstampBinary.path,
                    "batch", folder.appendingPathComponent("in").path, "-o", out.path, "--text", "x", "-q",
                ] + extra)
            #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == ["a.jpg", "b.jpg"])
            // Only the calls traced count: strace also writes "PID ???( <detached ...>" for a
            // thread that ends inside another call.
            let calls = try String(contentsOf: trace, encoding: .utf8).split(separator: "\n").filter {
                ["fsync(", "fdatasync(", "sync_file_range("].contains(where: $0.contains)
            }
            #expect(calls.isEmpty, "\(extra): \(calls.prefix(3))")
        }
    }

    /// A photo costs no look-up of user and group names: its date and the logo's cache key come
    /// from stat(2), not FileManager's attributes (which read /etc/passwd and /etc/group each
    /// time). One photo and four open those files equally often (strace, --jobs 1).
    @Test func aPhotoReadsNoUserOrGroupNames() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var counts: [Int] = []
        for n in [1, 4] {
            for index in 0..<n {
                _ = try put(
                    try PhotoFixtures.jpeg(width: 320, height: 240, orientation: 1, exif: nil), "in\(n)/\(index).jpg",
                    in: folder)
            }
            let trace = folder.appendingPathComponent("trace\(n).txt")
            try tool(
                "strace",
                [
                    "-f", "-qq", "-e", "trace=openat", "-o", trace.path, camstampBinary.path, "batch",
                    folder.appendingPathComponent("in\(n)").path, "-o", folder.appendingPathComponent("out\(n)").path,
                    "--text", "x", "--preset", "logo", "--jobs", "1", "-q",
                ])
            let opens = try String(contentsOf: trace, encoding: .utf8).split(separator: "\n")
            counts.append(opens.filter { $0.contains("\"/etc/passwd\"") || $0.contains("\"/etc/group\"") }.count)
        }
        #expect(
            counts[0] == counts[1],
            "/etc/passwd and /etc/group opened \(counts[0]) times for 1 photo, \(counts[1]) for 4")
    }

    /// A disk that fills: each photo that does not fit is one line naming its output and what to
    /// do, and no part of a photo is left. Needs a small tmpfs (root).
    @Test(.mountsTmpfs) func aFullDiskIsOneLinePerPhotoAndLeavesNoPart() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try put(
            try PhotoFixtures.jpeg(width: 1600, height: 1200, orientation: 1, exif: nil), "in/a.jpg", in: folder)
        let disk = folder.appendingPathComponent("disk")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        try mountTmpfs(at: disk, options: "size=8k")
        defer { unmount(disk) }
        let result = try camstamp(["batch", input.path, "-o", disk.path, "--text", "x"])
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "camstamp: \(input.path): cannot write \(disk.appendingPathComponent("a.jpg").path) (the disk is full); "
                + "free some space or choose another -o folder\n0 marked, 1 failed, 0 skipped\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path).isEmpty)
    }

    @Test func sixteenBitPNGsAreMarkedToo() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try put(PNG16.make(width: 64, height: 48), "deep.png", in: folder)
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", input.path, "-o", out.path, "--text", "x"])
        #expect(result.status == 0, "\(result.stderr)")
        let frame = try decodeImage(out.appendingPathComponent("deep.png"))
        #expect(frame.width == 64 && frame.height == 48)
    }

    @Test func dryRunListsAndWritesNothing() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try put(
            PhotoFixtures.jpeg(width: 160, height: 120, orientation: 1, exif: nil), "in/a.jpg", in: folder)
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", input.path, "-o", out.path, "--text", "x", "--dry-run"])
        #expect(result.status == 0)
        #expect(result.stdout == "\(input.path) -> \(out.appendingPathComponent("a.jpg").path)\n")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    /// A photo scaled to a size whose blocks jpegenc would pad from memory nothing wrote (100x75:
    /// chroma 50 wide, not whole 8-pixel blocks) comes out byte for byte the same every time, with
    /// its right edge as the picture has it (the last column repeated into the padding).
    @Test func aPhotoScaledToAnOddSizeIsEncodedTheSameEveryTime() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try put(PhotoFixtures.jpeg(width: 640, height: 480, orientation: 1, exif: nil), "p.jpg", in: folder)
        var outputs: [Data] = []
        for run in 0..<4 {
            let out = folder.appendingPathComponent("out\(run)")
            let result = try camstamp(["batch", input.path, "-o", out.path, "--text", "x", "--max-size", "100"])
            #expect(result.status == 0, "\(result.stderr)")
            outputs.append(try Data(contentsOf: out.appendingPathComponent("p.jpg")))
        }
        #expect(Set(outputs).count == 1, "\(outputs.map(\.count))")
        let frame = try decodeImage(folder.appendingPathComponent("out0/p.jpg"))
        #expect(frame.width == 100 && frame.height == 75)
    }

    @Test func maxSizeAndFormatConversion() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try put(
            PhotoFixtures.jpeg(width: 320, height: 240, orientation: 6, exif: PhotoFixtures.exif(orientation: 6)),
            "p.jpg", in: folder)
        let out = folder.appendingPathComponent("out")
        let result = try camstamp([
            "batch", input.path, "-o", out.path, "--text", "x", "--max-size", "160", "--format", "png",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let frame = try decodeImage(out.appendingPathComponent("p.png"))
        #expect(frame.width == 160 && frame.height == 120)
        #expect(try Data(contentsOf: out.appendingPathComponent("p.png")).prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
    }

    @Test func ctrlCInTheMiddleLeavesNoTemporaryFiles() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = try PhotoFixtures.jpeg(width: 1600, height: 1200, orientation: 1, exif: nil)
        let count = 400
        for index in 0..<count { try put(photo, String(format: "in/%03d.jpg", index), in: folder) }
        let out = folder.appendingPathComponent("out")
        let running = try RunningCamstamp([
            "batch", folder.appendingPathComponent("in").path, "-o", out.path, "--text", "x", "--jobs", "1",
        ])
        // Interrupt once the batch is under way.
        let deadline = Date().addingTimeInterval(20)
        while listing(out).count < 3 && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        running.send(SIGINT)
        let result = running.finish(timeout: 30)
        #expect(result.status == 130, "\(result.stderr)")
        let written = listing(out)
        #expect(written.allSatisfy { $0.hasSuffix(".jpg") && !$0.hasPrefix(".") }, "\(written)")
        #expect(written.count < count, "the batch was not interrupted")
        for name in written { #expect(try decodeImage(out.appendingPathComponent(name)).width == 1600) }
    }
}
