// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import PhotoMetadata
import Testing
import TestSupport

/// Issue 11 §1, "colour profiles kept": a PNG's ICC profile (an iCCP chunk, always zlib-compressed:
/// a Mac screenshot is a Display P3 PNG) comes out of every format byte for byte, as a JPEG's does;
/// a damaged or absurdly large one costs the profile and one warning line, never the photo.
@Suite struct PNGProfileTests {
    /// A 320×240 mid-grey PNG with a red square top-left; `iccp`, when given, right after IHDR.
    static func basePNG(_ file: URL, iccp: Data? = nil) throws {
        try makePicture(file, ["-size", "320x240", "xc:gray50", "-fill", "red", "-draw", "rectangle 0,0 39,39"])
        guard let iccp else { return }
        var bytes = try Data(contentsOf: file)
        // Signature (8) and IHDR (4 length, 4 type, 13 data, 4 CRC).
        bytes.insert(contentsOf: PNGChunk(type: "iCCP", data: iccp).encoded, at: 8 + 25)
        try bytes.write(to: file)
    }

    @Test func aP3PNGsProfileComesOutOfEachFormatByteForByte() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("in/shot.png")
        try FileManager.default.createDirectory(
            at: source.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Self.basePNG(source)
        // exiftool writes the iCCP chunk as a PNG holds it: deflated.
        let profile = PhotoFormatTests.displayP3Profile()
        let profileFile = folder.appendingPathComponent("p3.icc")
        try profile.write(to: profileFile)
        try tool("exiftool", ["-q", "-overwrite_original", "-ICC_Profile<=\(profileFile.path)", source.path])
        let chunks = try tool("exiftool", ["-v3", source.path])
        #expect(String(decoding: chunks, as: UTF8.self).contains("iCCP"), "the fixture has no iCCP chunk")
        #expect(try tool("exiftool", ["-b", "-ICC_Profile", source.path]) == profile)

        for (format, fileExtension) in [
            ("jpg", "jpg"), ("webp", "webp"), ("heic", "heic"), ("tiff", "tif"), ("png", "png"),
        ] {
            let out = folder.appendingPathComponent("out-\(format)")
            let result = try camstamp(["batch", source.path, "-o", out.path, "--text", "MARK", "--format", format])
            #expect(result.status == 0, "\(format): \(result.stderr)")
            #expect(!result.stderr.contains("ICC"), "\(format): \(result.stderr)")
            let file = out.appendingPathComponent("shot.\(fileExtension)")
            let carried = try tool("exiftool", ["-b", "-ICC_Profile", file.path])
            #expect(
                carried == profile,
                "\(format): the ICC profile differs or is lost (\(carried.count) of \(profile.count) bytes)")
            PhotoFormatTests.expectMarkedUpright(
                try PhotoFormatTests.decodeBack(file), width: 320, height: 240, redAt: (20, 20), format)
        }
    }

    @Test func aDamagedOrZipBombProfileIsLeftOutWithOneLineAndThePhotoWritten() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        let name = Data("ICC Profile".utf8 + [0, 0])
        // A valid CRC over data that is no zlib stream: the chunk is sound, its profile is not.
        try Self.basePNG(input.appendingPathComponent("damaged.png"), iccp: name + Data("not a zlib stream".utf8))
        // 64 MiB of zeros deflated to ~64 KB: a PNG may claim anything.
        let bomb = try tool(
            "python3", ["-c", "import sys, zlib; sys.stdout.buffer.write(zlib.compress(bytes(64 << 20), 9))"])
        #expect(bomb.count < 100_000)
        try Self.basePNG(input.appendingPathComponent("bomb.png"), iccp: name + bomb)

        for format in ["jpg", "png", "webp"] {
            let out = folder.appendingPathComponent("out-\(format)")
            let result = try camstamp(["batch", input.path, "-o", out.path, "--text", "MARK", "--format", format])
            #expect(result.status == 0, "\(format): \(result.stderr)")
            #expect(result.stderr.hasSuffix("2 marked, 0 failed, 0 skipped\n"), "\(format): \(result.stderr)")
            let lines = result.stderr.split(separator: "\n")
            let damaged = lines.filter { $0.contains("damaged.png") && $0.contains("ICC profile left out") }
            let bombed = lines.filter { $0.contains("bomb.png") && $0.contains("ICC profile left out") }
            #expect(damaged.count == 1 && bombed.count == 1, "\(format): \(result.stderr)")
            #expect(bombed.first?.contains("MiB") == true, "\(format): \(result.stderr)")
            for file in ["damaged", "bomb"] {
                let written = out.appendingPathComponent("\(file).\(format)")
                #expect(
                    try tool("exiftool", ["-b", "-ICC_Profile", written.path]).isEmpty,
                    "\(format): \(file): a profile was written")
                PhotoFormatTests.expectMarkedUpright(
                    try PhotoFormatTests.decodeBack(written), width: 320, height: 240,
                    redAt: (20, 20), "\(format) \(file)")
            }
        }
    }
}
