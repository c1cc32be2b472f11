// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

/// Issue 12 tier 2: a baseline JPEG (one sequential Huffman scan) has its entropy-coded data
/// spliced: only the MCUs under the mark, and the one after each run of them, are Huffman-coded
/// again; the rest is copied, bit-shifted where needed, whole restart intervals byte for byte.
/// The same checks as tier 1 (CoefficientStampTests.checkStamp: bit-exact outside the touched
/// MCUs, the mark as on --reencode, decoders agree, size), plus: the entropy-coded data before
/// the first changed MCU is the input's byte for byte, and the file is tier 1's byte for byte
/// (same tables, same coefficients: the same bits, however they were put together).
@Suite struct EntropySpliceTests {
    struct Case: CustomStringConvertible, Sendable {
        var sampling: String  // cjpeg -sample, or "grey"
        /// cjpeg -restart: "" none, "1" one MCU row an interval, "3B" three MCUs (intervals
        /// that end mid-row).
        var restart: String
        var orientation: Int
        var description: String { "\(sampling)\(restart.isEmpty ? "" : " restart \(restart)") o\(orientation)" }
        var base: CoefficientStampTests.Case {
            CoefficientStampTests.Case(sampling: sampling, progressive: false, restart: false, orientation: orientation)
        }
    }

    /// 4:2:0, 4:2:2, 4:4:4 and grey, each with and without restart markers; orientations 1–8.
    static let cases: [Case] = ["2x2", "2x1", "1x1", "grey"].enumerated().flatMap { index, sampling in
        ["", index % 2 == 0 ? "1" : "3B"].enumerated().map { r, restart in
            let n = index * 2 + r
            return Case(sampling: sampling, restart: restart, orientation: 1 + (n * 3) % 8)
        }
    }

    /// The tier-1 harness's textured picture, with `restart`.
    func source(_ c: Case, in folder: URL) throws -> URL {
        let input = try CoefficientStampTests().source(c.base, in: folder)
        guard !c.restart.isEmpty else { return input }
        // cjpeg again with restart markers, then the same EXIF.
        let ppm = folder.appendingPathComponent("source.ppm")
        var options = ["-quality", "90", "-restart", c.restart]
        options += c.sampling == "grey" ? ["-grayscale"] : ["-sample", c.sampling]
        try tool("cjpeg", options + ["-outfile", input.path, ppm.path])
        try exiftool([
            "-q", "-overwrite_original", "-n", "-Orientation=\(c.orientation)", "-Model=Fixture Cam 1", input.path,
        ])
        return input
    }

