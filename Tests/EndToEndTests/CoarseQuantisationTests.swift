// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import TestSupport
import Testing

/// A JPEG quantised so coarsely that the marks' change rounds away in every block, stamped in its
/// coefficients, came out byte for byte as it went in, with "1 marked" and no word: the mark was
/// missing. It is re-encoded instead, with a note, and the mark is there.
@Suite struct CoarseQuantisationTests {
    @Test func aMarkThatRoundsAwayInTheCoefficientsIsReEncoded() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ppm = folder.appendingPathComponent("plasma.ppm")
        try tool("convert", ["-seed", "3", "-size", "333x251", "plasma:fractal", ppm.path])
        let input = folder.appendingPathComponent("in/coarse.jpg")
        try FileManager.default.createDirectory(
            at: input.deletingLastPathComponent(), withIntermediateDirectories: true)
        try tool("cjpeg", ["-quality", "1", "-outfile", input.path, ppm.path])
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", input.path, "-o", out.path, "--preset", "proof", "--json"])
        #expect(result.status == 0 && result.stdout.contains(#""status":"marked""#), "\(result.stderr)")
        #expect(result.stdout.contains(#""path":"reencoded""#), "\(result.stdout)")
        #expect(result.stdout.contains("the marks changed no block"), "\(result.stdout)")
        let output = out.appendingPathComponent("coarse.jpg")
        #expect(try Data(contentsOf: output) != (try Data(contentsOf: input)), "the photo came out as it went in")
        let before = try lumaPlane(decodeImage(input)), after = try lumaPlane(decodeImage(output))
        let changed = zip(before, after).reduce(0) { sum, rows in
            sum + zip(rows.0, rows.1).filter { abs(Int($0) - Int($1)) > 24 }.count
        }
        #expect(changed > 333 * 251 / 100, "only \(changed) pixels differ")
    }
}
