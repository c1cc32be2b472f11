// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// The media durations (`mdhd`) qtdemux is given for an MP4/MOV clip's tracks, where GStreamer
/// 1.22 reads the file's own and loses frames or whole tracks by it:
/// - A video track with B-frames and no edit list (`ffmpeg -use_editlist 0`): qtdemux plays such
///   a track from 0 to its media duration, the sum of its frames' durations, but B-frames put
///   each frame's time after its decode time (`ctts`), so the last frames fall past that end and
///   are clipped (2 of 90: at 3.000 and 3.033 s for a 3.000 s track). It is given its duration
///   with the largest composition offset added: every frame's time within it.
/// - A track shorter than a fifth of the movie is taken for a preview picture and left out
///   (qtdemux's rule): a 2 s picture starting 30 s after its sound, or 2 s of picture under 12 s
///   of sound, had no video ("no video stream"; "no playable streams" when the sound was short
///   too). The file's only video track and only sound track are given a fifth of the movie at
///   least: a file with two pictures, one a preview, keeps qtdemux's choice.
///
/// Same-size byte edits of the `mdhd` as the file is read (Media's `install`): the file is
/// not touched. The frames' own times and the edit lists are left as they are: qtmux writes the
/// output's durations from the frames it gets. A file whose boxes do not add up gets none.
/// No upstream fix found for either (docs/gstreamer-workarounds.md).
package struct ClipMediaDurations: Equatable {
    /// Where a track's `mdhd` duration is in the file, and what qtdemux is given there.
    package struct Change: Equatable {
        package var offset: UInt64
        package var bytes: [UInt8]
    }

    package var changes: [Change]

    /// The file's only video track's own media duration (ns), as the file has it: how far its
    /// frames' times run. qtdemux gives every stream the movie's duration, longer when the sound
    /// runs on, before or after the picture. nil when it cannot say.
    package var videoDuration: UInt64?

    /// What `file` needs (nothing, for a file that is not an MP4/MOV or whose boxes do not add up).
    package static func read(from file: URL) -> ClipMediaDurations {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return ClipMediaDurations(changes: []) }
        defer { try? handle.close() }
        guard let movie = MovieBox.read(from: handle) else { return ClipMediaDurations(changes: []) }
        return ClipMediaDurations(movie: movie.bytes, at: movie.offset)
    }

    /// What `movie`, the bytes of a whole `moov` found at `offset` in its file, needs.
    package init(movie: [UInt8], at offset: UInt64) {
        changes = []
        guard let moov = MP4Box.header(movie, at: 0, within: movie.count), moov.type == "moov",
            let children = MP4Box.children(of: movie, in: moov.body),
            let mvhd = children.first(where: { $0.type == "mvhd" }),
            let (movieTimescale, movieDuration, _) = MovieTracks.timing(
                movie, mvhd, timescaleAt: (12, 20), durationAt: (16, 24)),
            movieTimescale > 0
        else { return }
        var tracks: [Track] = []
        for trak in children where trak.type == "trak" {
            guard let track = Track(movie, trak) else { return }
            tracks.append(track)
        }
        let videos = tracks.filter { $0.handler == "vide" }
        if videos.count == 1, let video = videos.first {
            videoDuration = ClipAudioEdit.scale(video.mediaDuration, 1_000_000_000, video.mediaTimescale)
        }
        for track in tracks where track.mediaTimescale > 0 {
            var duration = track.mediaDuration
            // An offset longer than the track is no B-frame's (a writer's negative one, unsigned).
            if track.handler == "vide", !track.hasEdits, track.largestCompositionOffset > 0,
                track.largestCompositionOffset <= track.mediaDuration
            {
                let (sum, overflow) = duration.addingReportingOverflow(track.largestCompositionOffset)
                if !overflow { duration = sum }
            }
            // qtdemux leaves out a track when its duration × 10 / the movie's (each in its own
            // timescale) is under 2.
            if tracks.filter({ $0.handler == track.handler }).count == 1, ["vide", "soun"].contains(track.handler),
                let fifth = ClipAudioEdit.scale(
                    movieDuration, track.mediaTimescale, movieTimescale * 5, roundingUp: true)
            {
                duration = max(duration, fifth)
            }
            guard duration != track.mediaDuration, let bytes = track.durationField.bytes(duration) else { continue }
            changes.append(Change(offset: offset + UInt64(track.durationField.offset), bytes: bytes))
        }
    }

    package init(changes: [Change]) { self.changes = changes }

    /// What a track's media duration depends on.
    private struct Track {
        var handler: String
        var mediaTimescale: UInt64
        var mediaDuration: UInt64
        var durationField: DurationField
        var hasEdits: Bool
        /// The largest `ctts` offset (media timescale): how far a frame's time may lie after its
        /// decode time. 0 when there is none.
        var largestCompositionOffset: UInt64

        /// A `trak`'s; nil when its boxes do not add up.
        init?(_ bytes: [UInt8], _ trak: MP4Box) {
            guard let children = MP4Box.children(of: bytes, in: trak.body),
                let mdia = children.first(where: { $0.type == "mdia" }),
                let media = MP4Box.children(of: bytes, in: mdia.body),
                let mdhd = media.first(where: { $0.type == "mdhd" }),
                let hdlr = media.first(where: { $0.type == "hdlr" }),
                hdlr.body.count >= 12,
                let (timescale, duration, field) = MovieTracks.timing(
                    bytes, mdhd, timescaleAt: (12, 20), durationAt: (16, 24))
            else { return nil }
            handler = String(decoding: bytes[(hdlr.body.lowerBound + 8)..<(hdlr.body.lowerBound + 12)], as: UTF8.self)
            mediaTimescale = timescale
            mediaDuration = duration
            durationField = field
            var edits = false
            if let edts = children.first(where: { $0.type == "edts" }) {
                guard let list = MP4Box.children(of: bytes, in: edts.body) else { return nil }
                if let elst = list.first(where: { $0.type == "elst" }) {
                    guard let parsed = MovieTracks.editList(bytes, elst) else { return nil }
                    edits = !parsed.entries.isEmpty
                }
            }
            hasEdits = edits
            largestCompositionOffset = 0
            if let minf = MP4Box.children(of: bytes, in: mdia.body)?.first(where: { $0.type == "minf" }),
                let stbl = MP4Box.children(of: bytes, in: minf.body)?.first(where: { $0.type == "stbl" }),
                let ctts = MP4Box.children(of: bytes, in: stbl.body)?.first(where: { $0.type == "ctts" })
            {
                guard let largest = Self.largestOffset(bytes, ctts) else { return nil }
                largestCompositionOffset = largest
            }
        }

        /// The largest offset of a `ctts` (version 1's may be negative: those count as 0); nil
        /// when its count does not fit its size.
        private static func largestOffset(_ bytes: [UInt8], _ ctts: MP4Box) -> UInt64? {
            let body = ctts.body
            guard let version = bytes.bigEndian(at: body.lowerBound, 1), version <= 1,
                let count = bytes.bigEndian(at: body.lowerBound + 4, 4), count <= UInt64(max(0, body.count - 8) / 8)
            else { return nil }
            var largest: UInt64 = 0
            for index in 0..<Int(count) {
                guard let offset = bytes.bigEndian(at: body.lowerBound + 8 + index * 8 + 4, 4) else { return nil }
                let value = version == 1 ? UInt64(max(0, Int64(Int32(bitPattern: UInt32(offset))))) : offset
                largest = max(largest, value)
            }
            return largest
        }
    }
}
