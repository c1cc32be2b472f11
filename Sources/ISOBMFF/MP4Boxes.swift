// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// An ISO BMFF box (MP4, MOV, HEIF's container) in bytes held in memory: its type, where it
/// starts, its size and where its body lies. The one reader of box headers that the clip's
/// edit lists (`ClipAudioEdit`), colours (`ContainerColour`), metadata (`ClipMetadata`) and
/// timecode (`ClipTimecode`) walk their files with: 32- and 64-bit sizes, 0 for "to the end of its container", and no size
/// that points outside what holds it.
package struct MP4Box {
    /// The four bytes of its type as ISO 8859-1 (`moov`, `©xyz`).
    package var type: String
    package var start: Int
    package var size: Int
    package var body: Range<Int>

    /// The whole box, header included.
    package var range: Range<Int> { start..<(start + size) }

    /// The box whose header starts at `start` of `bytes`, when its size fits in `limit` bytes
    /// from there (a 64-bit size too; 0: to the limit).
    package static func header<Bytes: RandomAccessCollection<UInt8>>(
        _ bytes: Bytes, at start: Int, within limit: Int
    ) -> MP4Box?
    where Bytes.Index == Int {
        guard let size32 = bytes.bigEndian(at: start, 4), start + 8 <= bytes.endIndex else { return nil }
        var size = Int(size32), headerSize = 8
        if size32 == 1 {
            guard let size64 = bytes.bigEndian(at: start + 8, 8), size64 <= UInt64(Int.max) else { return nil }
            size = Int(size64)
            headerSize = 16
        } else if size32 == 0 {
            size = limit
        }
        guard size >= headerSize, size <= limit else { return nil }
        let type = String(String.UnicodeScalarView(bytes[(start + 4)..<(start + 8)].map { Unicode.Scalar($0) }))
        return MP4Box(type: type, start: start, size: size, body: (start + headerSize)..<(start + size))
    }

    /// The boxes laid one after another in `range` of `bytes`; nil when one does not fit in it.
    package static func children<Bytes: RandomAccessCollection<UInt8>>(
        of bytes: Bytes, in range: Range<Int>
    ) -> [MP4Box]?
    where Bytes.Index == Int {
        guard range.lowerBound >= bytes.startIndex, range.upperBound <= bytes.endIndex else { return nil }
        var boxes: [MP4Box] = []
        var start = range.lowerBound
        while start < range.upperBound {
            guard let box = header(bytes, at: start, within: range.upperBound - start) else { return nil }
            boxes.append(box)
            start += box.size
        }
        return boxes
    }

    /// The boxes laid one after another in `range` of `bytes`, up to the first that does not fit
    /// in it (for a reader that takes what it can of a damaged file).
    package static func leadingChildren<Bytes: RandomAccessCollection<UInt8>>(
        of bytes: Bytes, in range: Range<Int>
    ) -> [MP4Box]
    where Bytes.Index == Int {
        guard range.lowerBound >= bytes.startIndex, range.upperBound <= bytes.endIndex else { return [] }
        var boxes: [MP4Box] = []
        var start = range.lowerBound
        while start < range.upperBound, let box = header(bytes, at: start, within: range.upperBound - start) {
            boxes.append(box)
            start += box.size
        }
        return boxes
    }
}

extension MP4Box {
    /// The first box of `type` among this box's children in `bytes` (those that fit in it).
    package func child<Bytes: RandomAccessCollection<UInt8>>(_ type: String, in bytes: Bytes) -> MP4Box?
    where Bytes.Index == Int {
        MP4Box.leadingChildren(of: bytes, in: body).first { $0.type == type }
    }

    /// A `moov`'s first track whose handler is `handler` (`vide`, `soun`, `tmcd`).
    package func firstTrack<Bytes: RandomAccessCollection<UInt8>>(handledBy handler: String, in bytes: Bytes) -> MP4Box?
    where Bytes.Index == Int {
        MP4Box.leadingChildren(of: bytes, in: body).first { $0.type == "trak" && $0.handlerType(in: bytes) == handler }
    }

    /// A `trak`'s handler type (`vide`, `soun`, `tmcd`: its `mdia/hdlr`), when it has one.
    package func handlerType<Bytes: RandomAccessCollection<UInt8>>(in bytes: Bytes) -> String?
    where Bytes.Index == Int {
        // hdlr: version and flags, pre_defined, then handler_type.
        guard let handler = child("mdia", in: bytes)?.child("hdlr", in: bytes), handler.body.count >= 12 else {
            return nil
        }
        let at = handler.body.lowerBound + 8
        return String(String.UnicodeScalarView(bytes[at..<(at + 4)].map { Unicode.Scalar($0) }))
    }

    /// A `trak`'s sample table (`mdia/minf/stbl`), when it has one.
    package func sampleTable<Bytes: RandomAccessCollection<UInt8>>(in bytes: Bytes) -> MP4Box?
    where Bytes.Index == Int {
        child("mdia", in: bytes)?.child("minf", in: bytes)?.child("stbl", in: bytes)
    }