    @Test(arguments: cases)
    func onlyTheChangedMCUsAreCodedAgain(c: Case) throws {
        let folder = try temporaryFolder("splice\(c.sampling)\(c.restart)\(c.orientation)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try source(c, in: folder)
        let harness = CoefficientStampTests()
        let (stamped, reencoded) = try harness.stamp(input, in: folder, splice: true, path: "spliced")
        try harness.checkStamp(
            input: input, stamped: stamped, reencoded: reencoded, orientation: c.orientation,
            mcu: c.base.mcu, growth: 0.06)
        try checkPrefix(input: input, stamped: stamped, mcu: c.base.mcu)
        try checkSameAsTier1(input: input, stamped: stamped, in: folder)
    }

    /// The shipped camera photos, as they are: the Nikon's standard tables are spliced; the
    /// Samsung preview's optimised tables (34 of the 162 AC codes, the longest 11 bits) get
    /// the codes they lack added (extend_table: 31 of them fit) and it is spliced too.
    @Test(arguments: [("nikon-coolpix-gps.jpg", "spliced"), ("samsung-preview.jpg", "spliced")])
    func cameraPhotosAreSpliced(name: String, path: String) throws {
        let folder = try temporaryFolder("splicereal\(name)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in/\(name)")
        try FileManager.default.createDirectory(
            at: input.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: makerNoteFixtures.appendingPathComponent(name), to: input)
        let harness = CoefficientStampTests()
        let (stamped, reencoded) = try harness.stamp(input, in: folder, splice: true, path: path)
        let orientation =
            Int(try exiftool(["-s3", "-n", "-Orientation"], input).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 1
        let sampling = try exiftool(["-s3", "-n", "-YCbCrSubSampling"], input)
        let mcu = sampling.hasPrefix("2 2") ? (16, 16) : sampling.hasPrefix("2 1") ? (16, 8) : (8, 8)
        try harness.checkStamp(
            input: input, stamped: stamped, reencoded: reencoded, orientation: orientation, mcu: mcu, growth: 0.02,
            checksLook: !name.hasPrefix("samsung"))
        if path == "spliced" { try checkPrefix(input: input, stamped: stamped, mcu: mcu) }
    }

    /// A photo-sized, grainy picture with a logo top-left and a text bottom-right (two runs of
    /// changed MCUs, long shifted copies between and after them), without and with restart
    /// markers, upright and turned: spliced, the same file as tier 1's, decoded without a warning.
    @Test func aPhotoSizedPictureWithTwoMarksIsTier1sFile() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ppm = folder.appendingPathComponent("source.ppm")
        try tool(
            "convert",
            ["-seed", "3", "-size", "1600x1200", "plasma:fractal", "-attenuate", "0.3", "+noise", "Gaussian", ppm.path])
        let inputs = folder.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        for (name, restart, orientation) in [("plain", [String](), 1), ("restart", ["-restart", "7B"], 6)] {
            let file = inputs.appendingPathComponent("\(name).jpg")
            try tool("cjpeg", ["-quality", "92", "-sample", "2x2"] + restart + ["-outfile", file.path, ppm.path])
            try exiftool(["-q", "-overwrite_original", "-n", "-Orientation=\(orientation)", file.path])
        }
        var outputs: [String: URL] = [:]
        for (name, environment) in [("spliced", [String: String]()), ("coefficients", ["CAMSTAMP_SPLICE": "0"])] {
            let out = folder.appendingPathComponent(name)
            let result = try camstamp(
                ["batch", inputs.path, "-o", out.path, "--text", "Proof © 2026", "--preset", "logo", "--json"],
                environment: environment)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.components(separatedBy: "\"path\":\"\(name)\"").count == 3, "\(result.stdout)")
            outputs[name] = out
        }
        for name in ["plain.jpg", "restart.jpg"] {
            let spliced = try #require(outputs["spliced"]).appendingPathComponent(name)
            let tier1 = try #require(outputs["coefficients"]).appendingPathComponent(name)
            #expect(
                try Data(contentsOf: spliced) == Data(contentsOf: tier1),
                "\(name): the spliced file differs from tier 1's")
            _ = try djpeg(spliced)
            try checkPrefix(input: inputs.appendingPathComponent(name), stamped: spliced, mcu: (16, 16))
        }
    }

    /// A restart marker after the last interval, right before the EOI (written by the cameras of
    /// c2pa-rs's fixtures IMG_0003.jpg and P1000827.jpg; libjpeg takes it): not damage. Spliced
    /// without a warning into tier 1's file, which has no such marker.
    @Test func aRestartMarkerAfterTheLastIntervalIsNotDamage() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in/trailing.jpg")
        try plasmaJPEG(input)
        let ppm = folder.appendingPathComponent("source.ppm")
        try tool("djpeg", ["-pnm", "-outfile", ppm.path, input.path])
        // 640×480 in 4:2:0 MCUs is 30 rows: 30 intervals of one row, RST0…RST4 between them
        // (29 markers), and the 30th marker, RST5, before the EOI.
        try tool("cjpeg", ["-quality", "90", "-sample", "2x2", "-restart", "1", "-outfile", input.path, ppm.path])
        var bytes = try Data(contentsOf: input)
        let markers = (0..<(bytes.count - 1)).filter { bytes[$0] == 0xFF && (0xD0...0xD7).contains(bytes[$0 + 1]) }
        try #require(markers.count == 29 && bytes.suffix(2) == Data([0xFF, 0xD9]))
        bytes.insert(contentsOf: [0xFF, 0xD5], at: bytes.count - 2)
        try bytes.write(to: input)
        _ = try djpeg(input)
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", input.path, "-o", out.path, "--text", "Proof © 2026", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "1 marked, 0 failed, 0 skipped\n", "no warning: \(result.stderr)")
        #expect(result.stdout.contains("\"path\":\"spliced\""), "\(result.stdout)")
        let stamped = out.appendingPathComponent("trailing.jpg")
        try checkSameAsTier1(input: input, stamped: stamped, in: folder)
        try checkPrefix(input: input, stamped: stamped, mcu: (16, 16))
    }

    /// A JPEG stamped in its coefficients (tier 2 or tier 1) needs no GStreamer, and the batch
    /// does not start it: gst_init (its plugin registry) cost every batch's first photo, in both
    /// workers, before any was stamped. Seen through GST_REGISTRY: gst_init writes a registry
    /// where there is none; --reencode, which builds a pipeline, does.
    @Test func aJPEGStampedInItsCoefficientsDoesNotStartGStreamer() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try put(
            try PhotoFixtures.jpeg(width: 320, height: 240, orientation: 6, exif: nil), "in/a.jpg", in: folder)
        for (name, extra, environment, path) in [
            ("spliced", [String](), [String: String](), "spliced"),
            ("coefficients", [], ["CAMSTAMP_SPLICE": "0"], "coefficients"),
            ("reencoded", ["--reencode"], [:], "reencoded"),
        ] {
            let registry = folder.appendingPathComponent("\(name).registry.bin")
            let result = try camstamp(
                [
                    "batch", input.path, "-o", folder.appendingPathComponent(name).path, "--text", "Proof",
                    "--preset", "logo", "--json",
                ] + extra,
                environment: environment.merging(["GST_REGISTRY": registry.path]) { $1 })
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("\"path\":\"\(path)\""), "\(result.stdout)")
            #expect(FileManager.default.fileExists(atPath: registry.path) == (name == "reencoded"), "\(name)")
        }
    }

    /// Optimal Huffman tables (cjpeg -optimize) lack codes the changed blocks need, and their
    /// longest codes leave room for a few new ones at most: on a picture whose AC tables lack the
    /// large values a mark's edges need right after another value, the blocks that need them are
    /// coded as the nearest ones the tables can say, and the photo is spliced (the same checks as
    /// tier 1's against --reencode; NearestCodableBlockTests measures the marks' fidelity).
    @Test func tablesWithoutACodeTheMarkNeedsAreSplicedAsNearAsTheyCanSay() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let c = CoefficientStampTests.Case(
            sampling: "2x2", progressive: false, restart: false, orientation: 1, optimised: true)
        let input = try CoefficientStampTests().source(c, in: folder)
        let harness = CoefficientStampTests()
        let (stamped, reencoded) = try harness.stamp(input, in: folder, splice: true, path: "spliced")
        try harness.checkStamp(
            input: input, stamped: stamped, reencoded: reencoded, orientation: 1, mcu: c.mcu, growth: 0.06)
    }

    /// The Samsung preview's optimised tables lack symbols (DC sizes, most AC run/sizes) but their
    /// longest codes are short of 16 bits: the missing symbols go under the free all-ones prefix
    /// (T.81 C.2: canonical codes, so every old code stays as it was), the DHT is rewritten, and
    /// the photo is spliced: each output table starts with the input's symbols at the input's
    /// code lengths and holds more; the scan before the first changed MCU is the input's; djpeg,
    /// ffmpeg, Pillow and jpegdec decode it without a word (cameraPhotosAreSpliced checks the rest).
    @Test func tablesWithRoomGetTheMissingCodesAddedAndAreSpliced() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in/samsung-preview.jpg")
        try FileManager.default.createDirectory(
            at: input.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: makerNoteFixtures.appendingPathComponent("samsung-preview.jpg"), to: input)
        let harness = CoefficientStampTests()
        let (stamped, reencoded) = try harness.stamp(input, in: folder, splice: true, path: "spliced")
        // Orientation 1, 4:2:2 (MCUs of 16×8).
        try harness.checkStamp(
            input: input, stamped: stamped, reencoded: reencoded, orientation: 1, mcu: (16, 8), growth: 0.06,
            checksLook: false)
        try checkPrefix(input: input, stamped: stamped, mcu: (16, 8))
        let before = try huffmanTables(input), after = try huffmanTables(stamped)
        #expect(before.count == after.count && !before.isEmpty)
        var grew = false
        for (old, new) in zip(before, after) {
            // Same class and slot, the old symbols first in the same order, and every old length's
            // count kept below the old longest length (where the new codes start).
            #expect(
                old.slot == new.slot && Array(new.symbols.prefix(old.symbols.count)) == old.symbols, "\(old) -> \(new)")
            let longest = (old.bits.lastIndex { $0 > 0 } ?? 0)
            #expect(old.bits[..<longest] == new.bits[..<longest], "\(old.bits) -> \(new.bits)")
            grew = grew || new.symbols.count > old.symbols.count
        }
        #expect(grew, "no table was extended")
    }

    /// A photo-sized grainy picture with hard shapes, as ImageMagick writes it (optimal tables whose
    /// codes reach 16 bits, so none can be added, lacking most AC run/sizes): spliced all the same,
    /// the blocks that need a missing code coded as the nearest the tables can say (so a few pixels
    /// differ from tier 1's file, by a level or so: this fixture needs it); the scan before the first changed MCU
    /// is the input's; djpeg (which fails on a warning) and ffmpeg decode it alike.
    @Test func optimisedTablesWithoutRoomAreSplicedAroundTheMissingCodes() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in/shapes.jpg")
        try FileManager.default.createDirectory(
            at: input.deletingLastPathComponent(), withIntermediateDirectories: true)
        try tool(
            "convert",
            [
                "-seed", "5", "-size", "1600x1200", "plasma:fractal", "-attenuate", "0.6", "+noise", "Gaussian",
                "-fill", "white", "-draw", "rectangle 200,200 600,500", "-fill", "black", "-draw",
                "circle 1000,600 1150,700",
                "-fill", "yellow", "-draw", "rectangle 300,800 700,1000", "-fill", "blue", "-draw",
                "circle 1300,300 1400,350",
                "-sampling-factor", "2x2", "-quality", "90", input.path,
            ])
        let tables = try huffmanTables(input)
        #expect(
            tables.contains { $0.slot >> 4 == 1 && $0.bits[15] > 0 && $0.symbols.count < 162 },
            "not the case tested: \(tables.map(\.bits))")
        var outputs: [String: URL] = [:]
        for (name, environment) in [("spliced", [String: String]()), ("coefficients", ["CAMSTAMP_SPLICE": "0"])] {
            let out = folder.appendingPathComponent(name)
            let result = try camstamp(
                ["batch", input.path, "-o", out.path, "--text", "Proof © 2026", "--preset", "logo", "--json"],
                environment: environment)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("\"path\":\"\(name)\""), "\(result.stdout)")
            outputs[name] = out.appendingPathComponent("shapes.jpg")
        }
        let spliced = try #require(outputs["spliced"]), tier1 = try #require(outputs["coefficients"])
        try checkPrefix(input: input, stamped: spliced, mcu: (16, 16))
        let grey = try Raster(pnm: tool("djpeg", ["-grayscale", "-pnm", spliced.path]))
        let ffmpeg = try tool(
            "ffmpeg",
            ["-v", "error", "-nostdin", "-noautorotate", "-i", spliced.path, "-f", "rawvideo", "-pix_fmt", "gray", "-"])
        #expect(ffmpeg.count == grey.pixels.count)
        if ffmpeg.count == grey.pixels.count {
            let total = zip(ffmpeg, grey.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
            #expect(Double(total) / Double(ffmpeg.count) < 1, "ffmpeg and djpeg disagree")
        }
        let a = try djpeg(spliced, smooth: false), b = try djpeg(tier1, smooth: false)
        var differing = 0, total = 0
        for i in 0..<a.pixels.count where a.pixels[i] != b.pixels[i] {
            differing += 1
            total += abs(Int(a.pixels[i]) - Int(b.pixels[i]))
        }
        #expect(differing > 0, "no code was worked around: not the case tested")
        #expect(
            differing < a.pixels.count / 500 && Double(total) <= 2 * Double(max(1, differing)),
            "\(differing) samples differ from tier 1's, by \(total) in all")
    }

    /// Each Huffman table of a JPEG's header, in file order: class and slot byte, code counts by
    /// length (1…16) and symbols.
    func huffmanTables(_ file: URL) throws -> [(slot: UInt8, bits: [Int], symbols: [UInt8])] {
        let bytes = [UInt8](try Data(contentsOf: file))
        var tables: [(slot: UInt8, bits: [Int], symbols: [UInt8])] = []
        var p = 2
        while p + 4 <= bytes.count, bytes[p] == 0xFF, bytes[p + 1] != 0xDA {
            let length = Int(bytes[p + 2]) << 8 | Int(bytes[p + 3])
            if bytes[p + 1] == 0xC4 {
                var q = p + 4
                while q + 17 <= p + 2 + length {
                    let bits = bytes[(q + 1)...(q + 16)].map(Int.init), count = bits.reduce(0, +)
                    tables.append((bytes[q], bits, Array(bytes[(q + 17)..<(q + 17 + count)])))
                    q += 17 + count
                }
            }
            p += 2 + length
        }
        return tables
    }

    /// The entropy-coded segment of a JPEG: its offset (after the SOS header) and bytes up to the
    /// EOI.
    func scanData(_ data: Data) throws -> (offset: Int, bytes: [UInt8]) {
        struct NoScan: Error {}
        let bytes = [UInt8](data)
        var p = 2
        while p + 4 <= bytes.count, bytes[p] == 0xFF {
            let marker = bytes[p + 1]
            let length = Int(bytes[p + 2]) << 8 | Int(bytes[p + 3])
            p += 2 + length
            if marker == 0xDA { return (p, Array(bytes[p..<(bytes.count - 2)])) }
        }
        throw NoScan()
    }

    /// The entropy-coded data before the first changed MCU is the input's, byte for byte: the
    /// input cut one byte after the output's scan starts to differ (the byte where the first
    /// changed MCU starts, which it shares with the end of the MCU before) still decodes every
    /// MCU before the first changed one exactly as the whole input does; an earlier difference
    /// would cut into them.
    func checkPrefix(input: URL, stamped: URL, mcu: (width: Int, height: Int)) throws {
        let source = try Data(contentsOf: input), output = try Data(contentsOf: stamped)
        let a = try scanData(source), b = try scanData(output)
        var common = 0
        while common < min(a.bytes.count, b.bytes.count), a.bytes[common] == b.bytes[common] { common += 1 }
        let before = try djpeg(input, smooth: false), after = try djpeg(stamped, smooth: false)
        let columns = (before.width + mcu.width - 1) / mcu.width, rows = (before.height + mcu.height - 1) / mcu.height
        func pixels(_ r: Raster, _ index: Int) -> [UInt8] {
            let x0 = index % columns * mcu.width, y0 = index / columns * mcu.height
            var out: [UInt8] = []
            for y in y0..<min(r.height, y0 + mcu.height) {
                let start = (y * r.width + x0) * r.channels,
                    end = (y * r.width + min(r.width, x0 + mcu.width)) * r.channels
                out += r.pixels[start..<end]
            }
            return out
        }
        let first = try #require(
            (0..<columns * rows).first { pixels(before, $0) != pixels(after, $0) }, "no MCU changed")
        // The input cut after `common` bytes of its scan, as a decoder sees a file cut short.
        let cut = folder(of: stamped).appendingPathComponent("cut.jpg")
        var kept = source.prefix(a.offset + min(common + 1, a.bytes.count))
        // Not a lone 0xFF, which would read as a marker.
        if kept.last == 0xFF { kept.append(0x00) }
        try (kept + Data([0xFF, 0xD9])).write(to: cut)
        let decoded = try Raster(pnm: tool("sh", ["-c", "djpeg -nosmooth -pnm \"$0\" 2>/dev/null; exit 0", cut.path]))
        let lost = (0..<first).filter { pixels(before, $0) != pixels(decoded, $0) }
        #expect(
            lost.isEmpty,
            "MCUs \(lost.prefix(5)) before the first changed one (\(first)) differ in the input cut at the output's first different scan byte (\(common) of \(a.bytes.count))"
        )
    }

    func folder(of file: URL) -> URL { file.deletingLastPathComponent() }

    /// Tier 1 writes the same coefficients with the same (complete) tables: the same file.
    func checkSameAsTier1(input: URL, stamped: URL, in folder: URL) throws {
        let out = folder.appendingPathComponent("tier1")
        let result = try camstamp(
            ["batch", input.path, "-o", out.path, "--text", "Proof © 2026", "--json"],
            environment: ["CAMSTAMP_SPLICE": "0"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"path\":\"coefficients\""), "\(result.stdout)")
        let tier1 = try Data(contentsOf: out.appendingPathComponent(input.lastPathComponent))
        #expect(try Data(contentsOf: stamped) == tier1, "the spliced file differs from tier 1's")
    }
}
