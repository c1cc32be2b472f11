// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Synchronization
import Testing
@testable import Media
import TestSupport

/// `ffmpeg -i input -c copy ARGUMENTS output`: the same streams with other container metadata.
private func remux(_ input: URL, to output: URL, _ arguments: [String]) throws {
    try tool("ffmpeg", ["-v", "error", "-y", "-i", input.path, "-c", "copy"] + arguments + [output.path])
}

@Suite struct ClipContainerTests {
    @Test func containersAreKnownByTheirFirstBytes() {
        func header(_ bytes: [UInt8], _ text: String = "") -> Data {
            Data(bytes + Array(text.utf8) + [UInt8](repeating: 0, count: 16))
        }
        #expect(ClipContainer(sniffing: header([0, 0, 0, 0x20], "ftypisom")) == .mp4)
        #expect(ClipContainer(sniffing: header([0, 0, 0, 0x14], "ftypqt  ")) == .mov)
        #expect(ClipContainer(sniffing: header([0, 0, 0, 0x08], "wide")) == .mov)
        #expect(ClipContainer(sniffing: header([0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x82, 0x84], "webm")) == .webm)
        #expect(ClipContainer(sniffing: header([0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x82, 0x88], "matroska")) == .mkv)
        #expect(ClipContainer(sniffing: header([0xFF, 0xD8, 0xFF, 0xE0], "JFIF")) == nil)
        #expect(ClipContainer(sniffing: Data("ftyp".utf8)) == nil)
    }
}

@Suite struct ClipStreamsTests {
    /// The probe finds the video codec, the audio caps (parsed, not decoded) and the MP4's
    /// creation time, the clock `{time}` counts from.
    @Test func theProbeReadsStreamsAndCreationTime() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plain = folder.appendingPathComponent("plain.mp4"), dated = folder.appendingPathComponent("dated.mp4")
        try writeWithGStreamer(
            "videotestsrc num-buffers=15 ! video/x-raw,width=64,height=48,framerate=15/1 ! x264enc ! h264parse ! queue ! mp4mux name=m ! filesink location={location} audiotestsrc num-buffers=20 ! audioconvert ! avenc_aac ! aacparse ! queue ! m.",
            to: plain)
        try remux(plain, to: dated, ["-metadata", "creation_time=2024-05-06T07:08:09Z"])
        let streams = try ClipStreams.probe(dated)
        #expect(streams.video == "video/x-h264")
        #expect(streams.audioType == "audio/mpeg")
        #expect(streams.audioFits(.mp4) && streams.audioFits(.mkv) && !streams.audioFits(.webm))
        #expect(streams.created == ISO8601DateFormatter().date(from: "2024-05-06T07:08:09Z"))
        #expect(abs(Double(streams.duration ?? 0) / 1e9 - 1) < 0.1)
    }

    /// An MP4 cut before its moov (written at the end, the file cut at 60 %) fails at once, every
    /// time: qtdemux's "no playable streams" was dropped by parsebin about one run in two, and the
    /// probe then waited 20 s for streams that never came. The guard is a hang guard (the probe's
    /// own limit is 20 s), not a timing goal.
    @Test func aClipCutBeforeItsIndexFailsAtOnceEveryTime() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let whole = folder.appendingPathComponent("whole.mp4"), cut = folder.appendingPathComponent("cut.mp4")
        try writeWithGStreamer(
            "videotestsrc num-buffers=90 ! video/x-raw,width=320,height=240,framerate=30/1 ! x264enc speed-preset=veryfast ! h264parse ! mp4mux ! filesink location={location}",
            to: whole)
        let bytes = try Data(contentsOf: whole)
        try bytes.prefix(bytes.count * 6 / 10).write(to: cut)
        for run in 1...6 {
            let started = ContinuousClock.now
            do {
                _ = try ClipStreams.probe(cut)
                Issue.record("run \(run): a clip without its moov was read")
            } catch {
                if case .timeout = error { Issue.record("run \(run): \(error)") }
            }
            #expect(ContinuousClock.now - started < .seconds(10), "run \(run)")
        }
    }
}

@Suite struct ClipOrientationTests {
    /// The shipped clip template, read from this checkout.
    static let template = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../pipelines/clip.pipeline").standardized

