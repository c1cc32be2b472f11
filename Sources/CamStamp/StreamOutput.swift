// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import Media

/// The output part of a stream's one pipeline, from `identity name=pace` to every target's sink,
/// and for each target which of its elements are its own. One value, built here, that both the
/// launch and the job's failure logic read: no element name is made up in two places.
///
/// One file or RTP address without sound is the one-target case: its shipped template
/// (`stream-mkv`, `stream-mp4`, `stream-rtp`) after the encode head, no tee. Anything more (several
/// targets, a network server, sound) is composed: one encode, a `tee`, a branch per target.
/// Both start with the one encode head, `stream-encode.pipeline`.
struct StreamOutput {
    /// One target's part of the output.
    struct Branch {
        let target: StreamTarget
        /// Its index among `StreamOptions.targets`.
        let index: Int
        /// The elements a failure of the target comes from (an error from one, or from inside
        /// one, is the target's): a file's or HLS's, the targets that can fail alone (a full
        /// disk). A network target fails in a pipeline of its own (`Relay`) or not at all.
        var parts: [String] = []
        /// The queues the tees push into, which drop what comes once the target has failed
        /// (`LiveStream.isolateFailedBranches`); none without a tee.
        var heads: [String] = []
        /// The sink ended (or taken out) by hand once the target has failed alone.
        var sink: String?
        /// The appsink a network target's relay pulls from.
        var tap: String?
        /// The appsink of its sound, for a target that takes it apart from the pictures (WHIP).
        var soundTap: String?
        /// The RTP payloader whose caps make the SDP.
        var payloader: String?
    }

    /// Launch text of the output part.
    let launch: String
    /// One for each target, in command-line order.
    let branches: [Branch]
    /// The RTSP server, when a target is one.
    let serve: RTSPServe?
    /// Whether sound is encoded for the targets (the composed output's `soundSource`).
    let hasSound: Bool

    /// The tee that hands the encoded video to every branch.
    static let videoTee = "video"
    /// The sound source of a composed output.
    static let soundSource = "soundsource"
    /// The RTSP server's taps: its video, and its sound.
    static let rtspVideoTap = "rtspvideo", rtspAudioTap = "rtspaudio"

    /// The sink of `target`'s branch, which is ended (or taken out) by hand once it failed alone:
    /// a file's filesink, the hlssink2; empty, which names no element, for any other.
    func sink(of target: StreamTarget) -> String {
        branches.first { $0.target == target }?.sink ?? ""
    }

    /// The output for `options`' targets. `rtpAddress` is the RTP host, resolved; `recordings`
    /// where each file is written until it has a frame (`Recordings`); `resources` holds the
    /// templates. `sound` is asked once: for the composed output, the source element whose sound
    /// is encoded for every target (nil: silent); for one file, the clip's own audio branch, copied
    /// into its muxer (`StreamJob.fileAudio`; nil or empty: none).
    static func plan(
        options: StreamOptions, rtpAddress: String?, recordings: [URL: URL], resources: Resources?,
        sound: () throws(CamStampError) -> String?
    ) throws(CamStampError) -> StreamOutput {
        guard options.isComposed else {
            let encode = try encodeHead(options: options, resources: resources)
            return try oneTarget(
                options: options, encode: encode, rtpAddress: rtpAddress, recordings: recordings,
                resources: resources, copiedAudio: sound)
        }
        let audio = try sound()
        let encode = try encodeHead(options: options, resources: resources)
        return try composed(
            options: options, encode: encode, rtpAddress: rtpAddress, audio: audio,
            recordings: recordings)
    }

    /// The encode head, filled in: the frames from `pace`, the queue `mark`, the encoder; with
    /// the tee `raw` for V4L2 devices. Without the encoder when every target is a V4L2 device
    /// (`stream-raw.pipeline`).
    private static func encodeHead(
        options: StreamOptions,
        resources: Resources?
    ) throws(CamStampError) -> LaunchFragment {
        let fps = options.fps ?? 30
        let raw = options.targets.contains { if case .v4l2 = $0 { true } else { false } }
        let name = options.encodes ? "stream-encode" : "stream-raw"
        let template = try Templates.load(nil, builtIn: name, resources: resources)
        if raw && options.encodes && !template.text.contains("{raw}") {
            throw .failure(
                "\(template.origin): has no {raw} (the tee that feeds --to v4l2:); add it after the encoder's I420 caps"
            )
        }
        let values: [String: PipelineTemplate.Value] = [
            "bitrate": .integer(options.bitrate),
            "keyint": .integer(max(fps, 1)),
            "raw": .fragment(raw ? .rawTee : .empty),
        ]
        do { return try template.fragment(values) } catch {
            throw .failure("\(options.targetDescription): \(error)")
        }
    }

