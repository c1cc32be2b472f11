// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Media
import PhotoMetadata
import Testing
import TestSupport

/// Decoded photos keep their colours, their chroma sampling and their quality (issue 8 §3).
extension PhotoDecodeTests {
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
        try makePicture(
            input.appendingPathComponent("grey.jpg"), ["-size", "320x240", "xc:gray50", "-quality", "90"], colour: .grey
        )
        try makePicture(input.appendingPathComponent("grey.png"), ["-size", "320x240", "xc:gray50"], colour: .grey)
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
        try makePicture(photo, ["-size", "64x48", "xc:gray50", "-depth", "8"], colour: .grey)
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
}
