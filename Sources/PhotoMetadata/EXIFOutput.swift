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
        var out = bytes
        let size = bytes.count
        // live: read by a structure that stays. protected: tables and typed values, which must
        // stay readable (the picture search never zeroes them). cleared: zeroed by us.
        var live = [Bool](repeating: false, count: size)
        var protected = [Bool](repeating: false, count: size)
        var cleared = [Bool](repeating: false, count: size)
        func mark(_ mask: inout [Bool], _ range: Range<Int>, _ value: Bool = true) {
            for i in range.clamped(to: 0..<size) { mask[i] = value }
        }
        mark(&live, 0..<8)
        mark(&protected, 0..<8)

        func dropped(_ kind: IFDKind) -> Bool { kind == .ifd1 || (stripGPS && kind == .gps) }
        // Artist and Copyright, when the edits set them.
        let replaced: Set<UInt16> = Set([edits.artist.map { _ in 0x013B }, edits.copyright.map { _ in 0x8298 }].compactMap { $0 })
        var unlinked: Set<Int> = []  // entry offsets
        for e in entries where !dropped(e.ifd) {
            if stripGPS, e.ifd == .ifd0, e.tag == 0x8825 { unlinked.insert(e.entryOffset) }
            if e.ifd == .ifd0, replaced.contains(e.tag) { unlinked.insert(e.entryOffset) }
            if (e.type == 1 || e.type == 7), e.valueLength > 4,
               embeddedJPEGs(in: Array(bytes[e.valueOffset..<(e.valueOffset + e.valueLength)])).first?.lowerBound == 0 {
                unlinked.insert(e.entryOffset)
            }
        }

        var removed: [Range<Int>] = thumbnailRanges + (stripGPS ? damagedGPSRanges : [])
        for ifd in ifds {
            let table = ifd.offset..<ifd.tableEnd
            if dropped(ifd.kind) {
                removed.append(table)
            } else {
                mark(&live, table)
                mark(&protected, table)
            }
            for e in entries where e.ifd == ifd.kind && !e.isInline {
                let value = e.valueOffset..<(e.valueOffset + e.valueLength)
                if dropped(ifd.kind) || unlinked.contains(e.entryOffset) {
                    removed.append(value)
                } else {
                    mark(&live, value)
                    if e.type != 1 && e.type != 7 { mark(&protected, value) }
                }
            }
        }

        for e in entries {
            switch (e.ifd, e.tag) {
            case (.ifd0, 0x0112) where !edits.keepsOrientation: rewrite(&out, e, 1, asShort: true)
            case (.ifd0, 0x0100), (.exif, 0xA002): rewrite(&out, e, width, asShort: e.type == 3)
            case (.ifd0, 0x0101), (.exif, 0xA003): rewrite(&out, e, height, asShort: e.type == 3)
            default: break
            }
        }

        // Tables that lose entries are rewritten where they stand, shorter; IFD0 moves instead when
        // it gains entries.
        let movesIFD0 = !edits.isEmpty
        for ifd in ifds where !dropped(ifd.kind) && !(movesIFD0 && ifd.kind == .ifd0) {
            let own = entries.filter { $0.ifd == ifd.kind }
            guard own.contains(where: { unlinked.contains($0.entryOffset) }) else { continue }
            let kept = own.filter { !unlinked.contains($0.entryOffset) }.map { Array(out[$0.entryOffset..<($0.entryOffset + 12)]) }
            var pos = ifd.offset
            out.put16(UInt16(kept.count), at: pos, bigEndian: isBigEndian)
            pos += 2
            for raw in kept {
                out.replaceSubrange(pos..<(pos + 12), with: raw)
                pos += 12
            }
            if let next = ifd.nextPointer {
                out.replaceSubrange(pos..<(pos + 4), with: bytes[next..<(next + 4)])
                pos += 4
            }
            for i in pos..<ifd.tableEnd {
                out[i] = 0
                live[i] = false
                cleared[i] = true
            }
        }
        if let ifd0 = ifds.first(where: { $0.kind == .ifd0 }) {
            let entryCount = entries.filter { $0.ifd == .ifd0 && !unlinked.contains($0.entryOffset) }.count
            let rewritten = !movesIFD0 && entries.contains { $0.ifd == .ifd0 && unlinked.contains($0.entryOffset) }
            out.put32(0, at: ifd0.offset + 2 + 12 * (rewritten ? entryCount : ifd0.entryCount), bigEndian: isBigEndian)
        }

        for range in removed {
            for i in range.clamped(to: 0..<size) where !live[i] {
                out[i] = 0
                cleared[i] = true
            }
        }
        // The net for pictures no structure we know points at.
        for picture in embeddedJPEGs(in: out) {
            for i in picture where !protected[i] {
                out[i] = 0
                cleared[i] = true
            }
        }
        var end = size
        while end > 8, cleared[end - 1], !live[end - 1] { end -= 1 }
        out.removeSubrange(end...)

        if movesIFD0, let ifd0 = ifds.first(where: { $0.kind == .ifd0 }) {
            let kept = entries.filter { $0.ifd == .ifd0 && !unlinked.contains($0.entryOffset) }
            let raw = kept.map { (tag: $0.tag, bytes: Array(out[$0.entryOffset..<($0.entryOffset + 12)])) }
            // The table is moved, not its values: out-of-line values keep their offsets.
            for i in (ifd0.offset..<ifd0.tableEnd).clamped(to: 0..<out.count) { out[i] = 0 }
            appendIFD0(&out, existing: raw, edits: edits)
        }
        return Data(out)
    }

    /// A TIFF block holding only `edits` in IFD0, for an output whose source had no EXIF.
    public static func minimalTIFF(edits: MetadataEdits) -> Data {
        var out: [UInt8] = Array("MM".utf8) + [0, 42, 0, 0, 0, 0]
        EXIF.appendIFD0(&out, existing: [], edits: edits, bigEndian: true)
        return Data(out)
    }

    private func appendIFD0(_ out: inout [UInt8], existing: [(tag: UInt16, bytes: [UInt8])], edits: MetadataEdits) {
        Self.appendIFD0(&out, existing: existing, edits: edits, bigEndian: isBigEndian)
    }

    /// Appends an IFD0 table of `existing` entries (as raw 12-byte entries) and the ASCII tags of
    /// `edits`, sorted by tag, with the new values after it; points the header at it.
    private static func appendIFD0(_ out: inout [UInt8], existing: [(tag: UInt16, bytes: [UInt8])], edits: MetadataEdits,
                                   bigEndian: Bool) {
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
    private func rewrite(_ out: inout [UInt8], _ e: EXIFEntry, _ value: Int, asShort: Bool) {
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