    /// The probe reads a phone's rotation tag; only a clip with one gets a videoflip (which copies
    /// every frame, turned or not), a clip without one an identity in its place.
    @Test func onlyAClipWithARotationTagGetsAVideoflip() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plain = folder.appendingPathComponent("plain.mp4"), turned = folder.appendingPathComponent("turned.mp4")
        try writeWithGStreamer(
            "videotestsrc num-buffers=15 ! video/x-raw,width=64,height=48,framerate=15/1 ! x264enc ! h264parse ! mp4mux ! filesink location={location}",
            to: plain)
        try remux(plain, to: turned, ["-metadata:s:v", "rotate=90"])
        let plainStreams = try ClipStreams.probe(plain), turnedStreams = try ClipStreams.probe(turned)
        #expect(!plainStreams.isTurned, "\(plainStreams.orientation ?? "no tag")")
        // ffmpeg's rotate=90 is a matrix qtdemux reads as rotate-270: which way is the end-to-end test's to check.
        #expect(
            ["rotate-90", "rotate-270"].contains(turnedStreams.orientation) && turnedStreams.isTurned,
            "\(turnedStreams.orientation ?? "no tag")")
        for (input, streams) in [(plain, plainStreams), (turned, turnedStreams)] {
            let clip = try ClipPipeline(
                template: PipelineTemplate(contentsOf: Self.template), input: input,
                output: folder.appendingPathComponent("out.mp4"), codec: .h264, container: .mp4,
                audio: .none, threads: 1, turned: streams.isTurned
            ) { _, _, _ in nil }
            let elements = clip.pipeline.elementSummary()
            #expect(
                elements.contains("videoflip:orient") == streams.isTurned, "\(input.lastPathComponent): \(elements)")
            #expect(
                elements.contains { $0.hasPrefix("videoflip") } == streams.isTurned,
                "\(input.lastPathComponent): \(elements)")
        }
    }
}

@Suite struct ClipCopyTests {
    /// A 1080p frame reaches the marks ours alone, so blending in place copies nothing: the decoder
    /// keeps each frame as a reference a few frames after it is out (frame threads, B-frame
    /// reordering), and the queue after it holds enough frames for that (its default 10 MB, three
    /// 1080p frames, let 89 of these 90 frames arrive shared and be copied whole). The first come
    /// before the queue fills: while x264 fills its lookahead (~40 frames) it takes frames as fast
    /// as they come, and some arrive still shared (12-17 with x264enc, 20-42 with camstampx264enc,
    /// which takes each frame a little sooner, on a loaded machine); none once it runs.
    @Test func framesReachTheMarksUnshared() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.mp4")
        try writeWithGStreamer(
            "videotestsrc num-buffers=90 pattern=smpte75 horizontal-speed=2 ! video/x-raw,width=1920,height=1080,framerate=30/1 ! x264enc speed-preset=medium bitrate=8000 ! h264parse ! mp4mux ! filesink location={location}",
            to: input, timeout: .seconds(60))
        let clip = try ClipPipeline(
            template: PipelineTemplate(contentsOf: ClipOrientationTests.template), input: input,
            output: folder.appendingPathComponent("out.mp4"), codec: .h264, container: .mp4,
            audio: .none, threads: 0, turned: false
        ) { _, _, _ in nil }
        let frames = try clip.run(progress: { _ in }, cancelled: { false })
        #expect(frames == 90)
        #expect(
            clip.sharedFrames <= frames / 2,
            "\(clip.sharedFrames) of \(frames) frames reached the marks shared and were copied")
    }

    /// libav's decoder in a clip decodes with slice threads, not frame threads: the encoder keeps
    /// the cores busy, and frame threads only added their hand-offs (decoding the bench's 1080p
    /// clip took 2.0-2.1 s of CPU with them, 1.5-1.6 s without).
    @Test func theDecoderUsesSliceThreads() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.mp4")
        try writeWithGStreamer(
            "videotestsrc num-buffers=10 ! video/x-raw,width=320,height=240,framerate=30/1 ! x264enc ! h264parse ! mp4mux ! filesink location={location}",
            to: input)
        let seen = Mutex<[String]>([])
        var clip: ClipPipeline?
        clip = try ClipPipeline(
            template: PipelineTemplate(contentsOf: ClipOrientationTests.template), input: input,
            output: folder.appendingPathComponent("out.mp4"), codec: .h264, container: .mp4,
            audio: .none, threads: 0, turned: false
        ) { _, index, _ in
            if index == 0, let pipeline = clip?.pipeline {
                let decoders = pipeline.allElements().filter {
                    Pipeline.factoryName(of: $0.pointer)?.hasPrefix("avdec_") == true
                }
                seen.withLock { $0 = decoders.map { $0.string("thread-type") ?? "?" } }
            }
            return nil
        }
        #expect(try clip?.run(progress: { _ in }, cancelled: { false }) == 10)
        // g_strdup_value_contents says "((GstLibAVVidDecThreadType) Slice)".
        let types = seen.withLock { $0 }
        #expect(types.count == 1 && types[0].hasSuffix("Slice)"), "\(types)")
    }
}

