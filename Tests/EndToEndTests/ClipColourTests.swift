// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

/// What a clip's colours become: its range (full or limited) and its VUI colour fields.
@Suite(.serialized) struct ClipColourTests {
    /// The colour fields ffprobe reads (the decoder's view: the SPS's VUI, else the container's).
    static func colour(_ url: URL) throws -> String {
        String(
            decoding: try tool(
                "ffprobe",
                [
                    "-v", "error", "-select_streams", "v:0", "-show_entries",
                    "stream=color_range,color_space,color_primaries,color_transfer", "-of", "compact=p=0",
                    url.path,
                ]), as: UTF8.self
        ).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The first frame as RGB, as ffmpeg shows it (by the range and matrix the file says).
    static func rgb(_ url: URL, width: Int, height: Int) throws -> (Int, Int) -> [Int] {
        let bytes = [UInt8](
            try tool(
                "ffmpeg", ["-v", "error", "-i", url.path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        )
        guard bytes.count == width * height * 3 else {
            throw ToolFailure("\(bytes.count) bytes of RGB for \(width)x\(height)")
        }
        return { x, y in (0..<3).map { Int(bytes[(y * width + x) * 3 + $0]) } }
    }

    /// A clip of a dark grey left half (RGB 32) and a light grey right half (224): a full-range
    /// clip's samples read as limited come out 17 and 242, so a wrong range tag shows.
    static func halves(_ url: URL, size: (Int, Int), options: [String]) throws {
        let (width, height) = size
        _ = try tool(
            "ffmpeg",
            [
                "-v", "error", "-y", "-f", "lavfi", "-i",
                "color=c=0x202020:s=\(width)x\(height):r=30,drawbox=x=\(width / 2):y=0:w=\(width / 2):h=\(height):color=0xe0e0e0:t=fill",
                "-t", "1",
            ] + options + ["-c:v", "libx264", url.path])
    }

    /// A preset of one white block bottom-left, over the dark half: its inside is flat, so x264
    /// keeps it white.
    static func whiteBlock(in folder: URL) throws -> URL {
        let preset = folder.appendingPathComponent("white.json")
        try
            ##"{"name": "white", "marks": [{"text": "██", "size": "25%", "color": "#FFFFFF", "outline": false, "anchor": "bottom-left"}]}"##
            .write(to: preset, atomically: true, encoding: .utf8)
        return preset
    }

    /// `output`, `input` (a full-range clip of `halves`, 320x240) marked with `whiteBlock`, is
    /// tagged full range, keeps the fields `input` says, its greys where there is no mark, and
    /// the mark's white is white.
    static func expectFullRange(
        _ output: URL, from input: URL, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let name = output.lastPathComponent
        let source = try colour(input), marked = try colour(output)
        #expect(marked.hasPrefix("color_range=pc|"), "\(name): \(marked)", sourceLocation: sourceLocation)
        // Fields the source says are kept; one it leaves unsaid (a phone's) becomes what players assume for its size.
        if source.contains("bt709") {
            #expect(marked == source, "\(name): \(marked) from \(source)", sourceLocation: sourceLocation)
        }
        let before = try rgb(input, width: 320, height: 240), after = try rgb(output, width: 320, height: 240)
        for (x, y) in [(40, 40), (120, 100), (240, 40), (280, 200)] {
            let (a, b) = (before(x, y), after(x, y))
            #expect(
                zip(a, b).allSatisfy { abs($0 - $1) <= 3 }, "\(name) at (\(x),\(y)): \(b) where the source has \(a)",
                sourceLocation: sourceLocation)
        }
        // The mark's white is white: blended as limited range into a full-range frame it would be 235.
        let white = after(54, 197)
        #expect(white.allSatisfy { $0 >= 252 }, "\(name): the mark's white is \(white)", sourceLocation: sourceLocation)
    }

    /// Full-range clips (`yuvj420p`, as many Android phones write, with or without their colour
    /// description, in MP4, MOV and MKV) come out tagged full range with full-range samples, their
    /// colour fields kept: the same greys as the source where there is no mark, and the mark's white
    /// still white. GStreamer 1.22 tagged them limited and blended the marks as limited: the greys
    /// shifted from 32/224 to 17/242 on every player.
    @Test(arguments: [
        ("phone.mp4", ["-pix_fmt", "yuvj420p"]),
        (
            "bt709.mp4",
            ["-pix_fmt", "yuvj420p", "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709"]
        ),
        (
            "bt601.mov",
            [
                "-pix_fmt", "yuvj420p", "-colorspace", "smpte170m", "-color_primaries", "smpte170m", "-color_trc",
                "smpte170m",
            ]
        ),
        (
            "bt709.mkv",
            ["-pix_fmt", "yuvj420p", "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709"]
        ),
        ("phone.mkv", ["-pix_fmt", "yuvj420p"]),
    ])
    func aFullRangeClipKeepsItsRangeAndItsGreys(name: String, options: [String]) throws {
        let folder = try temporaryFolder("\(#function)-\(name)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent(name)
        try Self.halves(input, size: (320, 240), options: options)
        let source = try Self.colour(input)
        #expect(source.hasPrefix("color_range=pc|"), "the fixture is not full range: \(source)")
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", input.path, "-o", out.path, "--preset", Self.whiteBlock(in: folder).path])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        try Self.expectFullRange(out.appendingPathComponent(name), from: input)
    }

    /// `stream --source file:CLIP` keeps a full-range clip full range too, into MP4 and MKV: its
    /// frames went through GStreamer's limited tag as a batch's did (greys 32/224 out as 17/242).
    @Test(arguments: [("bt709.mp4", "mp4"), ("bt709.mp4", "mkv"), ("phone.mov", "mp4"), ("bt709.mkv", "mkv")])
    func aFullRangeClipStreamedToAFileKeepsItsRangeAndItsGreys(name: String, container: String) throws {
        let folder = try temporaryFolder("\(#function)-\(name)-\(container)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent(name)
        let described =
            name.hasPrefix("bt709") ? ["-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709"] : []
        try Self.halves(input, size: (320, 240), options: ["-pix_fmt", "yuvj420p"] + described)
        let output = folder.appendingPathComponent("out.\(container)")
        let result = try camstamp([
            "stream", "--source", "file:" + input.path, "--preset", Self.whiteBlock(in: folder).path,
            "--duration", "1", "--to", output.path,
        ])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        try Self.expectFullRange(output, from: input)
    }

    /// `shoot --source file:CLIP` takes its photo from a full-range clip with the clip's greys:
    /// its capture tagged the frames limited, and the JPEG (full range by its format) came out
    /// with 32/224 stretched to 15/240.
    @Test func aPhotoShotFromAFullRangeClipKeepsItsGreys() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("phone.mp4")
        try Self.halves(
            input, size: (320, 240),
            options: [
                "-pix_fmt", "yuvj420p", "-colorspace", "bt709", "-color_primaries", "bt709",
                "-color_trc", "bt709",
            ])
        let photo = folder.appendingPathComponent("still.jpg")
        let result = try camstamp([
            "shoot", "--source", "file:" + input.path, "--text", "x", "--warmup", "1", "-o", photo.path,
        ])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let before = try Self.rgb(input, width: 320, height: 240), after = try Self.rgb(photo, width: 320, height: 240)
        for (x, y) in [(40, 40), (120, 100), (240, 40), (280, 100)] {
            let (a, b) = (before(x, y), after(x, y))
            #expect(zip(a, b).allSatisfy { abs($0 - $1) <= 3 }, "at (\(x),\(y)): \(b) where the source has \(a)")
        }
    }

    /// An MP4 whose `colr nclx` box says full range and whose H.264 SPS says no range (no VUI
    /// `video_signal_type`) is full range, as ffmpeg and players read it: qtdemux's caps never say
    /// full (it reads the flag from the matrix's byte), the decoder found no range in the stream,
    /// and the frames came out limited. Made so: full-range samples coded as plain `yuv420p` (x264
    /// writes no range), then the box's fields set in a remux (`-c copy -color_range pc`).
    @Test func aFullRangeBoxOverAnSPSWithoutARangeIsFullRange() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let full = folder.appendingPathComponent("full.yuv"), coded = folder.appendingPathComponent("coded.mp4")
        let input = folder.appendingPathComponent("boxed.mp4")
        _ = try tool(
            "ffmpeg",
            [
                "-v", "error", "-y", "-f", "lavfi", "-i",
                "color=c=0x202020:s=320x240:r=30,drawbox=x=160:y=0:w=160:h=240:color=0xe0e0e0:t=fill",
                "-t", "1", "-pix_fmt", "yuvj420p", "-f", "rawvideo", full.path,
            ])
        _ = try tool(
            "ffmpeg",
            [
                "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "320x240", "-r", "30", "-i",
                full.path,
                "-c:v", "libx264", coded.path,
            ])
        _ = try tool(
            "ffmpeg",
            [
                "-v", "error", "-y", "-i", coded.path, "-c", "copy", "-color_range", "pc", "-colorspace", "bt709",
                "-color_primaries", "bt709", "-color_trc", "bt709", "-movflags", "+write_colr", input.path,
            ])
        // The stream alone (Annex B, no container) says what its SPS says: nothing.
        let stream = folder.appendingPathComponent("stream.h264")
        _ = try tool("ffmpeg", ["-v", "error", "-y", "-i", input.path, "-c", "copy", "-f", "h264", stream.path])
        #expect(
            try Self.colour(stream)
                == "color_range=unknown|color_space=unknown|color_transfer=unknown|color_primaries=unknown")
        #expect(try Self.colour(input) == "color_range=pc|color_space=bt709|color_transfer=bt709|color_primaries=bt709")
        let preset = try Self.whiteBlock(in: folder)
        let out = folder.appendingPathComponent("out")
        let marked = try camstamp(["batch", input.path, "-o", out.path, "--preset", preset.path])
        #expect(marked.status == 0, "stderr: \(marked.stderr)")
        try Self.expectFullRange(out.appendingPathComponent("boxed.mp4"), from: input)
        let streamed = folder.appendingPathComponent("streamed.mkv")
        let result = try camstamp([
            "stream", "--source", "file:" + input.path, "--preset", preset.path, "--duration", "1", "--to",
            streamed.path,
        ])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        try Self.expectFullRange(streamed, from: input)
    }

    /// Limited-range clips stay limited, their colour fields kept (a BT.601 SD clip, an SD clip
    /// in BT.709 that GStreamer would otherwise call BT.601, an HD clip in BT.709, a PAL-transfer HD
    /// clip in MKV), and so do their greys.
    @Test(
        arguments: [
            ("sd601.mp4", (640, 480), "smpte170m", "smpte170m", "smpte170m", "smpte170m"),
            ("sd709.mp4", (640, 480), "bt709", "bt709", "bt709", "bt709"),
            ("hd709.mov", (1280, 720), "bt709", "bt709", "bt709", "bt709"),
            // GStreamer knows one BT.601 matrix, written as smpte170m: bt470bg's coefficients are the same.
            ("hd470.mkv", (1280, 720), "bt470bg", "bt470bg", "gamma28", "smpte170m"),
        ] as [(String, (Int, Int), String, String, String, String)])
    func aLimitedRangeClipKeepsItsColourFields(
        name: String, size: (Int, Int), matrix: String, primaries: String, transfer: String,
        written: String
    ) throws {
        let folder = try temporaryFolder("\(#function)-\(name)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent(name)
        try Self.halves(
            input, size: size,
            options: [
                "-pix_fmt", "yuv420p", "-colorspace", matrix, "-color_primaries", primaries, "-color_trc", transfer,
            ])
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", input.path, "-o", out.path, "--text", "MARK"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let output = out.appendingPathComponent(name)
        let source = try Self.colour(input), marked = try Self.colour(output)
        let transferName = transfer == "gamma28" ? "bt470bg" : transfer
        #expect(
            source
                == "color_range=tv|color_space=\(matrix)|color_transfer=\(transferName)|color_primaries=\(primaries)",
            "\(source)")
        #expect(
            marked
                == "color_range=tv|color_space=\(written)|color_transfer=\(transferName)|color_primaries=\(primaries)",
            "\(name): \(marked)")
        let (width, height) = size
        let before = try Self.rgb(input, width: width, height: height),
            after = try Self.rgb(output, width: width, height: height)
        for (x, y) in [(width / 8, height / 8), (width * 7 / 8, height / 8)] {
            let (a, b) = (before(x, y), after(x, y))
            #expect(
                zip(a, b).allSatisfy { abs($0 - $1) <= 3 }, "\(name) at (\(x),\(y)): \(b) where the source has \(a)")
        }
    }
}
