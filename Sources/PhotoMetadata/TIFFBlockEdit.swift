// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// One rewrite of an EXIF block by `EXIF.outputTIFF` (the strategy is described in
/// EXIFOutput.swift): the camera's bytes and three masks over them, one method per step.
struct TIFFBlockEdit {
    let exif: EXIF
    let stripGPS: Bool
    let edits: MetadataEdits
    var out: [UInt8]
    /// Bytes read by a structure that stays.
    var live: [Bool]
    /// Tables and typed values, which must stay readable (the picture search never zeroes them).
    var protected: [Bool]
    /// Bytes zeroed by us.
    var cleared: [Bool]
    /// Entries cut out of their table, by entry offset.
    var unlinked: Set<Int> = []
    /// Byte ranges only removed structures used.
    var removed: [Range<Int>]

    /// IFD0 moves to the end of the block when it gains entries; tables that only lose entries
    /// are rewritten where they stand.
    var movesIFD0: Bool { !edits.isEmpty }
    private var size: Int { exif.bytes.count }

    init(_ exif: EXIF, stripGPS: Bool, edits: MetadataEdits) {
        self.exif = exif
        self.stripGPS = stripGPS
        self.edits = edits
        out = exif.bytes
        live = [Bool](repeating: false, count: exif.bytes.count)
        protected = live
        cleared = live
        removed = exif.thumbnailRanges + (stripGPS ? exif.damagedGPSRanges : [])
        Self.mark(&live, 0..<8)
        Self.mark(&protected, 0..<8)
        unlinked = unlinkedEntries()
        keepLiveStructures()
    }

    private static func mark(_ mask: inout [Bool], _ range: Range<Int>, _ value: Bool = true) {
        for i in range.clamped(to: 0..<mask.count) { mask[i] = value }
    }

    private func dropped(_ kind: IFDKind) -> Bool { kind == .ifd1 || (stripGPS && kind == .gps) }

    /// The GPS pointer (with `stripGPS`), Artist and Copyright when the edits replace them, and
    /// any value that is a whole JPEG picture (a maker note that is only a preview).
    private func unlinkedEntries() -> Set<Int> {
        let replaced: Set<UInt16> = Set(
            [edits.artist.map { _ in 0x013B }, edits.copyright.map { _ in 0x8298 }]
                .compactMap { $0 })
        var unlinked: Set<Int> = []
        let bytes = exif.bytes
        for e in exif.entries where !dropped(e.ifd) {
            if stripGPS, e.ifd == .ifd0, e.tag == 0x8825 { unlinked.insert(e.entryOffset) }
            if e.ifd == .ifd0, replaced.contains(e.tag) { unlinked.insert(e.entryOffset) }
            if e.type == 1 || e.type == 7, e.valueLength > 4,
                embeddedJPEGs(in: Array(bytes[e.valueOffset..<(e.valueOffset + e.valueLength)]))
                    .first?.lowerBound == 0
            {
                unlinked.insert(e.entryOffset)
            }
        }
        return unlinked
    }

    /// Marks the tables and values that stay as live (and the typed ones as protected); what
    /// dropped tables and unlinked entries used goes to `removed`.
    private mutating func keepLiveStructures() {
        for ifd in exif.ifds {
            let table = ifd.offset..<ifd.tableEnd
            if dropped(ifd.kind) {
                removed.append(table)
            } else {
                Self.mark(&live, table)
                Self.mark(&protected, table)
            }
            for e in exif.entries where e.ifd == ifd.kind && !e.isInline {
                let value = e.valueOffset..<(e.valueOffset + e.valueLength)
                if dropped(ifd.kind) || unlinked.contains(e.entryOffset) {
                    removed.append(value)
                } else {
                    Self.mark(&live, value)
                    if e.type != 1 && e.type != 7 { Self.mark(&protected, value) }
                }
            }
        }
    }

