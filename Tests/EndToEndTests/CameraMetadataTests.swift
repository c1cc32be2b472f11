// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import PhotoMetadata
import Testing
import TestSupport

/// Real camera photos (see Fixtures/makernotes/README.md for their source and licence).
let makerNoteFixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
    "Fixtures/makernotes")

@Suite struct RealCameraMetadataTests {
    static let keptTags = ["Make", "Model", "DateTimeOriginal", "ExposureTime", "FNumber"]
    static let makerNoteTags = ["-a", "-G1", "-s", "-MakerNotes:all"]

    /// Copies fixture `name` into `folder/in` and runs a batch over it with `extra` flags.
    func markFixture(_ name: String, in folder: URL, _ extra: [String] = []) throws -> (input: URL, output: URL) {
        let input = try put(
            try Data(contentsOf: makerNoteFixtures.appendingPathComponent(name)), "in/\(name)", in: folder)
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", input.path, "-o", out.path, "--text", "x"] + extra)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("left out"), "\(result.stderr)")
        return (input, out.appendingPathComponent(name))
    }

    @Test(arguments: ["nikon-coolpix-gps.jpg", "samsung-preview.jpg"])
    func everyMakerNoteTagSurvivesWithoutAWarningAndNoPictureRemains(name: String) throws {
        let folder = try temporaryFolder("real\(name)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = try Data(contentsOf: makerNoteFixtures.appendingPathComponent(name))
        let (input, output) = try markFixture(name, in: folder)
        #expect(try Data(contentsOf: input) == original, "the input is untouched")

        let notes = try exiftool(Self.makerNoteTags, output)
        #expect(notes == (try exiftool(Self.makerNoteTags, input)))
        if name.hasPrefix("nikon") {
            #expect(notes.split(separator: "\n").count > 30 && notes.contains("NEFBitDepth"), "\(notes)")
        }
        #expect(try exiftool(["-a", "-s", "-Warning"], output) == "", "exiftool warns about the output")
        for tag in Self.keptTags {
            let value = try exiftool(["-s3", "-\(tag)"], output), original = try exiftool(["-s3", "-\(tag)"], input)
            #expect(!value.isEmpty && value == original, "\(tag)")
        }
        #expect(try exiftool(["-s3", "-Orientation", "-n"], output) == "1\n")
        for picture in ["-PreviewImage", "-ThumbnailImage"] {
            #expect(try exiftool(["-b", picture], output).isEmpty, "\(picture) left in the output")
        }
        if name.hasPrefix("samsung") {
            #expect(try exiftool(["-b", "-PreviewImage"], input).utf8.count > 20_000, "the fixture has its preview")
        }
    }

    @Test func stripGPSLeavesNoCoordinateByteAndKeepsTheMakerNote() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (input, output) = try markFixture("nikon-coolpix-gps.jpg", in: folder, ["--strip-gps"])
        #expect(try exiftool(["-s3", "-GPSLatitude"], input) != "", "the fixture has GPS")
        #expect(try exiftool(["-a", "-s", "-GPS:all", "-Composite:GPSPosition"], output) == "")
        #expect(try exiftool(Self.makerNoteTags, output) == (try exiftool(Self.makerNoteTags, input)))
        #expect(try exiftool(["-a", "-s", "-Warning"], output) == "")
        #expect(try exiftool(["-s3", "-Model"], output) == "COOLPIX P6000\n")

        let source = try #require(try readEXIF(input))
        let written = try Data(contentsOf: output)
        let coordinates = source.entries.filter { $0.ifd == .gps && $0.valueLength > 4 }
        #expect(coordinates.count >= 3)
        for e in coordinates {
            #expect(
                written.range(of: source.rawValue(e)) == nil, "GPS tag 0x\(String(e.tag, radix: 16))'s bytes remain")
        }
    }

    @Test func artistAndCopyrightGoIntoTheNikonPhotoWithoutCostingAMakerNoteTag() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = makerNoteFixtures.appendingPathComponent("nikon-coolpix-gps.jpg")
        let encoded = try PhotoFixtures.jpeg(width: 64, height: 48, orientation: 1, exif: nil)
        let edits = MetadataEdits(artist: "Ansel Adams", copyright: "© 2026 Ansel Adams")
        let result = try ImageMetadata(jpeg: Data(contentsOf: source)).insert(
            into: encoded, stripGPS: false, edits: edits)
        #expect(result.warnings.isEmpty)
        let output = try put(result.data, "edited.jpg", in: folder)
        #expect(try exiftool(["-s3", "-Artist"], output) == "Ansel Adams\n")
        #expect(try exiftool(["-s3", "-Copyright"], output) == "© 2026 Ansel Adams\n")
        #expect(try exiftool(Self.makerNoteTags, output) == (try exiftool(Self.makerNoteTags, source)))
        #expect(try exiftool(["-a", "-s", "-Warning"], output) == "")
        #expect(try exiftool(["-s3", "-DateTimeOriginal"], output) == "2008:10:22 16:28:39\n")
    }

    /// A Canon CIFF record as old PowerShots put it in APP0: a header, then a heap of values, its
    /// table of 10-byte records (tag, size, offset from the heap) and, last, the table's offset.
    static func ciff(owner: String, imageType: String) -> [UInt8] {
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(v >> (8 * $0) & 0xFF) } }
        var heap: [UInt8] = []
        var records: [UInt8] = []
        for (tag, text) in [(0x0810, owner), (0x0815, imageType)] {  // OwnerName, CanonImageType
            let value = Array(text.utf8) + [0]
            records += le16(tag) + le32(value.count) + le32(heap.count)
            heap += value
        }
        let table = heap.count
        heap += le16(2) + records + le32(table)
        return Array("II".utf8) + le32(26) + Array("HEAPJPGM".utf8) + le32(0x0001_0002)
            + [UInt8](repeating: 0, count: 8) + heap
    }

    @Test func aCanonCIFFSegmentIsCarriedToTheOutput() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var jpeg = try PhotoFixtures.jpeg(
            width: 160, height: 120, orientation: 1, exif: PhotoFixtures.exif(orientation: 1))
        let payload = Self.ciff(owner: "Jane Doe", imageType: "IMG:PowerShot S30 JPEG")
        jpeg.insert(
            contentsOf: [0xFF, 0xE0, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload,
            at: 2)
        let input = try put(jpeg, "in/canon.jpg", in: folder)
        let ciffTags = ["-a", "-G1", "-s", "-CIFF:all"]
        let before = try exiftool(ciffTags, input)
        #expect(
            before.contains("OwnerName") && before.contains("Jane Doe"), "exiftool reads the fabricated CIFF: \(before)"
        )

        let out = folder.appendingPathComponent("out")
        #expect(try camstamp(["batch", input.path, "-o", out.path, "--text", "x"]).status == 0)
        let output = out.appendingPathComponent("canon.jpg")
        #expect(try exiftool(ciffTags, output) == before)
        #expect(try exiftool(["-a", "-s", "-Warning"], output) == "")
        #expect(try exiftool(["-s3", "-Model"], output) == "Fixture Cam 1\n")
    }
}

