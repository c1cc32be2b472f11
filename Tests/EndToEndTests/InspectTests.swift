// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

/// `camstamp inspect`: generated photos of each kind, what it says of them checked against
/// exiftool and against what batch then does.
@Suite struct InspectTests {
    struct Report: Decodable {
        struct Block: Decodable {
            var name: String
            var fate: String
        }
        var file: String
        var format: String
        var width: Int
        var height: Int
        var orientation: Int
        var upright_width: Int
        var upright_height: Int
        var variables: [String: String]
        var metadata: [Block]
        var path: String
        var reason: String
    }

    static func inspect(_ files: [URL], in folder: URL) throws -> (RunResult, [Report]) {
        let result = try camstamp(["inspect", "--json"] + files.map(\.lastPathComponent), in: folder)
        return (result, try JSONDecoder().decode([Report].self, from: result.output))
    }

    /// The fixtures: a baseline JPEG with EXIF, a progressive one, a PNG, one turned by EXIF 6,
    /// one carrying a C2PA manifest in APP11.
    static func photos(in folder: URL) throws -> [String: URL] {
        let baseline = try put(
            PhotoFixtures.jpeg(width: 160, height: 120, orientation: 1, exif: PhotoFixtures.exif(orientation: 1)),
            "baseline.jpg", in: folder)
        let progressive = folder.appendingPathComponent("progressive.jpg")
        try tool("jpegtran", ["-progressive", "-copy", "all", "-outfile", progressive.path, baseline.path])
        let png = folder.appendingPathComponent("plain.png")
        try makePicture(png, ["-size", "64x48", "xc:#336699"])
        let turned = try put(
            PhotoFixtures.jpeg(width: 120, height: 160, orientation: 6, exif: PhotoFixtures.exif(orientation: 6)),
            "turned.jpg", in: folder)
        // A JUMBF superbox (APP11 "JP", box instance 1, sequence 1) labelled c2pa, as C2PA writes it.
        let uuid: [UInt8] =
            Array("c2pa".utf8) + [0x00, 0x11, 0x00, 0x10, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
        let description: [UInt8] = [0, 0, 0, 30] + Array("jumd".utf8) + uuid + [0x03] + Array("c2pa\0".utf8)
        let jumbf: [UInt8] =
            [0x4A, 0x50, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01] + [0, 0, 0, 38] + Array("jumb".utf8) + description
        var signed = try Data(contentsOf: baseline)
        signed.insert(contentsOf: appSegment(0xEB, jumbf), at: 2)
        let c2pa = try put(signed, "signed.jpg", in: folder)
        return ["baseline": baseline, "progressive": progressive, "png": png, "turned": turned, "c2pa": c2pa]
    }

    @Test func eachKindOfPhotoGetsThePathBatchTakesAndWhy() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photos = try Self.photos(in: folder)
        let names = ["baseline", "progressive", "png", "turned", "c2pa"]
        let (result, reports) = try Self.inspect(names.map { photos[$0]! }, in: folder)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        try #require(reports.count == 5)
        let report = Dictionary(uniqueKeysWithValues: zip(names, reports))
        #expect(report["baseline"]!.path == "spliced", "\(report["baseline"]!.reason)")
        #expect(report["progressive"]!.path == "coefficients")
        #expect(report["progressive"]!.reason.contains("not spliced"), "\(report["progressive"]!.reason)")
        #expect(report["png"]!.path == "reencoded" && report["png"]!.reason.contains("only a JPEG"))
        // What batch then does says the same.
        let marked = folder.appendingPathComponent("marked")
        let batch = try camstamp(
            ["batch"] + names.map { photos[$0]!.path } + ["-o", marked.path, "--preset", "timestamp", "--json"])
        for (name, inspected) in zip(names, reports) {
            let line = batch.stdout.split(separator: "\n").first { $0.contains("/\(photos[name]!.lastPathComponent)") }
            #expect(line?.contains("\"path\":\"\(inspected.path)\"") == true, "\(name): \(line ?? "no line")")
        }
    }

