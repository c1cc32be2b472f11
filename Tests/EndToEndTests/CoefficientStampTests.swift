// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

/// Issue 12 tier 1: a JPEG written as a JPEG is stamped in its DCT coefficients. Only the MCUs
/// under the mark change; the mark looks as on the re-encoding path (`--reencode`); the EXIF
/// orientation is kept and the mark shows upright; the file stays the same size class.
/// These run tier 1 alone (CAMSTAMP_SPLICE=0) where they check the stamp; EntropySpliceTests
/// runs the same checks on tier 2, the default for baseline files.
@Suite struct CoefficientStampTests {
    struct Case: CustomStringConvertible, Sendable {
        var sampling: String  // cjpeg -sample, or "grey"
        var progressive: Bool
        var restart: Bool
        var orientation: Int
        /// Optimal Huffman tables (cjpeg -optimize), which lack codes the new blocks may need:
        /// the output's tables are the source's with those codes added.
        var optimised = false
        var description: String {
            "\(sampling)\(progressive ? " progressive" : "")\(restart ? " restart" : "")\(optimised ? " optimised" : "") o\(orientation)"
        }
        /// The MCU's size in pixels of the stored picture.
        var mcu: (width: Int, height: Int) {
            switch sampling {
            case "2x2": (16, 16)
            case "2x1": (16, 8)
            default: (8, 8)
            }
        }
    }

    /// Every sampling (4:2:0, 4:2:2, 4:4:4, grey), baseline and progressive, with and without
    /// restart markers, and every orientation 1–8 at least once.
    static let cases: [Case] = ["2x2", "2x1", "1x1", "grey"].enumerated().flatMap { index, sampling in
        [false, true].map { progressive in
            let n = index * 2 + (progressive ? 1 : 0)
            return Case(
                sampling: sampling, progressive: progressive, restart: n % 3 != 0, orientation: 1 + (n * 3) % 8,
                optimised: n == 0 || n == 4)
        }
    }

    /// A textured photo (ImageMagick's plasma, fixed seed) as cjpeg writes it for `c`, with EXIF
    /// Orientation set by exiftool.
    func source(_ c: Case, in folder: URL) throws -> URL {
        let ppm = folder.appendingPathComponent("source.ppm")
        try tool("convert", ["-seed", "7", "-size", "480x320", "plasma:fractal", "-blur", "0x1", ppm.path])
        var options = ["-quality", "90"]
        options += c.sampling == "grey" ? ["-grayscale"] : ["-sample", c.sampling]
        if c.progressive { options.append("-progressive") }
        if c.restart { options += ["-restart", "1"] }
        if c.optimised { options.append("-optimize") }
        let input = folder.appendingPathComponent("in/photo.jpg")
        try FileManager.default.createDirectory(
            at: input.deletingLastPathComponent(), withIntermediateDirectories: true)
        try tool("cjpeg", options + ["-outfile", input.path, ppm.path])
        try exiftool([
            "-q", "-overwrite_original", "-n", "-Orientation=\(c.orientation)", "-Model=Fixture Cam 1", input.path,
        ])
        return input
    }