@Suite struct DamagedMetadataTests {
    /// Orientation 6 with a damaged XResolution and GPS latitude (values far outside the block)
    /// and an ICC profile missing its second chunk: the photo still comes out upright, with the
    /// EXIF that is sound and one warning line.
    @Test func anIntactOrientationIsHonouredWhenOtherPartsAreDamaged() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var tiff = TIFFBuilder(bigEndian: false)
        tiff.ifd0 = [
            tiff.ascii(0x010F, "Camstamp Labs"), tiff.ascii(0x0110, "Fixture Cam 1"), tiff.short(0x0112, [6]),
            tiff.rational(0x011A, [(72, 1)]),
        ]
        tiff.gps = [tiff.ascii(0x0001, "N"), tiff.rational(0x0002, [(48, 1), (51, 1), (0, 1)])]
        var exif = Data("Exif\0\0".utf8) + tiff.build()
        let parsed = try EXIF(app1Payload: exif)
        for (tag, ifd) in [(UInt16(0x011A), IFDKind.ifd0), (0x0002, .gps)] {
            let entry = try #require(parsed.entry(tag, in: ifd))
            let at = 6 + entry.entryOffset + 8
            exif.replaceSubrange(at..<at + 4, with: [0x00, 0xFF, 0xFF, 0x7F])
        }
        var jpeg = try PhotoFixtures.jpeg(width: 320, height: 240, orientation: 6, exif: exif)
        let icc = Array("ICC_PROFILE".utf8) + [0, 1, 2] + [UInt8](repeating: 0x41, count: 32)
        jpeg.insert(contentsOf: [0xFF, 0xE2, 0, UInt8(icc.count + 2)] + icc, at: 2)
        let input = try put(jpeg, "in/d.jpg", in: folder)

