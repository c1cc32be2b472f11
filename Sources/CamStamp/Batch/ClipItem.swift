// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import Media

/// A video clip of a batch and where its output goes.
struct ClipItem: Sendable {
    var input: URL
    var output: URL
    var format: Format
    /// 1-based position among all the batch's files, for `{counter}`.
    var counter: Int
    /// Named on the command line, not found in a folder: a file with no picture then fails
    /// instead of being skipped (a voice memo beside the clips of a phone's folder).
    var explicit = true

    /// The source's container (by content) and what the output is written as.
    struct Format: Sendable, Equatable {
        var source: ClipContainer
        var output: ClipContainer
        var choice: VideoCodecChoice

        /// The clip's format when `url` holds an MP4, MOV, MKV or WebM file (by its first bytes),
        /// else nil. Unreadable files are nil too: the photo path reports them.
        init?(sniffing url: URL, codec: VideoCodecChoice) {
            guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
            defer { try? handle.close() }
            guard let header = try? handle.read(upToCount: 4096), let source = ClipContainer(sniffing: header) else {
                return nil
            }
            self.init(source: source, fileExtension: url.pathExtension, codec: codec)
        }

        /// The format a clip named `url` would have, by its extension alone (nil for a name no
        /// clip has): for another shard's file, which is never opened.
        init?(naming url: URL, codec: VideoCodecChoice) {
            let ext = url.pathExtension.lowercased()
            guard let source = ext == "m4v" ? .mp4 : ClipContainer(rawValue: ext) else { return nil }
            self.init(source: source, fileExtension: url.pathExtension, codec: codec)
        }

        /// The output container: the source's family, so MP4 stays MP4 (MOV when the name says
        /// .mov), MKV stays MKV. WebM holds only VP8/VP9/AV1: VP9 WebM under `--video-codec vp9`
        /// or `keep`, else MKV (H.264 or HEVC with the WebM's Opus/Vorbis copied). VP9 from an
        /// MP4 or MOV goes into MKV, which every VP9 player reads.
        init(source: ClipContainer, fileExtension: String, codec: VideoCodecChoice) {
            self.source = source
            self.choice = codec
            switch (source, codec) {
            case (.webm, .vp9), (.webm, .keep): output = .webm
            case (.webm, _), (.mkv, _), (.mp4, .vp9), (.mov, .vp9): output = .mkv
            case (.mp4, _), (.mov, _): output = fileExtension.lowercased() == "mov" ? .mov : .mp4
            }
        }

        /// The output's extension: the input's own when the container family is kept (.m4v, .MP4),
        /// else the container's.
        func fileExtension(for url: URL) -> String {
            let same = source == output || (source == .mov && output == .mp4) || (source == .mp4 && output == .mov)
            return same && !url.pathExtension.isEmpty ? url.pathExtension : output.rawValue
        }

        /// The codec for a source whose video is `sourceVideo` (a media type).
        func codec(sourceVideo: String?) -> ClipVideoCodec {
            switch choice {
            case .h264: return .h264
            case .hevc: return .hevc
            case .vp9: return .vp9
            case .keep:
                if output == .webm { return .vp9 }
                let source = sourceVideo.flatMap(ClipVideoCodec.init(mediaType:)) ?? .h264
                // MP4 and MOV outputs hold H.264 and HEVC here; a VP9 source in one gets H.264.
                return output == .mkv || source != .vp9 ? source : .h264
            }
        }
    }
}