    /// One file or RTP address, from its shipped template (`{encode}` is the head; a template
    /// of the user's own under CAMSTAMP_HOME may write the head out instead). Its elements are
    /// the ones the template promises: `mux` and `out` (a file), `pay` and `out` (RTP).
    private static func oneTarget(
        options: StreamOptions, encode: LaunchFragment, rtpAddress: String?,
        recordings: [URL: URL], resources: Resources?,
        copiedAudio: () throws(CamStampError) -> String?
    )
        throws(CamStampError) -> StreamOutput
    {
        var values: [String: PipelineTemplate.Value] = ["encode": .fragment(encode)]
        let fps = options.fps ?? 30
        values["bitrate"] = .integer(options.bitrate)
        values["keyint"] = .integer(max(fps, 1))
        let name: String
        var branch = Branch(target: options.target, index: 0)
        switch options.target {
        case .rtmp, .srt, .hls, .serve, .whip, .v4l2:
            throw .failure("\(options.targetDescription): needs the composed output")
        case .file(let url, let container):
            name = "stream-\(container.rawValue)"
            values["location"] = .quoted(recordings[url]?.path ?? url.path)
            branch.parts = ["mux", "out"]
            branch.sink = "out"
        case .rtp(let host, let port):
            name = "stream-rtp"
            values["host"] = .quoted(rtpAddress ?? host)
            values["port"] = .integer(Int(port))
            branch.parts = ["pay", "out"]
            branch.payloader = "pay"
        }
        let template = try Templates.load(nil, builtIn: name, resources: resources)
        let audio = try copiedAudio() ?? ""
        do {
            let launch = try template.render(values) + audio
            return StreamOutput(launch: launch, branches: [branch], serve: nil, hasSound: false)
        } catch {
            throw .failure("\(options.targetDescription): \(error)")
        }
    }
}

extension StreamOutput {
    /// A branch for a file takes every frame; one for the network never holds the others up.
    private static let fileQueue = "queue max-size-buffers=0 max-size-bytes=0 max-size-time=3000000000"
    private static let leakyQueue =
        "queue leaky=downstream max-size-buffers=0 max-size-bytes=0 max-size-time=2000000000"

    /// What the branches ask of the sound: the codecs to encode it in.
    private struct Codecs {
        var aac = false, opus = false
    }

