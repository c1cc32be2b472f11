// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import TestSupport
import Testing

/// A worker keeps one WebP pipeline per setting and reuses it photo after photo, whatever
/// decoded the photos before.
@Suite struct WebPPipelineTests {
    /// A 16-bit PNG with alpha (decoded by Cairo: BGRA) then a 4:2:0 JPEG turned by its EXIF
    /// (decoded upright by libjpeg-turbo: I420) met the same raw-input pipeline: webpenc, set up for the
    /// first format, failed on the second ("GstAppSrc:encoded: Internal data stream error"), in
    /// one worker every time. Now each format has a pipeline of its own.
    @Test func photosDecodedToDifferentFormatsShareAWorker() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        let png = input.appendingPathComponent("a-wide.png"), jpeg = input.appendingPathComponent("b-turned.jpg")
        try tool(
            "convert",
            [
                "-seed", "5", "-size", "96x64", "plasma:fractal", "-alpha", "set", "-channel", "A",
                "-evaluate", "set", "60%", "+channel", "-depth", "16", png.path,
            ])
        try tool("convert", ["-seed", "6", "-size", "96x64", "plasma:fractal", "-sampling-factor", "2x2", jpeg.path])
        try tool("exiftool", ["-q", "-overwrite_original", "-n", "-Orientation=6", jpeg.path])
        let out = folder.appendingPathComponent("out")
        let result = try camstamp([
            "batch", png.path, jpeg.path, "-o", out.path, "--text", "Proof", "--format", "webp", "--jobs", "1",
        ])
        #expect(result.status == 0 && result.stderr == "2 marked, 0 failed, 0 skipped\n", "\(result.stderr)")
        let sizes = try tool(
            "identify",
            [
                "-format", "%wx%h %A\n", out.appendingPathComponent("a-wide.webp").path,
                out.appendingPathComponent("b-turned.webp").path,
            ])
        #expect(String(decoding: sizes, as: UTF8.self) == "96x64 True\n64x96 False\n")
    }
}
