// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Media
import PhotoMetadata
import Testing
import TestSupport

/// Photos peers read and camstamp used to refuse (issue 8 §3), the moiré of --max-size (§4) and
/// the messages for pictures too large to decode (§6).
@Suite struct PhotoDecodeTests {
    /// A 640×480 colour JPEG (a red–blue gradient) made by ImageMagick at `quality`.
    func gradientJPEG(_ file: URL, quality: Int = 90, sampling: String = "2x2") throws {
        try tool(
            "convert",
            [
                "-size", "640x480", "gradient:red-blue", "-sampling-factor", sampling, "-quality", "\(quality)",
                file.path,
            ])
    }

    @Test func aJPEGCutShortInItsScanIsStampedWithAWarningAndStrictFailsIt() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let whole = folder.appendingPathComponent("whole.jpg")
        try gradientJPEG(whole)
        let data = try Data(contentsOf: whole)
        let cut = try put(data.prefix(data.count * 6 / 10), "in/cut.jpg", in: folder)
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", cut.path, "-o", out.path, "--text", "x"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("\(cut.path): warning: the picture data is damaged ("), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 2, "one warning line and the summary: \(result.stderr)")
        // The whole picture, as djpeg gives it (the part that is missing comes out grey).
        let frame = try decodeImage(out.appendingPathComponent("cut.jpg"), format: .rgba)
        #expect(frame.width == 640 && frame.height == 480)
        let top = rgb(frame, 10, 10)
        #expect(top.r > 200 && top.b < 60, "the top is still red: \(top)")

        let strictOut = folder.appendingPathComponent("strict")
        let strict = try camstamp(["batch", cut.path, "-o", strictOut.path, "--text", "x", "--strict"])
        #expect(strict.status == 1)
        #expect(
            strict.stderr.contains("\(cut.path): the picture data is damaged (")
                && strict.stderr.contains("not stamped (--strict)"), "\(strict.stderr)")
        #expect(strict.stderr.hasSuffix("0 marked, 1 failed, 0 skipped\n"))
        #expect(listing(strictOut).isEmpty)
    }

    @Test func aMotionPhotosVideoAfterEOIIsLeftOutOfTheOutput() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let base = folder.appendingPathComponent("base.jpg")
        try gradientJPEG(base)
        // What Google and Samsung append: an MP4 after the JPEG's EOI (here 100 KB that look like one).
        var trailer = Data([0, 0, 0, 0x18]) + Data("ftypmp42".utf8)
        trailer += Data((0..<(100 * 1024 - trailer.count)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        let input = try put(Data(contentsOf: base) + trailer, "in/PXL_0001.MP.jpg", in: folder)
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", input.path, "-o", out.path, "--text", "x"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("warning: 102400 bytes after the picture's end"), "\(result.stderr)")
        let output = try Data(contentsOf: out.appendingPathComponent("PXL_0001.MP.jpg"))
        // The output ends at its own EOI: nothing of the trailer reached it.
        let end = JPEGPicture.end(of: output, structure: try JPEGStructure(parsing: output))
        #expect(end == output.count && output.suffix(2) == Data([0xFF, 0xD9]))
        #expect(output.range(of: Data("ftypmp42".utf8)) == nil)
        #expect(try decodeImage(out.appendingPathComponent("PXL_0001.MP.jpg")).width == 640)
    }

    @Test func aPNGWithADamagedAncillaryChunkIsStampedWithAWarning() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clean = folder.appendingPathComponent("clean.png")
        try makePicture(clean, ["-size", "64x48", "xc:#3060c0"])
        let png = try Data(contentsOf: clean)
        // Chunks go after IHDR (8-byte signature + 25-byte IHDR chunk).
        func inserting(_ chunk: [UInt8]) -> Data { png.prefix(33) + Data(chunk) + png.dropFirst(33) }
        var badCRC = PNGChunk(type: "tEXt", data: Data("Comment\0hello".utf8)).encoded
        badCRC[badCRC.count - 1] ^= 0xFF
        // A well-formed chunk whose EXIF is not: a TIFF header pointing past its end.
        let badEXIF = PNGChunk(type: "eXIf", data: Data([0x49, 0x49, 0x2A, 0x00, 0xFF, 0xFF, 0x00, 0x00])).encoded
        try put(inserting(badCRC), "in/crc.png", in: folder)
        try put(inserting(badEXIF), "in/exif.png", in: folder)
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", folder.appendingPathComponent("in").path, "-o", out.path, "--text", "x"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.hasSuffix("2 marked, 0 failed, 0 skipped\n"), "\(result.stderr)")
        #expect(
            result.stderr.split(separator: "\n").filter { $0.contains(": warning: ") && $0.contains("left out") }.count
                == 2, "\(result.stderr)")
        for name in ["crc.png", "exif.png"] {
            let frame = try decodeImage(out.appendingPathComponent(name))
            #expect(frame.width == 64 && frame.height == 48)
        }
        let strict = try camstamp([
            "batch", folder.appendingPathComponent("in").path, "-o", folder.appendingPathComponent("strict").path,
            "--text", "x", "--strict",
        ])
        #expect(strict.status == 1 && strict.stderr.hasSuffix("0 marked, 2 failed, 0 skipped\n"), "\(strict.stderr)")
    }

    /// A bad CRC in a chunk that holds the picture (IDAT): libpng refuses it, as ImageMagick does,
    /// so the photo fails, in one line that says why, without libpng's own line on stderr or
    /// GStreamer's "Internal data stream error".
    @Test func aPNGWithADamagedPictureChunkFailsInOneLine() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clean = folder.appendingPathComponent("clean.png")
        try makePicture(clean, ["-size", "64x48", "xc:#3060c0"])
        var png = [UInt8](try Data(contentsOf: clean))
        let idat = try #require(
            png.indices.first { png[$0..<min($0 + 4, png.count)].elementsEqual(Array("IDAT".utf8)) })
        let length = png[(idat - 4)..<idat].reduce(0) { $0 << 8 | Int($1) }
        png[idat + 4 + length] ^= 0xFF
        let input = try put(Data(png), "in/idat.png", in: folder)
        let result = try camstamp(["batch", input.path, "-o", folder.appendingPathComponent("out").path, "--text", "x"])
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "camstamp: \(input.path): damaged PNG: bad CRC in its IDAT chunk, which holds the picture\n"
                + "0 marked, 1 failed, 0 skipped\n")
    }

    /// A PNG named .jpg and a JPEG named .png are read by content. With --format keep the output
    /// keeps the input's name and its real format (it mirrors the input, and names are fixed before
    /// any file is read, so --dry-run and the collision checks stay true); --format jpg or png
    /// writes a real file of that format under the matching extension.
    @Test func photosAreReadByContentNotByExtension() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = folder.appendingPathComponent("source.png"), jpeg = folder.appendingPathComponent("source.jpg")
        try makePicture(png, ["-size", "64x48", "xc:#3060c0"])
        try makePicture(jpeg, ["-size", "64x48", "xc:#3060c0", "-quality", "90"])
        let input = folder.appendingPathComponent("in")
        try put(Data(contentsOf: png), "png-named.jpg", in: input)
        try put(Data(contentsOf: jpeg), "jpeg-named.png", in: input)
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", input.path, "-o", out.path, "--text", "x"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains("png-named.jpg: warning: the file is a PNG despite its .jpg name"),
            "\(result.stderr)")
        #expect(
            result.stderr.contains("jpeg-named.png: warning: the file is a JPEG despite its .png name"),
            "\(result.stderr)")
        #expect(
            try Data(contentsOf: out.appendingPathComponent("png-named.jpg")).prefix(4)
                == Data([0x89, 0x50, 0x4E, 0x47]))
        #expect(try Data(contentsOf: out.appendingPathComponent("jpeg-named.png")).prefix(2) == Data([0xFF, 0xD8]))
        let converted = folder.appendingPathComponent("converted")
        let jpg = try camstamp(["batch", input.path, "-o", converted.path, "--text", "x", "--format", "jpg"])
        #expect(jpg.status == 0, "\(jpg.stderr)")
        #expect(listing(converted) == ["jpeg-named.jpg", "png-named.jpg"])
        for name in listing(converted) {
            #expect(
                try Data(contentsOf: converted.appendingPathComponent(name)).prefix(2) == Data([0xFF, 0xD8]), "\(name)")
        }
    }

    /// A zone plate (rings whose frequency grows to the edges) shrunk 4000×3000 → 800×600: in the
    /// corner every frequency is far above the new Nyquist, so a good filter leaves flat grey.
    /// The 2-tap bilinear default left rings of ±60 levels there.
    @Test func downscalingLeavesNoMoire() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let zone = folder.appendingPathComponent("zone.v")
        try tool("vips", ["zone", zone.path, "4000", "3000"])
        let grey = folder.appendingPathComponent("grey.v")
        try tool("vips", ["linear", zone.path, grey.path, "127.5", "127.5", "--uchar"])
        let input = folder.appendingPathComponent("zone.jpg")
        try tool("vips", ["colourspace", grey.path, input.path + "[Q=95]", "srgb"])
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", input.path, "-o", out.path, "--text", "x", "--max-size", "800"])
        #expect(result.status == 0, "\(result.stderr)")
        let reference = folder.appendingPathComponent("vips.png")
        try tool("vipsthumbnail", [input.path, "--size", "800", "-o", reference.path])
        /// The standard deviation of luma in the top-left 100×100 (the mark is bottom-right).
        func ripple(_ file: URL) throws -> Double {
            let luma = try lumaPlane(decodeImage(file))
            let values = luma.prefix(100).flatMap { $0.prefix(100) }.map(Double.init)
            let mean = values.reduce(0, +) / Double(values.count)
            return (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count)).squareRoot()
        }
        let ours = try ripple(out.appendingPathComponent("zone.jpg")), theirs = try ripple(reference)
        #expect(try decodeImage(out.appendingPathComponent("zone.jpg")).width == 800)
        #expect(ours <= 2 * max(theirs, 0.25), "ripple \(ours) vs vipsthumbnail's \(theirs)")
    }

    /// Headers asking for more than camstamp will decode are refused in one line, before any
    /// decoder sees them (GStreamer said "negotiation problem" or printed CRITICALs and "please
    /// report this issue").
    @Test func picturesTooLargeToDecodeAreRefusedInOneLine() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let small = folder.appendingPathComponent("small.jpg")
        try gradientJPEG(small)
        var jpeg = [UInt8](try Data(contentsOf: small))
        let sof = try #require(JPEGStructure(parsing: Data(jpeg)).segments.first { $0.marker == 0xC0 })
        // SOF payload: precision, height (2), width (2); the payload starts 4 bytes after the marker.
        jpeg.replaceSubrange((sof.offset + 5)..<(sof.offset + 9), with: [0xFF, 0xDC, 0xFF, 0xDC])
        let input = folder.appendingPathComponent("in")
        try put(Data(jpeg), "huge.jpg", in: input)
        var twelveBit = [UInt8](try Data(contentsOf: small))
        twelveBit[sof.offset + 4] = 12
        try put(Data(twelveBit), "twelve.jpg", in: input)
        let clean = folder.appendingPathComponent("clean.png")
        try makePicture(clean, ["-size", "64x48", "xc:#3060c0"])
        var png = try Data(contentsOf: clean)
        var header = Data(png[16..<29])
        header.replaceSubrange(0..<8, with: [0x00, 0x01, 0x86, 0xA0, 0x00, 0x01, 0x86, 0xA0])  // 100000×100000
        png.replaceSubrange(8..<33, with: PNGChunk(type: "IHDR", data: header).encoded)
        try put(png, "huge.png", in: input)
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", input.path, "-o", out.path, "--text", "x"])
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 4, "three lines and the summary: \(result.stderr)")
        #expect(
            lines.contains {
                $0.hasPrefix(
                    "camstamp: \(input.path)/huge.jpg: the picture is 65500×65500 (4290 megapixels), over camstamp's limit of 250 megapixels"
                )
            })
        #expect(
            lines.contains {
                $0.hasPrefix(
                    "camstamp: \(input.path)/huge.png: the picture is 100000×100000 (10000 megapixels), over camstamp's limit of 250 megapixels"
                )
            })
        #expect(lines.contains { $0.hasPrefix("camstamp: \(input.path)/twelve.jpg: unsupported JPEG: 12-bit samples") })
        #expect(
            !result.stderr.contains("CRITICAL") && !result.stderr.contains("negotiation")
                && !result.stderr.contains("report this"))
    }
}
