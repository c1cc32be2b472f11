// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import TestSupport
import Testing

/// An animated PNG (APNG) lost its animation without a word: written as a still of its first
/// frame. It still is (libpng reads the first frame), and the warning says so, as a TIFF's does.
@Suite struct AnimatedPNGTests {
    /// A 64×48 APNG of `frames` frames (acTL, then an fcTL before IDAT and fcTL + fdAT for each
    /// other frame), grey then white, built with Python's zlib.
    static let script = """
        import struct, sys, zlib
        path, frames = sys.argv[1], int(sys.argv[2])
        def chunk(kind, body):
            return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        def pixels(value):
            return zlib.compress(b"".join(b"\\0" + bytes([value]) * 64 * 3 for _ in range(48)))
        def fctl(seq):
            return chunk(b"fcTL", struct.pack(">IIIIIHHBB", seq, 64, 48, 0, 0, 1, 10, 0, 0))
        png = b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 64, 48, 8, 2, 0, 0, 0))
        png += chunk(b"acTL", struct.pack(">II", frames, 0)) + fctl(0) + chunk(b"IDAT", pixels(128))
        seq = 1
        for _ in range(frames - 1):
            png += fctl(seq) + chunk(b"fdAT", struct.pack(">I", seq + 1) + pixels(255))
            seq += 2
        open(path, "wb").write(png + chunk(b"IEND", b""))
        """

    @Test func anAnimatedPNGIsMarkedOnItsFirstFrameWithAWarning() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in/anim.png")
        try FileManager.default.createDirectory(
            at: input.deletingLastPathComponent(), withIntermediateDirectories: true)
        try tool("python3", ["-c", Self.script, input.path, "3"])
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", input.path, "-o", out.path, "--text", "MARK"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "anim.png: warning: frame 1 of the 3 of an animated PNG marked; the others are not in the output"),
            "\(result.stderr)")
        let luma = try lumaPlane(decodeImage(out.appendingPathComponent("anim.png")))
        // Mid-grey, not the white of the frames after it (luma is read through a video-range decode).
        #expect(luma.count == 48 && abs(Int(luma[0][0]) - 128) < 8, "not the first frame: \(luma[0].prefix(4))")
    }
}
