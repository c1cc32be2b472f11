// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

/// What a photo keeps, or says it loses, on its way through (acceptance pass 8's photo rows):
/// TIFF alpha kept straight, transparency and colour descriptions kept or said to be left out.
/// Fixtures are made here by ImageMagick and heif-enc; outputs are decoded back by ImageMagick
/// and read by exiftool.
@Suite struct PhotoLossTests {
    /// The 8-bit RGBA at (x, y) of `file` (its first picture), as ImageMagick decodes it.
    static func pixel(_ file: URL, _ x: Int, _ y: Int) throws -> [Int] {
        try tool("convert", [file.path + "[0]", "-alpha", "set", "-crop", "1x1+\(x)+\(y)", "-depth", "8", "rgba:-"])
            .map(Int.init)
    }

    static func close(_ got: [Int], _ expected: [Int], within: Int = 1) -> Bool {
        got.count == expected.count && zip(got, expected).allSatisfy { abs($0 - $1) <= within }
    }

    /// A TIFF whose alpha is straight (ExtraSamples 2) came out with its colours multiplied by it:
    /// libtiff's RGBA reader premultiplies, and the result was taken for straight. (144,36,120) at
    /// 50 % became (72,18,60) in TIFF and PNG outputs; associated alpha (ExtraSamples 1) was
    /// darkened the same way, its stored (multiplied) colours taken for straight ones.
    @Test func aTIFFsAlphaStraightOrAssociatedKeepsItsColours() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Top half 50 % transparent, bottom half opaque; the mark goes bottom right.
        let made = [
            "-size", "320x240", "xc:rgb(144,36,120)", "-alpha", "set", "-channel", "A", "-fx", "j<120?0.5:1",
            "+channel",
        ]
        let inputs = [
            ("straight8.tif", ["-depth", "8"]), ("straight16.tif", ["-depth", "16"]),
            ("associated8.tif", ["-depth", "8", "-define", "tiff:alpha=associated"]),
        ]
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("in"), withIntermediateDirectories: true)
        for (name, options) in inputs {
            try makePicture(folder.appendingPathComponent("in/\(name)"), made + options, colour: .rgba)
        }
        let kinds = try exiftool(["-s", "-s", "-s", "-ExtraSamples"], folder.appendingPathComponent("in"))
        #expect(kinds.contains("Unassociated Alpha") && kinds.contains("Associated Alpha"), "fixtures: \(kinds)")
        for format in ["keep", "png"] {
            let out = folder.appendingPathComponent("out-\(format)")
            let result = try camstamp([
                "batch", folder.appendingPathComponent("in").path, "-o", out.path, "--text", "MARK", "--format", format,
            ])
            #expect(result.status == 0, "\(format): \(result.stderr)")
            for (name, _) in inputs {
                let file = out.appendingPathComponent(
                    format == "keep" ? name : name.replacingOccurrences(of: ".tif", with: ".png"))
                // Associated colours are stored rounded at 50 %: 144 comes back 143 or 144.
                let half = try Self.pixel(file, 10, 10), opaque = try Self.pixel(file, 10, 200)
                #expect(Self.close(half, [144, 36, 120, 128]), "\(format) \(name) at 50 %: \(half)")
                #expect(Self.close(opaque, [144, 36, 120, 255], within: 0), "\(format) \(name) opaque: \(opaque)")
            }
        }
    }

    /// A PNG with transparency (an alpha channel, or a palette's tRNS) written as JPEG lost it
    /// without the note TIFF and WebP sources get, and written as TIFF (or HEIC) lost it in
    /// silence: the PNG was never said to have alpha. An opaque PNG gets no note.
    @Test func aPNGsTransparencyIsKeptInTIFFAndSaidToBeLostInJPEG() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Top half transparent, bottom half opaque red.
        let alpha = folder.appendingPathComponent("in/alpha.png")
        let palette = folder.appendingPathComponent("in/palette.png")
        let opaque = folder.appendingPathComponent("in/opaque.png")
        try FileManager.default.createDirectory(
            at: alpha.deletingLastPathComponent(), withIntermediateDirectories: true)
        let half = ["-size", "64x48", "xc:red", "-alpha", "set", "-channel", "A", "-fx", "j<24?0:1", "+channel"]
        try makePicture(alpha, half, colour: .rgba)
        try tool("convert", half + ["png8:" + palette.path])
        try makePicture(opaque, ["-size", "64x48", "xc:red"])
        let types = try exiftool(["-s", "-s", "-s", "-ColorType"], alpha.deletingLastPathComponent())
        #expect(types.contains("RGB with Alpha") && types.contains("Palette"), "fixtures: \(types)")
        let jpg = folder.appendingPathComponent("out-jpg")
        let result = try camstamp([
            "batch", alpha.deletingLastPathComponent().path, "-o", jpg.path, "--text", "M", "--format", "jpg",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        for file in [alpha, palette] {
            #expect(
                result.stderr.contains("\(file.path): warning: its transparency is not kept (a JPEG has none)"),
                "\(result.stderr)")
        }
        #expect(!result.stderr.contains("opaque.png"), "\(result.stderr)")
        let tiff = folder.appendingPathComponent("out-tiff")
        let toTIFF = try camstamp([
            "batch", alpha.deletingLastPathComponent().path, "-o", tiff.path, "--text", "M", "--format", "tiff",
        ])
        #expect(toTIFF.status == 0 && !toTIFF.stderr.contains("warning"), "\(toTIFF.stderr)")
        for name in ["alpha.tif", "palette.tif"] {
            let file = tiff.appendingPathComponent(name)
            #expect(try Self.pixel(file, 10, 10)[3] == 0, "\(name): the transparent half is opaque")
            #expect(Self.close(try Self.pixel(file, 10, 40), [255, 0, 0, 255], within: 0), "\(name): the opaque half")
        }
    }

    /// A PNG's gAMA chunk (here 1.0, linear, as Blender or a scanner writes) was dropped without a
    /// word: a viewer then showed the output with another tone curve. A PNG output now carries it
    /// (with cHRM), as the pixels keep their values; other formats have no place for it and say
    /// so. A PNG whose gAMA is sRGB's (ImageMagick writes 0.45455 to every PNG) gets no note.
    @Test func aPNGsGammaIsCarriedIntoPNGAndSaidToBeLeftOutOfJPEG() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let linear = folder.appendingPathComponent("in/linear.png")
        let usual = folder.appendingPathComponent("in/usual.png")
        try FileManager.default.createDirectory(
            at: linear.deletingLastPathComponent(), withIntermediateDirectories: true)
        try makePicture(linear, ["-size", "64x48", "xc:rgb(200,50,50)", "-set", "gamma", "1.0"])
        try makePicture(usual, ["-size", "64x48", "xc:rgb(200,50,50)"])
        #expect(
            try exiftool(["-s", "-s", "-s", "-Gamma"], linear) == "1\n"
                && exiftool(["-s", "-s", "-s", "-Gamma"], usual) == "2.2\n",
            "fixtures")
        let png = folder.appendingPathComponent("out-png")
        let kept = try camstamp(["batch", linear.deletingLastPathComponent().path, "-o", png.path, "--text", "M"])
        #expect(kept.status == 0 && !kept.stderr.contains("warning"), "\(kept.stderr)")
        for name in ["linear.png", "usual.png"] {
            let source = try exiftool(
                ["-s", "-Gamma", "-WhitePointX", "-RedX"], folder.appendingPathComponent("in/\(name)"))
            #expect(
                try exiftool(["-s", "-Gamma", "-WhitePointX", "-RedX"], png.appendingPathComponent(name)) == source,
                "\(name)")
        }
        // Shown the same: ImageMagick decodes through the gAMA chunk, so the same pixels come back.
        #expect(try Self.pixel(png.appendingPathComponent("linear.png"), 5, 5) == Self.pixel(linear, 5, 5))
        let jpg = folder.appendingPathComponent("out-jpg")
        let converted = try camstamp([
            "batch", linear.deletingLastPathComponent().path, "-o", jpg.path, "--text", "M", "--format", "jpg",
        ])
        #expect(converted.status == 0, "\(converted.stderr)")
        #expect(
            converted.stderr.contains(
                "\(linear.path): warning: its PNG gamma (gAMA 1.0; sRGB's is 0.45455) is not carried into JPEG"),
            "\(converted.stderr)")
        #expect(!converted.stderr.contains("usual.png"), "\(converted.stderr)")
    }

    /// A 10- or 12-bit HEIC was written as 8-bit without a word (a 16-bit TIFF says so); an
    /// 8-bit one gets no note.
    @Test func aDeepHEICSaysItIsWrittenAt8Bits() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (deep, plain) = (folder.appendingPathComponent("deep.png"), folder.appendingPathComponent("plain.png"))
        try makePicture(deep, ["-size", "64x48", "gradient:red-blue", "-depth", "16"])
        try makePicture(plain, ["-size", "64x48", "gradient:red-blue", "-depth", "8"])
        let input = folder.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        for bits in [10, 12] {
            try tool(
                "heif-enc", ["-b", "\(bits)", deep.path, "-o", input.appendingPathComponent("b\(bits).heic").path])
        }
        try tool("heif-enc", [plain.path, "-o", input.appendingPathComponent("b8.heic").path])
        for bits in [8, 10, 12] {
            let depth = try exiftool(
                ["-s", "-s", "-s", "-BitDepthLuma"], input.appendingPathComponent("b\(bits).heic"))
            #expect(depth == "\(bits)\n", "fixture b\(bits).heic is \(depth)")
        }
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", input.path, "-o", out.path, "--text", "M"])
        #expect(result.status == 0, "\(result.stderr)")
        for bits in [10, 12] {
            let file = input.appendingPathComponent("b\(bits).heic")
            #expect(
                result.stderr.contains(
                    "\(file.path): warning: its \(bits)-bit samples are marked and written as 8-bit"),
                "\(result.stderr)")
            #expect(
                try exiftool(["-s", "-s", "-s", "-BitDepthLuma"], out.appendingPathComponent("b\(bits).heic")) == "8\n")
        }
        #expect(!result.stderr.contains("b8.heic"), "\(result.stderr)")
    }

    /// A PNG's iCCP that inflates to something that is no ICC profile was carried as is (into a
    /// PNG) or inflated (into a JPEG): garbage a viewer refuses or misreads. It is left out with
    /// the warning a profile that does not inflate gets.
    @Test func aPNGsProfileThatIsNoProfileIsLeftOutWithAWarning() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("in/garbage.png")
        try FileManager.default.createDirectory(
            at: source.deletingLastPathComponent(), withIntermediateDirectories: true)
        let garbage = try tool(
            "python3", ["-c", "import sys, zlib; sys.stdout.buffer.write(zlib.compress(b'not a profile ' * 40))"])
        try PNGProfileTests.basePNG(source, iccp: Data("ICC Profile".utf8 + [0, 0]) + garbage)
        #expect(
            try tool("exiftool", ["-b", "-ICC_Profile", source.path]).count == 14 * 40,
            "the fixture's profile does not inflate")
        for (format, name) in [("jpg", "garbage.jpg"), ("png", "garbage.png")] {
            let out = folder.appendingPathComponent("out-\(format)")
            let result = try camstamp(["batch", source.path, "-o", out.path, "--text", "M", "--format", format])
            #expect(result.status == 0, "\(format): \(result.stderr)")
            #expect(
                result.stderr.contains(
                    "\(source.path): warning: ICC profile left out: the PNG's iCCP chunk inflates to something that is "
                        + "not an ICC profile"), "\(format): \(result.stderr)")
            #expect(
                try tool("exiftool", ["-b", "-ICC_Profile", out.appendingPathComponent(name).path]).isEmpty,
                "\(format): carried")
        }
    }

    /// A 16-bit CMYK TIFF was refused in libtiff's bare words ("Sorry, can not handle image"):
    /// one line of ours now says what the file is, why, and what to do. 8-bit CMYK is marked.
    @Test func a16BitCMYKTIFFIsRefusedInOneLineThatSaysWhy() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (deep, plain) = (
            folder.appendingPathComponent("in/cmyk16.tif"), folder.appendingPathComponent("in/cmyk8.tif")
        )
        try FileManager.default.createDirectory(at: deep.deletingLastPathComponent(), withIntermediateDirectories: true)
        try tool("convert", ["-size", "64x48", "xc:red", "-colorspace", "CMYK", "-depth", "16", deep.path])
        try tool("convert", ["-size", "64x48", "xc:red", "-colorspace", "CMYK", "-depth", "8", plain.path])
        let result = try camstamp([
            "batch", deep.path, plain.path, "-o", folder.appendingPathComponent("out").path, "--text", "M",
        ])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(
            result.stderr
                == "camstamp: \(deep.path): cannot read a 16-bit CMYK TIFF (libtiff reads CMYK at 8 bits a sample only); "
                + "convert it to 8 bits first, e.g. convert in.tif -depth 8 out.tif\n1 marked, 1 failed, 0 skipped\n",
            "\(result.stderr)")
        #expect(
            Self.close(
                try Self.pixel(folder.appendingPathComponent("out/cmyk8.tif"), 5, 5), [255, 0, 0, 255], within: 2))
    }
}