    /// Several targets, a network server or sound: one encode, a tee, a branch per target.
    /// `audio` is the sound source's launch text. Element names carry the target's index (queues
    /// `inN` and `inNa`, muxer `muxN`, sink `fileN`, tap `relayN`), and the branch says which.
    private static func composed(
        options: StreamOptions, encode: LaunchFragment, rtpAddress: String?, audio: String?,
        recordings: [URL: URL]
    ) throws(CamStampError) -> StreamOutput {
        var codecs = Codecs()
        var launches: [String] = []
        var branches: [Branch] = []
        var serve: RTSPServe?
        for (index, target) in options.targets.enumerated() {
            if case .serve(let address) = target {
                guard serve == nil else { throw .usage("--serve: one RTSP server per stream") }
                serve = address
            }
            let firstRTP = options.targets.firstIndex(where: { if case .rtp = $0 { true } else { false } }) == index
            let (branch, launch) = try composedBranch(
                target, index: index, sound: audio != nil, codecs: &codecs,
                rtpAddress: rtpAddress, firstRTP: firstRTP,
                recordings: recordings)
            branches.append(branch)
            launches.append(launch)
        }
        // One video encode; the tee hands the same H.264 (SPS/PPS with every keyframe, so any
        // branch can start anywhere) to every target.
        // WebRTC receivers all take Constrained Baseline (aiortc nothing else, browsers it first):
        // with a WHIP target the one encode is that, for every target.
        let webRTC = options.targets.contains { if case .whip = $0 { true } else { false } }
        let head = PipelineTemplate(
            options.encodes
                ? "{encode} ! \(webRTC ? "video/x-h264,profile=constrained-baseline ! " : "")h264parse config-interval=-1 ! "
                    + "video/x-h264,stream-format=byte-stream,alignment=au ! tee name=\(videoTee)"
                : "{encode}")
        var launch: String
        do { launch = try head.render(["encode": .fragment(encode)]) } catch {
            throw .failure("\(options.targetDescription): \(error)")
        }
        // Sound only for targets that take it (a V4L2 device takes pictures alone).
        if let audio, codecs.aac || codecs.opus {
            // One sound capture, encoded once per codec the containers need (each converts for
            // itself: AAC takes planar floats, Opus interleaved integers).
            launch +=
                " \(audio) name=\(soundSource) ! audioconvert ! audioresample"
                + " ! audio/x-raw,rate=48000,channels=2 ! tee name=sound"
            if codecs.aac {
                launch += " sound. ! queue ! audioconvert ! avenc_aac bitrate=128000 ! aacparse ! tee name=aac"
            }
            if codecs.opus {
                launch += " sound. ! queue ! audioconvert ! opusenc bitrate=96000 ! opusparse ! tee name=opus"
            }
        }
        launch += " " + launches.joined(separator: " ")
        return StreamOutput(
            launch: launch, branches: branches, serve: serve, hasSound: audio != nil && (codecs.aac || codecs.opus))
    }

    /// `target`'s branch of the composed output, fed from the tees `video.` (and `aac.` or
    /// `opus.` when there is `sound`, which it marks in `codecs`).
    private static func composedBranch(
        _ target: StreamTarget, index: Int, sound: Bool, codecs: inout Codecs,
        rtpAddress: String?, firstRTP: Bool,
        recordings: [URL: URL]
    ) throws(CamStampError) -> (Branch, String) {
        var branch = Branch(target: target, index: index)
        var launch: [String] = []
        let mux = "mux\(index)", input = "in\(index)", soundInput = "in\(index)a"
        switch target {
        case .file(let url, let container):
            launch += fileBranch(
                url, container: container, names: (mux, input, soundInput), sound: sound, codecs: &codecs,
                recordings: recordings, into: &branch)
        case .rtp(let host, let port):
            let name = firstRTP ? "pay" : "pay\(index)"
            launch.append(
                "video. ! \(leakyQueue) ! rtph264pay name=\(name) config-interval=0 pt=96 ! "
                    + "udpsink host=\(PipelineTemplate.quote(rtpAddress ?? host)) port=\(port) "
                    + "sync=false async=false")
            branch.payloader = name
        case .rtmp:
            // flvmux waits up to 200 ms for each stream (its latency): a picture comes out of
            // the encoder after sound captured later, and taken after it, got that sound's time
            // (FLV's times only go forward), so RTMP viewers saw frames 22 to 43 ms apart.
            launch.append(
                "video. ! \(leakyQueue) ! h264parse ! flvmux name=\(mux) streamable=true latency=200000000 ! "
                    + "appsink name=relay\(index)")
            branch.tap = "relay\(index)"
            if sound {
                codecs.aac = true
                launch.append("aac. ! \(leakyQueue) ! \(mux).")
            }
        case .srt:
            launch.append(
                "video. ! \(leakyQueue) ! h264parse ! mpegtsmux name=\(mux) alignment=7 ! "
                    + "appsink name=relay\(index)")
            branch.tap = "relay\(index)"
            if sound {
                codecs.aac = true
                launch.append("aac. ! \(leakyQueue) ! \(mux).")
            }
        case .hls(let folder):
            launch += try hlsBranch(
                folder, names: (mux, input, soundInput), sound: sound, codecs: &codecs, into: &branch)
        case .whip:
            // WebRTC takes pictures and sound apart (RTP each), in Opus.
            launch.append("video. ! \(leakyQueue) ! appsink name=relay\(index)")
            branch.tap = "relay\(index)"
            if sound {
                codecs.opus = true
                launch.append("opus. ! \(leakyQueue) ! appsink name=relay\(index)a")
                branch.soundTap = "relay\(index)a"
            }
        case .v4l2(let device):
            do { try VideoLoopback.check(device) } catch { throw .failure("--to v4l2:\(device): \(error)") }
            // The marked pictures as they are (I420, the stream's size and rate): a call app
            // takes them. A device that falls behind drops pictures, never holds the others up.
            launch.append(
                "raw. ! queue name=\(input) leaky=downstream max-size-buffers=2 max-size-bytes=0 max-size-time=0 ! "
                    + "v4l2sink name=v4l2\(index) device=\(PipelineTemplate.quote(device)) sync=false async=false")
            branch.parts = [input, "v4l2\(index)"]
            branch.heads = [input]
            branch.sink = "v4l2\(index)"
        case .serve:
            launch.append("video. ! \(leakyQueue) ! appsink name=\(rtspVideoTap)")
            if sound {
                codecs.aac = true
                launch.append("aac. ! \(leakyQueue) ! appsink name=\(rtspAudioTap)")
            }
        }
        return (branch, launch.joined(separator: " "))
    }

