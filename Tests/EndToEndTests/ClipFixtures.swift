// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

/// Test clips, made by GStreamer's test sources and ffmpeg.
enum Clips {
    /// `frames` frames of `pattern` at 320×240, 30 fps, H.264 with AAC, in MP4; `rotate` adds a
    /// phone's rotation tag (degrees), `created` a creation time.
    static func mp4(
        _ url: URL, frames: Int = 60, pattern: String = "smpte", rotate: Int? = nil, created: String? = nil,
        size: (Int, Int) = (320, 240), fps: Int = 30
    ) throws {
        let plain = url.deletingLastPathComponent().appendingPathComponent(".plain-" + url.lastPathComponent)
        try tool(
            "gst-launch-1.0",
            [
                "-q", "videotestsrc", "num-buffers=\(frames)", "pattern=\(pattern)", "foreground-color=0xff404040", "!",
                "video/x-raw,width=\(size.0),height=\(size.1),framerate=\(fps)/1", "!", "x264enc",
                "speed-preset=ultrafast", "!",
                "h264parse", "!", "queue", "!", "mp4mux", "name=m", "!", "filesink", "location=\(plain.path)",
                "audiotestsrc", "num-buffers=\(frames * 48000 / fps / 1024)", "samplesperbuffer=1024", "!",
                "audioconvert", "!",
                "avenc_aac", "!", "aacparse", "!", "queue", "!", "m.",
            ])
        var metadata: [String] = []
        if let rotate { metadata += ["-metadata:s:v", "rotate=\(rotate)"] }
        if let created { metadata += ["-metadata", "creation_time=\(created)"] }
        try tool(
            "ffmpeg",
            ["-v", "error", "-y", "-i", plain.path, "-map", "0", "-c", "copy"] + metadata + ["-f", "mp4", url.path])
        try FileManager.default.removeItem(at: plain)
    }

    /// VP9 with Opus in WebM, 320×240 at 30 fps.
    static func webm(_ url: URL, frames: Int = 60, pattern: String = "solid-color") throws {
        try tool(
            "gst-launch-1.0",
            [
                "-q", "videotestsrc", "num-buffers=\(frames)", "pattern=\(pattern)", "foreground-color=0xff404040", "!",
                "video/x-raw,width=320,height=240,framerate=30/1", "!", "vp9enc", "deadline=1", "cpu-used=8", "!",
                "queue", "!", "webmmux", "name=m", "!", "filesink", "location=\(url.path)",
                "audiotestsrc", "num-buffers=\(frames * 48000 / 30 / 960)", "samplesperbuffer=960", "!", "audioconvert",
                "!",
                "opusenc", "!", "queue", "!", "m.",
            ])
    }

    struct Stream: Equatable {
        var codec: String
        var width: Int?
        var height: Int?
        var pixelFormat: String?
        var rotation: String?
    }

    /// The streams ffprobe sees, in order.
    static func streams(_ url: URL) throws -> [Stream] {
        let data = try tool(
            "ffprobe",
            [
                "-v", "error", "-show_entries", "stream=codec_name,width,height,pix_fmt:stream_side_data=rotation",
                "-of", "json", url.path,
            ])
        let json = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return ((json?["streams"] as? [[String: Any]]) ?? []).map { stream in
            let rotation = ((stream["side_data_list"] as? [[String: Any]]) ?? []).compactMap { $0["rotation"] }.first
                .map { "\($0)" }
            return Stream(
                codec: stream["codec_name"] as? String ?? "?", width: stream["width"] as? Int,
                height: stream["height"] as? Int,
                pixelFormat: stream["pix_fmt"] as? String, rotation: rotation)
        }
    }

    /// The container's duration in seconds.
    static func duration(_ url: URL) throws -> Double {
        let text = String(
            decoding: try tool(
                "ffprobe",
                [
                    "-v", "error", "-show_entries", "stream=codec_type,duration:format=duration",
                    "-select_streams", "v:0", "-of", "csv=p=0", url.path,
                ]), as: UTF8.self)
        return text.split(whereSeparator: { $0 == "\n" || $0 == "," }).compactMap { Double($0) }.first ?? -1
    }

    /// The frames of the video stream, counted by decoding.
    static func frameCount(_ url: URL) throws -> Int {
        let text = String(
            decoding: try tool(
                "ffprobe",
                [
                    "-v", "error", "-count_frames", "-select_streams", "v:0",
                    "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", url.path,
                ]), as: UTF8.self)
        // An MPEG-TS lists the stream once more under its program.
        return text.split(whereSeparator: \.isNewline).first.flatMap { Int($0) } ?? -1
    }

