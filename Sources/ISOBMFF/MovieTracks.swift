// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// One entry of an `elst`: where it lies in the movie box, and its fields.
package struct EditEntry {
    package var offset: Int
    package var duration: UInt64
    /// -1: an empty edit (nothing plays).
    package var mediaTime: Int64
    package var rate: UInt32

    package var isEmpty: Bool { mediaTime == -1 }

    /// An entry's bytes: version 0 in 32-bit fields, version 1 in 64-bit ones.
    package static func bytes(version: UInt8, duration: UInt64, mediaTime: UInt64, rate: UInt32) -> [UInt8] {
        let width = version == 1 ? 8 : 4
        return bigEndianBytes(duration, width) + bigEndianBytes(mediaTime, width) + bigEndianBytes(UInt64(rate), 4)
    }
}

/// A version-dependent duration field of a full box (`tkhd`, `mvhd`): where it is, and how wide.
package struct DurationField {
    package var offset: Int
    package var width: Int

    /// The field's bytes for `value`; nil when it does not fit.
    package func bytes(_ value: UInt64) -> [UInt8]? {
        width == 8 || value <= UInt64(UInt32.max) ? bigEndianBytes(value, width) : nil
    }
}

/// What the edits need of a movie box: its timescale and duration field, and its one sound track.
package struct MovieTracks {
    package struct Track {
        package var edits: (version: UInt8, entries: [EditEntry])?
        package var mediaTimescale: UInt64
        package var mediaDuration: UInt64
        /// The track header's duration (movie timescale), and where it is written.
        package var duration: UInt64
        package var durationField: DurationField?
    }

    package var movieTimescale: UInt64
    package var durationField: DurationField?
    package var sound: Track
    /// The durations of the movie's other tracks (movie timescale).
    package var otherTrackDurations: [UInt64]

    /// An edit list holds at most this many entries here (a real one holds a few).
    package static let mostEdits = 1024

    /// Reads `movie` (a whole `moov` box); nil when its boxes do not add up or it has not exactly
    /// one sound track.
    package init?(movie: [UInt8]) {
        guard let moov = MP4Box.header(movie, at: 0, within: movie.count), moov.type == "moov",
            let children = MP4Box.children(of: movie, in: moov.body),
            let mvhd = children.first(where: { $0.type == "mvhd" }),
            let (timescale, _, field) = Self.timing(movie, mvhd, timescaleAt: (12, 20), durationAt: (16, 24))
        else { return nil }
        movieTimescale = timescale
        durationField = field
        var sounds: [Track] = [], others: [UInt64] = []
        for trak in children where trak.type == "trak" {
            guard let track = Self.track(movie, trak) else { return nil }
            if track.isSound { sounds.append(track.track) } else { others.append(track.track.duration) }
        }
        guard sounds.count == 1 else { return nil }
        sound = sounds[0]
        otherTrackDurations = others
    }

    /// A `trak`'s edit list, timescales and durations, and whether its handler is `soun`.
    private static func track(_ bytes: [UInt8], _ trak: MP4Box) -> (track: Track, isSound: Bool)? {
        guard let children = MP4Box.children(of: bytes, in: trak.body),
            let tkhd = children.first(where: { $0.type == "tkhd" }),
            let mdia = children.first(where: { $0.type == "mdia" }),
            let media = MP4Box.children(of: bytes, in: mdia.body),
            let mdhd = media.first(where: { $0.type == "mdhd" }), let hdlr = media.first(where: { $0.type == "hdlr" }),
            hdlr.body.count >= 12, case let handler = bytes[(hdlr.body.lowerBound + 8)..<(hdlr.body.lowerBound + 12)],
            let (mediaTimescale, mediaDuration, _) = timing(bytes, mdhd, timescaleAt: (12, 20), durationAt: (16, 24)),
            let (_, duration, field) = timing(bytes, tkhd, timescaleAt: nil, durationAt: (20, 28))
        else { return nil }
        var edits: (version: UInt8, entries: [EditEntry])?
        if let edts = children.first(where: { $0.type == "edts" }) {
            guard let list = MP4Box.children(of: bytes, in: edts.body) else { return nil }
            if let elst = list.first(where: { $0.type == "elst" }) {
                guard let parsed = editList(bytes, elst) else { return nil }
                edits = parsed
            }
        }
        return (
            Track(
                edits: edits, mediaTimescale: mediaTimescale, mediaDuration: mediaDuration, duration: duration,
                durationField: field),
            handler.elementsEqual("soun".utf8)
        )
    }

    /// A full box's timescale (absent for `tkhd`) and duration, at the body offsets given for
    /// version 0 and 1, and where its duration is written.
    package static func timing(
        _ bytes: [UInt8], _ box: MP4Box, timescaleAt: (Int, Int)?, durationAt: (Int, Int)
    )
        -> (timescale: UInt64, duration: UInt64, field: DurationField)?
    {
        guard let version = bytes.bigEndian(at: box.body.lowerBound, 1), version <= 1 else { return nil }
        let wide = version == 1, width = wide ? 8 : 4
        let durationOffset = box.body.lowerBound + (wide ? durationAt.1 : durationAt.0)
        guard durationOffset + width <= box.body.upperBound, let duration = bytes.bigEndian(at: durationOffset, width)
        else { return nil }
        var timescale: UInt64 = 0
        if let timescaleAt {
            let offset = box.body.lowerBound + (wide ? timescaleAt.1 : timescaleAt.0)
            guard offset + 4 <= box.body.upperBound, let value = bytes.bigEndian(at: offset, 4) else { return nil }
            timescale = value
        }
        return (timescale, duration, DurationField(offset: durationOffset, width: width))
    }

    /// An `elst`'s version and entries; nil when its count does not fit its size.
    package static func editList(_ bytes: [UInt8], _ elst: MP4Box) -> (version: UInt8, entries: [EditEntry])? {
        let body = elst.body
        guard let version = bytes.bigEndian(at: body.lowerBound, 1), version <= 1,
            let count = bytes.bigEndian(at: body.lowerBound + 4, 4), count <= UInt64(mostEdits)
        else { return nil }
        let width = version == 1 ? 8 : 4, entrySize = 2 * width + 4
        guard body.lowerBound + 8 + Int(count) * entrySize <= body.upperBound else { return nil }
        var entries: [EditEntry] = []
        for index in 0..<Int(count) {
            let offset = body.lowerBound + 8 + index * entrySize
            guard let duration = bytes.bigEndian(at: offset, width),
                let time = bytes.bigEndian(at: offset + width, width),
                let rate = bytes.bigEndian(at: offset + 2 * width, 4)
            else { return nil }
            let mediaTime: Int64 = width == 4 ? Int64(Int32(bitPattern: UInt32(time))) : Int64(bitPattern: time)
            entries.append(EditEntry(offset: offset, duration: duration, mediaTime: mediaTime, rate: UInt32(rate)))
        }
        return (version: UInt8(version), entries: entries)
    }
}