    /// A file's branch: every frame muxed and written to its recording's name, its sound (`sound`)
    /// from the tee of the container's codec, which it marks in `codecs`. `names` are its queues'
    /// and muxer's.
    private static func fileBranch(
        _ url: URL, container: VideoContainer, names: (mux: String, input: String, soundInput: String),
        sound: Bool, codecs: inout Codecs, recordings: [URL: URL], into branch: inout Branch
    ) -> [String] {
        let (mux, input, soundInput) = names
        let index = branch.index
        var launch: [String] = []
        let muxer = container == .mp4 ? "mp4mux name=\(mux) fragment-duration=1000" : "matroskamux name=\(mux)"
        let location = PipelineTemplate.quote((recordings[url] ?? url).path)
        launch.append(
            "video. ! \(fileQueue) name=\(input) ! h264parse ! \(muxer) ! filesink name=file\(index) "
                + "buffer-mode=unbuffered location=\(location)")
        branch.parts = [input, mux, "file\(index)"]
        branch.heads = [input]
        branch.sink = "file\(index)"
        if sound {
            if container == .mp4 { codecs.aac = true } else { codecs.opus = true }
            launch.append("\(container == .mp4 ? "aac" : "opus"). ! \(fileQueue) name=\(soundInput) ! \(mux).")
            branch.parts.append(soundInput)
            branch.heads.append(soundInput)
        }
        return launch
    }

    /// An HLS folder's branch: created if need be, segments and playlist written into it, its
    /// sound from `aac.` (marked in `codecs`). `names` are its queues' and hlssink2's.
    private static func hlsBranch(
        _ folder: URL, names: (mux: String, input: String, soundInput: String), sound: Bool,
        codecs: inout Codecs, into branch: inout Branch
    ) throws(CamStampError) -> [String] {
        let (mux, input, soundInput) = names
        var launch: [String] = []
        do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false) } catch {
            if !FileManager.default.fileExists(atPath: folder.path) {
                throw .failure("--to hls:\(folder.path): cannot create the folder: \(error.localizedDescription)")
            }
        }
        // Segments of 2 s (a keyframe each second); the playlist keeps the last 6, the
        // folder the last 12, so a long stream does not fill the disk.
        let segments = PipelineTemplate.quote(folder.appendingPathComponent("segment%05d.ts").path)
        let playlist = PipelineTemplate.quote(folder.appendingPathComponent("index.m3u8").path)
        launch.append(
            "video. ! \(fileQueue) name=\(input) ! h264parse ! hlssink2 name=\(mux) target-duration=2 "
                + "playlist-length=6 max-files=12 location=\(segments) playlist-location=\(playlist)")
        branch.parts = [input, mux]
        branch.heads = [input]
        branch.sink = mux
        if sound {
            codecs.aac = true
            launch.append("aac. ! \(fileQueue) name=\(soundInput) ! \(mux).audio")
            branch.parts.append(soundInput)
            branch.heads.append(soundInput)
        }
        return launch
    }
}
