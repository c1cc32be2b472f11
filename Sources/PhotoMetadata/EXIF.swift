// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// The image file directories an EXIF block can hold.
public enum IFDKind: String, Sendable, CaseIterable {
    case ifd0 = "IFD0"
    case exif = "ExifIFD"
    case gps = "GPS"
    case interop = "InteropIFD"
    /// The thumbnail's IFD.
    case ifd1 = "IFD1"
}

/// A TIFF rational; signed for SRATIONAL.
public struct Rational: Sendable, Equatable {
    public let numerator: Int64
    public let denominator: Int64

    public init(_ numerator: Int64, _ denominator: Int64) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// nil for a zero denominator.
    public var value: Double? {
        denominator == 0 ? nil : Double(numerator) / Double(denominator)
    }
}

/// A tag's value, decoded by its TIFF type.
public enum EXIFValue: Sendable, Equatable {
    /// BYTE, UNDEFINED, or a type this reader does not know.
    case bytes([UInt8])
    case ascii(String)
    /// SHORT, LONG and IFD.
    case unsigned([UInt32])
    /// SBYTE, SSHORT, SLONG.
    case signed([Int32])
    /// RATIONAL and SRATIONAL.
    case rational([Rational])
    /// FLOAT and DOUBLE.
    case real([Double])
}

/// One 12-byte IFD entry and where its value lies in the TIFF block.
public struct EXIFEntry: Sendable, Equatable {
    public let ifd: IFDKind
    public let tag: UInt16
    public let type: UInt16
    public let count: UInt32
    /// Offset of the 12-byte entry, from the TIFF header.
    public let entryOffset: Int
    /// Offset of the value: inside the entry when it fits in 4 bytes, else where the entry points.
    public let valueOffset: Int
    /// count × the type's size; 0 for an unknown type.
    public let valueLength: Int

    /// The tag's EXIF name (`Model`, `FNumber`, `GPSLatitude`), nil when unknown.
    public var name: String? { EXIFTags.name(tag, in: ifd) }
    var isInline: Bool { valueLength <= 4 }
}

struct IFDLocation: Sendable {
    let kind: IFDKind
    let offset: Int
    let entryCount: Int
    /// Offset of the 4-byte next-IFD pointer, nil when the table ends at the end of the block.
    let nextPointer: Int?
    var tableEnd: Int { offset + 2 + 12 * entryCount + (nextPointer == nil ? 0 : 4) }
}

/// An EXIF block: a TIFF header and its IFDs, read with bounds checks on every offset.
public struct EXIF: Sendable {
    /// The TIFF bytes (what follows `Exif\0\0` in APP1, or a PNG's eXIf chunk).
    let bytes: [UInt8]
    public let isBigEndian: Bool
    /// Every entry of IFD0, the Exif, GPS and Interop IFDs and IFD1, in file order, less those
    /// whose value lies outside the block.
    public let entries: [EXIFEntry]
    let ifds: [IFDLocation]
    /// The thumbnail's bytes (JPEGInterchangeFormat or strips of IFD1), clamped to the block.
    let thumbnailRanges: [Range<Int>]
    /// Bytes that may hold a GPS IFD too damaged to read (its table and the values it reaches that
    /// lie in the block): cleared with `stripGPS` all the same.
    let damagedGPSRanges: [Range<Int>]
    /// What was left out while reading: entries whose value lies outside the block, sub-IFDs
    /// outside it or reached twice. Empty for a sound block.
    public let problems: [MetadataError]

    /// The TIFF bytes as read.
    public var tiff: Data { Data(bytes) }

    /// Reads a TIFF block. Throws only when nothing can be trusted (a bad header, IFD0 outside the
    /// block); a damaged entry or sub-IFD is left out and listed in `problems`.
    public init(tiff: Data) throws(MetadataError) {
        try self.init(bytes: [UInt8](tiff))
    }

    /// Reads an APP1 payload that starts with `Exif\0\0` (a PNG eXIf chunk may too).
    public init(app1Payload: Data) throws(MetadataError) {
        guard app1Payload.hasPrefix(JPEGSignature.exif) else { throw .badTIFFHeader }
        try self.init(bytes: [UInt8](app1Payload.dropFirst(JPEGSignature.exif.count)))
    }

