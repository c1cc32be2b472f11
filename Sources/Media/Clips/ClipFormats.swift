// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// The video codec a clip is re-encoded with.
public enum ClipVideoCodec: String, Sendable, CaseIterable {
    case h264, hevc, vp9

    /// The codec of a parsed stream's media type (`video/x-h265`), when it is one we encode.
    public init?(mediaType: String) {
        switch mediaType {
        case "video/x-h264": self = .h264
        case "video/x-h265": self = .hevc
        case "video/x-vp9": self = .vp9
        default: return nil
        }
    }

    /// The encoder and its parser, named `encoder`, 4:2:0, with `threads` worker threads so that
    /// parallel clips do not oversubscribe the CPU (0: the encoder's own choice for the machine).
    ///
    /// H.264 is libx264's defaults, what `ffmpeg -c:v libx264` gives: preset medium, CRF 23,
    /// keyframes at most 250 frames apart, no VBV. The element is camstamp's own
    /// (`camstampx264enc`, Sources/CX264Encoder): libx264 set up as x264enc `pass=qual
    /// vbv-buf-capacity=0` set it, but letting go of each frame once libx264 has copied it, where
    /// x264enc kept ~50 (the bench's 1080p clip: 620 MiB peak instead of 974, 50 k page faults
    /// instead of 113-143 k). x264 writes the settings it ran with into the stream (an SEI,
    /// `strings out.mp4 | grep x264`): they are ffmpeg's, line for line.
    func fragment(threads: Int) -> LaunchFragment {
        let cores = threads > 0 ? threads : ProcessInfo.processInfo.activeProcessorCount
        switch self {
        case .h264:
            return LaunchFragment(
                "camstampx264enc name=encoder speed-preset=\(Self.x264Preset) crf=\(Self.x264CRF) key-int-max=250 threads=\(threads) ! video/x-h264,profile=high ! h264parse"
            )
        case .hevc:
            // x265 at veryfast: its medium is several times slower than x264's.
            return LaunchFragment(
                "x265enc name=encoder speed-preset=veryfast option-string=\"crf=24:pools=\(cores):frame-threads=\(min(cores, 4))\" ! h265parse"
            )
        case .vp9:
            return LaunchFragment(
                "vp9enc name=encoder deadline=1 cpu-used=8 end-usage=cq cq-level=32 target-bitrate=20000000 row-mt=true threads=\(cores)"
            )
        }
    }

    /// libx264's default speed preset and constant rate factor.
    static let x264Preset = "medium"
    static let x264CRF = 23
}

/// The container a clip is written in.
public enum ClipContainer: String, Sendable, CaseIterable {
    case mp4, mov, mkv, webm

    var muxer: String {
        switch self {
        case .mp4: "mp4mux"
        case .mov: "qtmux"
        case .mkv: "matroskamux"
        case .webm: "webmmux"
        }
    }

    /// The container of a file by its first bytes (ISO BMFF `ftyp` brand, EBML DocType); nil
    /// when it is none of these.
    public init?(sniffing header: Data) {
        let bytes = [UInt8](header.prefix(4096))
        guard bytes.count >= 12 else { return nil }
        if bytes[0...3] == [0x1A, 0x45, 0xDF, 0xA3] {
            // The DocType string is in the EBML header, within its first few dozen bytes.
            let text = String(decoding: bytes.prefix(64).map { $0 < 0x20 || $0 > 0x7E ? 0x20 : $0 }, as: UTF8.self)
            if text.contains("webm") {
                self = .webm
            } else if text.contains("matroska") {
                self = .mkv
            } else {
                return nil
            }
            return
        }
        let box = String(decoding: bytes[4...7], as: UTF8.self)
        if box == "ftyp" {
            self = String(decoding: bytes[8...11], as: UTF8.self) == "qt  " ? .mov : .mp4
        } else if ["moov", "mdat", "wide", "free"].contains(box) {
            self = .mov  // an old QuickTime file without a ftyp box
        } else {
            return nil
        }
    }
}