    /// Orientation 1 (unless kept) and the output's pixel dimensions, inside their entries.
    mutating func rewriteDimensions(width: Int, height: Int) {
        for e in exif.entries {
            switch (e.ifd, e.tag) {
            case (.ifd0, 0x0112) where !edits.keepsOrientation: exif.rewrite(&out, e, 1, asShort: true)
            case (.ifd0, 0x0100), (.exif, 0xA002): exif.rewrite(&out, e, width, asShort: e.type == 3)
            case (.ifd0, 0x0101), (.exif, 0xA003): exif.rewrite(&out, e, height, asShort: e.type == 3)
            default: break
            }
        }
    }

    /// Tables that lose entries are rewritten where they stand, shorter, the freed tail zeroed.
    mutating func shortenTables() {
        for ifd in exif.ifds where !dropped(ifd.kind) && !(movesIFD0 && ifd.kind == .ifd0) {
            let own = exif.entries.filter { $0.ifd == ifd.kind }
            guard own.contains(where: { unlinked.contains($0.entryOffset) }) else { continue }
            let kept = own.filter { !unlinked.contains($0.entryOffset) }
                .map { Array(out[$0.entryOffset..<($0.entryOffset + 12)]) }
            var pos = ifd.offset
            out.put16(UInt16(kept.count), at: pos, bigEndian: exif.isBigEndian)
            pos += 2
            for raw in kept {
                out.replaceSubrange(pos..<(pos + 12), with: raw)
                pos += 12
            }
            if let next = ifd.nextPointer {
                out.replaceSubrange(pos..<(pos + 4), with: exif.bytes[next..<(next + 4)])
                pos += 4
            }
            for i in pos..<ifd.tableEnd {
                out[i] = 0
                live[i] = false
                cleared[i] = true
            }
        }
    }

    /// IFD1 (the thumbnail) is unlinked by zeroing IFD0's next-IFD pointer.
    mutating func endIFD0Chain() {
        guard let ifd0 = exif.ifds.first(where: { $0.kind == .ifd0 }) else { return }
        let ifd0Entries = exif.entries.filter { $0.ifd == .ifd0 }
        let entryCount = ifd0Entries.filter { !unlinked.contains($0.entryOffset) }.count
        let rewritten = !movesIFD0 && ifd0Entries.contains { unlinked.contains($0.entryOffset) }
        out.put32(
            0, at: ifd0.offset + 2 + 12 * (rewritten ? entryCount : ifd0.entryCount),
            bigEndian: exif.isBigEndian)
    }

    /// Bytes only removed structures used are zeroed.
    mutating func zeroRemoved() {
        for range in removed {
            for i in range.clamped(to: 0..<size) where !live[i] {
                out[i] = 0
                cleared[i] = true
            }
        }
    }

    /// The net for pictures no structure we know points at: no unmarked copy of the photo leaks.
    mutating func zeroStrayPictures() {
        for picture in embeddedJPEGs(in: out) {
            for i in picture where !protected[i] {
                out[i] = 0
                cleared[i] = true
            }
        }
    }

    /// Only a tail of bytes we zeroed is cut off: unclaimed bytes may be a maker note's.
    mutating func trimZeroedTail() {
        var end = size
        while end > 8, cleared[end - 1], !live[end - 1] { end -= 1 }
        out.removeSubrange(end...)
    }

    /// With edits, IFD0's table (not its values: they keep their offsets) is appended to the block
    /// with the edited tags, its old place zeroed.
    mutating func moveIFD0() {
        guard movesIFD0, let ifd0 = exif.ifds.first(where: { $0.kind == .ifd0 }) else { return }
        let kept = exif.entries.filter { $0.ifd == .ifd0 && !unlinked.contains($0.entryOffset) }
        let raw = kept.map { (tag: $0.tag, bytes: Array(out[$0.entryOffset..<($0.entryOffset + 12)])) }
        for i in (ifd0.offset..<ifd0.tableEnd).clamped(to: 0..<out.count) { out[i] = 0 }
        exif.appendIFD0(&out, existing: raw, edits: edits)
    }
}