    /// Runs the batch on `input` with a text mark, in the coefficients (tier 1 alone unless
    /// `splice`; `path` is what --json must say then) and with --reencode; checks what --json
    /// says about the path each took.
    func stamp(
        _ input: URL, in folder: URL, splice: Bool = false, path stampedPath: String = "coefficients"
    ) throws -> (stamped: URL, reencoded: URL) {
        var outputs: [URL] = []
        for (name, extra, path) in [("out", [String](), stampedPath), ("re", ["--reencode"], "reencoded")] {
            let out = folder.appendingPathComponent(name)
            let result = try camstamp(
                ["batch", input.path, "-o", out.path, "--text", "Proof © 2026", "--json"] + extra,
                environment: splice ? [:] : ["CAMSTAMP_SPLICE": "0"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("\"path\":\"\(path)\""), "\(result.stdout)")
            #expect(!result.stderr.contains("warning"), "\(result.stderr)")
            outputs.append(out.appendingPathComponent(input.lastPathComponent))
        }
        return (outputs[0], outputs[1])
    }

    @Test(arguments: cases)
    func onlyTheMCUsUnderTheMarkChangeAndTheMarkLooksAsReencoded(c: Case) throws {
        let folder = try temporaryFolder("stamp\(c.sampling)\(c.progressive)\(c.restart)\(c.orientation)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try source(c, in: folder)
        let (stamped, reencoded) = try stamp(input, in: folder)
        // On a small, smooth picture the text's own bits are a few percent of the file (a
        // photo-sized one stays within 2 %: see below).
        try checkStamp(
            input: input, stamped: stamped, reencoded: reencoded, orientation: c.orientation, mcu: c.mcu, growth: 0.06)
    }

    /// The shipped camera photos (4:2:2 Nikon 640×480; a 100×75 Samsung, whose mark is 3 px tall
    /// and is checked for bit-exactness, size and decoders only), as they are.
    @Test(arguments: ["nikon-coolpix-gps.jpg", "samsung-preview.jpg"])
    func cameraPhotosChangeOnlyUnderTheMark(name: String) throws {
        let folder = try temporaryFolder("stampreal\(name)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in/\(name)")
        try FileManager.default.createDirectory(
            at: input.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: makerNoteFixtures.appendingPathComponent(name), to: input)
        let (stamped, reencoded) = try stamp(input, in: folder)
        let orientation =
            Int(try exiftool(["-s3", "-n", "-Orientation"], input).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 1
        let sampling = try exiftool(["-s3", "-n", "-YCbCrSubSampling"], input)
        let mcu = sampling.hasPrefix("2 2") ? (16, 16) : sampling.hasPrefix("2 1") ? (16, 8) : (8, 8)
        try checkStamp(
            input: input, stamped: stamped, reencoded: reencoded, orientation: orientation, mcu: mcu, growth: 0.02,
            checksLook: !name.hasPrefix("samsung"))
    }

    /// The source marked and written as PNG (no lossy encoding), as a viewer shows it.
    func pngReference(_ input: URL) throws -> Raster {
        let out = input.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("png")
        let result = try camstamp(["batch", input.path, "-o", out.path, "--text", "Proof © 2026", "--format", "png"])
        #expect(result.status == 0, "\(result.stderr)")
        return try upright(out.appendingPathComponent(input.deletingPathExtension().lastPathComponent + ".png"))
    }

    func meanDifference(_ a: Raster, _ b: Raster, in box: PixelBox) -> Double {
        var total = 0, count = 0
        for y in box.minY...box.maxY {
            for x in box.minX...box.maxX {
                for k in 0..<a.channels {
                    let i = (y * a.width + x) * a.channels + k
                    total += abs(Int(a.pixels[i]) - Int(b.pixels[i]))
                    count += 1
                }
            }
        }
        return Double(total) / Double(count)
    }

    func checkStamp(
        input: URL, stamped: URL, reencoded: URL, orientation: Int, mcu: (width: Int, height: Int),
        growth: Double, checksLook: Bool = true
    ) throws {
        // Metadata: the orientation is kept (the pixels were not turned), the camera's tags too.
        #expect(
            try exiftool(["-s3", "-n", "-Orientation"], stamped) == exiftool(["-s3", "-n", "-Orientation"], input))
        #expect(try exiftool(["-s3", "-Model"], stamped) == exiftool(["-s3", "-Model"], input))
        #expect(try exiftool(["-a", "-s", "-Warning"], stamped) == "", "exiftool warns about the output")

        // Where the mark is, as a viewer shows it: from the PNG output (marked, never lossily
        // encoded) against the source, in luma (decoders upsample chroma differently); the
        // coefficient path puts it there too, to ±1 px.
        let ideal = try pngReference(input).luma()
        let shownSource = try upright(input).luma(), shownReencoded = try upright(reencoded).luma(),
            shownStamped = try upright(stamped).luma()
        let markBox = try #require(differingBox(shownSource, ideal, threshold: 48), "no mark on the PNG output")
        let stampedBox = try #require(
            differingBox(shownSource, shownStamped, threshold: 48), "no mark on the coefficient path")
        // On a thumbnail-sized picture the mark is a few pixels tall: JPEG noise on either path.
        if checksLook {
            for (a, b) in [
                (markBox.minX, stampedBox.minX), (markBox.minY, stampedBox.minY), (markBox.maxX, stampedBox.maxX),
                (markBox.maxY, stampedBox.maxY),
            ] {
                #expect(abs(a - b) <= 1, "mark at \(stampedBox), the PNG output has it at \(markBox)")
            }
            // Looks the same as --reencode: mean |Δ| ≤ 2 levels inside the mark's box, once each
            // JPEG's own ringing at the text's edges is smoothed out (3×3 mean): two lossy encodings
            // of the same marked pixels differ there by 2–3 levels pixel by pixel.
            let smoothed = meanDifference(shownStamped.blurred(), shownReencoded.blurred(), in: markBox)
            #expect(smoothed <= 2, "mean |Δ| \(smoothed) inside the mark against --reencode (3×3 mean)")
            // And as faithful to the marked picture as --reencode is, pixel by pixel.
            let stampedError = meanDifference(shownStamped, ideal, in: markBox),
                reencodedError = meanDifference(shownReencoded, ideal, in: markBox)
            #expect(
                stampedError <= reencodedError + 1,
                "mean |Δ| from the unencoded mark: \(stampedError), --reencode's \(reencodedError)")
        }

        // Bit-exactness in the stored picture: outside the MCUs that the mark's box (widened by
        // 8 px for its soft edges) covers, every pixel is the source's.
        let before = try djpeg(input, smooth: false), after = try djpeg(stamped, smooth: false)
        #expect(before.width == after.width && before.height == after.height && before.channels == after.channels)
        var stored = PixelBox(minX: .max, minY: .max, maxX: -1, maxY: -1)
        for y in 0..<before.height {
            for x in 0..<before.width {
                let (ux, uy) = PhotoFixtures.upright(
                    x, y, storedWidth: before.width, storedHeight: before.height, orientation: orientation)
                guard ux >= markBox.minX - 8, ux <= markBox.maxX + 8, uy >= markBox.minY - 8, uy <= markBox.maxY + 8
                else { continue }
                stored = PixelBox(
                    minX: min(stored.minX, x), minY: min(stored.minY, y), maxX: max(stored.maxX, x),
                    maxY: max(stored.maxY, y))
            }
        }
        let mcus = PixelBox(
            minX: stored.minX / mcu.width * mcu.width, minY: stored.minY / mcu.height * mcu.height,
            maxX: (stored.maxX / mcu.width + 1) * mcu.width - 1, maxY: (stored.maxY / mcu.height + 1) * mcu.height - 1)
        var outside = 0, largest = 0, inside = 0
        for y in 0..<before.height {
            for x in 0..<before.width {
                let d = before.difference(after, x, y)
                if mcus.contains(x, y) {
                    if d > 0 { inside += 1 }
                } else if d > 0 {
                    outside += 1
                    largest = max(largest, d)
                }
            }
        }
        #expect(outside == 0, "\(outside) pixels outside the MCUs \(mcus) differ, by up to \(largest)")
        #expect(inside > 100, "the mark changed only \(inside) pixels")
        // With smooth (interpolated) chroma, a decoder mixes in the neighbouring MCU's chroma: one
        // pixel more on each side.
        let smoothBefore = try djpeg(input), smoothAfter = try djpeg(stamped)
        let widened = PixelBox(minX: mcus.minX - 1, minY: mcus.minY - 1, maxX: mcus.maxX + 1, maxY: mcus.maxY + 1)
        var smoothOutside = 0
        for y in 0..<before.height {
            for x in 0..<before.width where !widened.contains(x, y) && smoothBefore.difference(smoothAfter, x, y) > 0 {
                smoothOutside += 1
            }
        }
        #expect(smoothOutside == 0, "\(smoothOutside) pixels differ outside \(widened) with smooth upsampling")

        // The same size class: within `growth` of the source.
        let sizes = (try Data(contentsOf: input).count, try Data(contentsOf: stamped).count)
        #expect(Double(sizes.1) <= Double(sizes.0) * (1 + growth), "\(sizes.1) bytes from \(sizes.0)")

        // Decoders agree: djpeg (above, which fails on a warning), ffmpeg, Pillow and GStreamer's
        // jpegdec decode it without a word, to the same luma as djpeg.
        let grey = try Raster(pnm: tool("djpeg", ["-grayscale", "-pnm", stamped.path]))
        let ffmpeg = try tool(
            "ffmpeg",
            [
                "-v", "warning", "-nostdin", "-noautorotate", "-i", stamped.path, "-f", "rawvideo", "-pix_fmt", "gray",
                "-",
            ])
        #expect(ffmpeg.count == grey.pixels.count, "ffmpeg gave \(ffmpeg.count) bytes")
        if ffmpeg.count == grey.pixels.count {
            let mean = zip(ffmpeg, grey.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
            #expect(Double(mean) / Double(ffmpeg.count) < 1, "ffmpeg and djpeg disagree")
        }
        // Pillow (Debian's python3-pil, so /usr/bin/python3), warnings as errors.
        let pillow = try tool(
            "/usr/bin/python3",
            [
                "-W", "error", "-c",
                "import sys; from PIL import Image; im = Image.open(sys.argv[1]); im.load(); "
                    + "sys.stdout.buffer.write(im.convert('L').tobytes())", stamped.path,
            ])
        #expect(pillow.count == grey.pixels.count, "Pillow gave \(pillow.count) bytes")
        if pillow.count == grey.pixels.count {
            let total = zip(pillow, grey.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
            #expect(Double(total) / Double(pillow.count) < 1.5, "Pillow and djpeg disagree")
        }
        let jpegdec = try lumaPlane(decodeImage(stamped))
        #expect(jpegdec.count == grey.height && jpegdec.first?.count == grey.width)
        if jpegdec.count == grey.height {
            var difference = 0
            for y in 0..<grey.height {
                for x in 0..<grey.width { difference += abs(Int(jpegdec[y][x]) - Int(grey.pixels[y * grey.width + x])) }
            }
            #expect(Double(difference) / Double(grey.pixels.count) < 1.5, "jpegdec and djpeg disagree")
        }
    }

    /// A photo-sized picture with a photo's grain (1600×1200) grows by less than 2 %: 4:2:0
    /// baseline with cjpeg's standard Huffman tables (kept) or optimal ones (completed), progressive, grey.
    @Test func aPhotoSizedPictureStaysWithinTwoPercent() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ppm = folder.appendingPathComponent("source.ppm")
        try tool("convert", ["-seed", "7", "-size", "1600x1200", "plasma:fractal", ppm.path])
        let inputs = folder.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        let pictures = [
            ("baseline", ["-sample", "2x2"]), ("optimised", ["-sample", "2x2", "-optimize"]),
            ("progressive", ["-sample", "2x2", "-progressive"]), ("grey", ["-grayscale", "-progressive"]),
        ]
        for (name, options) in pictures {
            try tool(
                "cjpeg",
                ["-quality", "90"] + options + [
                    "-outfile", inputs.appendingPathComponent("\(name).jpg").path, ppm.path,
                ])
        }
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", inputs.path, "-o", out.path, "--text", "Proof © 2026", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        // The baseline one with standard tables spliced (tier 2); the others in tier 1.
        #expect(
            result.stdout.components(separatedBy: "\"path\":\"coefficients\"").count == pictures.count,
            "\(result.stdout)")
        #expect(result.stdout.components(separatedBy: "\"path\":\"spliced\"").count == 2, "\(result.stdout)")
        for (name, _) in pictures {
            let before = try Data(contentsOf: inputs.appendingPathComponent("\(name).jpg")).count
            let after = try Data(contentsOf: out.appendingPathComponent("\(name).jpg")).count
            #expect(Double(after) <= Double(before) * 1.02, "\(name): \(after) bytes from \(before)")
        }
    }

