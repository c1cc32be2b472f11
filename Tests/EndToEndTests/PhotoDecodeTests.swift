import Foundation
import Media
import PhotoMetadata
import Testing
import TestSupport

/// The pixel at (x, y) of an image file as (r, g, b), decoded by GStreamer.
func rgb(_ frame: VideoFrame, _ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) {
    (try? frame.withMapped { mapped in
        let p = mapped.plane(0), offset = y * mapped.stride(0) + x * 4
        return (Int(p[offset]), Int(p[offset + 1]), Int(p[offset + 2]))
    }) ?? (0, 0, 0)
}

/// The quantisation tables (DQT payloads) of a JPEG, in file order.
func quantisationTables(_ file: URL) throws -> [Data] {
    try JPEGStructure(parsing: Data(contentsOf: file)).segments.filter { $0.marker == 0xDB }.map(\.payload)
}

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
        try tool("convert", ["-size", "64x48", "xc:#3060c0", clean.path])
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
        try tool("convert", ["-size", "64x48", "xc:#3060c0", clean.path])
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
        try tool("convert", ["-size", "64x48", "xc:#3060c0", png.path])
        try tool("convert", ["-size", "64x48", "xc:#3060c0", "-quality", "90", jpeg.path])
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

    /// Four quadrants (red, green / blue, white) in CMYK: ImageMagick writes YCCK (Adobe transform
    /// 2); libvips writes plain CMYK (transform 0) from ImageMagick's CMYK TIFF. Both store inverted
    /// ink, Adobe style. The colours must come out right, not inverted or swapped.
    @Test func cmykAndYCCKJPEGsComeOutInTheirColours() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        let quadrants = [
            "(", "-size", "64x64", "xc:red", "xc:lime", "+append", ")", "(", "-size", "64x64", "xc:blue", "xc:white",
            "+append", ")",
            "-append", "-colorspace", "CMYK",
        ]
        try tool("convert", quadrants + [input.appendingPathComponent("ycck.jpg").path])
        let tiff = folder.appendingPathComponent("cmyk.tif")
        try tool("convert", quadrants + [tiff.path])
        try tool("vips", ["copy", tiff.path, input.appendingPathComponent("cmyk.jpg").path])
        // A CMYK profile (a bare header saying CMYK) must not be carried into the RGB-based output.
        var profile = Data(count: 132)
        profile[3] = 132
        profile.replaceSubrange(12..<24, with: Data("prtrCMYKLab ".utf8))
        profile.replaceSubrange(36..<40, with: Data("acsp".utf8))
        let icc = folder.appendingPathComponent("cmyk.icc")
        try profile.write(to: icc)
        try tool(
            "exiftool",
            [
                "-q", "-q", "-overwrite_original", "-ICC_Profile<=\(icc.path)",
                input.appendingPathComponent("ycck.jpg").path,
            ])
        for (name, transform) in [("ycck.jpg", "YCCK"), ("cmyk.jpg", "Unknown (RGB or CMYK)")] {
            let said = String(
                decoding: try tool("exiftool", ["-s3", "-ColorTransform", input.appendingPathComponent(name).path]),
                as: UTF8.self)
            #expect(said.trimmingCharacters(in: .whitespacesAndNewlines) == transform, "\(name): \(said)")
        }
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", input.path, "-o", out.path, "--text", "x"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("Internal data stream error"))
        #expect(result.stderr.contains("ycck.jpg: warning: its CMYK colour profile is not carried"), "\(result.stderr)")
        let carried = try tool(
            "exiftool", ["-s3", "-ICC_Profile:ColorSpaceData", out.appendingPathComponent("ycck.jpg").path])
        #expect(carried.isEmpty, "the output still has a profile: \(String(decoding: carried, as: UTF8.self))")
        for name in ["ycck.jpg", "cmyk.jpg"] {
            let frame = try decodeImage(out.appendingPathComponent(name), format: .rgba)
            let expected = [
                (32, 32, (255, 0, 0)), (96, 32, (0, 255, 0)), (32, 96, (0, 0, 255)), (96, 96, (255, 255, 255)),
            ]
            for (x, y, colour) in expected {
                let got = rgb(frame, x, y)
                #expect(
                    abs(got.r - colour.0) < 40 && abs(got.g - colour.1) < 40 && abs(got.b - colour.2) < 40,
                    "\(name) (\(x),\(y)): expected \(colour), got \(got)")
            }
        }
    }

    /// 16-bit RGB PNGs (what raw converters export) came out of GStreamer 1.22's pngdec shifted by
    /// one sample: the output was half transparent and its colours rotated (red as yellow). With
    /// alpha (RGBA) and grey they decode right, so each kind is checked with ImageMagick's reading.
    @Test(arguments: ["PNG48", "PNG64", "PNG24"])
    func sixteenBitRGBPNGsKeepTheirColoursAndOpacity(_ kind: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        let photo = input.appendingPathComponent("wide.png")
        try tool(
            "convert",
            [
                "(", "-size", "64x64", "xc:red", "xc:lime", "+append", ")", "(", "-size", "64x64", "xc:blue",
                "xc:white",
                "+append", ")", "-append", "-depth", kind == "PNG24" ? "8" : "16", "\(kind):\(photo.path)",
            ])
        for format in ["png", "jpg"] {
            let out = folder.appendingPathComponent("out-\(format)")
            let result = try camstamp(["batch", input.path, "-o", out.path, "--text", "x", "--format", format])
            #expect(result.status == 0, "\(result.stderr)")
            let written = out.appendingPathComponent("wide.\(format)")
            let said = String(
                decoding: try tool(
                    "convert",
                    [
                        written.path, "-format", "%[opaque]|%[pixel:p{32,32}]|%[pixel:p{96,32}]|%[pixel:p{32,96}]",
                        "info:",
                    ]), as: UTF8.self)
            let fields = said.split(separator: "|").map(String.init)
            #expect(fields.first == "true", "\(kind) → \(format) is not opaque: \(said)")
            func colour(_ text: String) -> [Int] {
                text.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }.prefix(3).map { $0 }
            }
            for (index, expected) in [[255, 0, 0], [0, 255, 0], [0, 0, 255]].enumerated() where fields.count == 4 {
                let got = colour(fields[index + 1])
                #expect(
                    got.count == 3 && zip(got, expected).allSatisfy { abs($0 - $1) < 40 },
                    "\(kind) → \(format): expected \(expected), got \(fields[index + 1])")
            }
        }
    }

    @Test func aRedMarkOnAGreyPhotoStaysRed() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        try tool(
            "convert",
            ["-size", "320x240", "xc:gray50", "-quality", "90", input.appendingPathComponent("grey.jpg").path])
        try tool("convert", ["-size", "320x240", "xc:gray50", input.appendingPathComponent("grey.png").path])
        let preset = folder.appendingPathComponent("red.json")
        try
            ##"{"name": "red", "marks": [{"text": "███", "size": "40%", "color": "#FF0000", "outline": false, "anchor": "center"}]}"##
            .write(to: preset, atomically: true, encoding: .utf8)
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", input.path, "-o", out.path, "--preset", preset.path])
        #expect(result.status == 0, "\(result.stderr)")
        for name in ["grey.jpg", "grey.png"] {
            let frame = try decodeImage(out.appendingPathComponent(name), format: .rgba)
            let centre = rgb(frame, 160, 120)
            #expect(centre.r > 200 && centre.g < 60 && centre.b < 60, "\(name): the mark's centre is \(centre)")
        }
    }

    /// A grey PNG's profile is a grey one (PNG requires it): the colour output must not carry it
    /// (libpng: "Gray color space not permitted on RGB PNG"), as a grey JPEG's is not carried.
    @Test func aGreyPNGsGreyProfileIsNotCarriedIntoTheColourOutput() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        let photo = input.appendingPathComponent("grey.png")
        try tool("convert", ["-size", "64x48", "xc:gray50", "-define", "png:color-type=0", "-depth", "8", photo.path])
        var profile = Data(count: 132)
        profile[3] = 132
        profile.replaceSubrange(12..<24, with: Data("mntrGRAYXYZ ".utf8))
        profile.replaceSubrange(36..<40, with: Data("acsp".utf8))
        let icc = folder.appendingPathComponent("grey.icc")
        try profile.write(to: icc)
        try tool("exiftool", ["-q", "-q", "-overwrite_original", "-ICC_Profile<=\(icc.path)", photo.path])
        #expect(!(try tool("exiftool", ["-s3", "-PNG:ProfileName", photo.path])).isEmpty, "the fixture has no profile")
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", input.path, "-o", out.path, "--text", "x"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("grey.png: warning: its grey colour profile is not carried"), "\(result.stderr)")
        let written = out.appendingPathComponent("grey.png")
        #expect(
            try tool("exiftool", ["-s3", "-PNG:ProfileName", written.path]).isEmpty,
            "the colour output carries the grey profile")
    }

    /// The sampling is kept and the colours stay (jpegdec turned 4:1:1 photos green): exactly when
    /// stamped in the coefficients; re-encoded, 4:4:0, which jpegenc cannot write, becomes 4:4:4.
    @Test(arguments: [
        ("1x1", "YCbCr4:4:4 (1 1)", "YCbCr4:4:4 (1 1)"), ("2x1", "YCbCr4:2:2 (2 1)", "YCbCr4:2:2 (2 1)"),
        ("2x2", "YCbCr4:2:0 (2 2)", "YCbCr4:2:0 (2 2)"), ("4x1", "YCbCr4:1:1 (4 1)", "YCbCr4:1:1 (4 1)"),
        ("1x2", "YCbCr4:4:0 (1 2)", "YCbCr4:4:4 (1 1)"),
    ])
    func chromaSamplingIsKept(sampling: String, kept: String, reencoded: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.jpg")
        try gradientJPEG(input, sampling: sampling)
        for (options, expected) in [([String](), kept), (["--reencode"], reencoded)] {
            let out = folder.appendingPathComponent("out\(options.count)")
            let result = try camstamp(["batch", input.path, "-o", out.path, "--text", "x"] + options)
            #expect(result.status == 0, "\(result.stderr)")
            let written = out.appendingPathComponent("in.jpg").path
            let said = String(decoding: try tool("exiftool", ["-s3", "-YCbCrSubSampling", written]), as: UTF8.self)
            #expect(said.trimmingCharacters(in: .whitespacesAndNewlines) == expected, "\(options)")
            // Red at the top, blue at the bottom, as ImageMagick reads the output.
            let colours = String(
                decoding: try tool(
                    "convert",
                    [
                        written, "-format",
                        "%[fx:int(255*p{320,10}.r)] %[fx:int(255*p{320,10}.b)] %[fx:int(255*p{320,470}.r)] %[fx:int(255*p{320,470}.b)]",
                        "info:",
                    ]), as: UTF8.self
            ).split(separator: " ").compactMap { Int($0) }
            #expect(
                colours.count == 4 && colours[0] > 200 && colours[1] < 60 && colours[2] < 60 && colours[3] > 200,
                "\(sampling) \(options): top (r, b) then bottom (r, b): \(colours)")
        }
    }

    /// The output's quantisation tables are those cjpeg writes at the source's estimated quality
    /// (95 → 95; 60 → 70, the floor) when re-encoded, or at --quality when it is given.
    @Test func jpegsAreReencodedAtTheirOwnQuality() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pixels = try tool("convert", ["-size", "320x240", "gradient:red-blue", "ppm:-"])
        func cjpeg(_ quality: Int, _ name: String) throws -> URL {
            let url = folder.appendingPathComponent(name)
            try tool("cjpeg", ["-quality", "\(quality)", "-outfile", url.path], stdin: pixels)
            return url
        }
        let q95 = try cjpeg(95, "q95.jpg"), q60 = try cjpeg(60, "q60.jpg")
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", q95.path, q60.path, "-o", out.path, "--text", "x", "--reencode"])
        #expect(result.status == 0, "\(result.stderr)")
        // Stamped in their coefficients (the default), they keep their own tables exactly.
        let kept = folder.appendingPathComponent("kept")
        #expect(try camstamp(["batch", q95.path, q60.path, "-o", kept.path, "--text", "x"]).status == 0)
        #expect(try quantisationTables(kept.appendingPathComponent("q60.jpg")) == quantisationTables(q60))
        #expect(try quantisationTables(kept.appendingPathComponent("q95.jpg")) == quantisationTables(q95))
        #expect(
            try quantisationTables(out.appendingPathComponent("q95.jpg"))
                == quantisationTables(try cjpeg(95, "ref95.jpg")))
        #expect(
            try quantisationTables(out.appendingPathComponent("q60.jpg"))
                == quantisationTables(try cjpeg(70, "ref70.jpg")))
        let forced = folder.appendingPathComponent("forced")
        #expect(try camstamp(["batch", q95.path, "-o", forced.path, "--text", "x", "--quality", "80"]).status == 0)
        #expect(
            try quantisationTables(forced.appendingPathComponent("q95.jpg"))
                == quantisationTables(try cjpeg(80, "ref80.jpg")))
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
        try tool("convert", ["-size", "64x48", "xc:#3060c0", clean.path])
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
