// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// What an MP4/MOV file's `colr` box says of its video's range, read from the box itself:
/// qtdemux (1.22) reads nclx's full-range flag from the wrong byte (the matrix's low byte), so its
/// caps always say limited. ISO/IEC 14496-12 §12.1.5: a `colr` of type `nclx` ends in one byte
/// whose top bit is the full-range flag; QuickTime's `nclc` has no flag. Fixed upstream in 1.24.3
/// and 1.22.12 (cd95d02032), still read here: see docs/gstreamer-workarounds.md for why.
///
/// Only the `moov` is read (`MovieBox`), the top-level boxes before it by their headers.
package enum ContainerColour {
    /// Whether the `colr nclx` box of `file`'s first video track says full range (true) or
    /// limited (false); nil when `file` is no MP4/MOV, or its video has no `nclx` box. Throws
    /// what opening the file threw.
    package static func fullRange(of file: URL) throws -> Bool? {
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        guard let movie = MovieBox.read(from: handle)?.bytes,
            let moov = MP4Box.header(movie, at: 0, within: movie.count)
        else { return nil }
        if let track = moov.firstTrack(handledBy: "vide", in: movie) {
            guard let entry = track.sampleTable(in: movie)?.firstSampleEntry(in: movie) else { return nil }
            // A visual sample entry's own fields (§12.1.3: 8 of SampleEntry, 70 of VisualSampleEntry), then its boxes.
            let fields = 78
            guard entry.body.count > fields,
                let colour = MP4Box.leadingChildren(
                    of: movie, in: (entry.body.lowerBound + fields)..<entry.body.upperBound
                )
                .first(where: { $0.type == "colr" }),
                colour.body.count >= 11
            else { return nil }
            let bytes = movie[colour.body.lowerBound..<(colour.body.lowerBound + 11)]
            // colour_type, then primaries, transfer and matrix (16 bits each), then the flag.
            guard Array(bytes.prefix(4)) == Array("nclx".utf8) else { return nil }
            return bytes[colour.body.lowerBound + 10] & 0x80 != 0
        }
        return nil
    }
}
