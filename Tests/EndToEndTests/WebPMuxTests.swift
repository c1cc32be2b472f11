// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import PhotoMetadata
import Testing
import TestSupport

// A WebP's metadata is set by libwebpmux around the encoder's bitstream, which stays as it was.

@Suite struct WebPMuxTests {
    /// The encoder's picture chunk (`VP8 ` or `VP8L`) of a WebP file.
    static func bitstream(_ file: Data) throws -> (fourCC: String, payload: Data)? {
        try WebPContainer(parsing: file).chunks.first { $0.fourCC == "VP8 " || $0.fourCC == "VP8L" }
            .map { ($0.fourCC, $0.payload) }
    }

    @Test(arguments: [false, true])
    func theBitstreamStaysByteForByteAndTheMetadataIsReadable(lossless: Bool) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A photo with EXIF, XMP and an ICC profile: the metadata to carry.
        let source = folder.appendingPathComponent("source.jpg")
        try PhotoFixtures.jpeg(width: 320, height: 240, orientation: 1, exif: PhotoFixtures.exif(orientation: 1))
            .write(to: source)
        let profile = PhotoFormatTests.displayP3Profile()
        let profileFile = folder.appendingPathComponent("p3.icc")
        try profile.write(to: profileFile)
        try tool(
            "exiftool",
            [
                "-q", "-overwrite_original", "-XMP-dc:Creator=Ann Example",
                "-ICC_Profile<=\(profileFile.path)", source.path,
            ])
        let metadata = try ImageMetadata(jpeg: Data(contentsOf: source))

        // What the encoder produced: a WebP with no metadata.
        let png = folder.appendingPathComponent("picture.png")
        try PNGProfileTests.basePNG(png)
        let encodedFile = folder.appendingPathComponent("encoded.webp")
        try tool("cwebp", ["-quiet"] + (lossless ? ["-lossless"] : []) + [png.path, "-o", encodedFile.path])
        let encoded = try Data(contentsOf: encodedFile)

        let marked = try metadata.insert(intoWebP: encoded, stripGPS: false).data
        let output = folder.appendingPathComponent("marked.webp")
        try marked.write(to: output)
        let before = try #require(try Self.bitstream(encoded))
        let after = try #require(try Self.bitstream(marked))
        #expect(before.fourCC == (lossless ? "VP8L" : "VP8 ") && after.fourCC == before.fourCC)
        #expect(after.payload == before.payload, "the \(before.fourCC) bitstream changed")

        let tags = String(
            decoding: try tool("exiftool", ["-s", "-s", "-s", "-Model", "-XMP-dc:Creator", output.path]),
            as: UTF8.self)
        #expect(tags.split(separator: "\n") == ["Fixture Cam 1", "Ann Example"], "exiftool read: \(tags)")
        #expect(try tool("exiftool", ["-b", "-ICC_Profile", output.path]) == profile)
        // exiftool's own check of the RIFF structure, and a decoder that takes it.
        let validate = String(
            decoding: try tool("exiftool", ["-validate", "-warning", "-s", "-s", "-s", output.path]),
            as: UTF8.self)
        #expect(validate.trimmingCharacters(in: .whitespacesAndNewlines) == "OK", "exiftool -validate: \(validate)")
        _ = try tool("dwebp", ["-quiet", output.path, "-o", folder.appendingPathComponent("back.png").path])
    }
}
