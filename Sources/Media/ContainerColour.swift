import Foundation

/// What an MP4/MOV file's `colr` box says of its video's range, read from the box itself:
/// qtdemux (1.22) reads nclx's full-range flag from the wrong byte (the matrix's low byte), so its
/// caps always say limited. ISO/IEC 14496-12 §12.1.5: a `colr` of type `nclx` ends in one byte
/// whose top bit is the full-range flag; QuickTime's `nclc` has no flag.
///
/// Only box headers are read, seeking past the rest (the media data, the sample tables): a few
/// dozen small reads whatever the clip's size.
enum ContainerColour {
    /// Whether the `colr nclx` box of `file`'s first video track says full range (true) or
    /// limited (false); nil when `file` is no MP4/MOV, or its video has no `nclx` box. Throws
    /// what reading the file threw.
    static func fullRange(of file: URL) throws -> Bool? {
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        let reader = BoxReader(handle: handle)
        let size = try handle.seekToEnd()
        guard let movie = try reader.boxes(in: 0..<size).first(where: { $0.type == "moov" }) else { return nil }
        for track in try reader.boxes(in: movie.payload) where track.type == "trak" {
            guard let media = try reader.child("mdia", of: track), let handler = try reader.child("hdlr", of: media),
                  // version and flags, pre_defined, then handler_type.
                  try reader.bytes(at: handler.payload.lowerBound + 8, count: 4) == Array("vide".utf8) else { continue }
            guard let information = try reader.child("minf", of: media), let table = try reader.child("stbl", of: information),
                  let descriptions = try reader.child("stsd", of: table),
                  // version and flags, entry_count, then the first sample entry.
                  let entry = try reader.boxes(in: (descriptions.payload.lowerBound + 8)..<descriptions.payload.upperBound).first else { return nil }
            // A visual sample entry's own fields (§12.1.3: 8 of SampleEntry, 70 of VisualSampleEntry), then its boxes.
            let fields: UInt64 = 78
            guard entry.payload.count > fields,
                  let colour = try reader.boxes(in: (entry.payload.lowerBound + fields)..<entry.payload.upperBound).first(where: { $0.type == "colr" }),
                  colour.payload.count >= 11 else { return nil }
            let bytes = try reader.bytes(at: colour.payload.lowerBound, count: 11)
            // colour_type, then primaries, transfer and matrix (16 bits each), then the flag.
            guard Array(bytes.prefix(4)) == Array("nclx".utf8) else { return nil }
            return bytes[10] & 0x80 != 0
        }
        return nil
    }
}

/// ISO BMFF boxes read by their headers from a file.
private struct BoxReader {
    struct Box {
        let type: String
        /// Where the box's contents lie in the file (after its header).
        let payload: Range<UInt64>
    }

    let handle: FileHandle
    /// More boxes than this at one level is no clip's layout: reading stops there.
    static let boxesPerLevel = 4096

    /// The boxes lying in `range`, in order, up to the first header that does not fit in it.
    func boxes(in range: Range<UInt64>) throws -> [Box] {
        var found: [Box] = []
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound, found.count < Self.boxesPerLevel {
            let header = try bytes(at: offset, count: 8)
            guard header.count == 8 else { break }
            var size = UInt64(header[0...3].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            var headerSize: UInt64 = 8
            if size == 1 {
                let large = try bytes(at: offset + 8, count: 8)
                guard large.count == 8 else { break }
                size = large.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                headerSize = 16
            } else if size == 0 {
                size = range.upperBound - offset  // to the end of its container
            }
            guard size >= headerSize, size <= range.upperBound - offset else { break }
            found.append(Box(type: String(decoding: header[4...7], as: UTF8.self), payload: (offset + headerSize)..<(offset + size)))
            offset += size
        }
        return found
    }

    /// The first box of `type` inside `box`.
    func child(_ type: String, of box: Box) throws -> Box? {
        try boxes(in: box.payload).first { $0.type == type }
    }

    /// Up to `count` bytes at `offset` (fewer at the end of the file).
    func bytes(at offset: UInt64, count: Int) throws -> [UInt8] {
        try handle.seek(toOffset: offset)
        return [UInt8](try handle.read(upToCount: count) ?? Data())
    }
}