    /// A sample table's (`stbl`) first sample entry (in its `stsd`), when it fits.
    package func firstSampleEntry<Bytes: RandomAccessCollection<UInt8>>(in bytes: Bytes) -> MP4Box?
    where Bytes.Index == Int {
        // stsd: version and flags, entry_count, then the entries.
        guard let descriptions = child("stsd", in: bytes), descriptions.body.count > 8 else { return nil }
        return MP4Box.leadingChildren(of: bytes, in: (descriptions.body.lowerBound + 8)..<descriptions.body.upperBound)
            .first
    }

    /// Where a sample table's (`stbl`) first sample lies in the file, and its size: the first
    /// chunk's offset (`stco` or `co64`; a chunk starts with its first sample) and the first
    /// size in `stsz`. Nil when a table is missing, empty or cut short.
    package func firstSample<Bytes: RandomAccessCollection<UInt8>>(in bytes: Bytes) -> (offset: UInt64, size: UInt64)?
    where Bytes.Index == Int {
        // stsz: version and flags, sample_size (0: each has its own), sample_count, then the sizes.
        guard let sizes = child("stsz", in: bytes).map({ bytes[$0.body] }),
            let common = sizes.bigEndian(at: sizes.startIndex + 4, 4),
            let count = sizes.bigEndian(at: sizes.startIndex + 8, 4), count > 0,
            let size = common != 0 ? common : sizes.bigEndian(at: sizes.startIndex + 12, 4)
        else { return nil }
        // stco and co64: version and flags, entry_count, then 32- or 64-bit offsets.
        let chunks =
            child("stco", in: bytes).map { (bytes[$0.body], 4) } ?? child("co64", in: bytes).map { (bytes[$0.body], 8) }
        guard let (offsets, width) = chunks, let entries = offsets.bigEndian(at: offsets.startIndex + 4, 4),
            entries > 0,
            let offset = offsets.bigEndian(at: offsets.startIndex + 8, width)
        else { return nil }
        return (offset, size)
    }
}

/// A box at the top level of a file, known by its header alone.
package struct TopLevelBox {
    package var type: String
    package var offset: UInt64
    package var size: UInt64

    /// More top-level boxes than this is no MP4's layout (a handful: ftyp, mdat, moov, free…).
    package static let most = 4096

    /// `handle`'s top-level boxes, by their headers alone (the media data can be gigabytes), up
    /// to the first whose header does not fit in the file; `whole` when they end where the file does.
    package static func all(in handle: FileHandle) -> (boxes: [TopLevelBox], whole: Bool) {
        guard let end = try? handle.seekToEnd() else { return ([], false) }
        var boxes: [TopLevelBox] = []
        var offset: UInt64 = 0
        while offset + 8 <= end, boxes.count < most, let box = at(offset, in: handle, end: end) {
            boxes.append(box)
            offset += box.size
        }
        return (boxes, offset == end)
    }

    /// The box whose header is at `offset` of `handle`, a file `end` bytes long; nil when its
    /// header cannot be read or its size does not fit in what is left.
    package static func at(_ offset: UInt64, in handle: FileHandle, end: UInt64) -> TopLevelBox? {
        guard offset < end, (try? handle.seek(toOffset: offset)) != nil, let header = try? handle.read(upToCount: 16),
            let box = MP4Box.header([UInt8](header), at: 0, within: Int(clamping: end - offset))
        else { return nil }
        return TopLevelBox(type: box.type, offset: offset, size: UInt64(box.size))
    }
}

/// A file's `moov` box, whole, and where it starts.
package struct MovieBox {
    package var offset: UInt64
    package var bytes: [UInt8]

    /// The largest `moov` read: a long clip's sample tables are a few MB.
    package static let largest = 64 << 20

    /// The file's `moov`; nil when there is none among its top-level boxes, or it is larger than
    /// `largest`.
    package static func read(from handle: FileHandle) -> MovieBox? {
        guard let moov = TopLevelBox.all(in: handle).boxes.first(where: { $0.type == "moov" }), moov.size <= largest,
            (try? handle.seek(toOffset: moov.offset)) != nil,
            let data = try? handle.read(upToCount: Int(moov.size)), data.count == Int(moov.size)
        else { return nil }
        return MovieBox(offset: moov.offset, bytes: [UInt8](data))
    }
}

/// `value`'s low `width` bytes, big-endian, as a box's fields are written.
package func bigEndianBytes(_ value: UInt64, _ width: Int) -> [UInt8] {
    (0..<width).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64(width - 1 - $0))) }
}

extension RandomAccessCollection where Element == UInt8, Index == Int {
    /// The big-endian unsigned integer of `width` bytes at `offset`, when they are all there.
    package func bigEndian(at offset: Int, _ width: Int) -> UInt64? {
        guard offset >= startIndex, width >= 0, offset <= endIndex - width else { return nil }
        return self[offset..<(offset + width)].reduce(0) { $0 << 8 | UInt64($1) }
    }
}
