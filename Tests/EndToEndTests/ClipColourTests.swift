import Foundation
import Testing
import TestSupport

/// What a clip's colours become: its range (full or limited) and its VUI colour fields.
@Suite(.serialized) struct ClipColourTests {
    /// The colour fields ffprobe reads (the decoder's view: the SPS's VUI, else the container's).
    static func colour(_ url: URL) throws -> String {
        String(decoding: try tool("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                              "stream=color_range,color_space,color_primaries,color_transfer", "-of", "compact=p=0",
                                              url.path]), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The first frame as RGB, as ffmpeg shows it (by the range and matrix the file says).
    static func rgb(_ url: URL, width: Int, height: Int) throws -> (Int, Int) -> [Int] {
        let bytes = [UInt8](try tool("ffmpeg", ["-v", "error", "-i", url.path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]))
        guard bytes.count == width * height * 3 else { throw ToolFailure("\(bytes.count) bytes of RGB for \(width)x\(height)") }
        return { x, y in (0..<3).map { Int(bytes[(y * width + x) * 3 + $0]) } }
    }

    /// A clip of a dark grey left half (RGB 32) and a light grey right half (224): a full-range
    /// clip's samples read as limited come out 17 and 242, so a wrong range tag shows.
    static func halves(_ url: URL, size: (Int, Int), options: [String]) throws {
        let (width, height) = size
        _ = try tool("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i",
                                "color=c=0x202020:s=\(width)x\(height):r=30,drawbox=x=\(width / 2):y=0:w=\(width / 2):h=\(height):color=0xe0e0e0:t=fill",
                                "-t", "1"] + options + ["-c:v", "libx264", url.path])
    }

    /// Full-range clips (`yuvj420p`, as many Android phones write, with or without their colour
    /// description, in MP4, MOV and MKV) come out tagged full range with full-range samples, their
    /// colour fields kept: the same greys as the source where there is no mark, and the mark's white
    /// still white. GStreamer 1.22 tagged them limited and blended the marks as limited: the greys
    /// shifted from 32/224 to 17/242 on every player.
    @Test(arguments: [
        ("phone.mp4", ["-pix_fmt", "yuvj420p"]),
        ("bt709.mp4", ["-pix_fmt", "yuvj420p", "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709"]),
        ("bt601.mov", ["-pix_fmt", "yuvj420p", "-colorspace", "smpte170m", "-color_primaries", "smpte170m", "-color_trc", "smpte170m"]),
        ("bt709.mkv", ["-pix_fmt", "yuvj420p", "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709"]),
        ("phone.mkv", ["-pix_fmt", "yuvj420p"]),
    ])
    func aFullRangeClipKeepsItsRangeAndItsGreys(name: String, options: [String]) throws {
        let folder = try temporaryFolder("\(#function)-\(name)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent(name)
        try Self.halves(input, size: (320, 240), options: options)
        let source = try Self.colour(input)
        #expect(source.hasPrefix("color_range=pc|"), "the fixture is not full range: \(source)")
        // A white block bottom-left, over the dark half: its inside is flat, so x264 keeps it white.
        let preset = folder.appendingPathComponent("white.json")
        try ##"{"name": "white", "marks": [{"text": "██", "size": "25%", "color": "#FFFFFF", "outline": false, "anchor": "bottom-left"}]}"##
            .write(to: preset, atomically: true, encoding: .utf8)
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", input.path, "-o", out.path, "--preset", preset.path])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let output = out.appendingPathComponent(name)
        let marked = try Self.colour(output)
        #expect(marked.hasPrefix("color_range=pc|"), "\(name): \(marked)")
        // Fields the source says are kept; one it leaves unsaid (a phone's) becomes what players assume for its size.
        if source.contains("bt709") { #expect(marked == source, "\(name): \(marked) from \(source)") }
        let before = try Self.rgb(input, width: 320, height: 240), after = try Self.rgb(output, width: 320, height: 240)
        for (x, y) in [(40, 40), (120, 100), (240, 40), (280, 200)] {
            let (a, b) = (before(x, y), after(x, y))
            #expect(zip(a, b).allSatisfy { abs($0 - $1) <= 3 }, "\(name) at (\(x),\(y)): \(b) where the source has \(a)")
        }
        // The mark's white is white: blended as limited range into a full-range frame it would be 235.
        let white = after(54, 197)
        #expect(white.allSatisfy { $0 >= 252 }, "\(name): the mark's white is \(white)")
    }

    /// Limited-range clips stay limited, their colour fields kept (a BT.601 SD clip, an SD clip
    /// in BT.709 that GStreamer would otherwise call BT.601, an HD clip in BT.709, a PAL-transfer HD
    /// clip in MKV), and so do their greys.
    @Test(arguments: [
        ("sd601.mp4", (640, 480), "smpte170m", "smpte170m", "smpte170m", "smpte170m"),
        ("sd709.mp4", (640, 480), "bt709", "bt709", "bt709", "bt709"),
        ("hd709.mov", (1280, 720), "bt709", "bt709", "bt709", "bt709"),
        // GStreamer knows one BT.601 matrix, written as smpte170m: bt470bg's coefficients are the same.
        ("hd470.mkv", (1280, 720), "bt470bg", "bt470bg", "gamma28", "smpte170m"),
    ] as [(String, (Int, Int), String, String, String, String)])
    func aLimitedRangeClipKeepsItsColourFields(name: String, size: (Int, Int), matrix: String, primaries: String, transfer: String,
                                               written: String) throws {
        let folder = try temporaryFolder("\(#function)-\(name)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent(name)
        try Self.halves(input, size: size, options: ["-pix_fmt", "yuv420p", "-colorspace", matrix, "-color_primaries", primaries, "-color_trc", transfer])
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", input.path, "-o", out.path, "--text", "MARK"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let output = out.appendingPathComponent(name)
        let source = try Self.colour(input), marked = try Self.colour(output)
        let transferName = transfer == "gamma28" ? "bt470bg" : transfer
        #expect(source == "color_range=tv|color_space=\(matrix)|color_transfer=\(transferName)|color_primaries=\(primaries)", "\(source)")
        #expect(marked == "color_range=tv|color_space=\(written)|color_transfer=\(transferName)|color_primaries=\(primaries)", "\(name): \(marked)")
        let (width, height) = size
        let before = try Self.rgb(input, width: width, height: height), after = try Self.rgb(output, width: width, height: height)
        for (x, y) in [(width / 8, height / 8), (width * 7 / 8, height / 8)] {
            let (a, b) = (before(x, y), after(x, y))
            #expect(zip(a, b).allSatisfy { abs($0 - $1) <= 3 }, "\(name) at (\(x),\(y)): \(b) where the source has \(a)")
        }
    }
}
