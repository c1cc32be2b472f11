// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import Media

/// A network target's time without a connection, for the summary.
public struct Outage: Sendable, Equatable {
    /// The target as the user wrote it.
    public var target: String
    /// Seconds without a connection (from the failure, or the start, to the reconnection or the end).
    public var seconds: Double
    /// How many times a lost connection came back.
    public var reconnections: Int
    /// False when no connection ever held (a wrong address, a server that never came).
    public var everConnected = true
}

extension StreamOptions {
    /// Every `--to` and `--serve`, in command-line order.
    public var targets: [StreamTarget] { [target] + moreTargets }

    /// Whether a target is an MP4 file, which needs frames of at least 16x16.
    public var recordsMP4: Bool {
        targets.contains { if case .file(_, .mp4) = $0 { true } else { false } }
    }

    /// Whether the stream needs the composed output (`StreamOutput`): anything beyond one file or
    /// RTP address without sound, which keep their own templates. A clip's own sound into one
    /// file is copied there after the file's template (`fileAudio`).
    var isComposed: Bool {
        guard moreTargets.isEmpty else { return true }
        switch (audio, source) {
        case (nil, _), (AudioChoice.none?, _), (.auto?, .file): break
        default: return true
        }
        switch target {
        case .file, .rtp: return false
        default: return true
        }
    }

    /// `--audio`, or its default: a clip's own sound for `--source file:`, and sound when a target
    /// publishes to other people; none otherwise.
    var audioChoice: AudioChoice {
        if let audio { return audio }
        if case .file = source { return .auto }
        return publishes ? .auto : .none
    }

    /// The targets as the user wrote them, for messages.
    var targetDescription: String {
        targets.map(\.description).joined(separator: ", ")
    }

    /// Whether some target publishes to other people (where sound is expected by default).
    var publishes: Bool {
        targets.contains {
            switch $0 {
            case .file, .rtp, .v4l2: false
            default: true
            }
        }
    }

    /// Whether some target takes the encoded pictures (every one but a V4L2 device).
    var encodes: Bool {
        targets.contains { if case .v4l2 = $0 { false } else { true } }
    }
}

extension StreamTarget {
    /// The target as the user wrote it, for messages.
    var description: String {
        switch self {
        case .file(let url, _): url.path
        case .rtp(let host, let port): "rtp://\(host.contains(":") ? "[\(host)]" : host):\(port)"
        case .rtmp(let url): url
        case .srt(let host, let port, let listener):
            listener
                ? "srt://\(host ?? ""):\(port)?mode=listener"
                : "srt://\(host.map { $0.contains(":") ? "[\($0)]" : $0 } ?? ""):\(port)"
        case .hls(let folder): "hls:\(folder.path)"
        case .serve(let serve): serve.description
        case .whip(let url): url
        case .v4l2(let device): "v4l2:\(device)"
        }
    }
}
