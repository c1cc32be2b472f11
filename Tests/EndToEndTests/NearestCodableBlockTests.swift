// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

/// Issue 26 §1: a baseline JPEG whose optimal Huffman tables lack codes the marked blocks need,
/// with no room to add them (their codes reach 16 bits), is spliced all the same: each block the
/// tables cannot say is coded as the nearest block they can (splice_nearest.c), and the marks stay
/// within 35 dB of the unconstrained coding (tier 1's, which rebuilds the tables) over the changed
/// MCUs. Tables that cannot say the marks that closely (a noisy picture's, with no value beyond 31)
/// go to tier 1.
@Suite struct NearestCodableBlockTests {
    /// White text on an opaque black box: the watermark style whose edges need the largest values.
    static let solidBox = """
        {"name": "solidbox", "description": "white text on an opaque box",
         "marks": [{"text": "© 2026 Example Studio · 2026-12-01 19:00", "size": "3%", "color": "#FFFFFF",
           "outline": false, "box": {"color": "#000000FF", "padding": "1%"}, "anchor": "bottom-right",
           "margin": "3%"}]}
        """

    /// A 1920×1080 picture like the bench's (soft plasma, grain, a translucent disc, a big outlined
    /// label), or grain alone, written by cjpeg -optimize at quality 90.
    func photo(seed: Int, grainOnly: Bool, in folder: URL) throws -> URL {
        let ppm = folder.appendingPathComponent("source.ppm"), input = folder.appendingPathComponent("in/photo.jpg")
        try FileManager.default.createDirectory(
            at: input.deletingLastPathComponent(), withIntermediateDirectories: true)
        var draw = ["-seed", "\(seed)", "-size", "480x270", "plasma:fractal"]
        draw +=
            grainOnly
            ? ["-resize", "1920x1080!", "-attenuate", "0.5", "+noise", "Gaussian"]
            : [
                "-blur", "0x1", "-resize", "1920x1080!", "-attenuate", "0.6", "+noise", "Gaussian",
                "-fill", "rgba(20,40,90,0.55)", "-draw", "circle 900,500 900,700", "-font", "DejaVu-Sans-Bold",
                "-pointsize", "135", "-fill", "white", "-stroke", "black", "-strokewidth", "3", "-gravity", "north",
                "-annotate", "+0+54", "TOP 2",
            ]
        try tool("convert", draw + [ppm.path])
        try tool("cjpeg", ["-quality", "90", "-optimize", "-outfile", input.path, ppm.path])
        return input
    }

    /// The photo marked by `marks` into `folder/name`, with the path --json says it took.
    func mark(_ input: URL, _ marks: [String], _ name: String, splice: Bool) throws -> (URL, String) {
        let out = input.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(name)
        let result = try camstamp(
            ["batch", input.path, "-o", out.path, "--json"] + marks,
            environment: splice ? [:] : ["CAMSTAMP_SPLICE": "0"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("warning"), "\(result.stderr)")
        let path = result.stdout.firstMatch(of: /"path":"([a-z]+)"/).map { String($0.1) } ?? "none"
        return (out.appendingPathComponent(input.lastPathComponent), path)
    }

    /// The PSNR of `a` against `b` over the 16×16 MCUs where `b` differs from `input`, and how many
    /// samples of `a` outside them differ from `input` (decoded by djpeg without fancy upsampling,
    /// so a change stays within its MCU).
    func fidelity(input: URL, a: URL, b: URL) throws -> (psnr: Double, outside: Int) {
        let original = try djpeg(input, smooth: false), x = try djpeg(a, smooth: false), y = try djpeg(b, smooth: false)
        let width = original.width, mcusX = (width + 15) / 16, mcusY = (original.height + 15) / 16
        var changed = [Bool](repeating: false, count: mcusX * mcusY)
        for i in 0..<original.pixels.count where original.pixels[i] != y.pixels[i] {
            let pixel = i / 3
            changed[(pixel / width) / 16 * mcusX + (pixel % width) / 16] = true
        }
        var error = 0.0, samples = 0, outside = 0
        for i in 0..<original.pixels.count {
            let pixel = i / 3
            if changed[(pixel / width) / 16 * mcusX + (pixel % width) / 16] {
                let d = Double(x.pixels[i]) - Double(y.pixels[i])
                error += d * d
                samples += 1
            } else if x.pixels[i] != original.pixels[i] {
                outside += 1
            }
        }
        let psnr = error == 0 ? Double.infinity : 10 * log10(255 * 255 * Double(samples) / error)
        return (psnr, outside)
    }

    /// The picture's luma AC table has codes of 16 bits (no room for a new one) and lacks symbols.
    func checkNoRoom(_ input: URL) throws {
        let tables = try EntropySpliceTests().huffmanTables(input)
        #expect(
            tables.contains { $0.slot == 0x10 && $0.bits[15] > 0 && $0.symbols.count < 162 },
            "not the case tested: \(tables.map(\.bits))")
    }

    /// A logo with a text, and a solid box, on a picture whose tables lack the values the marks'
    /// edges need after some runs of zeros (tier 1 took it before): spliced, within 35 dB of tier 1's
    /// file over the changed MCUs, every other sample the input's.
    @Test(arguments: [["--text", "Proof © 2026", "--preset", "logo"], ["--preset", "SOLIDBOX"]])
    func tablesWithoutRoomAreSplicedWithinTheBound(marks: [String]) throws {
        let folder = try temporaryFolder("nearest\(marks.count)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try photo(seed: 15867, grainOnly: false, in: folder)
        try checkNoRoom(input)
        let preset = folder.appendingPathComponent("solidbox.json")
        try Self.solidBox.write(to: preset, atomically: true, encoding: .utf8)
        let arguments = marks.map { $0 == "SOLIDBOX" ? preset.path : $0 }
        let (spliced, path) = try mark(input, arguments, "spliced", splice: true)
        let (tier1, tier1Path) = try mark(input, arguments, "tier1", splice: false)
        #expect(path == "spliced" && tier1Path == "coefficients")
        let (psnr, outside) = try fidelity(input: input, a: spliced, b: tier1)
        #expect(psnr >= 35, "the marks are \(psnr) dB from tier 1's")
        #expect(outside == 0, "\(outside) samples outside the changed MCUs differ from the input's")
    }

    /// Grain alone: its optimal tables hold no value beyond 31, and white text on a black box
    /// cannot be said within 35 dB (about 21 dB): tier 1 writes it, and the marks are as drawn.
    @Test func tablesThatCannotSayTheMarksGoToTier1() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try photo(seed: 1, grainOnly: true, in: folder)
        try checkNoRoom(input)
        let preset = folder.appendingPathComponent("solidbox.json")
        try Self.solidBox.write(to: preset, atomically: true, encoding: .utf8)
        let (_, path) = try mark(input, ["--preset", preset.path], "out", splice: true)
        #expect(path == "coefficients")
    }
}
