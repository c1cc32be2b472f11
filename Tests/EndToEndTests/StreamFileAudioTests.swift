// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

@Suite(.serialized) struct StreamFileAudioTests {
    /// A file with sound and no pictures is said in one line naming --source, for stream and shoot
    /// alike (it was GStreamer's "Internal data stream error ... not-linked" on its element path),
    /// and no recording is left behind.
    @Test func aFileWithoutVideoIsSaidInOneLine() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("sound.mp4")
        _ = try tool(
            "ffmpeg",
            ["-v", "error", "-y", "-f", "lavfi", "-i", "anullsrc=r=44100", "-t", "1", "-c:a", "aac", input.path])
        let recording = folder.appendingPathComponent("out.mp4")
        for arguments in [
            ["stream", "--to", recording.path], ["shoot", "-o", folder.appendingPathComponent("shot.jpg").path],
        ] {
            let result = try camstamp(arguments + ["--source", "file:\(input.path)", "--text", "x"])
            #expect(result.status == 1)
            #expect(
                result.stderr
                    == "camstamp: --source file:\(input.path): the file has no video stream camstamp can decode; give a video clip\n",
                "\(arguments[0]): \(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: recording.path))
    }

    /// A phone's folder holds voice memos (`.m4a`: an MP4 with sound and no picture) beside its
    /// clips: found in a folder such a file is skipped and named, as a song is; it failed the whole
    /// batch (exit 1). Named on the command line it still fails.
    @Test func aSoundOnlyFileInAFolderIsSkippedAndNamed() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        let memo = input.appendingPathComponent("memo.m4a")
        _ = try tool("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=duration=1", "-c:a", "aac", memo.path])
        try Clips.mp4(input.appendingPathComponent("clip.mp4"), frames: 15)
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", input.path, "-o", out.path, "--text", "x"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(
            result.stderr.contains("camstamp: \(memo.path): skipped: sound only, no picture to mark"),
            "\(result.stderr)")
        #expect(result.stderr.contains("1 marked, 0 failed, 1 skipped"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("memo.m4a").path))
        let named = try camstamp(["batch", memo.path, "-o", out.path, "--text", "x"])
        #expect(named.status == 1 && named.stderr.contains("the file has no video stream"), "\(named.stderr)")
    }

    /// A clip GStreamer finds no playable stream in is the source's fault and says so (it was
    /// worded as the recording's).
    /// A clip cut short before its index, or one changing size mid-clip in an MKV, fails in GStreamer's
    /// words without an element path or a dump of both caps (about 1 KB on one line).
    @Test func aClipGStreamerCannotTakeIsSaidWithoutElementPaths() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let whole = folder.appendingPathComponent("whole.mp4")
        try Clips.mp4(whole, frames: 60)
        let cut = folder.appendingPathComponent("cut.mp4")
        try Data(try Data(contentsOf: whole).prefix(20_000)).write(to: cut)
        var parts: [String] = []
        for (name, size) in [("a.ts", "320x240"), ("b.ts", "640x480")] {
            let part = folder.appendingPathComponent(name)
            _ = try tool(
                "ffmpeg",
                [
                    "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=\(size):rate=30", "-t", "1",
                    "-c:v", "libx264", "-pix_fmt", "yuv420p", part.path,
                ])
            parts.append(part.path)
        }
        let joined = folder.appendingPathComponent("joined.ts")
        try Data(parts.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }.joined()).write(to: joined)
        let resized = folder.appendingPathComponent("resized.mkv")
        _ = try tool("ffmpeg", ["-v", "error", "-y", "-i", joined.path, "-c", "copy", resized.path])
        for (input, said) in [(cut, "cannot read the video: "), (resized, "cannot mark the video: ")] {
            let result = try camstamp([
                "batch", input.path, "-o", folder.appendingPathComponent("out").path, "--text", "x",
            ])
            #expect(result.status == 1, "\(result.stderr)")
            let first = result.stderr.split(separator: "\n").first.map(String.init) ?? ""
            #expect(
                first.hasPrefix("camstamp: \(input.path): \(said)") && !first.contains("Gst")
                    && first.count - input.path.count < 260, "\(first)")
        }
    }

    /// A faststart MP4 cut short in its media data (its index whole) is marked as far as it goes,
    /// and said: it was "1 marked" with half the clip and no word.
    @Test func aClipCutShortIsMarkedAndSaid() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let whole = folder.appendingPathComponent("whole.mp4")
        try Clips.mp4(whole, frames: 300)
        let faststart = folder.appendingPathComponent("faststart.mp4")
        _ = try tool(
            "ffmpeg", ["-v", "error", "-y", "-i", whole.path, "-c", "copy", "-movflags", "+faststart", faststart.path])
        let cut = folder.appendingPathComponent("cut.mp4")
        let bytes = try Data(contentsOf: faststart)
        try Data(bytes.prefix(bytes.count / 2)).write(to: cut)
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", cut.path, faststart.path, "-o", out.path, "--text", "x"])
        #expect(result.status == 0, "\(result.stderr)")
        let warnings = result.stderr.split(separator: "\n").filter { $0.contains("could be read") }
        #expect(
            warnings.count == 1 && warnings[0].hasPrefix("camstamp: \(cut.path): warning: only ")
                && warnings[0].hasSuffix("s of video could be read: the file is cut short or damaged"),
            "\(result.stderr)")
        let written = try Clips.frameCount(out.appendingPathComponent("cut.mp4"))
        #expect(written > 30 && written < 270, "\(written) frames")
    }

    /// An interlaced clip stays interlaced (coded as fields, top field first), so players
    /// deinterlace it: camstampx264enc coded it as progressive frames, combed for good.
    @Test func anInterlacedClipStaysInterlaced() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("interlaced.mp4")
        _ = try tool(
            "ffmpeg",
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=720x576:r=25", "-t", "1", "-vf",
                "tinterlace=4,setfield=tff",
                "-c:v", "libx264", "-flags", "+ildct+ilme", input.path,
            ])
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", input.path, "-o", out.path, "--text", "x"])
        #expect(result.status == 0, "\(result.stderr)")
        let order = { (file: URL) throws -> String in
            String(
                decoding: try tool(
                    "ffprobe",
                    [
                        "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=field_order",
                        "-of", "csv=p=0", file.path,
                    ]), as: UTF8.self
            ).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(try order(input) == "tt")
        #expect(try order(out.appendingPathComponent("interlaced.mp4")) == "tt")
    }

    /// A clip whose frames H.264 cannot take (odd sides; under 16 pixels into MP4) fails in one
    /// line naming the size, not with the encoder's or demuxer's element path; a tiny MKV is marked.
    @Test func aClipOfASizeH264CannotTakeIsSaidInOneLine() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cases = [
            (
                "odd.mp4", "321x241",
                "its 321x241 frames cannot be encoded: H.264 (4:2:0) needs an even width and height"
            ),
            ("tiny.mp4", "8x8", "its 8x8 frames are too small for MP4: at least 16x16"),
            ("tiny.mkv", "8x8", nil),
        ]
        for (name, size, message) in cases {
            let input = folder.appendingPathComponent(name)
            _ = try tool(
                "ffmpeg",
                [
                    "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=\(size):rate=30", "-t", "1",
                    "-c:v", "libx264", "-pix_fmt", "yuv444p", input.path,
                ])
            let out = folder.appendingPathComponent("out-" + name)
            let result = try camstamp(["batch", input.path, "-o", out.path, "--text", "x"])
            if let message {
                #expect(result.status == 1, "\(name): \(result.stderr)")
                let lines = result.stderr.split(separator: "\n")
                #expect(
                    lines.first?.hasPrefix("camstamp: \(input.path): cannot mark the video: \(message)") == true,
                    "\(result.stderr)")
                #expect(!result.stderr.contains("Gst"), "\(result.stderr)")
            } else {
                #expect(result.status == 0, "\(name): \(result.stderr)")
                #expect(try Clips.frameCount(out.appendingPathComponent(name)) == 30)
            }
        }
    }

    @Test func aClipWithoutPlayableStreamsNamesTheSource() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("empty.mp4")
        _ = try tool(
            "ffmpeg",
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=30", "-f", "lavfi",
                "-i", "anullsrc=r=44100", "-t", "1", "-map", "0:v", "-map", "1:a", "-frames:v", "0",
                "-c:v", "libx264", "-c:a", "aac", input.path,
            ])
        let recording = folder.appendingPathComponent("out.mp4")
        let result = try camstamp(["stream", "--source", "file:\(input.path)", "--text", "x", "--to", recording.path])
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("camstamp: --source file:\(input.path): "), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: recording.path))
    }

    /// A Matroska clip keeps every frame: its timestamps are whole milliseconds (33 ms for a slot of
    /// 33.33 ms), and the capture's videorate dropped the frame that came a hair early, uncounted
    /// ("29 frames written, 0 dropped" for 30). Frames the live stream drops must be counted.
    @Test func aMatroskaClipKeepsEveryFrame() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("clip.mkv")
        try writeWithGStreamer(
            "videotestsrc num-buffers=30 ! video/x-raw,width=320,height=240,framerate=30/1 ! x264enc ! "
                + "matroskamux ! filesink location={location}", to: input)
        #expect(try Clips.frameCount(input) == 30)
        let output = folder.appendingPathComponent("out.mkv")
        let result = try camstamp(["stream", "--source", "file:\(input.path)", "--text", "x", "--to", output.path])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let match = try #require(
            result.stderr.firstMatch(of: try Regex(#"(\d+) frames written, (\d+) dropped"#)), "\(result.stderr)")
        let written = Int(try #require(match.output[1].substring))!,
            dropped = Int(try #require(match.output[2].substring))!
        #expect(written + dropped == 30, "\(result.stderr)")
        #expect(try Clips.frameCount(output) == written)
    }

    /// `stream --source file:clip.mp4` records the clip's AAC as it is, into MP4 and MKV; stopped
    /// early by --duration, the audio stops with the video (within the half-second queue).
    @Test func aFileSourceKeepsItsAudio() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("clip.mp4")
        try Clips.mp4(input, frames: 60)
        for name in ["out.mp4", "out.mkv"] {
            let output = folder.appendingPathComponent(name)
            let result = try camstamp([
                "stream", "--source", "file:\(input.path)", "--text", "{frame}", "--to", output.path,
            ])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            #expect(try Clips.streams(output).map(\.codec) == ["h264", "aac"], "\(name)")
            // The packets as they were, up to the end of the video (2 s of 44.1 kHz AAC: 86 packets of
            // 1024 samples; the source runs 0.18 s longer). A loaded machine may drop the last frames
            // before the encoder (counted), so the sound is held to the video written, not to 2 s.
            let written = try Clips.audioPacketHashes(output), source = try Clips.audioPacketHashes(input)
            let videoPackets = Int((try Clips.frameCount(output) * 44_100) / (30 * 1024))
            #expect(
                written.count >= videoPackets - 3 && written.count < source.count,
                "\(name): \(written.count) of \(source.count) packets, video for \(videoPackets)")
            #expect(Array(source.prefix(written.count)) == written, "\(name)")
        }
        let long = folder.appendingPathComponent("long.mp4")
        try Clips.mp4(long, frames: 300)
        let short = folder.appendingPathComponent("short.mkv")
        let result = try camstamp([
            "stream", "--source", "file:\(long.path)", "--text", "x", "--duration", "2", "--to", short.path,
        ])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let audio = String(
            decoding: try tool(
                "ffprobe",
                [
                    "-v", "error", "-select_streams", "a:0", "-show_entries", "packet=pts_time",
                    "-of", "csv=p=0", short.path,
                ]), as: UTF8.self)
        let last =
            audio.split(separator: "\n").compactMap {
                Double($0.trimmingCharacters(in: CharacterSet(charactersIn: ", ")))
            }.max() ?? -1
        #expect(last > 1.5 && last < 2.8, "the audio ends at \(last) s of a 2 s recording")
    }

    /// With several targets (a recording and a publication, or two recordings) the clip's sound is
    /// decoded once and encoded as each container needs it (AAC into MP4 and HLS, Opus into MKV),
    /// as a microphone's would be: every target has the clip's tone, as long as its video. Every
    /// output was silent, with no warning. `--audio none` leaves it out, even for one file.
    @Test func aFileSourceKeepsItsSoundInEveryTarget() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("clip.mp4")
        try Clips.mp4(input, frames: 90)
        let (mp4, mkv, hls) = (
            folder.appendingPathComponent("rec.mp4"), folder.appendingPathComponent("rec.mkv"),
            folder.appendingPathComponent("hls")
        )
        let result = try camstamp([
            "stream", "--source", "file:\(input.path)", "--text", "{frame}", "--duration", "2",
            "--to", mp4.path, "--to", mkv.path, "--to", "hls:\(hls.path)",
        ])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let segment = hls.appendingPathComponent("segment00000.ts")
        for (output, codec) in [(mp4, "aac"), (mkv, "opus"), (segment, "aac")] {
            #expect(try Clips.streams(output).map(\.codec) == ["h264", codec], "\(output.lastPathComponent)")
            // The tone (audiotestsrc's sine at 0.8: RMS 0.57), not silence, for as long as the video.
            let samples = try tool(
                "ffmpeg",
                ["-v", "error", "-i", output.path, "-map", "0:a", "-ac", "1", "-ar", "8000", "-f", "f32le", "-"]
            )
            .withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
            let rms = (samples.reduce(0) { $0 + Double($1 * $1) } / Double(max(samples.count, 1))).squareRoot()
            #expect(rms > 0.3, "\(output.lastPathComponent): sound at RMS \(rms)")
            let seconds = Double(samples.count) / 8000, video = Double(try Clips.frameCount(output)) / 30
            // (The clip's whole 3 s of sound would be 1 s over; a loaded machine drops a few frames.)
            #expect(
                abs(seconds - video) < 0.5, "\(output.lastPathComponent): \(seconds) s of sound for \(video) s of video"
            )
        }
        let silent = folder.appendingPathComponent("silent.mp4")
        let none = try camstamp([
            "stream", "--source", "file:\(input.path)", "--text", "x", "--audio", "none", "--to", silent.path,
        ])
        #expect(none.status == 0, "stderr: \(none.stderr)")
        #expect(try Clips.streams(silent).map(\.codec) == ["h264"])
    }

    /// A recording never replaces the clip it plays, --overwrite or not, named as it is or through
    /// a link to its folder: `--to clip.mp4 --overwrite` replaced the 3 s clip with 1 s of itself.
    @Test func aFileSourceIsNeverItsOwnRecording() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("clip.mp4")
        try Clips.mp4(input, frames: 60)
        let before = try Data(contentsOf: input)
        let link = folder.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: folder)
        for target in [input.path, link.appendingPathComponent("clip.mp4").path, folder.path + "/./clip.mp4"] {
            let result = try camstamp([
                "stream", "--source", "file:\(input.path)", "--text", "x", "--duration", "1",
                "--to", target, "--overwrite",
            ])
            #expect(result.status == 64, "\(target): stderr: \(result.stderr)")
            #expect(result.stderr.contains("would replace the --source file"), "\(result.stderr)")
            #expect(try Data(contentsOf: input) == before, "\(target): the clip was written over")
        }
    }

    /// Sound MP4 cannot hold (PCM from an MKV) is left out with a warning: a warning, so `-q`
    /// keeps it off stderr like every other job's warnings (it was written to stderr directly).
    @Test func soundLeftOutIsAWarningThatQuietSilences() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("pcm.mkv")
        try tool(
            "ffmpeg",
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=30:duration=1",
                "-f", "lavfi", "-i", "sine=frequency=440:duration=1",
                "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "pcm_s16le", input.path,
            ])
        let loud = folder.appendingPathComponent("loud.mp4")
        let said = try camstamp(["stream", "--source", "file:\(input.path)", "--text", "x", "--to", loud.path])
        #expect(said.status == 0, "stderr: \(said.stderr)")
        #expect(
            said.stderr.contains("camstamp: --source: the audio of \(input.path) (audio/x-raw) cannot go into MP4"),
            "\(said.stderr)")
        #expect(try Clips.streams(loud).map(\.codec) == ["h264"])
        let quiet = folder.appendingPathComponent("quiet.mp4")
        let silent = try camstamp(["stream", "-q", "--source", "file:\(input.path)", "--text", "x", "--to", quiet.path])
        #expect(silent.status == 0, "stderr: \(silent.stderr)")
        #expect(silent.stderr.isEmpty, "-q printed: \(silent.stderr)")
        #expect(silent.stdout.isEmpty)
        #expect(try Clips.streams(quiet).map(\.codec) == ["h264"])
    }
}
