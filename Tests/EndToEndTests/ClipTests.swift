// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

@Suite(.serialized) struct ClipBatchTests {
    /// A phone clip (rotated 90°, AAC, a creation time) comes out upright, marked, H.264 4:2:0 in
    /// MP4 with the same audio packets, the same length, and a JSON line.
    @Test func aRotatedPhoneClipComesOutUprightMarkedWithItsAudio() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in/phone.mp4")
        try FileManager.default.createDirectory(
            at: input.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Clips.mp4(input, rotate: 90, created: "2024-05-06T07:08:09Z")
        #expect(try Clips.streams(input).first?.rotation != nil, "the fixture has no rotation tag")
        let out = folder.appendingPathComponent("out")
        let result = try camstamp([
            "batch", input.path, "-o", out.path, "--text", "{time} {frame} {timecode}", "--json",
        ])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let output = out.appendingPathComponent("phone.mp4")
        // The clip's line; the summary object follows it.
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2 && lines[1].hasPrefix(#"{"summary""#), "\(result.stdout)")
        let line = try JSONSerialization.jsonObject(with: Data((lines.first ?? "").utf8)) as? [String: Any]
        #expect(
            line?["status"] as? String == "marked" && line?["output"] as? String == output.path
                && line?["frames"] as? Int == 60,
            "\(result.stdout)")
        let streams = try Clips.streams(output)
        #expect(
            streams == [
                Clips.Stream(codec: "h264", width: 240, height: 320, pixelFormat: "yuv420p", rotation: nil),
                Clips.Stream(codec: "aac", width: nil, height: nil, pixelFormat: nil, rotation: nil),
            ], "\(streams)")
        #expect(abs(try Clips.duration(output) - Clips.duration(input)) <= 1.0 / 30 + 0.001)
        #expect(try Clips.frameCount(output) == 60)
        #expect(try Clips.audioMD5(output) == Clips.audioMD5(input))
        // Upright as a player shows the input (ffmpeg applies the rotation tag): same bars away from the mark.
        let marked = try Clips.luma(output, at: 1, width: 240, height: 320)
        let reference = try Clips.luma(input, at: 1, width: 240, height: 320)
        var differing = 0
        for y in stride(from: 4, to: 200, by: 8) {
            for x in stride(from: 4, to: 236, by: 8) where abs(Int(marked[y][x]) - Int(reference[y][x])) > 24 {
                differing += 1
            }
        }
        // Of 725 points, a mirrored picture differs at 475 and one turned the other way at 574 (ffmpeg
        // transposes of this fixture). Points on a bar's edge may differ once x264 has coded the bars
        // a second time: 4 of them in one CI run under load.
        #expect(differing <= 12, "\(differing) sample points differ from the upright input")
        // The mark: pixels changed in the bottom rows, where the reference has none.
        var changed = 0
        for y in 290..<320 {
            for x in 0..<240 where abs(Int(marked[y][x]) - Int(reference[y][x])) > 40 { changed += 1 }
        }
        #expect(changed > 50, "no mark at the bottom of the upright frame")
    }

    /// The same phone clip played as the camera (`stream --source file:`) is turned upright as the
    /// batch turns it: it came out 320x240 with no rotation flag, sideways.
    @Test func aRotatedPhoneClipStreamedComesOutUpright() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("phone.mp4")
        try Clips.mp4(input, rotate: 90)
        let output = folder.appendingPathComponent("streamed.mp4")
        let result = try camstamp(["stream", "--source", "file:\(input.path)", "--text", "MARK", "--to", output.path])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(
            try Clips.streams(output).first
                == Clips.Stream(codec: "h264", width: 240, height: 320, pixelFormat: "yuv420p", rotation: nil))
        let streamed = try Clips.luma(output, at: 1, width: 240, height: 320)
        let reference = try Clips.luma(input, at: 1, width: 240, height: 320)
        var differing = 0
        for y in stride(from: 4, to: 200, by: 8) {
            for x in stride(from: 4, to: 236, by: 8) where abs(Int(streamed[y][x]) - Int(reference[y][x])) > 24 {
                differing += 1
            }
        }
        // Of 725 points a turned-wrong picture differs at ~500 (see above); the stream's bitrate-capped
        // encode blurs a few bar edges more than the batch's.
        #expect(differing <= 40, "\(differing) sample points differ from the upright input")
    }

    /// What a marked clip cannot keep is said, not dropped silently: a second sound track (a
    /// camera's second microphone, a commentary) and a video deeper than 8 bits (a phone's 10-bit
    /// HDR HEVC), which comes out in 8.
    @Test func aSecondSoundTrackAndTenBitVideoAreSaid() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("hdr.mp4")
        _ = try tool(
            "ffmpeg",
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=1",
                "-f", "lavfi", "-i", "sine=duration=1", "-f", "lavfi", "-i", "sine=frequency=880:duration=1",
                "-map", "0", "-map", "1", "-map", "2", "-c:v", "libx265", "-pix_fmt", "yuv420p10le",
                "-x265-params", "log-level=error", "-c:a", "aac", input.path,
            ])
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", input.path, "-o", out.path, "--text", "x"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(
            result.stderr.contains(
                "warning: only its first of 2 sound tracks is kept; its main-10 video is written with 8 bits a sample"),
            "\(result.stderr)")
        let streams = try Clips.streams(out.appendingPathComponent("hdr.mp4"))
        #expect(streams.map(\.codec) == ["h264", "aac"] && streams.first?.pixelFormat == "yuv420p", "\(streams)")
        // Photo options with clips: said once (they were ignored in silence).
        let sized = try camstamp([
            "batch", input.path, "-o", folder.appendingPathComponent("sized").path, "--text", "x", "--max-size", "100",
        ])
        #expect(
            sized.status == 0
                && sized.stderr.contains("camstamp: --max-size applies to photos only: clips keep their size"),
            "\(sized.stderr)")
    }

    /// A clip of few frames a second with sound (a time-lapse, a screen recording) is marked, its
    /// sound copied: x264 holds back its first ~50 frames, 10 s of sound at 5 fps, which the
    /// sound's queue must hold meanwhile (it held 3 s, and the clip stalled after 19 frames).
    @Test func aClipOfFiveFramesASecondWithSoundIsMarked() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in/slow.mp4")
        try FileManager.default.createDirectory(
            at: input.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Clips.mp4(input, frames: 75, fps: 5)
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", input.path, "-o", out.path, "--text", "{frame}"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let output = out.appendingPathComponent("slow.mp4")
        #expect(try Clips.frameCount(output) == 75)
        #expect(abs(try Clips.duration(output) - Clips.duration(input)) <= 1.0 / 5 + 0.001)
        #expect(try Clips.audioMD5(output) == Clips.audioMD5(input))
    }

    /// A clip whose sound starts before its picture keeps that offset (lip sync). ffmpeg's MKV
    /// stores the first video block (B-frames: its decode time is earliest) before the first
    /// audio block; matroskademux started every stream's segment at that first block, 54 ms in,
    /// and moved the start back to 0 only when the audio came, after the first frame had gone
    /// out: it came out at 0, 54 ms early. The MP4 (an empty edit before the video) kept it.
    @Test func aClipWhoseSoundStartsFirstKeepsTheOffset() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let mkv = folder.appendingPathComponent("late.mkv"), mp4 = folder.appendingPathComponent("late.mp4")
        _ = try tool(
            "ffmpeg",
            [
                "-v", "error", "-y", "-itsoffset", "0.023", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30",
                "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-t", "2",
                "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", mkv.path,
            ])
        _ = try tool("ffmpeg", ["-v", "error", "-y", "-i", mkv.path, "-c", "copy", mp4.path])
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", mkv.path, mp4.path, "-o", out.path, "--text", "x"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        for input in [mkv, mp4] {
            let offset = try Clips.videoAfterAudio(input)
            #expect(offset > 0.02, "\(input.lastPathComponent): the fixture's video starts \(offset) s after its audio")
            let kept = try Clips.videoAfterAudio(out.appendingPathComponent(input.lastPathComponent))
            #expect(
                abs(kept - offset) <= 0.001,
                "\(input.lastPathComponent): video \(offset) s after the audio, \(kept) s in the output")
            #expect(try Clips.audioMD5(out.appendingPathComponent(input.lastPathComponent)) == Clips.audioMD5(input))
        }
    }

    /// An MP4 or MOV made by ffmpeg (or a phone) starts its AAC with a priming packet that its
    /// edit list skips (media time 1024 samples) and ends with a packet past the edit's duration.
    /// GStreamer 1.22 lost both (140 of 142 packets written): qtmux dropped the priming, which
    /// qtdemux sends 21.3 ms before the segment it starts, and qtdemux ended the stream at the
    /// movie's duration (3.000 s), before the last packet (3.008 s). Every packet is kept, and the
    /// output's edit list is the source's: players skip the priming and stop where they did, the
    /// decoded sound is the source's sample for sample, and the picture keeps its place. So too
    /// in MOV, with the moov first (faststart), with the picture starting 50 ms after the sound,
    /// in a clip cut with `ffmpeg -ss 0.5 -c copy` (both edits start inside the media: 0.5 s of
    /// its sound was lost, the rest 12 ms early) or 4 s in (GStreamer CRITICALs once its edit was
    /// opened), and, unchanged, for a clip without edit lists (every frame of its B-frame video:
    /// its last 2 were lost) and one whose sound plays its priming.
    @Test func anFFmpegMP4KeepsItsAACPrimingAndLastPacket() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        let clip = folder.appendingPathComponent("clip.mp4")
        _ = try tool(
            "ffmpeg",
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-f", "lavfi",
                "-i", "sine=frequency=440:sample_rate=48000", "-t", "3", "-c:v", "libx264", "-pix_fmt", "yuv420p",
                "-c:a", "aac", clip.path,
            ])
        // 8 s with one keyframe, to cut 4 s in: qtdemux then sends 4 s of sound before the first
        // frame, and a GAP event on the picture for every 3 s of it.
        let long = folder.appendingPathComponent("long.mp4")
        _ = try tool(
            "ffmpeg",
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=30", "-f", "lavfi",
                "-i", "sine=frequency=440:sample_rate=48000", "-t", "8", "-g", "300", "-c:v", "libx264", "-pix_fmt",
                "yuv420p",
                "-c:a", "aac", long.path,
            ])
        // The same streams in other containers and layouts: (name, ffmpeg's arguments before the
        // output's name). The late picture has an empty edit of 50 ms before it; the late sound
        // one too, in which ffmpeg plays the priming (media time 0), so there is nothing to restore.
        let copy = ["-map", "0:v", "-map", "0:a", "-c", "copy"]
        let fixtures: [(name: String, arguments: [String])] = [
            ("phone.mp4", ["-i", clip.path] + copy), ("phone.mov", ["-i", clip.path] + copy),
            ("faststart.mp4", ["-i", clip.path] + copy + ["-movflags", "+faststart"]),
            ("no-edits.mp4", ["-i", clip.path] + copy + ["-use_editlist", "0"]),
            (
                "late-picture.mp4",
                ["-i", clip.path, "-itsoffset", "0.05", "-i", clip.path, "-map", "1:v", "-map", "0:a", "-c", "copy"]
            ),
            (
                "late-sound.mp4",
                ["-itsoffset", "0.05", "-i", clip.path, "-i", clip.path, "-map", "1:v", "-map", "0:a", "-c", "copy"]
            ),
            ("cut.mp4", ["-ss", "0.5", "-i", clip.path] + copy),
            ("cut-deep.mp4", ["-ss", "4", "-i", long.path] + copy),
        ]
        for fixture in fixtures {
            let input = folder.appendingPathComponent(fixture.name)
            _ = try tool("ffmpeg", ["-v", "error", "-y"] + fixture.arguments + [input.path])
            let result = try camstamp(["batch", input.path, "-o", out.path, "--text", "x"])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            let output = out.appendingPathComponent(fixture.name)
            let written = try Clips.audioPacketHashes(output), source = try Clips.audioPacketHashes(input)
            #expect(source.count >= 100, "\(fixture.name): \(source.count) packets in the fixture")
            #expect(written == source, "\(fixture.name): \(written.count) of \(source.count) packets, or not in order")
            #expect(try Clips.audioMD5(output) == Clips.audioMD5(input), "\(fixture.name)")
            // Played as the source plays: where each stream starts, how long the sound lasts, each
            // sound packet's times, and the sound decoded (the priming skipped).
            #expect(try Clips.streamTiming(output) == Clips.streamTiming(input), "\(fixture.name)")
            #expect(try Clips.audioPacketTimes(output) == Clips.audioPacketTimes(input), "\(fixture.name)")
            let (decoded, sourceDecoded) = (try Clips.decodedAudio(output), try Clips.decodedAudio(input))
            #expect(
                decoded.count == sourceDecoded.count && decoded == sourceDecoded,
                "\(fixture.name): \(decoded.count) bytes of sound decoded, \(sourceDecoded.count) from the source")
            // And each frame shown at its time: the picture in sync with that sound.
            let (frames, sourceFrames) = (try Clips.videoFrameTimes(output), try Clips.videoFrameTimes(input))
            // no-edits.mp4's picture starts at 67 ms (B-frames) with no edit list to move it to 0,
            // and qtdemux ended the track at its media duration (3.0 s): the frames at 3.0 and
            // 3.033 s were left out (`ClipMediaDurations`).
            #expect(frames == sourceFrames, "\(fixture.name): \(frames.count) of \(sourceFrames.count) frames")
        }
    }

    /// Clips and photos in one folder share the workers; a clip is found by content whatever its name.
    @Test func clipsAndPhotosTogether() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputs = folder.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        try Clips.mp4(inputs.appendingPathComponent("a.mp4"), frames: 30)
        try Clips.mp4(inputs.appendingPathComponent("b.video"), frames: 30)
        try tool(
            "gst-launch-1.0",
            [
                "-q", "videotestsrc", "num-buffers=1", "!", "video/x-raw,width=64,height=48", "!", "jpegenc", "!",
                "filesink", "location=\(inputs.appendingPathComponent("c.jpg").path)",
            ])
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", inputs.path, "-o", out.path, "--text", "x", "--jobs", "2", "--json"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stderr.hasSuffix("3 marked, 0 failed, 0 skipped\n"), "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").count == 4, "three lines and the summary: \(result.stdout)")
        #expect(try Clips.streams(out.appendingPathComponent("b.video")).map(\.codec) == ["h264", "aac"])
    }
}
