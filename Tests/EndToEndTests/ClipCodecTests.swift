// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

/// The codecs a marked clip is written with: x264 as ffmpeg runs it, VP9 and HEVC on request.
extension ClipBatchTests {
    /// The settings x264 ran with, as it writes them into the stream (an SEI): `cabac=1 ref=3 …`.
    static func x264Settings(_ url: URL) throws -> String {
        let bytes = try Data(contentsOf: url)
        let start = try #require(bytes.range(of: Data("x264 - core".utf8)), "\(url.lastPathComponent): no x264 SEI")
        let text = String(decoding: bytes[start.lowerBound...].prefix { $0 != 0 && $0 != 0x80 }, as: UTF8.self)
        return try #require(text.components(separatedBy: "options: ").last)
    }

    /// A clip is encoded as `ffmpeg -c:v libx264` encodes it by default: the settings x264 reports
    /// are the same string (preset medium, CRF 23, no VBV cap, keyframes 250 apart, x264's threads),
    /// so the bench's race against ffmpeg runs the same encoder work on both sides.
    @Test func aClipIsEncodedWithLibx264sDefaultsAsFFmpegEncodesIt() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in/clip.mp4")
        try FileManager.default.createDirectory(
            at: input.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Clips.mp4(input, frames: 30)
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", input.path, "-o", out.path, "--text", "MARK"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let reference = folder.appendingPathComponent("ffmpeg.mp4")
        try tool(
            "ffmpeg",
            [
                "-v", "error", "-y", "-i", input.path, "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "copy",
                reference.path,
            ])
        let ours = try Self.x264Settings(out.appendingPathComponent("clip.mp4"))
        let theirs = try Self.x264Settings(reference)
        #expect(theirs.contains("rc=crf") && theirs.contains("crf=23.0") && theirs.contains("subme=7"), "\(theirs)")
        #expect(ours == theirs, "camstamp: \(ours)\nffmpeg:   \(theirs)")
    }

    /// WebM (VP9 + Opus) becomes MKV with H.264 by default, the Opus copied; with
    /// --video-codec keep it stays VP9 WebM. The mark sits bottom-right.
    @Test func webmClipsKeepTheirOpusAndTheirCodecOnRequest() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in/screen.webm")
        try FileManager.default.createDirectory(
            at: input.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Clips.webm(input)
        let h264 = try camstamp([
            "batch", input.path, "-o", folder.appendingPathComponent("h264").path, "--text", "{frame}",
        ])
        #expect(h264.status == 0, "stderr: \(h264.stderr)")
        let mkv = folder.appendingPathComponent("h264/screen.mkv")
        #expect(try Clips.streams(mkv).map(\.codec) == ["h264", "opus"])
        #expect(try Clips.streams(mkv).first?.pixelFormat == "yuv420p")
        #expect(try Clips.audioMD5(mkv) == Clips.audioMD5(input))
        #expect(try Clips.frameCount(mkv) == 60)
        let luma = try Clips.luma(mkv, at: 1, width: 320, height: 240)
        if let bounds = changedBounds(luma, background: luma[0][0], tolerance: 24) {
            #expect(bounds.minX > 160 && bounds.minY > 180, "mark at (\(bounds.minX),\(bounds.minY))")
        } else {
            Issue.record("no mark in the decoded frame")
        }

        let kept = try camstamp([
            "batch", input.path, "-o", folder.appendingPathComponent("keep").path, "--text", "{frame}",
            "--video-codec", "keep",
        ])
        #expect(kept.status == 0, "stderr: \(kept.stderr)")
        let webm = folder.appendingPathComponent("keep/screen.webm")
        #expect(try Clips.streams(webm).map(\.codec) == ["vp9", "opus"])
        #expect(try Clips.audioMD5(webm) == Clips.audioMD5(input))
    }

    /// --video-codec hevc writes HEVC (x265) in the MP4, audio still copied.
    @Test func hevcOnRequest() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("clip.mp4")
        try Clips.mp4(input, frames: 30)
        let result = try camstamp([
            "batch", input.path, "-o", folder.appendingPathComponent("out").path, "--text", "x",
            "--video-codec", "hevc",
        ])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let output = folder.appendingPathComponent("out/clip.mp4")
        #expect(try Clips.streams(output).map(\.codec) == ["hevc", "aac"])
        #expect(try Clips.audioMD5(output) == Clips.audioMD5(input))
    }
}
