// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Presets

/// Options of `camstamp stream`: stamp live video and record or send it.
public struct StreamOptions: Sendable, Equatable {
    /// Where frames come from (`--source`).
    public var source: SourceSpec
    /// Preset names or JSON paths, stacked in order.
    public var presets: [String]
    /// A quick mark in the default style (`--text`).
    public var text: String?
    /// `--var` values, in command-line order (a later one wins).
    public var variables: [VariableAssignment]
    /// Where the video goes (`--to`): a file or an RTP address.
    public var target: StreamTarget
    /// Stops by itself after this many seconds; nil runs until Ctrl-C or SIGTERM.
    public var duration: Double?
    /// The capture size (`--size`); nil takes the camera's default.
    public var size: FrameSize?
    /// The capture frame rate (`--fps`); nil takes the camera's default.
    public var fps: Int?
    /// H.264 bitrate in kbit/s.
    public var bitrate: Int
    /// Where to write the SDP of an RTP stream, besides stdout.
    public var sdp: URL?
    /// Where SIGUSR1 snapshots are written (`--snapshot-dir`).
    public var snapshotFolder: URL?
    /// A user's own pipeline template.
    public var pipeline: URL?
    /// `--gps` (and `--strip-gps` for photos): where the position comes from.
    public var location = LocationOptions()
    /// Replace an existing `--to` file (otherwise it is refused).
    public var overwrite = false
    /// Further `--to` (and `--serve`) targets fed from the same encode (record and publish at once).
    public var moreTargets: [StreamTarget] = []
    /// `--audio`; nil is the default: auto when publishing (RTMP, SRT, HLS, RTSP), none otherwise.
    public var audio: AudioChoice?
    /// `--json`: the summary as one JSON object on stdout (frames, drops, outages, snapshots).
    public var json = false
    /// `--whip-token`: sent to every WHIP endpoint as a Bearer token.
    public var whipToken: String?
    /// `--sign`: each finished MP4 recording signed (`c2pa.created`); live targets cannot be.
    public var signing: SigningOptions?

    /// The H.264 bitrate in kbit/s when none is given.
    public static let defaultBitrate = 4000

    /// Options with the defaults `camstamp stream` has.
    public init(
        source: SourceSpec = .auto, presets: [String] = [], text: String? = nil,
        variables: [VariableAssignment] = [], target: StreamTarget, duration: Double? = nil,
        size: FrameSize? = nil, fps: Int? = nil, bitrate: Int = StreamOptions.defaultBitrate,
        sdp: URL? = nil, snapshotFolder: URL? = nil, pipeline: URL? = nil
    ) {
        self.source = source
        self.presets = presets
        self.text = text
        self.variables = variables
        self.target = target
        self.duration = duration
        self.size = size
        self.fps = fps
        self.bitrate = bitrate
        self.sdp = sdp
        self.snapshotFolder = snapshotFolder
        self.pipeline = pipeline
    }
}
