// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// A QuickTime timecode track (`tmcd`, MOV and MP4) as its file records it: its first sample, a
/// frame number, and its sample description's fields, read from the file itself (Media's
/// `ClipTimecode` gives it to the template, which judges its values).
package struct TimecodeTrack: Equatable {
    package var frame: UInt32
    /// Drop-frame 0x1, 24-hour wrap 0x2, negative 0x4, counter 0x8.
    package var flags: UInt32
    package var timescale: UInt32
    package var frameDuration: UInt32
    package var framesPerSecond: UInt8

    /// The largest first sample read: a timecode sample is 4 bytes (a counter track's 4 or 8).
    package static let largestSample: UInt64 = 16

    /// The first timecode track of an MP4/MOV `file` (only its `moov` and 4 bytes of its media
    /// data are read); nil when it has none, or the track's boxes or sample are cut short.
    package static func first(in file: URL) -> TimecodeTrack? {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return nil }
        defer { try? handle.close() }
        guard let movie = MovieBox.read(from: handle)?.bytes,
            let moov = MP4Box.header(movie, at: 0, within: movie.count)
        else { return nil }
        for track in MP4Box.leadingChildren(of: movie, in: moov.body) where track.type == "trak" {
            guard let table = track.sampleTable(in: movie), let entry = table.firstSampleEntry(in: movie),
                entry.type == "tmcd"
            else { continue }
            // SampleEntry (6 reserved, data_reference_index), reserved, then flags, timescale,
            // frame duration and the frame numbers a second (QuickTime File Format, "Timecode
            // sample description").
            let fields = movie[entry.body]
            guard let flags = fields.bigEndian(at: fields.startIndex + 12, 4),
                let timescale = fields.bigEndian(at: fields.startIndex + 16, 4),
                let duration = fields.bigEndian(at: fields.startIndex + 20, 4),
                let count = fields.bigEndian(at: fields.startIndex + 24, 1),
                let sample = table.firstSample(in: movie), (4...largestSample).contains(sample.size),
                let end = try? handle.seekToEnd(), end >= 4, sample.offset <= end - 4,
                (try? handle.seek(toOffset: sample.offset)) != nil,
                let data = try? handle.read(upToCount: 4), let frame = [UInt8](data).bigEndian(at: 0, 4)
            else { return nil }
            return TimecodeTrack(
                frame: UInt32(frame), flags: UInt32(flags), timescale: UInt32(timescale),
                frameDuration: UInt32(duration), framesPerSecond: UInt8(count))
        }
        return nil
    }
}
