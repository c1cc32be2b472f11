// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

/// What a clip's frame timing becomes.
@Suite(.serialized) struct ClipTimingTests {
    /// A variable-rate clip whose first two frames are 1/90000 s apart (a 90 kHz timescale's
    /// finest) keeps all its frames in MP4 and MOV: in qtmux's 3000 Hz their DTSs were one tick, the
    /// first sample lasted nothing, and the track and its edit list ended one frame early, so
    /// players showed 59 of 60 frames (camstamp said 60). In MKV it kept them all already.
    @Test(arguments: ["vfr.mp4", "vfr.mov", "vfr.mkv"])
    func framesATickApartAreAllKept(name: String) throws {
        let folder = try temporaryFolder("\(#function)-\(name)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent(name)
        _ = try tool(
            "ffmpeg",
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-frames:v", "60",
                "-vf", "settb=1/90000,setpts='if(gt(N,0),(N-1)*3000+1,0)'", "-fps_mode", "passthrough",
                "-enc_time_base", "1/90000", "-video_track_timescale", "90000", "-c:v", "libx264", input.path,
            ])
        #expect(try Clips.frameCount(input) == 60)
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", input.path, "-o", out.path, "--text", "{frame}", "--json"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains(#""frames":60"#), "\(result.stdout)")
        #expect(try Clips.frameCount(out.appendingPathComponent(name)) == 60, "\(name)")
    }