    /// Sharp text at a photo's size (a 1600×1200 picture, the text 48 px tall), 4:2:0 and 4:4:4,
    /// spliced: mean |Δ| ≤ 2 levels inside the mark's box against --reencode pixel by pixel, with
    /// no smoothing (measured 1.5 and 1.6; part of it is jpegenc's default ifast DCT on the
    /// --reencode side: with idct-method=islow there it is 1.2 and 1.3).
    @Test(arguments: ["2x2", "1x1"])
    func sharpTextLooksAsReencodedPixelByPixel(sampling: String) throws {
        let folder = try temporaryFolder("sharp\(sampling)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let ppm = folder.appendingPathComponent("source.ppm")
        try tool("convert", ["-seed", "3", "-size", "1600x1200", "plasma:fractal", ppm.path])
        let input = folder.appendingPathComponent("in/photo.jpg")
        try FileManager.default.createDirectory(
            at: input.deletingLastPathComponent(), withIntermediateDirectories: true)
        try tool("cjpeg", ["-quality", "90", "-sample", sampling, "-outfile", input.path, ppm.path])
        let (stamped, reencoded) = try stamp(input, in: folder, splice: true, path: "spliced")
        let ideal = try pngReference(input).luma()
        let shownSource = try upright(input).luma()
        let markBox = try #require(differingBox(shownSource, ideal, threshold: 48), "no mark on the PNG output")
        let difference = meanDifference(try upright(stamped).luma(), try upright(reencoded).luma(), in: markBox)
        #expect(difference <= 2, "mean |Δ| \(difference) inside the mark \(markBox) against --reencode")
    }

    /// A logo top-left and a text bottom-right: each changes only the blocks under it, and the
    /// middle of the photo between them is bit-identical.
    @Test func marksInOppositeCornersLeaveTheMiddleAlone() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try source(Case(sampling: "2x2", progressive: false, restart: false, orientation: 6), in: folder)
        let out = folder.appendingPathComponent("out")
        let result = try camstamp([
            "batch", input.path, "-o", out.path, "--text", "Proof", "--preset", "logo", "--json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        // Spliced (tier 2): two runs of changed MCUs, the rest copied.
        #expect(result.stdout.contains("\"path\":\"spliced\""), "\(result.stdout)")
        let before = try djpeg(input, smooth: false),
            after = try djpeg(out.appendingPathComponent("photo.jpg"), smooth: false)
        var changed = 0, middle = 0
        for y in 0..<before.height {
            for x in 0..<before.width where before.difference(after, x, y) > 0 {
                changed += 1
                if x > before.width * 3 / 10 && x < before.width * 7 / 10 && y > before.height * 3 / 10
                    && y < before.height * 7 / 10
                {
                    middle += 1
                }
            }
        }
        #expect(changed > 1000 && changed < before.width * before.height / 4, "\(changed) pixels changed")
        #expect(middle == 0, "\(middle) pixels changed in the middle")
    }

    /// Arithmetic-coded JPEGs are re-encoded, with a note saying why.
    @Test func anArithmeticCodedJPEGIsReencodedWithANote() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ppm = folder.appendingPathComponent("source.ppm")
        try tool("convert", ["-size", "160x120", "gradient:red-blue", ppm.path])
        let input = folder.appendingPathComponent("in/a.jpg")
        try FileManager.default.createDirectory(
            at: input.deletingLastPathComponent(), withIntermediateDirectories: true)
        try tool("cjpeg", ["-arithmetic", "-outfile", input.path, ppm.path])
        let result = try camstamp([
            "batch", input.path, "-o", folder.appendingPathComponent("out").path, "--text", "MARK", "--json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"path\":\"reencoded\""), "\(result.stdout)")
        #expect(
            result.stderr.contains("warning: re-encoded, not stamped in its DCT coefficients: arithmetic coding"),
            "\(result.stderr)")
    }

    /// --quality, --max-size and a format change all take the re-encoding path, without a note.
    @Test func qualityMaxSizeAndFormatChangeReencode() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try source(Case(sampling: "2x2", progressive: false, restart: false, orientation: 1), in: folder)
        for (index, extra) in [["--quality", "80"], ["--max-size", "200"], ["--format", "png"]].enumerated() {
            let result = try camstamp(
                [
                    "batch", input.path, "-o", folder.appendingPathComponent("out\(index)").path,
                    "--text", "MARK", "--json",
                ] + extra)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("\"path\":\"reencoded\""), "\(extra): \(result.stdout)")
            #expect(!result.stderr.contains("warning"), "\(result.stderr)")
        }
    }
}
