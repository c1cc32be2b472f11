// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

/// `stream --source file:CLIP --to out.mp4` copies the clip's AAC packet for packet; an ffmpeg- or
/// phone-made clip's priming packet (which its edit list skips) and last packet are kept, and the
/// recording's sound gets the source's edit list.
@Suite(.serialized) struct StreamSoundEditTests {
    /// Each audio packet's data hash, as stored (ffmpeg's framemd5 adds a hash of the side data it
    /// makes from an edit list, which a fragmented MP4 does not get: the data's hash only).
    static func packetData(_ url: URL) throws -> [Substring] {
        let text = String(
            decoding: try tool(
                "ffmpeg", ["-v", "error", "-i", url.path, "-map", "0:a", "-c", "copy", "-f", "framemd5", "-"]),
            as: UTF8.self)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap {
            let fields = $0.split(separator: ",")
            return fields.count > 5 ? fields[5].trimmingCharacters(in: .whitespaces)[...] : nil
        }
    }

    /// Each audio packet's PTS and DTS (samples) and size as ffprobe reads them, edit lists applied.
    /// (ffprobe marks the priming discarded and trims the last packet's duration to the edit only in
    /// an unfragmented MP4: those fields are left out.)
    static func packetTimes(_ url: URL) throws -> [String] {
        String(
            decoding: try tool(
                "ffprobe",
                [
                    "-v", "error", "-select_streams", "a:0", "-show_entries", "packet=pts,dts,size",
                    "-of", "csv=p=0", url.path,
                ]), as: UTF8.self
        )
        // The priming's side data (from an unfragmented MP4's edit list) adds an empty field and line.
        .split(separator: "\n").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ", ")) }.filter {
            !$0.isEmpty
        }
    }

    /// The sound decoded by ffmpeg from its presentation time 0 on (`-copyts`, `atrim`): what a
    /// player plays, the priming skipped by the edit list in a fragmented MP4 too; mono 32-bit float.
    static func playedSound(_ url: URL) throws -> Data {
        try tool(
            "ffmpeg",
            [
                "-v", "error", "-copyts", "-i", url.path, "-map", "0:a", "-af", "atrim=start=0", "-ac", "1", "-f",
                "f32le", "-",
            ])
    }

    /// The sound decoded by GStreamer (qtdemux applies the edit list), mono 32-bit float as ffmpeg
    /// decodes it (no conversion to integers, whose dithering would differ).
    static func gstreamerSound(_ url: URL, in folder: URL) throws -> Data {
        let raw = folder.appendingPathComponent(url.lastPathComponent + ".raw")
        try tool(
            "gst-launch-1.0",
            [
                "-q", "filesrc", "location=\(url.path)", "!", "qtdemux", "!", "avdec_aac", "!", "audioconvert", "!",
                "audio/x-raw,format=F32LE,channels=1", "!", "filesink", "location=\(raw.path)",
            ])
        defer { try? FileManager.default.removeItem(at: raw) }
        return try Data(contentsOf: raw)
    }

    /// Every `elst` entry of the file's movie box as (duration, media time), and the movie's timescale.
    static func editLists(
        _ url: URL
    ) throws -> (entries: [(duration: UInt64, mediaTime: Int64)], movieTimescale: UInt64) {
        let bytes = [UInt8](try Data(contentsOf: url))
        func number(_ at: Int, _ width: Int) -> UInt64 { bytes[at..<(at + width)].reduce(0) { $0 << 8 | UInt64($1) } }
        var entries: [(UInt64, Int64)] = [], timescale: UInt64 = 0
        var index = 0
        while index + 8 <= bytes.count {
            if bytes[index..<(index + 4)].elementsEqual("mvhd".utf8) {
                timescale = number(index + 4 + (bytes[index + 4] == 1 ? 20 : 12), 4)
            }
            if bytes[index..<(index + 4)].elementsEqual("elst".utf8) {
                let wide = bytes[index + 4] == 1, width = wide ? 8 : 4
                for entry in 0..<Int(number(index + 8, 4)) {
                    let at = index + 12 + entry * (2 * width + 4)
                    let time = number(at + width, width)
                    entries.append(
                        (number(at, width), wide ? Int64(bitPattern: time) : Int64(Int32(truncatingIfNeeded: time))))
                }
            }
            // The movie box comes before the media data in a stream's fragmented MP4.
            if bytes[index..<(index + 4)].elementsEqual("moof".utf8) { break }
            index += 1
        }
        return (entries, timescale)
    }

    /// A clip made by ffmpeg: 320×240 H.264 at 30 fps and a 440 Hz tone in 48 kHz AAC, whose
    /// edit list skips the AAC's priming (1024 samples) and ends before its last packet.
    static func ffmpegClip(_ url: URL, seconds: Int, extra: [String] = []) throws {
        try tool(
            "ffmpeg",
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-f", "lavfi",
                "-i", "sine=frequency=440:sample_rate=48000", "-t", String(seconds), "-c:v", "libx264", "-pix_fmt",
                "yuv420p",
                "-c:a", "aac",
            ] + extra + [url.path])
    }

    /// GStreamer 1.22 alone wrote 140 of the 142 packets of a 3 s clip (MP4 and MOV) into the
    /// recording: not the priming, not the last, and no edit list; the sound's first packet came
    /// out at 0, where the source plays its second sample block. Now every packet is written, bit
    /// for bit, at the source's times, and the recording's edit list is the source's (media time
    /// 1024, 3 s): played by ffmpeg and by GStreamer, the sound starts on the same sample as the
    /// source's, and the picture keeps its place against it. So too for a clip cut with `ffmpeg -ss
    /// 0.5 -c copy`, whose sound's edit starts 25024 samples into its media (GStreamer, which
    /// skips an edit's start in whole packets in a fragmented MP4, plays it 448 samples early: not
    /// checked there).
    @Test func aFileSourceKeepsItsAACPrimingAndLastPacketInAnMP4Recording() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = folder.appendingPathComponent("clip.mp4")
        try Self.ffmpegClip(clip, seconds: 3)
        // (name, ffmpeg's arguments before the name to make it from the clip, the source's sound
        // edit: its media time (samples) and length (ms)).
        let fixtures: [(name: String, arguments: [String]?, mediaTime: UInt64, milliseconds: UInt64)] = [
            ("clip.mp4", nil, 1024, 3000), ("clip.mov", ["-i", clip.path, "-map", "0", "-c", "copy"], 1024, 3000),
            ("cut.mp4", ["-ss", "0.5", "-i", clip.path, "-map", "0", "-c", "copy"], 25024, 2500),
        ]
        for fixture in fixtures {
            let name = fixture.name
            let input = folder.appendingPathComponent(name)
            if let arguments = fixture.arguments {
                try tool("ffmpeg", ["-v", "error", "-y"] + arguments + [input.path])
            }
            let output = folder.appendingPathComponent("rec-\(input.lastPathComponent).mp4")
            let result = try camstamp([
                "stream", "--source", "file:\(input.path)", "--text", "{frame}", "--to", output.path,
            ])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            let source = try Self.packetData(input), written = try Self.packetData(output)
            #expect(source.count == 142, "\(name): \(source.count) packets in the fixture")
            // A loaded machine may drop the last frames (counted): the sound stops with the picture.
            let frames = try Clips.videoFrameTimes(output)
            let videoEnd = (frames.max() ?? 0) + 1.0 / 30
            let shown = try Self.packetTimes(input).filter { Double($0.split(separator: ",")[0])! / 48000 < videoEnd }
                .count
            #expect(
                written == Array(source.prefix(shown)),
                "\(name): \(written.count) of \(source.count) packets written, \(shown) before the video's end at \(videoEnd) s"
            )
            #expect(try Self.packetTimes(output) == Array(try Self.packetTimes(input).prefix(written.count)), "\(name)")
            let (entries, timescale) = try Self.editLists(output)
            // The sound kept past the edit's start (every packet 1024 samples but the source's last,
            // which lies past its edit's end anyway).
            let kept = UInt64(max(written.count * 1024 - Int(fixture.mediaTime), 0))
            #expect(
                (try Self.editLists(input)).entries.last?.mediaTime == Int64(fixture.mediaTime),
                "\(name): the fixture's sound edit")
            #expect(
                entries.count == 1 && entries.first?.mediaTime == Int64(fixture.mediaTime)
                    && entries.first?.duration
                        == min(fixture.milliseconds * timescale / 1000, kept * timescale / 48000),
                "\(name): edit list \(entries) (movie timescale \(timescale)), \(kept) samples kept past the edit's start"
            )
            // Played from 0: the source's sound, sample for sample, as long as it was kept.
            let played = try Self.playedSound(output), sourcePlayed = try Self.playedSound(input)
            // (ffmpeg cuts a fragmented MP4's sound at its edit's start, not at its end: all it was given.)
            #expect(played.count == Int(kept) * 4, "\(name): \(played.count / 4) samples played for \(kept) kept")
            // (Compared to a Bool first: Swift Testing diffs two unequal Data byte by byte, for minutes.)
            let same = played == sourcePlayed.prefix(played.count)
            #expect(same, "\(name): the sound played is not the source's from its first sample")
            if fixture.mediaTime % 1024 == 0 {
                // GStreamer plays it as ffmpeg plays the source (it loses the source's last packet itself).
                let gstreamer = try Self.gstreamerSound(output, in: folder)
                let common = min(gstreamer.count, sourcePlayed.count)
                let alike = gstreamer.prefix(common) == sourcePlayed.prefix(common)
                #expect(
                    common > 400_000 && alike,
                    "\(name): GStreamer plays \(gstreamer.count / 4) samples, not the source's from its first")
            }
            // The picture's first frame is shown at 0 as in the source, the sound played from 0 with it.
            #expect(frames.first == (try Clips.videoFrameTimes(input)).first, "\(name)")
        }
    }

    /// Stopped by --duration 2 in a 4 s clip, the recording keeps the source's packets up to the
    /// video's end, the priming first, and its edit's duration is the sound kept (past the priming),
    /// not the source's 4 s; played from 0 it is the source's sound for that long.
    @Test func aStreamStoppedEarlyHasTheEditOfTheSoundItKept() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = folder.appendingPathComponent("long.mp4")
        try Self.ffmpegClip(clip, seconds: 4)
        let output = folder.appendingPathComponent("short.mp4")
        let result = try camstamp([
            "stream", "--source", "file:\(clip.path)", "--text", "x", "--duration", "2", "--to", output.path,
        ])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let source = try Self.packetData(clip), written = try Self.packetData(output)
        #expect(written.count > 80 && written.count < 100, "\(written.count) of \(source.count) packets for 2 s")
        #expect(written == Array(source.prefix(written.count)))
        let (entries, timescale) = try Self.editLists(output)
        let kept = UInt64(max(written.count - 1, 0) * 1024)
        #expect(
            entries.count == 1 && entries.first?.mediaTime == 1024
                && entries.first?.duration == kept * timescale / 48000,
            "edit list \(entries) (movie timescale \(timescale)), \(kept) samples kept after the priming")
        let played = try Self.playedSound(output), sourcePlayed = try Self.playedSound(clip)
        let same = played == sourcePlayed.prefix(played.count)
        #expect(
            played.count == Int(kept) * 4 && same,
            "\(played.count / 4) samples played for \(kept) kept")
    }

    /// A clip without edit lists (`-use_editlist 0`: its priming is played, media time 0) is
    /// recorded as before: its packets from the first, and no edit list.
    @Test func aClipWithoutAnEditListIsRecordedAsBefore() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = folder.appendingPathComponent("plain.mp4")
        try Self.ffmpegClip(clip, seconds: 3, extra: ["-use_editlist", "0"])
        let output = folder.appendingPathComponent("rec.mp4")
        let result = try camstamp(["stream", "--source", "file:\(clip.path)", "--text", "x", "--to", output.path])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let source = try Self.packetData(clip), written = try Self.packetData(output)
        #expect(
            written.count > 130 && written == Array(source.prefix(written.count)),
            "\(written.count) of \(source.count) packets")
        #expect(try Self.editLists(output).entries.isEmpty)
        #expect(try Self.editLists(clip).entries.isEmpty)
    }
}