    init(bytes: [UInt8]) throws(MetadataError) {
        guard bytes.count >= 8 else { throw .badTIFFHeader }
        let bigEndian: Bool
        switch (bytes[0], bytes[1]) {
        case (0x4D, 0x4D): bigEndian = true
        case (0x49, 0x49): bigEndian = false
        default: throw .badTIFFHeader
        }
        let reader = ByteReader(bytes: bytes, bigEndian: bigEndian)
        guard reader.u16(2) == 42, let ifd0 = reader.u32(4) else { throw .badTIFFHeader }

        var parser = IFDParser(reader: reader)
        // Only IFD0 (Orientation, Make, Model) must be sound. Cameras and editors leave damage
        // behind often enough (a value past the end, a thumbnail IFD nowhere) that one bad part
        // must not cost the rest: a damaged sub-IFD or entry is left out of what we read, its
        // bytes carried over untouched (or cleared, for the thumbnail and a stripped GPS IFD).
        func lenient(_ kind: IFDKind, at offset: Int) {
            var attempt = parser
            do {
                _ = try attempt.parse(kind, at: offset)
                parser = attempt
            } catch {
                parser.problems.append(error)
                if kind == .gps { parser.damagedGPS = parser.salvage(at: offset) }
            }
        }
        let ifd0Next = try parser.parse(.ifd0, at: Int(ifd0))
        if let p = parser.pointer(0x8769, in: .ifd0) { lenient(.exif, at: p) }
        if let p = parser.pointer(0x8825, in: .ifd0) { lenient(.gps, at: p) }
        if let p = parser.pointer(0xA005, in: .exif) { lenient(.interop, at: p) }
        if let ifd1Next = ifd0Next, ifd1Next != 0 { lenient(.ifd1, at: Int(ifd1Next)) }

        self.bytes = bytes
        self.isBigEndian = bigEndian
        self.entries = parser.entries
        self.ifds = parser.ifds
        self.thumbnailRanges = parser.thumbnailRanges()
        self.damagedGPSRanges = parser.damagedGPS
        self.problems = parser.problems
    }

    /// The entry for `tag` in `ifd`, if present.
    public func entry(_ tag: UInt16, in ifd: IFDKind) -> EXIFEntry? {
        entries.first { $0.tag == tag && $0.ifd == ifd }
    }

    /// The first entry named `name` outside IFD1 (`Model`, `GPSLatitude`).
    public func entry(named name: String) -> EXIFEntry? {
        entries.first { $0.ifd != .ifd1 && $0.name == name }
    }

    /// The value bytes of `entry`, exactly as in the file.
    public func rawValue(_ entry: EXIFEntry) -> Data {
        Data(bytes[entry.valueOffset..<(entry.valueOffset + entry.valueLength)])
    }

    /// `entry`'s value decoded by its type.
    public func value(_ entry: EXIFEntry) -> EXIFValue {
        let r = ByteReader(bytes: bytes, bigEndian: isBigEndian)
        let n = Int(entry.count), o = entry.valueOffset
        guard entry.valueLength > 0 else { return .bytes([]) }
        switch entry.type {
        case 1, 7: return .bytes(Array(bytes[o..<(o + n)]))
        case 2: return .ascii(decodeASCII(bytes[o..<(o + n)]))
        case 3: return .unsigned((0..<n).map { UInt32(r.u16(o + 2 * $0)!) })
        case 4, 13: return .unsigned((0..<n).map { r.u32(o + 4 * $0)! })
        case 5: return .rational((0..<n).map { Rational(Int64(r.u32(o + 8 * $0)!), Int64(r.u32(o + 8 * $0 + 4)!)) })
        case 6: return .signed((0..<n).map { Int32(Int8(bitPattern: bytes[o + $0])) })
        case 8: return .signed((0..<n).map { Int32(Int16(bitPattern: r.u16(o + 2 * $0)!)) })
        case 9: return .signed((0..<n).map { Int32(bitPattern: r.u32(o + 4 * $0)!) })
        case 10:
            return .rational(
                (0..<n).map {
                    Rational(
                        Int64(Int32(bitPattern: r.u32(o + 8 * $0)!)), Int64(Int32(bitPattern: r.u32(o + 8 * $0 + 4)!)))
                })
        case 11: return .real((0..<n).map { Double(Float(bitPattern: r.u32(o + 4 * $0)!)) })
        case 12: return .real((0..<n).map { Double(bitPattern: r.u64(o + 8 * $0)!) })
        default: return .bytes(Array(bytes[o..<(o + entry.valueLength)]))
        }
    }

    /// Orientation 1…8 from IFD0; nil when absent or out of range.
    public var orientation: Int? {
        guard let e = entry(0x0112, in: .ifd0), case .unsigned(let v) = value(e), let first = v.first,
            (1...8).contains(first)
        else { return nil }
        return Int(first)
    }

    /// True when IFD1 (a thumbnail) is present.
    public var hasThumbnail: Bool { ifds.contains { $0.kind == .ifd1 } }

    /// True when the GPS IFD is present.
    public var hasGPS: Bool { ifds.contains { $0.kind == .gps } }

    /// The byte size of one value of TIFF `type`; nil for a type this reader does not know.
    static func typeSize(_ type: UInt16) -> Int? {
        switch type {
        case 1, 2, 6, 7: 1
        case 3, 8: 2
        case 4, 9, 11, 13: 4
        case 5, 10, 12: 8
        default: nil
        }
    }
}

/// Text up to the first NUL, as UTF-8 or else Latin-1, without trailing spaces.
func decodeASCII(_ bytes: ArraySlice<UInt8>) -> String {
    var text = bytes.prefix { $0 != 0 }
    while text.last == 0x20 { text.removeLast() }
    return String(validating: text, as: UTF8.self) ?? String(String.UnicodeScalarView(text.map { Unicode.Scalar($0) }))
}

