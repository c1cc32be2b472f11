// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Media
import Testing
import TestSupport

/// Issue 11 §1: photos in every common format — HEIC/HEIF, AVIF, WebP, TIFF besides JPEG and PNG —
/// read by content, written back or converted, upright, marked, with EXIF, XMP and a Display P3
/// profile carried. Fixtures are made here by the peer tools (ImageMagick, exiftool, heif-enc,
/// cwebp); outputs are decoded back by peers (heif-convert, dwebp, ImageMagick) and read by exiftool.
@Suite struct PhotoFormatTests {
    /// A minimal ICC v2 display profile with the Display P3 primaries (D50-adapted, as Apple's)
    /// and a 2.2 gamma, described as "Display P3".
    static func displayP3Profile() -> Data {
        func be32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(v >> (24 - 8 * $0) & 0xFF) } }
        func s15(_ v: Double) -> [UInt8] { be32(UInt32(bitPattern: Int32((v * 65536).rounded()))) }
        func xyz(_ x: Double, _ y: Double, _ z: Double) -> [UInt8] {
            Array("XYZ ".utf8) + [0, 0, 0, 0] + s15(x) + s15(y) + s15(z)
        }
        let text = Array("Display P3".utf8) + [0]
        let desc =
            Array("desc".utf8) + [0, 0, 0, 0] + be32(UInt32(text.count)) + text
            + [UInt8](repeating: 0, count: 4 + 4 + 2 + 1 + 67)
        let cprt = Array("text".utf8) + [0, 0, 0, 0] + Array("No copyright, test profile".utf8) + [0]
        let curve = Array("curv".utf8) + [0, 0, 0, 0] + be32(1) + [0x02, 0x33, 0, 0]
        let tags: [(String, [UInt8])] = [
            ("desc", desc), ("cprt", cprt), ("wtpt", xyz(0.9642, 1.0, 0.8249)),
            ("rXYZ", xyz(0.5151, 0.2412, -0.0011)), ("gXYZ", xyz(0.2920, 0.6922, 0.0419)),
            ("bXYZ", xyz(0.1571, 0.0666, 0.7841)), ("rTRC", curve), ("gTRC", curve), ("bTRC", curve),
        ]
        let start = 128 + 4 + 12 * tags.count
        var table: [UInt8] = [], body: [UInt8] = []
        for (signature, var data) in tags {
            while data.count % 4 != 0 { data.append(0) }
            table += Array(signature.utf8) + be32(UInt32(start + body.count)) + be32(UInt32(data.count))
            body += data
        }
        var header = be32(UInt32(start + body.count)) + [0, 0, 0, 0] + [2, 0x10, 0, 0] + Array("mntrRGB XYZ ".utf8)
        header += [UInt8](repeating: 0, count: 12) + Array("acsp".utf8) + [UInt8](repeating: 0, count: 4 * 4 + 8 + 4)
        header += s15(0.9642) + s15(1.0) + s15(0.8249) + [UInt8](repeating: 0, count: 4 + 16 + 28)
        return Data(header + be32(UInt32(tags.count)) + table + body)
    }

    /// A 320×240 mid-grey JPEG with a red square in its stored top-left corner, EXIF (Model,
    /// Artist, DateTimeOriginal, `orientation` when given), XMP dc:creator and the P3 profile.
    static func baseJPEG(_ file: URL, orientation: Int? = nil) throws {
        // Beside the test's folders, never in an input folder (it would be a skipped file there).
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent(
            "camstamp-p3-\(UUID().uuidString.prefix(8)).icc")
        try displayP3Profile().write(to: profile)
        defer { try? FileManager.default.removeItem(at: profile) }
        try makePicture(
            file, ["-size", "320x240", "xc:gray50", "-fill", "red", "-draw", "rectangle 0,0 39,39", "-quality", "92"])
        try tool(
            "exiftool",
            [
                "-q", "-overwrite_original", "-Model=FormatCam 11", "-Artist=Someone",
                "-DateTimeOriginal=2024:01:02 03:04:05",
                "-XMP-dc:Creator=Xmp Person", "-ICC_Profile<=\(profile.path)",
            ]
                + (orientation.map { ["-Orientation#=\($0)"] } ?? []) + [file.path])
    }

    /// `file` decoded by a peer tool (heif-convert, dwebp, ImageMagick) to RGBA.
    static func decodeBack(_ file: URL) throws -> VideoFrame {
        let png = file.deletingLastPathComponent().appendingPathComponent(file.lastPathComponent + ".decoded.png")
        switch file.pathExtension.lowercased() {
        case "heic", "avif": try tool("heif-convert", [file.path, png.path])
        case "webp": try tool("dwebp", ["-quiet", file.path, "-o", png.path])
        default: try tool("convert", [file.path + "[0]", "-depth", "8", "png24:" + png.path])
        }
        defer { try? FileManager.default.removeItem(at: png) }
        return try decodeImage(png, format: .rgba)
    }

    /// The output is `width`×`height`, its red square in the `redAt` corner (so upright), and a
    /// white mark in its bottom-right quarter (the default place of --text) and nowhere else.
    static func expectMarkedUpright(
        _ frame: VideoFrame, width: Int, height: Int, redAt red: (x: Int, y: Int)?,
        _ name: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            frame.width == width && frame.height == height, "\(name): \(frame.width)×\(frame.height)",
            sourceLocation: sourceLocation)
        guard frame.width == width, frame.height == height else { return }
        if let red {
            let pixel = rgb(frame, red.x, red.y)
            #expect(
                pixel.r > 180 && pixel.g < 90 && pixel.b < 90, "\(name): not red at \(red): \(pixel)",
                sourceLocation: sourceLocation)
        }
        let centre = rgb(frame, width / 2, height / 2)
        #expect(
            abs(centre.r - 127) < 16 && abs(centre.g - 127) < 16, "\(name): centre \(centre)",
            sourceLocation: sourceLocation)
        func brightest(_ xs: Range<Int>, _ ys: Range<Int>) -> Int {
            var most = 0
            for y in ys {
                for x in xs {
                    let p = rgb(frame, x, y)
                    most = max(most, min(p.r, p.g, p.b))
                }
            }
            return most
        }
        #expect(
            brightest(width / 2..<width, height / 2..<height) > 200, "\(name): no white mark bottom-right",
            sourceLocation: sourceLocation)
        #expect(
            brightest(0..<width, 0..<height / 2) < 170, "\(name): something white in the top half",
            sourceLocation: sourceLocation)
    }

    /// exiftool's tags of `file` by group:name.
    static func tags(_ file: URL) throws -> [String: String] { try exiftoolTags(file) }

    @Test func everyFormatIsReadByContentAndWrittenBackMarkedUprightWithItsMetadataAndP3Profile() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let base = folder.appendingPathComponent("base.jpg")
        try Self.baseJPEG(base)
        let input = folder.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        try tool("heif-enc", ["-q", "80", base.path, "-o", input.appendingPathComponent("phone.heic").path])
        try tool("heif-enc", ["-A", base.path, "-o", input.appendingPathComponent("web.avif").path])
        try tool(
            "cwebp", ["-quiet", "-metadata", "all", base.path, "-o", input.appendingPathComponent("export.webp").path])
        try tool(
            "cwebp",
            [
                "-quiet", "-lossless", "-metadata", "all", base.path, "-o",
                input.appendingPathComponent("lossless.webp").path,
            ])
        try makePicture(input.appendingPathComponent("scan.tif"), [base.path, "-depth", "16"])
        // By content: a TIFF with no extension and a HEIC named .jpg are read for what they are.
        try FileManager.default.copyItem(
            at: input.appendingPathComponent("scan.tif"), to: input.appendingPathComponent("scan-no-extension"))
        try FileManager.default.copyItem(
            at: input.appendingPathComponent("phone.heic"), to: input.appendingPathComponent("misnamed.jpg"))
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", input.path, "-o", out.path, "--text", "MARK"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.hasSuffix("7 marked, 0 failed, 0 skipped\n"), "\(result.stderr)")
        #expect(
            result.stderr.contains("misnamed.jpg: warning: the file is a HEIC despite its .jpg name"),
            "\(result.stderr)")
        #expect(
            result.stderr.contains("scan.tif: warning: its 16-bit samples are marked and written as 8-bit"),
            "\(result.stderr)")

        let expected: [(name: String, type: String, exif: Bool)] = [
            ("phone.heic", "HEIC", true), ("web.avif", "AVIF", true), ("export.webp", "Extended WEBP", true),
            ("lossless.webp", "Extended WEBP", true), ("scan.tif", "TIFF", false), ("misnamed.jpg", "HEIC", true),
        ]
        for (name, type, exif) in expected {
            let file = out.appendingPathComponent(name)
            let tags = try Self.tags(file)
            #expect(tags["File:FileType"] == type, "\(name): \(tags["File:FileType"] ?? "no type")")
            #expect(
                tags["ICC-header:ProfileDescription"] == "Display P3"
                    || tags["ICC_Profile:ProfileDescription"] == "Display P3",
                "\(name): the P3 profile is lost: \(tags.filter { $0.key.hasPrefix("ICC") })")
            #expect(tags["XMP-dc:Creator"] == "Xmp Person", "\(name): XMP lost")
            if exif {
                #expect(
                    tags["IFD0:Model"] == "FormatCam 11",
                    "\(name): EXIF lost: \(tags.filter { $0.key.hasPrefix("IFD0") })")
                #expect(tags["ExifIFD:DateTimeOriginal"] == "2024:01:02 03:04:05", "\(name): DateTimeOriginal lost")
            }
            if name == "misnamed.jpg" { continue }  // decoded by extension below
            Self.expectMarkedUpright(try Self.decodeBack(file), width: 320, height: 240, redAt: (20, 20), name)
        }
        // The lossless WebP stays lossless, the lossy one lossy.
        let lossless = try Data(contentsOf: out.appendingPathComponent("lossless.webp"))
        #expect(lossless.range(of: Data("VP8L".utf8)) != nil, "lossless.webp was re-encoded lossy")
        let lossy = try Data(contentsOf: out.appendingPathComponent("export.webp"))
        #expect(lossy.range(of: Data("VP8 ".utf8)) != nil)
        // The TIFF without an extension is written as TIFF, named for its format.
        #expect(listing(out).contains("scan-no-extension.tif"), "\(listing(out))")
        // exiftool finds nothing wrong in what camstamp wrote.
        for name in ["phone.heic", "web.avif", "export.webp", "lossless.webp", "scan.tif"] {
            let validation = try exiftool(["-validate", "-warning", "-a", "-s"], out.appendingPathComponent(name))
            #expect(validation.contains("Validate                        : OK"), "\(name): \(validation)")
        }
    }

    @Test func aJPEGIsConvertedToEachFormatWithItsMetadata() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let base = folder.appendingPathComponent("in/photo.jpg")
        try FileManager.default.createDirectory(at: base.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Self.baseJPEG(base)
        let profile = Self.displayP3Profile()
        for (format, fileExtension, type) in [
            ("webp", "webp", "Extended WEBP"), ("heic", "heic", "HEIC"), ("tiff", "tif", "TIFF"),
            ("png", "png", "PNG"), ("jpg", "jpg", "JPEG"),
        ] {
            let out = folder.appendingPathComponent("out-\(format)")
            let result = try camstamp(["batch", base.path, "-o", out.path, "--text", "MARK", "--format", format])
            #expect(result.status == 0, "\(format): \(result.stderr)")
            let file = out.appendingPathComponent("photo.\(fileExtension)")
            #expect(listing(out) == ["photo.\(fileExtension)"], "\(format): \(listing(out))")
            let tags = try Self.tags(file)
            #expect(tags["File:FileType"] == type, "\(format): \(tags["File:FileType"] ?? "none")")
            // The profile comes out byte for byte: a P3 photo keeps its colours.
            let carried = try tool("exiftool", ["-b", "-ICC_Profile", file.path])
            #expect(carried == profile, "\(format): the ICC profile differs (\(carried.count) bytes)")
            #expect(tags["XMP-dc:Creator"] == "Xmp Person", "\(format): XMP lost")
            #expect(tags["IFD0:Model"] == "FormatCam 11", "\(format): EXIF lost")
            #expect(!result.stderr.contains("EXIF"), "\(format): \(result.stderr)")
            Self.expectMarkedUpright(try Self.decodeBack(file), width: 320, height: 240, redAt: (20, 20), format)
        }
    }

    /// A phone's HEIC stores the picture as the sensor saw it with an `irot` box, and repeats the
    /// turn in its EXIF Orientation. libheif applies irot; the EXIF turn must not be applied again.
    @Test func aHEICWithIrotIsUprightAndItsEXIFOrientationIsNotAppliedTwice() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Orientation 8 (rotate 270 CW) is the turn irot angle 1 (90° anticlockwise) makes.
        let base = folder.appendingPathComponent("base.jpg")
        try Self.baseJPEG(base, orientation: 8)
        let plain = folder.appendingPathComponent("plain.heic")
        try tool("heif-enc", ["-q", "80", base.path, "-o", plain.path])
        // heif-enc writes no irot: put one in place of the 16-byte `pixi` property (same size, so no
        // offset moves; the item's association with that property now names the rotation).
        var bytes = try Data(contentsOf: plain)
        let pixi = try #require(bytes.range(of: Data("pixi".utf8)))
        #expect(bytes[pixi.lowerBound - 1] == 16, "pixi is not 16 bytes long here")
        bytes.replaceSubrange(
            pixi.lowerBound..<pixi.lowerBound + 12, with: Data("irot".utf8) + Data([1]) + Data(count: 7))
        let input = try put(bytes, "in/IMG_0001.HEIC", in: folder)
        #expect(try Self.tags(input)["QuickTime:Rotation"] == "90", "the fixture has no irot")
        #expect(try Self.tags(input)["IFD0:Orientation"] == "Rotate 270 CW")

        for format in ["keep", "jpg"] {
            let out = folder.appendingPathComponent("out-\(format)")
            let result = try camstamp(["batch", input.path, "-o", out.path, "--text", "MARK", "--format", format])
            #expect(
                result.status == 0 && result.stderr == "1 marked, 0 failed, 0 skipped\n", "\(format): \(result.stderr)")
            let file = out.appendingPathComponent(format == "keep" ? "IMG_0001.HEIC" : "IMG_0001.jpg")
            let tags = try Self.tags(file)
            // Upright pixels, and nothing that would turn them again.
            #expect(
                tags["IFD0:Orientation"] == nil || tags["IFD0:Orientation"] == "Horizontal (normal)",
                "\(format): \(tags["IFD0:Orientation"] ?? "")")
            #expect(tags["QuickTime:Rotation"] == nil || tags["QuickTime:Rotation"] == "0", "\(format): irot written")
            // Stored top-left turned 90° anticlockwise lands bottom-left of a portrait picture.
            Self.expectMarkedUpright(
                try Self.decodeBack(file), width: 240, height: 320, redAt: (20, 300), "irot \(format)")
        }
    }

    /// A HEIC holding more than one picture (a burst) has its main one marked, and says the others
    /// are left out, as a multi-page TIFF does (they were dropped in silence).
    @Test func aHEICOfSeveralPicturesSaysTheOthersAreLeftOut() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (red, blue) = (folder.appendingPathComponent("red.png"), folder.appendingPathComponent("blue.png"))
        try makePicture(red, ["-size", "64x48", "xc:red"])
        try makePicture(blue, ["-size", "64x48", "xc:blue"])
        let burst = folder.appendingPathComponent("burst.heic")
        try tool("heif-enc", ["-q", "80", red.path, blue.path, "-o", burst.path])
        let result = try camstamp(["batch", burst.path, "-o", folder.appendingPathComponent("out").path, "--text", "x"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(
            result.stderr.contains("warning: its main picture of 2 marked; the others are not in the output"),
            "\(result.stderr)")
    }

    @Test func tiffsMultiPageTurnedAndGreyAreMarkedAndAWebPWithAlphaKeepsIt() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let base = folder.appendingPathComponent("base.jpg")
        try Self.baseJPEG(base)
        let pages = folder.appendingPathComponent("in/pages.tif")
        try FileManager.default.createDirectory(
            at: pages.deletingLastPathComponent(), withIntermediateDirectories: true)
        try makePicture(pages, [base.path, "-size", "320x240", "xc:blue"])
        // An 8-bit TIFF whose Orientation tag says "turn 90° clockwise", and a grey one.
        let turned = folder.appendingPathComponent("in/turned.tif")
        try makePicture(turned, [base.path, "-depth", "8"])
        try tool("exiftool", ["-q", "-overwrite_original", "-Orientation#=6", turned.path])
        try makePicture(
            folder.appendingPathComponent("in/grey.tif"), [base.path, "-colorspace", "gray", "-depth", "8"],
            colour: .grey)
        let alpha = folder.appendingPathComponent("in/alpha.webp")
        let png = folder.appendingPathComponent("alpha.png")
        try makePicture(
            png,
            [
                "-size", "320x240", "xc:gray50", "-fill", "red", "-draw", "rectangle 0,0 39,39", "-alpha", "set",
                "(", "-size", "101x40", "xc:none", ")", "-geometry", "+0+200", "-compose", "copy", "-composite",
            ], colour: .rgba)
        try tool("cwebp", ["-quiet", "-lossless", png.path, "-o", alpha.path])
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", pages.deletingLastPathComponent().path, "-o", out.path, "--text", "MARK"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains("pages.tif: warning: page 1 of 2 marked; the other pages are not in the output"),
            "\(result.stderr)")
        let tiff = out.appendingPathComponent("pages.tif")
        #expect(
            String(decoding: try tool("identify", [tiff.path]), as: UTF8.self).split(separator: "\n").count == 1,
            "more than one page written")
        Self.expectMarkedUpright(try Self.decodeBack(tiff), width: 320, height: 240, redAt: (20, 20), "pages.tif")
        // Stored top-left turned 90° clockwise lands top-right; the tag is not written again.
        Self.expectMarkedUpright(
            try Self.decodeBack(out.appendingPathComponent("turned.tif")), width: 240, height: 320,
            redAt: (220, 20), "turned.tif")
        #expect(try Self.tags(out.appendingPathComponent("turned.tif"))["IFD0:Orientation"] == "Horizontal (normal)")
        let grey = out.appendingPathComponent("grey.tif")
        Self.expectMarkedUpright(try Self.decodeBack(grey), width: 320, height: 240, redAt: nil, "grey.tif")
        let webp = try Self.decodeBack(out.appendingPathComponent("alpha.webp"))
        Self.expectMarkedUpright(webp, width: 320, height: 240, redAt: (20, 20), "alpha.webp")
        let transparent = try webp.withMapped { mapped in Int(mapped.plane(0)[220 * mapped.stride(0) + 50 * 4 + 3]) }
        #expect(transparent == 0, "the transparent corner has alpha \(transparent)")
    }

    /// An AVIF (or HEIC) may say "Display P3" only in its nclx `colr` box, with no ICC profile.
    /// Decoded to RGB that is lost: the output gets a P3 profile, or it would look washed out.
    @Test func anAVIFThatIsP3ByItsNclxBoxComesOutWithAP3Profile() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plain = folder.appendingPathComponent("plain.jpg")
        try makePicture(plain, ["-size", "320x240", "xc:gray50", "-fill", "red", "-draw", "rectangle 0,0 39,39"])
        let avif = folder.appendingPathComponent("made.avif")
        try tool("heif-enc", ["-A", plain.path, "-o", avif.path])
        // heif-enc 1.15 ignores --colour_primaries: set the nclx box's primaries (12, P3) and
        // transfer (13, sRGB) in place, as a camera's AVIF has them.
        var bytes = try Data(contentsOf: avif)
        let nclx = try #require(bytes.range(of: Data("nclx".utf8)))
        bytes.replaceSubrange(nclx.upperBound..<nclx.upperBound + 4, with: Data([0, 12, 0, 13]))
        let input = try put(bytes, "in/p3.avif", in: folder)
        #expect(try Self.tags(input)["QuickTime:ColorPrimaries"] == "SMPTE EG 432-1", "the fixture is not P3")
        for format in ["keep", "webp", "jpg"] {
            let out = folder.appendingPathComponent("out-\(format)")
            let result = try camstamp(["batch", input.path, "-o", out.path, "--text", "MARK", "--format", format])
            #expect(result.status == 0, "\(format): \(result.stderr)")
            let file = try #require(listing(out).first.map { out.appendingPathComponent($0) })
            let tags = try Self.tags(file)
            #expect(
                tags["ICC-header:ColorSpaceData"] == "RGB " && tags["ICC_Profile:ProfileDescription"] == "Display P3",
                "\(format): \(tags.filter { $0.key.hasPrefix("ICC") })")
            Self.expectMarkedUpright(
                try Self.decodeBack(file), width: 320, height: 240, redAt: (20, 20), "p3 \(format)")
        }
    }

    @Test func anUnreadableFileNamedOnTheCommandLineFailsWithOneLine() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let base = folder.appendingPathComponent("base.jpg")
        try Self.baseJPEG(base)
        let heic = folder.appendingPathComponent("whole.heic")
        try tool("heif-enc", [base.path, "-o", heic.path])
        let notes = try put(Data("shopping list\n".utf8), "notes.txt", in: folder)
        let whole = try Data(contentsOf: heic)
        let broken = try put(whole.prefix(whole.count / 2), "broken.heic", in: folder)
        for file in [notes, broken] {
            let out = folder.appendingPathComponent("out-\(file.lastPathComponent)")
            let result = try camstamp(["batch", file.path, "-o", out.path, "--text", "MARK"])
            #expect(result.status == 1, "\(file.lastPathComponent): exit \(result.status)")
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 2, "\(result.stderr)")
            #expect(lines.first?.hasPrefix("camstamp: \(file.path): ") == true, "\(result.stderr)")
            #expect(lines.last == "0 marked, 1 failed, 0 skipped", "\(result.stderr)")
            #expect(listing(out).isEmpty)
        }
        // libheif's own words: the message was read after its context was freed (bytes of
        // garbage), and it ends in a newline that made the one line two.
        let result = try camstamp([
            "batch", broken.path, "-o", folder.appendingPathComponent("again").path, "--text", "MARK",
        ])
        #expect(
            result.stderr.hasPrefix("camstamp: \(broken.path): cannot read the HEIC file (libheif: Invalid input: ")
                && result.stderr.split(separator: "\n").count == 2, "\(result.stderr)")
    }

    @Test func aFileSkippedInAFolderIsNamedOnStderr() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let base = try put(Data(), "in/photo.jpg", in: folder)
        try Self.baseJPEG(base)
        let sidecar = try put(Data("<x:xmpmeta/>".utf8), "in/photo.xmp", in: folder)
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", base.deletingLastPathComponent().path, "-o", out.path, "--text", "MARK"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("camstamp: \(sidecar.path): skipped: not a photo"), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("1 marked, 0 failed, 1 skipped\n"), "\(result.stderr)")
    }
}