    /// A phone's low-light clip: 30 fps for 2 s, then 10 fps. qtdemux gives its average rate
    /// (81/4), which 90 kHz does not count, and qtmux's own timescale for it (2025 Hz) put two
    /// frames in one tick: players decoded 79 of the 80 frames, the track 3.816 s for 3.933 s.
    @Test(arguments: ["lowlight.mp4", "lowlight.mov", "lowlight.mkv"])
    func aClipThatSlowsDownKeepsEveryFrameAndItsTimes(name: String) throws {
        let folder = try temporaryFolder("\(#function)-\(name)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent(name)
        _ = try tool(
            "ffmpeg",
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=4",
                "-vf", "select='lt(n,60)+not(mod(n,3))',setpts='if(lt(N,60),N/30,2+(N-60)/10)/TB'",
                "-fps_mode", "passthrough", "-c:v", "libx264", "-preset", "ultrafast", input.path,
            ])
        #expect(try Clips.frameCount(input) == 80)
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", input.path, "-o", out.path, "--text", "{frame}"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let output = out.appendingPathComponent(name)
        #expect(try Clips.frameCount(output) == 80, "\(name)")
        func times(_ url: URL) throws -> [Double] {
            String(
                decoding: try tool(
                    "ffprobe",
                    [
                        "-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pts_time",
                        "-of", "csv=p=0", url.path,
                    ]), as: UTF8.self
            )
            .split(whereSeparator: \.isNewline).compactMap {
                Double($0.trimmingCharacters(in: CharacterSet(charactersIn: ", ")))
            }
        }
        let (source, written) = (try times(input), try times(output))
        #expect(
            source.count == written.count && zip(source, written).allSatisfy { abs($0 - $1) < 0.0015 },
            "\(name): \(written.prefix(3))…\(written.suffix(3)) for \(source.prefix(3))…\(source.suffix(3))")
    }

    /// A clip whose 60 frames are all one 1/90000 s tick apart, streamed: played in real time as a
    /// camera, its frames come at once, faster than the encoder takes them, and the stream drops
    /// what its 3-frame queue cannot hold, as it would a camera's (by design: the source never
    /// waits for the encoder; how many depends on the machine). Every frame is accounted for:
    /// written (and in the file) or counted as dropped.
    @Test(arguments: ["mp4", "mkv"])
    func aBurstOfFramesStreamedIsWrittenOrCountedDropped(container: String) throws {
        let folder = try temporaryFolder("\(#function)-\(container)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("burst.mp4")
        _ = try tool(
            "ffmpeg",
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-frames:v", "60",
                "-vf", "settb=1/90000,setpts=N", "-fps_mode", "passthrough",
                "-enc_time_base", "1/90000", "-video_track_timescale", "90000", "-c:v", "libx264", input.path,
            ])
        #expect(try Clips.frameCount(input) == 60)
        let output = folder.appendingPathComponent("out.\(container)")
        let result = try camstamp([
            "stream", "--source", "file:\(input.path)", "--text", "{frame}", "--to", output.path,
        ])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let match = try #require(
            result.stderr.firstMatch(of: try Regex(#"(\d+) frames written, (\d+) dropped"#)), "\(result.stderr)")
        let written = Int(try #require(match.output[1].substring))!,
            dropped = Int(try #require(match.output[2].substring))!
        #expect(written + dropped == 60, "\(result.stderr)")
        #expect(written >= 1)
        #expect(try Clips.frameCount(output) == written, "\(container)")
    }

    /// A clip whose sound ends seconds before its picture: its picture starts that late after
    /// its sound (`ffmpeg -itsoffset 4 -i picture.mp4 -i sound.m4a -c copy`, a screen recording,
    /// an edit with a black gap taken out), 4, 8 and 30 s, in MP4 and MOV; and the other way, its
    /// sound 8 s after its picture. decodebin3 held back the sound's end until the picture's, and
    /// qtmux waited for sound, so the pictures after the sound's end piled up in the queues and
    /// the clip stopped with nothing moving ("nothing moved for 20 s"): every late picture here.
    /// The output has every frame and every sound packet, each at its time: the offset kept. The
    /// picture lasts 8 s (160x120, as many pixels as 2 s of 320x240): a shorter one fits in the
    /// queues whole, and never stopped.
    @Test(arguments: [
        "late4.mp4", "late8.mp4", "late30.mp4", "late4.mov", "late8.mov", "late30.mov", "soundlate8.mp4",
        "soundlate8.mov",
    ])
    func aSoundThatEndsBeforeThePictureIsAllKeptInSync(name: String) throws {
        let folder = try temporaryFolder("\(#function)-\(name)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.checkOffsetClip(name, in: folder, picture: (seconds: 8, size: "160x120"), sound: 8)
    }

    /// A short picture under a long sound: 2 s of picture 30 s after 2 s of sound, in MP4 and
    /// MOV, and 2 s of picture 4 s into 12 s of sound. qtdemux leaves out a track shorter than a
    /// fifth of the movie (a preview picture, it takes it for): the first had no playable stream
    /// at all, the second no video ("the file has no video stream"). Both are marked whole, in
    /// sync, with no warning (the picture was said to be cut short: 2.0 s of 12.0 s).
    @Test(arguments: ["late30.mp4", "late30.mov", "late4-under12.mp4"])
    func aShortPictureUnderALongSoundIsKept(name: String) throws {
        let folder = try temporaryFolder("\(#function)-\(name)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.checkOffsetClip(
            name, in: folder, picture: (seconds: 2, size: "320x240"), sound: name.contains("under12") ? 12 : 2)
    }

    /// Makes `name` of a picture (`picture.seconds` long) and a sound (`sound` seconds), one late
    /// by the seconds its name says (`late4`: the picture 4 s late; `soundlate8`: the sound 8 s),
    /// marks it, and checks the output against it: every frame and every sound packet, each at
    /// its time, each stream starting where it did; and nothing said.
    static func checkOffsetClip(
        _ name: String, in folder: URL, picture: (seconds: Int, size: String), sound: Int
    ) throws {
        let pictureFile = folder.appendingPathComponent("picture.mp4"),
            soundFile = folder.appendingPathComponent("sound.m4a")
        _ = try tool(
            "ffmpeg",
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=\(picture.size):rate=30", "-t",
                "\(picture.seconds)",
                "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", pictureFile.path,
            ])
        _ = try tool(
            "ffmpeg",
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-t", "\(sound)",
                "-c:a", "aac", soundFile.path,
            ])
        let late = name.hasPrefix("soundlate"), seconds = String(name.drop { !$0.isNumber }.prefix { $0.isNumber })
        let input = folder.appendingPathComponent(name)
        let inputs =
            late
            ? ["-i", pictureFile.path, "-itsoffset", seconds, "-i", soundFile.path]
            : ["-itsoffset", seconds, "-i", pictureFile.path, "-i", soundFile.path]
        _ = try tool(
            "ffmpeg", ["-v", "error", "-y"] + inputs + ["-map", "0:v", "-map", "1:a", "-c", "copy", input.path])
        let sourceFrames = try Clips.videoFrameTimes(input), count = picture.seconds * 30
        #expect(sourceFrames.count == count, "\(name): \(sourceFrames.count) frames in the fixture")
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", input.path, "-o", out.path, "--text", "{frame}", "--json"])
        #expect(result.status == 0 && !result.stderr.contains("warning"), "\(name): \(result.stderr)")
        #expect(result.stdout.contains(#""frames":\#(count)"#), "\(name): \(result.stdout)")
        let output = out.appendingPathComponent(name)
        // Each stream starts where it did (ffprobe's start_time), each frame at its time, and the
        // sound packet for packet at the same times.
        #expect(try Clips.streamTiming(output) == Clips.streamTiming(input), "\(name)")
        let frames = try Clips.videoFrameTimes(output)
        #expect(
            frames == sourceFrames,
            "\(name): \(frames.count) frames, \(frames.prefix(2))…\(frames.suffix(2)) for \(sourceFrames.prefix(2))…\(sourceFrames.suffix(2))"
        )
        let packets = try Clips.audioPacketHashes(output), sourcePackets = try Clips.audioPacketHashes(input)
        #expect(
            sourcePackets.count >= sound * 46 && packets == sourcePackets,
            "\(name): \(packets.count) of \(sourcePackets.count) sound packets")
        #expect(try Clips.audioPacketTimes(output) == Clips.audioPacketTimes(input), "\(name)")
    }
}