/// The clips' own H.264 encoder element (camstampx264enc): libx264 set as `ffmpeg -c:v libx264
/// -preset medium -crf 23` sets it, every frame out, decodable.
@Suite struct ClipEncoderTests {
    /// The x264 settings line libx264 writes into its stream (an SEI), after "options: ".
    static func x264Options(_ file: URL) throws -> String? {
        let bytes = [UInt8](try Data(contentsOf: file))
        let marker = Array("x264 - core".utf8)
        guard
            let start = (0...(bytes.count - marker.count)).first(where: {
                Array(bytes[$0..<$0 + marker.count]) == marker
            })
        else { return nil }
        let text = String(decoding: bytes[start...].prefix { $0 >= 0x20 && $0 <= 0x7E }, as: UTF8.self)
        return text.range(of: "options: ").map { String(text[$0.upperBound...]) }
    }

    /// `tool`'s status, and what it printed on stdout and stderr together.
    static func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let result = try runProcess(tool, arguments)
        return (result.status, result.stdout + result.stderr)
    }

    /// The encoder lets go of each marked frame once libx264 has copied it: x264enc kept every
    /// frame until its coded picture came out, ~50 frames behind (lookahead, B-frames, frame
    /// threads: 47 here), 150 MB of 1080p frames held for nothing, and the pool before it grew
    /// as large.
    @Test func theEncoderLetsGoOfEachFrame() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.mp4")
        // 4:2:0, as phones write it: the marked frames go into the encoder as they are (4:4:4 would
        // be converted to new frames first, and the marked ones freed at once).
        try writeWithGStreamer(
            "videotestsrc num-buffers=90 pattern=smpte75 horizontal-speed=2 ! video/x-raw,format=I420,width=640,height=360,framerate=30/1 ! x264enc ! h264parse ! mp4mux ! filesink location={location}",
            to: input)
        let clip = try ClipPipeline(
            template: PipelineTemplate(contentsOf: ClipOrientationTests.template), input: input,
            output: folder.appendingPathComponent("out.mp4"), codec: .h264, container: .mp4,
            audio: .none, threads: 0, turned: false
        ) { _, _, _ in nil }
        clip.countsFramesHeld = true
        #expect(try clip.run(progress: { _ in }, cancelled: { false }) == 90)
        // The frame being coded, and the next on its way in.
        #expect(clip.mostFramesHeld <= 2, "the encoder held \(clip.mostFramesHeld) frames at once")
    }

    @Test func theEncoderCodesEveryFrameWithFfmpegsX264Settings() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.mp4"), output = folder.appendingPathComponent("out.mp4")
        let reference = folder.appendingPathComponent("ffmpeg.mp4")
        try writeWithGStreamer(
            "videotestsrc num-buffers=75 pattern=smpte75 horizontal-speed=2 ! video/x-raw,width=640,height=360,framerate=25/1 ! x264enc ! h264parse ! mp4mux ! filesink location={location}",
            to: input)
        let clip = try ClipPipeline(
            template: PipelineTemplate(contentsOf: ClipOrientationTests.template), input: input,
            output: output, codec: .h264, container: .mp4, audio: .none, threads: 0, turned: false
        ) { _, _, _ in nil }
        #expect(try clip.run(progress: { _ in }, cancelled: { false }) == 75)
        #expect(clip.pipeline.elementSummary().contains("camstampx264enc:encoder"), "\(clip.pipeline.elementSummary())")

        // Every frame decodes, without a word from the decoder, and the clip lasts 3 s.
        let decoded = try Self.run("ffmpeg", ["-v", "error", "-i", output.path, "-f", "null", "-"])
        #expect(decoded.status == 0 && decoded.output.isEmpty, "\(decoded.output)")
        let probe = try Self.run(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "v:0", "-count_frames", "-show_entries",
                "stream=nb_read_frames,duration,profile", "-of", "default=nw=1", output.path,
            ])
        #expect(probe.output.contains("nb_read_frames=75"), "\(probe.output)")
        #expect(probe.output.contains("profile=High"), "\(probe.output)")
        let duration = probe.output.split(separator: "\n").first { $0.hasPrefix("duration=") }.flatMap {
            Double($0.dropFirst(9))
        }
        #expect(abs((duration ?? 0) - 3) <= 0.04, "\(probe.output)")

        // The same settings line as ffmpeg's libx264 at its preset and quality on this machine.
        let ffmpeg = try Self.run(
            "ffmpeg",
            [
                "-v", "error", "-y", "-i", input.path, "-c:v", "libx264", "-preset", "medium", "-crf", "23",
                "-pix_fmt", "yuv420p", reference.path,
            ])
        #expect(ffmpeg.status == 0, "\(ffmpeg.output)")
        let ours = try Self.x264Options(output), theirs = try Self.x264Options(reference)
        #expect(ours != nil && ours == theirs, "ours: \(ours ?? "none")\nffmpeg: \(theirs ?? "none")")
    }
}
