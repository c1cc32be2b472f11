// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// `camstamp stream`: its table and the options it builds.
import CamStamp
import Foundation
import Presets

extension Commands {
    /// `camstamp stream`.
    enum Stream {
        static let to = Repeated<StreamTarget>(
            "to", value: "TARGET",
            help: "out.mp4, out.mkv, or rtp://HOST:PORT (H.264 over RTP/UDP; the SDP a receiver "
                + "needs is printed on stdout); rtmp://HOST/APP/KEY (FLV, H.264 + AAC), srt://HOST:PORT "
                + "(MPEG-TS, caller) or srt://:PORT?mode=listener, hls:DIR (2 s segments and index.m3u8), "
                + "whip://HOST:PORT/PATH or whips://… (WebRTC to a WHIP endpoint, H.264 + Opus), "
                + "v4l2:/dev/videoN (a v4l2loopback device: the marked pictures as a webcam for calls). "
                + "Repeatable: every target gets the same encode; a network target that drops is "
                + "retried while the others go on. Required unless --serve is given."
        ) { try StreamTarget(parsing: $0, option: $1) }
        static let serve = Single<RTSPServe>(
            "serve", value: "URL",
            help: "Serve the stream over RTSP, e.g. rtsp://0.0.0.0:8554/live: any number of viewers, one encode."
        ) {
            try RTSPServe(parsing: $0, option: $1)
        }
        static let audio = Single<AudioChoice>(
            "audio", value: "SOURCE",
            help: "auto (the test source's tone, a clip's own sound, or the microphone), none, or a PulseAudio "
                + "source / ALSA device such as hw:1,0; AAC (Opus in MKV and WHIP). Default: auto when publishing (RTMP, "
                + "SRT, HLS, RTSP, WHIP) and for --source file:, none for a camera into files and RTP alone."
        ) { try AudioChoice(parsing: $0, option: $1) }
        static let duration = Single<Double>(
            "duration", value: "SEC",
            help: "Stop by itself after SEC seconds of wall time, even when the source cannot keep up; "
                + "otherwise run until Ctrl-C or SIGTERM."
        ) { try NumberOption.seconds($0, option: $1) }
        static let bitrate = Single<Int>(
            "bitrate", value: "KBPS", help: "H.264 bitrate, kbit/s, up to \(H264Limits.bitrate.upperBound).",
            default: "\(StreamOptions.defaultBitrate)"
        ) { try NumberOption.integer($0, option: $1, in: H264Limits.bitrate) }
        static let whipToken = Single<String>(
            "whip-token", value: "TOKEN",
            help: "Send TOKEN as a Bearer token to every whip:// or whips:// target (the endpoint's stream key)."
        )
        static let sdp = Single<String>("sdp", value: "FILE", help: "Also write the SDP of an RTP stream to FILE.")
        static let snapshotFolder = Single<String>(
            "snapshot-dir", value: "DIR",
            help:
                "Each SIGUSR1 (kill -USR1 PID) writes the current frame, marked, there as a full-size JPEG (the folder is created if missing; no file is ever replaced); the stream goes on."
        )
        static let overwrite = Flag(
            "overwrite", help: "Replace the --to file and the --sdp file if they exist (otherwise they are refused).")
        static let json = Flag(
            "json",
            help: "Print the summary as one JSON object on stdout when the stream ends, Ctrl-C "
                + "too: {\"summary\": {targets, frames, dropped, seconds, snapshots, outages, interrupted}}.")

        static let spec = CommandSpec(
            "stream",
            overview: "Stamp live video and record it to files or publish it: RTP, RTMP, SRT, HLS, an RTSP server.",
            keys: markedCapture + [
                to, serve, audio, duration, size, fps, bitrate, whipToken, sdp, snapshotFolder, overwrite,
                pipeline, json, progress, gps,
            ] + Signing.keys,
            discussion: "The file is finalized and playable however the stream stops.")
    }

    static func streamOptions(_ values: OptionValues) throws -> StreamOptions {
        var targets = try values.get(Stream.to)
        if let serve = try values.get(Stream.serve) { targets.append(.serve(serve)) }
        guard let first = targets.first else {
            throw OptionValueError("missing required option '--to TARGET' for 'camstamp stream'")
        }
        var options = StreamOptions(target: first)
        options.moreTargets = Array(targets.dropFirst())
        options.audio = try values.get(Stream.audio)
        try applyMarkedCapture(values, to: &options)
        options.duration = try values.get(Stream.duration)
        options.size = try values.get(size)
        options.fps = try values.get(fps)
        // What x264 cannot take is refused here rather than failing (or crawling) once running.
        if let size = options.size { try H264Limits.check(size: size, mp4: options.recordsMP4) }
        if let fps = options.fps, let size = options.size ?? (options.source == .test ? H264Limits.testCameraSize : nil)
        {
            try H264Limits.check(fps: fps, size: size)
        }
        options.bitrate = try values.get(Stream.bitrate) ?? options.bitrate
        options.whipToken = try values.get(Stream.whipToken)
        if let token = options.whipToken {
            // RFC 6750's token characters: it goes into a header as it is.
            let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~+/="))
            guard !token.isEmpty, token.unicodeScalars.allSatisfy({ $0.isASCII && allowed.contains($0) }) else {
                throw OptionValueError(
                    "'--whip-token' must be letters, digits and - . _ ~ + / = only (a Bearer token)")
            }
            guard options.targets.contains(where: { if case .whip = $0 { true } else { false } }) else {
                throw OptionValueError("'--whip-token' is for whip:// and whips:// targets; give one with --to")
            }
        }
        options.sdp = try values.get(Stream.sdp).map { URL(fileURLWithPath: $0) }
        options.snapshotFolder = try values.get(Stream.snapshotFolder).map {
            URL(fileURLWithPath: $0, isDirectory: true)
        }
        options.overwrite = values.get(Stream.overwrite)
        options.json = values.get(Stream.json)
        options.pipeline = try values.get(pipeline)
        options.location = try locationOptions(values, photos: false)
        options.signing = try Signing.options(values)
        if options.signing != nil {
            for target in options.targets {
                guard case .file(_, .mp4) = target else {
                    throw OptionValueError(
                        "'--sign' signs finished MP4 recordings only: \(Signing.describe(target)) cannot carry "
                            + "Content Credentials; record to --to FILE.mp4 (and publish that file) to sign it")
                }
            }
        }
        return options
    }
}
