// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

// Editing strategy: the camera's bytes, edited in place, never re-laid-out. Every IFD and value
// stays at its offset, because maker notes hold offsets counted from the TIFF header (or from
// their own start) that any move silently breaks. Edits that fit in place:
//  - Orientation, ImageWidth/Length and PixelX/YDimension are rewritten inside their 12-byte entry
//    (a SHORT or LONG of count 1 always fits in the entry's own 4 value bytes);
//  - an entry that must go (the GPS pointer with `stripGPS`, a value that is a whole picture such
//    as a maker note that is only a preview) is cut out of its own table, the later entries
//    shifting up 12 bytes (nothing points into a table);
//  - IFD1 is unlinked by zeroing IFD0's next-IFD pointer;
//  - Artist and Copyright go into a new IFD0 table appended to the block, the header pointing at
//    it, the old table zeroed (IFD0 cannot grow where it is without moving what follows it).
// Bytes only removed structures used (tables, values, the thumbnail) are zeroed, and so is every
// JPEG picture found anywhere else in the block (maker-note previews of any make, a thumbnail whose
// IFD1 is damaged), so no unmarked copy of the photo leaks. A zeroed picture inside a maker note
// stays where it is, its offsets valid. Only a tail of bytes we zeroed is cut off: unclaimed bytes,
// zero or not, may be a maker note's (an empty sub-IFD is all zeros) and stay.

extension EXIF {
    /// The TIFF block for an output of `width`×`height` upright pixels: Orientation 1 (unless
    /// `edits.keepsOrientation`), the pixel
    /// dimensions updated where present, no thumbnail (IFD1) nor any other embedded picture, with
    /// `stripGPS` no GPS IFD, and `edits` written into IFD0. Every other byte is the camera's.
    public func outputTIFF(width: Int, height: Int, stripGPS: Bool, edits: MetadataEdits = MetadataEdits()) -> Data {
        var edit = TIFFBlockEdit(self, stripGPS: stripGPS, edits: edits)
        edit.rewriteDimensions(width: width, height: height)
        edit.shortenTables()
        edit.endIFD0Chain()
        edit.zeroRemoved()
        edit.zeroStrayPictures()
        edit.trimZeroedTail()
        edit.moveIFD0()
        return Data(edit.out)
    }

    /// A TIFF block holding only `edits` in IFD0, for an output whose source had no EXIF.
    public static func minimalTIFF(edits: MetadataEdits) -> Data {
        var out: [UInt8] = Array("MM".utf8) + [0, 42, 0, 0, 0, 0]
        EXIF.appendIFD0(&out, existing: [], edits: edits, bigEndian: true)
        return Data(out)
    }

    func appendIFD0(_ out: inout [UInt8], existing: [(tag: UInt16, bytes: [UInt8])], edits: MetadataEdits) {
        Self.appendIFD0(&out, existing: existing, edits: edits, bigEndian: isBigEndian)
    }

    /// Appends an IFD0 table of `existing` entries (as raw 12-byte entries) and the ASCII tags of
    /// `edits`, sorted by tag, with the new values after it; points the header at it.
    private static func appendIFD0(
        _ out: inout [UInt8], existing: [(tag: UInt16, bytes: [UInt8])], edits: MetadataEdits,
        bigEndian: Bool
    ) {
        if out.count % 2 == 1 { out.append(0) }  // TIFF offsets are word-aligned
        let texts = [(UInt16(0x013B), edits.artist), (0x8298, edits.copyright)]
            .compactMap { tag, text in text.map { (tag, Array($0.utf8) + [0]) } }
        let table = out.count
        let count = existing.count + texts.count
        var valueAt = table + 2 + 12 * count + 4
        var values: [UInt8] = []
        var added: [(tag: UInt16, bytes: [UInt8])] = []
        for (tag, text) in texts {
            var entry = [UInt8](repeating: 0, count: 12)
            entry.put16(tag, at: 0, bigEndian: bigEndian)
            entry.put16(2, at: 2, bigEndian: bigEndian)
            entry.put32(UInt32(text.count), at: 4, bigEndian: bigEndian)
            if text.count <= 4 {
                entry.replaceSubrange(8..<(8 + text.count), with: text)
            } else {
                entry.put32(UInt32(valueAt), at: 8, bigEndian: bigEndian)
                let padded = text.count % 2 == 1 ? text + [0] : text
                values += padded
                valueAt += padded.count
            }
            added.append((tag, entry))
        }
        out += [0, 0]
        out.put16(UInt16(count), at: table, bigEndian: bigEndian)
        for entry in (existing + added).sorted(by: { $0.tag < $1.tag }) { out += entry.bytes }
        out += [0, 0, 0, 0]  // no next IFD: the thumbnail is never carried
        out += values
        out.put32(UInt32(table), at: 4, bigEndian: bigEndian)
    }

    /// Rewrites entry `e` as one SHORT (when asked and it fits) or LONG holding `value`.
    func rewrite(_ out: inout [UInt8], _ e: EXIFEntry, _ value: Int, asShort: Bool) {
        let v = UInt32(clamping: value)
        let short = asShort && v <= UInt32(UInt16.max)
        out.put16(short ? 3 : 4, at: e.entryOffset + 2, bigEndian: isBigEndian)
        out.put32(1, at: e.entryOffset + 4, bigEndian: isBigEndian)
        out.put32(0, at: e.entryOffset + 8, bigEndian: isBigEndian)
        if short {
            out.put16(UInt16(v), at: e.entryOffset + 8, bigEndian: isBigEndian)
        } else {
            out.put32(v, at: e.entryOffset + 8, bigEndian: isBigEndian)
        }
    }
}