    /// Batch's options that change a JPEG's path change inspect's answer the same way.
    @Test(arguments: [
        ["--reencode"], ["--format", "png"], ["--max-size", "80"], ["--quality", "50"], ["--format", "jpg"],
    ])
    func batchsOptionsChangeThePathAsTheyChangeBatchs(_ options: [String]) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photos = try Self.photos(in: folder)
        let result = try camstamp(["inspect", "--json", "baseline.jpg"] + options, in: folder)
        let reports = try JSONDecoder().decode([Report].self, from: result.output)
        let expected = options == ["--format", "jpg"] ? "spliced" : "reencoded"
        #expect(reports.first?.path == expected, "\(options): \(reports.first?.reason ?? result.stderr)")
        let batch = try camstamp(
            [
                "batch", photos["baseline"]!.path, "-o", folder.appendingPathComponent("marked").path, "--preset",
                "timestamp", "--json",
            ] + options)
        #expect(batch.stdout.contains("\"path\":\"\(expected)\""), "\(options): \(batch.stdout)")
    }

    @Test func sizeOrientationVariablesAndMetadataAgreeWithExiftool() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photos = try Self.photos(in: folder)
        let (result, reports) = try Self.inspect([photos["turned"]!, photos["c2pa"]!], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let turned = try #require(reports.first)
        let facts = try exiftool(
            ["-s3", "-n", "-Orientation", "-ImageWidth", "-ImageHeight", "-Model"], photos["turned"]!
        )
        .split(separator: "\n").map(String.init)
        #expect(facts == ["6", "160", "120", "Fixture Cam 1"])
        #expect((turned.orientation, turned.width, turned.height) == (6, 160, 120))
        #expect((turned.upright_width, turned.upright_height) == (120, 160))
        #expect(turned.variables["exif:Model"] == "Fixture Cam 1")
        #expect(turned.variables["date"] == "2024-05-06" && turned.variables["width"] == "120")
        #expect(turned.metadata.map(\.name).contains("EXIF"))
        let signed = try #require(reports.last)
        let c2pa = try #require(signed.metadata.first { $0.name == "C2PA manifest (JUMBF)" }, "\(signed.metadata)")
        #expect(c2pa.fate == "dropped")
        // exiftool reads the same box: a JUMBF description labelled c2pa.
        #expect(try exiftool(["-s3", "-JUMBF:JUMDLabel"], photos["c2pa"]!) == "c2pa\n")
    }

    @Test func aCamerasMakerNoteIsCarriedAndItsPreviewsAreNot() throws {
        let photo = makerNoteFixtures.appendingPathComponent("samsung-preview.jpg")
        let result = try camstamp(["inspect", "--json", photo.path])
        let report = try #require(try JSONDecoder().decode([Report].self, from: result.output).first)
        let fates = Dictionary(report.metadata.map { ($0.name, $0.fate) }, uniquingKeysWith: { a, _ in a })
        #expect(fates["maker note"] == "carried" && fates["EXIF"] == "carried")
        #expect(fates["EXIF thumbnail (IFD1)"] == "dropped" && fates["preview in the EXIF block"] == "dropped")
        let referee = try exiftool(["-s3", "-ThumbnailLength", "-Model"], photo).split(separator: "\n")
        #expect(result.stdout.contains("\"detail\" : \"\(referee[0]) bytes\""), "exiftool: \(referee)")
        #expect(report.variables["exif:Model"] == String(referee[1]))
        #expect(try exiftool(["-s3", "-PreviewImage"], photo).contains("Binary data"))
    }

    @Test func aPhonesTurnedClipIsSaidTurnedAndReencoded() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = folder.appendingPathComponent("turned.mp4")
        try Clips.mp4(clip, frames: 10, rotate: 90, created: "2024-05-06T07:08:09Z", size: (96, 64))
        let (result, reports) = try Self.inspect([clip], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(reports.first)
        #expect((report.format, report.width, report.height, report.path) == ("MP4", 96, 64, "reencoded"))
        // GStreamer reads ffmpeg's rotate=90 as image-orientation rotate-270, which batch turns by.
        #expect(report.orientation == 8 && (report.upright_width, report.upright_height) == (64, 96))
        #expect(report.reason.hasPrefix("a clip: its video is decoded, marked frame by frame"))
        #expect(report.reason.hasSuffix("; the sound is copied as it is"), "\(report.reason)")
        #expect(report.variables["date"] == "2024-05-06", "the clip's creation time")
        #expect(report.variables["frame"] == "0" && report.variables["filename"] == "turned.mp4")
    }

    @Test func aHEICIsAPhotoThoughItIsAnISOBMFFFileAsClipsAre() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photos = try Self.photos(in: folder)
        let heic = folder.appendingPathComponent("phone.heic")
        try tool("heif-enc", ["-q", "50", photos["baseline"]!.path, "-o", heic.path])
        let (result, reports) = try Self.inspect([heic], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(reports.first)
        #expect((report.format, report.width, report.height, report.path) == ("HEIC", 160, 120, "reencoded"))
    }

    @Test func aFileItCannotReadIsOneLineAfterTheOthers() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photos = try Self.photos(in: folder)
        let text = try put(Data("not a photo at all, just some text".utf8), "notes.jpg", in: folder)
        let result = try camstamp(["inspect", text.lastPathComponent, photos["png"]!.lastPathComponent], in: folder)
        #expect(result.status == 1)
        #expect(result.stdout.hasPrefix("plain.png: PNG photo, 64×48\n"), "\(result.stdout)")
        #expect(
            result.stdout.contains("  batch        reencoded: a PNG: only a JPEG is stamped in its DCT coefficients"))
        let errors = result.stderr.split(separator: "\n")
        #expect(errors.count == 1 && errors[0].hasPrefix("camstamp: notes.jpg: not a photo camstamp reads"))
    }
}
