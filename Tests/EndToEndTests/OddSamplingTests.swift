// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import TestSupport
import Testing

/// JPEGs whose Cb and Cr are sampled differently (cjpeg -sample 2x2,1x1,2x2): stamped in their
/// coefficients they come out right, but the decoders gave wrong colours without a word
/// (jpegdec) or called the file damaged (TurboJPEG). Decoding them is refused in one line.
@Suite struct OddSamplingTests {
    func jpeg(_ sample: String, in folder: URL) throws -> URL {
        let ppm = folder.appendingPathComponent("plasma.ppm")
        try tool("convert", ["-seed", "3", "-size", "333x251", "plasma:fractal", ppm.path])
        let input = folder.appendingPathComponent("in/\(sample.replacingOccurrences(of: ",", with: "_")).jpg")
        try FileManager.default.createDirectory(
            at: input.deletingLastPathComponent(), withIntermediateDirectories: true)
        try tool("cjpeg", ["-sample", sample, "-outfile", input.path, ppm.path])
        return input
    }

    @Test(arguments: ["2x2,1x1,2x2", "2x1,1x2,1x1"])
    func cbAndCrSampledDifferentlyAreStampedButNotDecoded(sample: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try jpeg(sample, in: folder)
        let out = folder.appendingPathComponent("out")
        let kept = try camstamp(["batch", input.path, "-o", out.path, "--text", "Proof", "--json"])
        #expect(kept.status == 0 && kept.stdout.contains(#""status":"marked""#), "\(kept.stderr)")
        let png = try camstamp(["batch", input.path, "-o", out.path, "--text", "Proof", "--format", "png"])
        #expect(png.status == 1, "\(png.stderr)")
        #expect(
            png.stderr.contains("cannot decode this JPEG: its Cb and Cr are sampled differently (\(sample))"),
            "\(png.stderr)")
        #expect(
            !FileManager.default.fileExists(
                atPath: out.appendingPathComponent(input.deletingPathExtension().lastPathComponent + ".png").path))
    }

    @Test func chromaFinerThanLumaIsNamedSo() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try jpeg("1x1,2x2,2x2", in: folder)
        let result = try camstamp(["batch", input.path, "-o", folder.appendingPathComponent("out").path, "--text", "P"])
        #expect(result.stderr.contains("chroma sampled more finely than luma (1x1,2x2,2x2)"), "\(result.stderr)")
    }
}
