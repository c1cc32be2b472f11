import Foundation

/// An ISO BMFF box (MP4, MOV, HEIF's container) in bytes held in memory: its type, where it
/// starts, its size and where its body lies. The one reader of box headers that the clip's
/// edit lists (`ClipAudioEdit`), colours (`ContainerColour`) and metadata (`ClipMetadata`) walk
/// their files with: 32- and 64-bit sizes, 0 for "to the end of its container", and no size
/// that points outside what holds it.
struct MP4Box {
    /// The four bytes of its type as ISO 8859-1 (`moov`, `©xyz`).
    var type: String
    var start: Int
    var size: Int
    var body: Range<Int>

    /// The whole box, header included.
    var range: Range<Int> { start..<(start + size) }

    /// The box whose header starts at `start` of `bytes`, when its size fits in `limit` bytes
    /// from there (a 64-bit size too; 0: to the limit).
    static func header<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, at start: Int, within limit: Int) -> MP4Box?
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
    static func children<Bytes: RandomAccessCollection<UInt8>>(of bytes: Bytes, in range: Range<Int>) -> [MP4Box]?
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
    static func leadingChildren<Bytes: RandomAccessCollection<UInt8>>(of bytes: Bytes, in range: Range<Int>) -> [MP4Box]
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

/// A box at the top level of a file, known by its header alone.
struct TopLevelBox {
    var type: String
    var offset: UInt64
    var size: UInt64

    /// More top-level boxes than this is no MP4's layout (a handful: ftyp, mdat, moov, free…).
    static let most = 4096

    /// `handle`'s top-level boxes, by their headers alone (the media data can be gigabytes), up
    /// to the first whose header does not fit in the file; `whole` when they end where the file does.
    static func all(in handle: FileHandle) -> (boxes: [TopLevelBox], whole: Bool) {
        guard let end = try? handle.seekToEnd() else { return ([], false) }
        var boxes: [TopLevelBox] = []
        var offset: UInt64 = 0
        while offset + 8 <= end, boxes.count < most {
            guard (try? handle.seek(toOffset: offset)) != nil, let header = try? handle.read(upToCount: 16),
                  let box = MP4Box.header([UInt8](header), at: 0, within: Int(clamping: end - offset)) else { break }
            boxes.append(TopLevelBox(type: box.type, offset: offset, size: UInt64(box.size)))
            offset += UInt64(box.size)
        }
        return (boxes, offset == end)
    }
}

/// A file's `moov` box, whole, and where it starts.
struct MovieBox {
    var offset: UInt64
    var bytes: [UInt8]

    /// The largest `moov` read: a long clip's sample tables are a few MB.
    static let largest = 64 << 20

    /// The file's `moov`; nil when there is none among its top-level boxes, or it is larger than
    /// `largest`.
    static func read(from handle: FileHandle) -> MovieBox? {
        guard let moov = TopLevelBox.all(in: handle).boxes.first(where: { $0.type == "moov" }), moov.size <= largest,
              (try? handle.seek(toOffset: moov.offset)) != nil,
              let data = try? handle.read(upToCount: Int(moov.size)), data.count == Int(moov.size) else { return nil }
        return MovieBox(offset: moov.offset, bytes: [UInt8](data))
    }
}

/// `value`'s low `width` bytes, big-endian, as a box's fields are written.
func bigEndianBytes(_ value: UInt64, _ width: Int) -> [UInt8] {
    (0..<width).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64(width - 1 - $0))) }
}

extension RandomAccessCollection where Element == UInt8, Index == Int {
    /// The big-endian unsigned integer of `width` bytes at `offset`, when they are all there.
    func bigEndian(at offset: Int, _ width: Int) -> UInt64? {
        guard offset >= startIndex, width >= 0, offset <= endIndex - width else { return nil }
        return self[offset..<(offset + width)].reduce(0) { $0 << 8 | UInt64($1) }
    }
}
