// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

/// Issue 11 §1: EXIF goes into TIFF outputs as into every other format (written by exiv2 beside
/// libtiff's picture), with the photo's rules: pixels turned upright and Orientation 1, GPS gone
/// under --strip-gps, --set-metadata written; and a TIFF's own EXIF is read and carried. exiftool
/// is the referee.
@Suite struct TIFFMetadataTests {
    static let gps = ["-GPSLatitude=48.8584", "-GPSLatitudeRef=N", "-GPSLongitude=2.2945", "-GPSLongitudeRef=E"]

    /// A phone-like JPEG on its side (Orientation 6): Make, Model, DateTimeOriginal, GPS, XMP, P3.
    static func phoneJPEG(in folder: URL) throws -> URL {
        let file = folder.appendingPathComponent("in/phone.jpg")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try PhotoFormatTests.baseJPEG(file, orientation: 6)
        try tool("exiftool", ["-q", "-overwrite_original", "-Make=FormatMaker"] + gps + [file.path])
        return file
    }

    static func expectCameraEXIF(
        _ tags: [String: String], gps: Bool, _ name: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            tags["IFD0:Make"] == "FormatMaker", "\(name): Make lost: \(tags.filter { $0.key.hasPrefix("IFD0") })",
            sourceLocation: sourceLocation)
        #expect(tags["IFD0:Model"] == "FormatCam 11", "\(name): Model lost", sourceLocation: sourceLocation)
        #expect(
            tags["ExifIFD:DateTimeOriginal"] == "2024:01:02 03:04:05",
            "\(name): DateTimeOriginal lost: \(tags.filter { $0.key.hasPrefix("Exif") })",
            sourceLocation: sourceLocation)
        if gps {
            #expect(
                tags["GPS:GPSLatitude"]?.hasPrefix("48 deg 51'") == true && tags["GPS:GPSLongitudeRef"] == "East",
                "\(name): GPS lost: \(tags.filter { $0.key.hasPrefix("GPS") })", sourceLocation: sourceLocation)
        } else {
            #expect(
                !tags.keys.contains { $0.hasPrefix("GPS:") || $0.contains("GPSLatitude") },
                "\(name): GPS left in: \(tags.filter { $0.key.contains("GPS") })",
                sourceLocation: sourceLocation)
        }
    }

    /// exiftool finds nothing wrong in the file's structure. What it says of the camera's tags
    /// themselves is left aside: a JPEG's EXIF has tags its rules allow only in JPEG
    /// (ComponentsConfiguration), a TIFF's lacks ExifImageWidth, GPS lacks GPSProcessingMethod.
    static func expectValid(_ file: URL, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let validation = try exiftool(["-validate", "-warning", "-error", "-a", "-s"], file)
        let lines = validation.split(separator: "\n").filter { !$0.hasPrefix("Validate") }
        let content = lines.filter { $0.contains("Missing required") || $0.contains("is not allowed in TIFF") }
        #expect(lines.count == content.count, "\(name): \(validation)", sourceLocation: sourceLocation)
    }

    @Test func aJPEGConvertedToTIFFKeepsItsEXIFUprightAndFollowsStripGPSAndSetMetadata() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try Self.phoneJPEG(in: folder)
        let profile = PhotoFormatTests.displayP3Profile()
        for (label, extra) in [
            ("plain", [String]()), ("strip", ["--strip-gps"]), ("credit", ["--set-metadata", "Artist=Studio North"]),
        ] {
            let out = folder.appendingPathComponent("out-\(label)")
            let result = try camstamp(
                ["batch", input.path, "-o", out.path, "--text", "MARK", "--format", "tiff"] + extra)
            #expect(result.status == 0, "\(label): \(result.stderr)")
            #expect(!result.stderr.contains("EXIF"), "\(label): \(result.stderr)")
            let file = out.appendingPathComponent("phone.tif")
            let tags = try PhotoFormatTests.tags(file)
            #expect(tags["File:FileType"] == "TIFF", "\(label)")
            Self.expectCameraEXIF(tags, gps: label != "strip", label)
            // Pixels turned, and nothing that would turn them again.
            #expect(
                tags["IFD0:Orientation"] == "Horizontal (normal)",
                "\(label): \(tags["IFD0:Orientation"] ?? "no Orientation")")
            #expect(
                tags["IFD0:Artist"] == (label == "credit" ? "Studio North" : "Someone"),
                "\(label): \(tags["IFD0:Artist"] ?? "no Artist")")
            // --set-metadata Artist is the XMP creator too.
            #expect(tags["XMP-dc:Creator"] == (label == "credit" ? "Studio North" : "Xmp Person"), "\(label): XMP lost")
            #expect(
                try tool("exiftool", ["-b", "-ICC_Profile", file.path]) == profile, "\(label): the ICC profile differs")
            try Self.expectValid(file, label)
            // Stored top-left turned 90° clockwise lands top-right of a portrait picture.
            PhotoFormatTests.expectMarkedUpright(
                try PhotoFormatTests.decodeBack(file), width: 240, height: 320, redAt: (220, 20), label)
        }
    }

    @Test func aTIFFsOwnEXIFIsCarriedIntoTIFFAndJPEG() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let base = folder.appendingPathComponent("base.jpg")
        try PhotoFormatTests.baseJPEG(base)
        // A scan as an editor writes it: ImageMagick's TIFF, its EXIF set by exiftool.
        let scan = folder.appendingPathComponent("in/scan.tif")
        try FileManager.default.createDirectory(at: scan.deletingLastPathComponent(), withIntermediateDirectories: true)
        try makePicture(scan, [base.path, "-strip"])
        try tool(
            "exiftool",
            [
                "-q", "-overwrite_original", "-Make=FormatMaker", "-Model=FormatCam 11",
                "-DateTimeOriginal=2024:01:02 03:04:05",
            ]
                + Self.gps + [scan.path])
        Self.expectCameraEXIF(try PhotoFormatTests.tags(scan), gps: true, "fixture")
        for (format, name) in [("keep", "scan.tif"), ("jpg", "scan.jpg")] {
            let out = folder.appendingPathComponent("out-\(format)")
            let result = try camstamp(["batch", scan.path, "-o", out.path, "--text", "MARK", "--format", format])
            #expect(
                result.status == 0 && result.stderr == "1 marked, 0 failed, 0 skipped\n", "\(format): \(result.stderr)")
            let file = out.appendingPathComponent(name)
            Self.expectCameraEXIF(try PhotoFormatTests.tags(file), gps: true, format)
            try Self.expectValid(file, format)
            PhotoFormatTests.expectMarkedUpright(
                try PhotoFormatTests.decodeBack(file), width: 320, height: 240, redAt: (20, 20), format)
        }
    }
}