        let out = folder.appendingPathComponent("out")
        // --reencode: the full path turns the pixels upright and must still read the orientation.
        let result = try camstamp(["batch", input.path, "-o", out.path, "--text", "{exif:Model}", "--reencode"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains("EXIF partly left out") && result.stderr.contains("ICC profile left out"),
            "\(result.stderr)")
        let frame = try decodeImage(out.appendingPathComponent("d.jpg"))
        #expect(frame.width == 320 && frame.height == 240, "\(frame.width)x\(frame.height): not turned upright")
        let written = try #require(try readEXIF(out.appendingPathComponent("d.jpg")))
        #expect(written.orientation == 1 && written.values["Model"] == "Fixture Cam 1")
    }

    /// A PNG whose tEXt chunk has a wrong CRC, and one whose eXIf is garbage, are still marked.
    @Test(arguments: ["crc", "exif"])
    func aPNGWithDamagedMetadataIsStillMarked(damage: String) throws {
        let folder = try temporaryFolder("png\(damage)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var png = PNG16.make(width: 40, height: 30)
        var chunk: [UInt8]
        if damage == "crc" {
            chunk = PNGChunk(type: "tEXt", data: Data("Comment\0hello".utf8)).encoded
            chunk[chunk.count - 1] ^= 0xFF
        } else {
            chunk = PNGChunk(type: "eXIf", data: Data(Array("MM".utf8) + [0, 42, 0xFF, 0, 0, 0, 1, 2])).encoded
        }
        png.insert(contentsOf: chunk, at: 33)  // after IHDR
        let input = try put(png, "in/p.png", in: folder)
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", input.path, "-o", out.path, "--text", "x"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains(damage == "crc" ? "PNG chunk tEXt left out" : "EXIF left out"), "\(result.stderr)")
        #expect(try decodeImage(out.appendingPathComponent("p.png")).width == 40)
    }
}

@Suite struct BatchFuzzTests {
    static func mutate(_ file: Data, _ rng: inout SeededGenerator) -> Data {
        var out = [UInt8](file)
        // Most of the metadata lies in the first kilobytes: aim half the mutations there.
        let limit = Bool.random(using: &rng) ? min(out.count, 2048) : out.count
        let at = Int.random(in: 0..<limit, using: &rng)
        switch Int.random(in: 0..<5, using: &rng) {
        case 0:
            for i in 0..<Int.random(in: 1...4, using: &rng) where at + i < out.count {
                out[at + i] = UInt8.random(in: 0...255, using: &rng)
            }
        case 1: out.removeSubrange(at...)
        case 2:
            out.insert(
                contentsOf: (0..<Int.random(in: 1...16, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng)
                }, at: at)
        case 3: out.removeSubrange(at..<min(out.count, at + Int.random(in: 1...16, using: &rng)))
        default:
            let extreme: [UInt8] = [[0, 0], [0xFF, 0xFF], [0x7F, 0xFF], [0, 1]].randomElement(using: &rng)!
            if at + 2 <= out.count { out.replaceSubrange(at..<at + 2, with: extreme) }
        }
        return Data(out)
    }

    /// A hundred mutated photos in one batch: it ends by exiting 0 or 1 (never a signal), in
    /// bounded time, and leaves every input byte-identical.
    @Test func aHundredMutatedPhotosNeverCrashTheBatch() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let jpeg = try PhotoFixtures.jpeg(
            width: 64, height: 48, orientation: 6, exif: PhotoFixtures.exif(orientation: 6))
        let nikon = try Data(contentsOf: makerNoteFixtures.appendingPathComponent("nikon-coolpix-gps.jpg"))
        var png = PNG16.make(width: 24, height: 16)
        png.insert(
            contentsOf: PNGChunk(type: "eXIf", data: PhotoFixtures.exif(orientation: 3).dropFirst(6)).encoded, at: 33)
        let sources: [(Data, String)] = [(jpeg, "jpg"), (nikon, "jpg"), (png, "png")]

        var rng = SeededGenerator(state: 0x5EED_CA75)
        var inputs: [URL: Data] = [:]
        for i in 0..<100 {
            let (source, ext) = sources[i % sources.count]
            let data = Self.mutate(source, &rng)
            inputs[try put(data, String(format: "in/m%03d.%@", i, ext), in: folder)] = data
        }
        let result = try camstamp(
            [
                "batch", folder.appendingPathComponent("in").path,
                "-o", folder.appendingPathComponent("out").path, "--text", "x",
            ], timeout: 300)
        #expect(result.reason == .exit, "killed by signal \(result.status)")
        #expect([0, 1].contains(result.status), "exit status \(result.status)")
        for (url, data) in inputs {
            #expect(try Data(contentsOf: url) == data, "\(url.lastPathComponent) changed")
        }
        #expect(listing(folder.appendingPathComponent("out")).count > 20, "many mutations are still photos")
    }
}
