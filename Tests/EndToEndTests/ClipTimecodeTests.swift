// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

/// `{timecode}` on a clip starts at the clip's own timecode (a MOV/MP4 `tmcd` track, a Matroska
/// `TIMECODE` tag), drop-frame when it says so. The label is read off the marked frames by
/// comparing them with the same flat clip marked with the label as literal text: one frame's
/// label against another differs in hundreds of pixels, the same label in next to none.
@Suite(.serialized) struct ClipTimecodeTests {
    /// A flat grey clip of `frames` frames at `rate` (320x240, x264), with ffmpeg's `-timecode`
    /// when `timecode` is given; the container by `url`'s extension.
    static func flatClip(_ url: URL, rate: String, frames: Int = 40, timecode: String? = nil) throws {
        try tool(
            "ffmpeg",
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=0x404040:s=320x240:r=\(rate)", "-frames:v",
                String(frames),
            ]
                + (timecode.map { ["-timecode", $0] } ?? []) + ["-c:v", "libx264", "-pix_fmt", "yuv420p", url.path])
    }

    /// A preset of `text` in big white letters in the middle, no outline.
    static func preset(_ text: String, in folder: URL) throws -> URL {
        let preset = folder.appendingPathComponent("\(UUID().uuidString).json")
        try
            ##"{"name": "tc", "marks": [{"text": "\##(text)", "size": "11%", "color": "#FFFFFF", "outline": false, "anchor": "center"}]}"##
            .write(to: preset, atomically: true, encoding: .utf8)
        return preset
    }

    /// The luma of frame `index` (from 0) of `url`'s video, 320x240.
    static func frame(_ url: URL, _ index: Int) throws -> [UInt8] {
        let data = try tool(
            "ffmpeg",
            [
                "-v", "error", "-i", url.path, "-vf", "select=eq(n\\,\(index))", "-frames:v", "1",
                "-f", "rawvideo", "-pix_fmt", "gray", "-",
            ])
        guard data.count == 320 * 240 else {
            throw ToolFailure("\(data.count) bytes of luma for frame \(index) of \(url.lastPathComponent)")
        }
        return [UInt8](data)
    }

    /// Pixels of two frames more than 48 levels apart.
    static func differing(_ a: [UInt8], _ b: [UInt8]) -> Int {
        zip(a, b).filter { abs(Int($0) - Int($1)) > 48 }.count
    }

    /// Marks `inputs` into `out` with `preset`; the marked files.
    static func mark(_ inputs: [URL], _ preset: URL, into out: URL) throws -> [URL] {
        let result = try camstamp(["batch"] + inputs.map(\.path) + ["-o", out.path, "--preset", preset.path])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        return inputs.map { out.appendingPathComponent($0.lastPathComponent) }
    }

    @Test func aClipsTimecodeIsWhereItsTimecodeMarkStarts() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputs = folder.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        let mov = inputs.appendingPathComponent("tc.mov"), mp4 = inputs.appendingPathComponent("tc.mp4")
        let mkv = inputs.appendingPathComponent("tc.mkv"), plain = inputs.appendingPathComponent("plain.mov")
        let drop = inputs.appendingPathComponent("drop.mov"), plainDrop = inputs.appendingPathComponent("plaindrop.mov")
        for clip in [mov, mp4, mkv] { try Self.flatClip(clip, rate: "25", timecode: "01:02:03:04") }
        try Self.flatClip(plain, rate: "25")
        // Drop-frame at 29.97: two frames before the minute, whose next numbers (;00, ;01) are dropped.
        try Self.flatClip(drop, rate: "30000/1001", frames: 8, timecode: "00:00:59;28")
        try Self.flatClip(plainDrop, rate: "30000/1001", frames: 8)

        let marked = try Self.mark(
            [mov, mp4, mkv, plain, drop], Self.preset("{timecode}", in: folder),
            into: folder.appendingPathComponent("marked"))
        /// `clip` marked with `label` as literal text.
        func reference(_ label: String, _ clip: URL = plain) throws -> URL {
            try Self.mark(
                [clip], Self.preset(label, in: folder), into: folder.appendingPathComponent(label.filter(\.isNumber)))[
                    0]
        }
        let start = try reference("01:02:03:04"), next = try reference("01:02:03:05"),
            second = try reference("01:02:04:00")
        let zero = try reference("00:00:00:00")
        // The references themselves: a digit apart is hundreds of pixels.
        let apart = Self.differing(try Self.frame(start, 0), try Self.frame(next, 0))
        #expect(apart > 60, "01:02:03:04 and 01:02:03:05 differ in \(apart) pixels only")

        for output in marked[0..<3] {
            let name = output.lastPathComponent
            let first = try Self.frame(output, 0), later = try Self.frame(output, 21)
            for (frame, label, reference, other) in [
                (first, "01:02:03:04", start, next), (later, "01:02:04:00", second, start),
            ] {
                let index = frame == first ? 0 : 21
                let same = Self.differing(frame, try Self.frame(reference, index))
                let otherwise = Self.differing(frame, try Self.frame(other, index))
                #expect(
                    same < 30 && otherwise > 60,
                    "\(name) frame \(index): \(same) pixels differ from \(label), \(otherwise) from the label next to it"
                )
            }
        }
        // A clip with no timecode still counts from 00:00:00:00.
        let fromZero = Self.differing(try Self.frame(marked[3], 0), try Self.frame(zero, 0))
        #expect(fromZero < 30, "a clip without a timecode: \(fromZero) pixels differ from 00:00:00:00")

        // Drop-frame: 00:00:59;28, 00:00:59;29, then 00:01:00;02.
        let dropped = try Self.frame(marked[4], 2)
        let expected = try reference("00:01:00;02", plainDrop), notDropped = try reference("00:01:00;00", plainDrop)
        let same = Self.differing(dropped, try Self.frame(expected, 2)),
            otherwise = Self.differing(dropped, try Self.frame(notDropped, 2))
        #expect(
            same < 30 && otherwise > 60,
            "drop-frame's third frame: \(same) pixels differ from 00:01:00;02, \(otherwise) from 00:01:00;00")
    }

    /// A timecode track whose rate is 0 or 255 frames a second is left out: the clip is marked,
    /// `{timecode}` counts from 00:00:00:00, and the clip's line says why (only when a mark shows
    /// the timecode).
    @Test func aTimecodeTrackThatMakesNoSenseIsLeftOutAndSaid() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputs = folder.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        let source = folder.appendingPathComponent("tc.mov"), plain = inputs.appendingPathComponent("plain.mov")
        try Self.flatClip(source, rate: "25", frames: 10, timecode: "01:02:03:04")
        try Self.flatClip(plain, rate: "25", frames: 10)
        // The tmcd sample entry (the last "tmcd" in the file): its frames-a-second byte is 24 bytes into its body.
        let bytes = [UInt8](try Data(contentsOf: source))
        let entry = try #require((0..<(bytes.count - 4)).last { bytes[$0..<($0 + 4)].elementsEqual("tmcd".utf8) })
        #expect(bytes[entry + 28] == 25)
        var hostile: [URL] = []
        for rate: UInt8 in [0, 255] {
            var copy = bytes
            copy[entry + 28] = rate
            let url = inputs.appendingPathComponent("rate\(rate).mov")
            try Data(copy).write(to: url)
            hostile.append(url)
        }
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(
            ["batch"] + hostile.map(\.path) + [
                "-o", out.path, "--preset", Self.preset("{timecode}", in: folder).path, "--json",
            ])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let lines = result.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        for url in hostile {
            let line = lines.first { $0["input"] as? String == url.path }
            #expect(line?["status"] as? String == "marked", "\(result.stdout)")
            #expect(
                (line?["reason"] as? String)?.hasPrefix("its timecode track makes no sense (frame 93079, ") == true,
                "\(result.stdout)")
            #expect(
                (line?["reason"] as? String)?.hasSuffix("{timecode} counts from 00:00:00:00") == true,
                "\(result.stdout)")
        }
        let zero = try Self.mark(
            [plain], Self.preset("00:00:00:00", in: folder), into: folder.appendingPathComponent("zero"))[0]
        for url in hostile {
            let differing = Self.differing(
                try Self.frame(out.appendingPathComponent(url.lastPathComponent), 0), try Self.frame(zero, 0))
            #expect(differing < 30, "\(url.lastPathComponent): \(differing) pixels differ from 00:00:00:00")
        }
        // Nothing is said when no mark shows the timecode.
        let quiet = try camstamp([
            "batch", hostile[0].path, "-o", folder.appendingPathComponent("quiet").path, "--text", "x", "--json",
        ])
        #expect(
            quiet.status == 0 && !quiet.stdout.contains("reason") && !quiet.stderr.contains("timecode"),
            "\(quiet.stdout) \(quiet.stderr)")
    }

    /// The streams of `url` as ffprobe reads them: each one's type, tag (`tmcd`), duration and
    /// `timecode` tag.
    static func streams(_ url: URL) throws -> [(type: String, tag: String, duration: String?, timecode: String?)] {
        let json = try tool(
            "ffprobe",
            [
                "-v", "error", "-show_entries", "stream=codec_type,codec_tag_string,duration:stream_tags=timecode",
                "-of", "json", url.path,
            ])
        let streams = try #require(
            (try JSONSerialization.jsonObject(with: json) as? [String: Any])?["streams"] as? [[String: Any]])
        return streams.map { stream in
            (
                stream["codec_type"] as? String ?? "", stream["codec_tag_string"] as? String ?? "",
                stream["duration"] as? String,
                (stream["tags"] as? [String: Any])?["timecode"] as? String
            )
        }
    }

    /// A marked MOV carries its source's timecode on as a `tmcd` track (qtmux writes it from the
    /// frames' timecodes, which the encoder passes on), lasting as long as the video, non-drop and
    /// drop-frame, whether or not a mark shows it; a clip without a timecode gets none.
    @Test func aMarkedMOVCarriesItsSourcesTimecode() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputs = folder.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        let clips = [
            ("tc.mov", "25", "01:02:03:04"), ("drop.mov", "30000/1001", "01:02:03;04"),
            ("late.mov", "30000/1001", "23:59:59;29"),
            ("plain.mov", "25", nil),
        ]
        for (name, rate, timecode) in clips {
            try Self.flatClip(inputs.appendingPathComponent(name), rate: rate, frames: 30, timecode: timecode)
        }
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", inputs.path, "-o", out.path, "--text", "{frame}"])
        // 23:59:59;29 without the 24-hour flag counts on to 24:00:00;00, which needs no word.
        #expect(result.status == 0 && !result.stderr.contains("timecode"), "stderr: \(result.stderr)")
        for (name, _, timecode) in clips {
            let streams = try Self.streams(out.appendingPathComponent(name))
            let tracks = streams.filter { $0.tag == "tmcd" }, video = streams.first { $0.type == "video" }
            guard let timecode else {
                #expect(tracks.isEmpty && video?.timecode == nil, "\(name) has no timecode, yet: \(streams)")
                continue
            }
            #expect(
                tracks.count == 1 && tracks.first?.type == "data" && tracks.first?.timecode == timecode,
                "\(name): \(streams)")
            #expect(video?.timecode == timecode, "\(name): \(streams)")
            #expect(tracks.first?.duration != nil && tracks.first?.duration == video?.duration, "\(name): \(streams)")
        }
    }
}