/// Walks IFDs, recording entries and refusing an IFD outside the block or reached twice; an entry
/// whose value lies outside the block is left out and noted.
private struct IFDParser {
    let reader: ByteReader
    var entries: [EXIFEntry] = []
    var ifds: [IFDLocation] = []
    var visited: Set<Int> = []
    var problems: [MetadataError] = []
    var damagedGPS: [Range<Int>] = []

    /// Parses one IFD; returns its next-IFD pointer.
    mutating func parse(_ kind: IFDKind, at offset: Int) throws(MetadataError) -> UInt32? {
        guard !visited.contains(offset) else { throw .ifdLoop(offset: offset) }
        visited.insert(offset)
        guard offset >= 8, let count = reader.u16(offset) else {
            throw .ifdOutOfBounds(ifd: kind.rawValue, offset: offset)
        }
        let tableEnd = offset + 2 + 12 * Int(count)
        guard tableEnd <= reader.bytes.count else { throw .ifdOutOfBounds(ifd: kind.rawValue, offset: offset) }
        // IFD0 must have its next pointer; a sub-IFD at the very end of the block may lack one.
        let next = reader.u32(tableEnd)
        if kind == .ifd0, next == nil { throw .ifdOutOfBounds(ifd: kind.rawValue, offset: offset) }
        ifds.append(
            IFDLocation(kind: kind, offset: offset, entryCount: Int(count), nextPointer: next == nil ? nil : tableEnd))

        for i in 0..<Int(count) {
            let e = offset + 2 + 12 * i
            let tag = reader.u16(e)!, type = reader.u16(e + 2)!, n = reader.u32(e + 4)!
            var length = 0
            var valueOffset = e + 8
            if let size = EXIF.typeSize(type) {
                length = Int(n) * size  // at most 2^32 × 8: no overflow in a 64-bit Int
                if length > 4 {
                    valueOffset = Int(reader.u32(e + 8)!)
                    guard valueOffset <= reader.bytes.count - length else {
                        problems.append(.valueOutOfBounds(ifd: kind.rawValue, tag: tag))
                        continue
                    }
                }
            }
            entries.append(
                EXIFEntry(
                    ifd: kind, tag: tag, type: type, count: n, entryOffset: e,
                    valueOffset: valueOffset, valueLength: length))
        }
        return next
    }

    /// The sub-IFD offset in pointer tag `tag` of `ifd` (a LONG, IFD or SHORT, as some writers
    /// store it); nil when absent or zero.
    func pointer(_ tag: UInt16, in ifd: IFDKind) -> Int? {
        guard let e = entries.first(where: { $0.ifd == ifd && $0.tag == tag }), e.count == 1 else { return nil }
        let p: Int? =
            switch e.type {
            case 3: reader.u16(e.valueOffset).map(Int.init)
            case 4, 13: reader.u32(e.valueOffset).map(Int.init)
            default: nil
            }
        return p == 0 ? nil : p
    }

    /// The bytes an unreadable IFD at `offset` may cover: as much of its table as lies in the
    /// block and the values of the entries in that part that lie in the block too.
    func salvage(at offset: Int) -> [Range<Int>] {
        let size = reader.bytes.count
        guard offset >= 8, offset < size, let count = reader.u16(offset) else { return [] }
        var ranges = [offset..<min(size, offset + 2 + 12 * Int(count) + 4)]
        for i in 0..<Int(count) {
            let e = offset + 2 + 12 * i
            guard let type = reader.u16(e + 2), let n = reader.u32(e + 4), let v = reader.u32(e + 8),
                let unit = EXIF.typeSize(type), Int(n) * unit > 4
            else { continue }
            let start = Int(v), end = start + Int(n) * unit
            if start < size { ranges.append(start..<min(size, end)) }
        }
        return ranges
    }

    /// The thumbnail's bytes: JPEGInterchangeFormat + Length, or StripOffsets + StripByteCounts.
    /// Clamped rather than refused: these bytes are only ever removed.
    func thumbnailRanges() -> [Range<Int>] {
        func numbers(_ tag: UInt16) -> [Int] {
            guard let e = entries.first(where: { $0.ifd == .ifd1 && $0.tag == tag }) else { return [] }
            let size = e.type == 3 ? 2 : 4
            guard e.type == 3 || e.type == 4 else { return [] }
            return (0..<Int(e.count)).compactMap { i in
                size == 2
                    ? reader.u16(e.valueOffset + 2 * i).map(Int.init) : reader.u32(e.valueOffset + 4 * i).map(Int.init)
            }
        }
        let pairs = Array(zip(numbers(0x0201), numbers(0x0202))) + Array(zip(numbers(0x0111), numbers(0x0117)))
        return pairs.compactMap { start, length in
            let end = min(reader.bytes.count, start + length)
            return start < end ? start..<end : nil
        }
    }
}
