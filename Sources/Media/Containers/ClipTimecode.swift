// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CGStreamer
internal import CGstApp
internal import CGstVideo
import Foundation
internal import ISOBMFF

/// A clip's own timecode as its container records it, read and not yet judged: whether its
/// values make sense is the template's to decide (`Presets.Timecode`).
public enum ClipTimecode: Sendable, Equatable {
    /// A QuickTime timecode track (`tmcd`, MOV and MP4): its first sample, a frame number, and
    /// its sample description's flags (drop-frame 0x1, 24-hour wrap 0x2, negative 0x4, counter 0x8),
    /// timescale, frame duration and frame numbers a second.
    case track(frame: UInt32, flags: UInt32, timescale: UInt32, frameDuration: UInt32, framesPerSecond: UInt8)
    /// A `TIMECODE` tag as written (Matroska from ffmpeg: `01:02:03:04`, `;` before the frames
    /// for drop-frame).
    case tag(String)

    /// The first timecode track of an MP4/MOV `file` (`TimecodeTrack`); nil when it has none, or
    /// the track's boxes or sample are cut short.
    static func track(in file: URL) -> ClipTimecode? {
        TimecodeTrack.first(in: file).map {
            .track(
                frame: $0.frame, flags: $0.flags, timescale: $0.timescale, frameDuration: $0.frameDuration,
                framesPerSecond: $0.framesPerSecond)
        }
    }
}

extension ClipStreams {
    /// The `TIMECODE` tag among the extended comments (`KEY=value`) of the tags on `pad`:
    /// matroskademux gives Matroska tags it has no name for as such.
    static func timecodeTag(on pad: UnsafeMutablePointer<GstPad>) -> ClipTimecode? {
        firstTag(on: pad) { tags in
            for index in 0..<gst_tag_list_get_tag_size(tags, "extended-comment") {
                var value: UnsafePointer<gchar>?
                guard gst_tag_list_peek_string_index(tags, "extended-comment", index, &value) != 0, let value else {
                    continue
                }
                let comment = String(cString: value)
                if comment.uppercased().hasPrefix("TIMECODE=") {
                    return .tag(String(comment.dropFirst("TIMECODE=".count)))
                }
            }
            return nil
        }
    }
}
