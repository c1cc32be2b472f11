// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

/// What a marked clip cannot carry is said, one note each on the clip's warning line, as an extra
/// sound track is: the adversarial pass found subtitles, attached files, a VP9 alpha channel and
/// a 45° display matrix dropped without a word.
@Suite struct ClipLeftOutTests {
    /// The one line of warnings batch gives `clip`, and the marked file.
    func marked(_ clip: URL, in folder: URL) throws -> (warning: String, output: URL) {
        let output = folder.appendingPathComponent("out-" + clip.deletingPathExtension().lastPathComponent)
        let result = try camstamp(["batch", clip.path, "-o", output.path, "--text", "M"])
        #expect(result.status == 0, "\(clip.lastPathComponent): \(result.stderr)")
        let lines = result.stderr.split(separator: "\n").filter { $0.contains("warning:") }
        #expect(lines.count <= 1, "\(lines)")
        let files = (try? FileManager.default.contentsOfDirectory(at: output, includingPropertiesForKeys: nil)) ?? []
        #expect(files.count == 1, "\(clip.lastPathComponent): \(files)")
        return (lines.first.map(String.init) ?? "", files.first ?? output)
    }

    @Test func subtitlesAndAttachmentsOfAnMKVAreSaidToBeLeftOut() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plain = folder.appendingPathComponent("plain.mp4"), clip = folder.appendingPathComponent("subs.mkv")
        try Clips.mp4(plain, frames: 30)
        let subtitles = try put(
            Data("1\n00:00:00,000 --> 00:00:00,900\nHello\n\n2\n00:00:00,900 --> 00:00:01,000\nBye\n".utf8), "s.srt",
            in: folder)
        let attached = try put(Data("notes attached to the clip\n".utf8), "notes.txt", in: folder)
        _ = try tool(
            "ffmpeg",
            [
                "-v", "error", "-y", "-i", plain.path, "-i", subtitles.path, "-i", subtitles.path,
                "-attach", attached.path, "-metadata:s:t", "mimetype=text/plain",
                "-map", "0", "-map", "1", "-map", "2", "-c", "copy", "-c:s", "srt", clip.path,
            ])
        let (warning, output) = try marked(clip, in: folder)
        #expect(
            warning
                == "camstamp: \(clip.path): warning: its 2 subtitle tracks are left out; its 1 attached file is left out (fonts and such)"
        )
        #expect(try Clips.streams(output).map(\.codec) == ["h264", "aac"])
    }

    @Test func aVP9AlphaChannelIsSaidToBeLeftOut() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = folder.appendingPathComponent("alpha.webm"), opaque = folder.appendingPathComponent("opaque.webm")
        for (url, format) in [(clip, "yuva420p"), (opaque, "yuv420p")] {
            _ = try tool(
                "ffmpeg",
                [
                    "-v", "error", "-y", "-f", "lavfi", "-i",
                    "testsrc2=size=320x240:rate=30:duration=1,format=\(format)",
                    "-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", url.path,
                ])
        }
        #expect(
            try marked(clip, in: folder).warning
                == "camstamp: \(clip.path): warning: its transparency (alpha channel) is left out: the marked video is opaque"
        )
        #expect(try marked(opaque, in: folder).warning == "")
    }

    /// A 45° tkhd matrix (ffprobe: rotation -45, counter-clockwise): qtdemux tags only quarter
    /// turns, so it is not applied, and that is said; a quarter turn is applied and not said.
    @Test func aTurnThatIsNoQuarterTurnIsSaidNotToBeApplied() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plain = folder.appendingPathComponent("plain.mp4")
        try Clips.mp4(plain, frames: 30)
        func turned(_ degrees: Double) throws -> URL {
            var bytes = [UInt8](try Data(contentsOf: plain))
            let tkhd = try #require((0..<(bytes.count - 4)).first { bytes[$0..<($0 + 4)] == ArraySlice("tkhd".utf8) })
            #expect(bytes[tkhd + 4] == 0, "a version 0 tkhd")
            func fixed(_ value: Double) -> [UInt8] {
                withUnsafeBytes(of: Int32((value * 65536).rounded()).bigEndian) { Array($0) }
            }
            let angle = degrees * .pi / 180
            let matrix =
                fixed(cos(angle)) + fixed(sin(angle)) + [0, 0, 0, 0] + fixed(-sin(angle)) + fixed(cos(angle)) + [
                    0, 0, 0, 0,
                ]
                + [UInt8](repeating: 0, count: 8) + [0x40, 0, 0, 0]
            bytes.replaceSubrange((tkhd + 4 + 40)..<(tkhd + 4 + 76), with: matrix)
            let url = folder.appendingPathComponent("turned\(Int(degrees)).mp4")
            try Data(bytes).write(to: url)
            return url
        }
        let tilted = try turned(45)
        #expect(
            try marked(tilted, in: folder).warning
                == "camstamp: \(tilted.path): warning: its 45° turn (clockwise, from its track's matrix) is not applied: only quarter turns are"
        )
        let quarter = try turned(90)
        let (warning, output) = try marked(quarter, in: folder)
        #expect(warning == "")
        #expect(try Clips.streams(output).first.map { [$0.width, $0.height] } == [240, 320])
    }
}