    /// The MD5 of the audio packets as stored (no decoding).
    static func audioMD5(_ url: URL) throws -> String {
        String(
            decoding: try tool(
                "ffmpeg", ["-v", "error", "-i", url.path, "-map", "0:a", "-c", "copy", "-f", "md5", "-"]), as: UTF8.self
        )
    }

    /// The MD5 of each audio packet as stored, in order.
    static func audioPacketHashes(_ url: URL) throws -> [Substring] {
        let text = String(
            decoding: try tool(
                "ffmpeg", ["-v", "error", "-i", url.path, "-map", "0:a", "-c", "copy", "-f", "framemd5", "-"]),
            as: UTF8.self)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap {
            $0.split(separator: ",").last?.trimmingCharacters(in: .whitespaces)[...]
        }
    }

    /// Where each stream starts, and how long the sound lasts, as ffprobe gives them (edit lists
    /// applied): `video,0.050000`, `audio,0.000000,3.000000`.
    static func streamTiming(_ url: URL) throws -> [String] {
        let text = String(
            decoding: try tool(
                "ffprobe",
                [
                    "-v", "error", "-show_entries", "stream=codec_type,start_time,duration",
                    "-of", "csv=p=0", url.path,
                ]), as: UTF8.self)
        return text.split(separator: "\n").map { line in
            line.hasPrefix("audio") ? String(line) : line.split(separator: ",").prefix(2).joined(separator: ",")
        }
    }

    /// Each audio packet's PTS, DTS, duration, size and flags (`D`: discarded, the priming), as
    /// ffprobe reads them (edit lists applied).
    static func audioPacketTimes(_ url: URL) throws -> [Substring] {
        String(
            decoding: try tool(
                "ffprobe",
                [
                    "-v", "error", "-select_streams", "a:0", "-show_entries", "packet=pts,dts,duration,size,flags",
                    "-of", "csv=p=0", url.path,
                ]), as: UTF8.self
        ).split(separator: "\n")
    }

    /// When each decoded frame is shown (s), as ffprobe gives it (edit lists applied).
    static func videoFrameTimes(_ url: URL) throws -> [Double] {
        String(
            decoding: try tool(
                "ffprobe",
                [
                    "-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pts_time", "-of", "csv=p=0",
                    url.path,
                ]), as: UTF8.self
        )
        .split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: CharacterSet(charactersIn: ", "))) }
    }

    /// The sound decoded by ffmpeg, as 16-bit samples.
    static func decodedAudio(_ url: URL) throws -> Data {
        try tool("ffmpeg", ["-v", "error", "-i", url.path, "-map", "0:a", "-f", "s16le", "-"])
    }

    /// The first video timestamp less the first audio timestamp, in seconds, as ffprobe reads the
    /// packets (edit lists applied): how far the picture starts after the sound.
    static func videoAfterAudio(_ url: URL) throws -> Double {
        func first(_ stream: String) throws -> Double {
            let text = String(
                decoding: try tool(
                    "ffprobe",
                    [
                        "-v", "error", "-select_streams", stream, "-show_entries", "packet=pts_time",
                        "-of", "csv=p=0", url.path,
                    ]), as: UTF8.self)
            return try #require(
                text.split(separator: "\n").compactMap {
                    Double($0.trimmingCharacters(in: CharacterSet(charactersIn: ", ")))
                }.min(),
                "\(url.lastPathComponent): no \(stream) packets")
        }
        return try first("v:0") - first("a:0")
    }

    /// The luma of the frame at `seconds`, as ffmpeg shows it (rotation applied), as rows.
    static func luma(_ url: URL, at seconds: Double, width: Int, height: Int) throws -> [[UInt8]] {
        let data = try tool(
            "ffmpeg",
            [
                "-v", "error", "-ss", String(seconds), "-i", url.path, "-frames:v", "1",
                "-f", "rawvideo", "-pix_fmt", "gray", "-",
            ])
        let bytes = [UInt8](data)
        guard bytes.count == width * height else {
            throw ToolFailure("\(bytes.count) bytes of luma for \(width)x\(height)")
        }
        return (0..<height).map { Array(bytes[($0 * width)..<($0 * width + width)]) }
    }
}
