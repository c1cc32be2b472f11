import Foundation

// Editing strategy: patch in place, never re-lay-out. Every IFD and value stays at its offset,
// because many MakerNotes hold offsets counted from the TIFF header, which moving the Exif IFD's
// data would silently break. Edits that fit in place:
//  - Orientation, ImageWidth/Length and PixelX/YDimension are rewritten inside their 12-byte entry
//    (a SHORT or LONG of count 1 always fits in the entry's own 4 value bytes);
//  - the GPS pointer entry is cut out of IFD0 by shifting the later entries up 12 bytes (only
//    IFD0's own table moves, and nothing points into it);
//  - IFD1 is unlinked by zeroing IFD0's next-IFD pointer.
// Bytes that only the removed IFDs used (their tables, values, the thumbnail) are zeroed, and cut
// off when they form the tail of the block, so the un-watermarked thumbnail and the coordinates
// cannot leak. Bytes no known structure accounts for are kept as they are.

extension EXIF {
    /// The TIFF block for an output of `width`×`height` upright pixels: Orientation 1, the pixel
    /// dimensions updated where present, no thumbnail (IFD1), and with `stripGPS` no GPS IFD.
    /// Every other byte is the camera's.
    public func outputTIFF(width: Int, height: Int, stripGPS: Bool) -> Data {
        var out = bytes
        var live = [Bool](repeating: false, count: bytes.count)
        var removed = [Bool](repeating: false, count: bytes.count)
        func mark(_ mask: inout [Bool], _ range: Range<Int>) {
            for i in range.clamped(to: 0..<mask.count) { mask[i] = true }
        }
        mark(&live, 0..<8)
        for ifd in ifds {
            let drop = ifd.kind == .ifd1 || (stripGPS && ifd.kind == .gps)
            var ranges = [ifd.offset..<ifd.tableEnd]
            for e in entries where e.ifd == ifd.kind && !e.isInline {
                ranges.append(e.valueOffset..<(e.valueOffset + e.valueLength))
            }
            for range in ranges {
                if drop { mark(&removed, range) } else { mark(&live, range) }
            }
        }
        for range in thumbnailRanges { mark(&removed, range) }

        for e in entries {
            switch (e.ifd, e.tag) {
            case (.ifd0, 0x0112): rewrite(&out, e, 1, asShort: true)
            case (.ifd0, 0x0100), (.exif, 0xA002): rewrite(&out, e, width, asShort: e.type == 3)
            case (.ifd0, 0x0101), (.exif, 0xA003): rewrite(&out, e, height, asShort: e.type == 3)
            default: break
            }
        }

        guard let ifd0 = ifds.first(where: { $0.kind == .ifd0 }) else { return Data(out) }
        var entryCount = ifd0.entryCount
        if stripGPS, let gps = entry(0x8825, in: .ifd0) {
            let tableEnd = ifd0.tableEnd
            out.replaceSubrange(gps.entryOffset..<(tableEnd - 12), with: out[(gps.entryOffset + 12)..<tableEnd])
            for i in (tableEnd - 12)..<tableEnd {
                out[i] = 0
                live[i] = false
            }
            entryCount -= 1
            out.put16(UInt16(entryCount), at: ifd0.offset, bigEndian: isBigEndian)
        }
        out.put32(0, at: ifd0.offset + 2 + 12 * entryCount, bigEndian: isBigEndian)

        for i in out.indices where removed[i] && !live[i] { out[i] = 0 }
        let end = (out.indices.last { live[$0] || (!removed[$0] && out[$0] != 0) } ?? 7) + 1
        return Data(out[0..<end])
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
