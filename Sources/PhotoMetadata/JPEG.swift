import Foundation

/// One marker segment of a JPEG's header (before the first scan).
public struct JPEGSegment: Sendable, Equatable {
    /// The byte after 0xFF: 0xE1 for APP1, 0xDB for DQT, ...
    public let marker: UInt8
    /// Where the segment's 0xFF is in the file.
    public let offset: Int
    /// The bytes after the length field; empty for a standalone marker.
    public let payload: Data

    public init(marker: UInt8, offset: Int = 0, payload: Data) {
        self.marker = marker
        self.offset = offset
        self.payload = payload
    }

    /// Markers without a length field: TEM and RSTn (SOI and EOI are handled by the parser).
    public static func isStandalone(_ marker: UInt8) -> Bool {
        marker == 0x01 || (0xD0...0xD7).contains(marker)
    }

    /// The segment as it is written in a file: 0xFF, marker, length, payload.
    public var encoded: [UInt8] {
        var out: [UInt8] = [0xFF, marker]
        if !Self.isStandalone(marker) {
            precondition(payload.count <= JPEGSignature.maxPayload, "a JPEG segment holds at most 65533 bytes")
            out.appendBE16(payload.count + 2)
            out.append(contentsOf: payload)
        }
        return out
    }

    /// True for an APPn segment whose payload starts with `signature`.
    func isApp(_ n: UInt8, _ signature: [UInt8]) -> Bool {
        marker == 0xE0 + n && payload.hasPrefix(signature)
    }
}

/// A JPEG's header segments up to the first scan (SOS); the scan and everything after it is image
/// data that is copied as bytes, never parsed.
public struct JPEGStructure: Sendable {
    /// Every segment between SOI and the first SOS, in file order.
    public let segments: [JPEGSegment]
    /// Offset of the first SOS marker's 0xFF: from here to the end is image data.
    public let scanOffset: Int

    /// Parses the header; throws on a missing SOI, a segment past the end, or bytes where a
    /// marker should be.
    public init(parsing data: Data) throws(MetadataError) {
        let bytes = [UInt8](data)
        guard bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xD8 else { throw .notJPEG }
        let reader = ByteReader(bytes: bytes, bigEndian: true)
        var segments: [JPEGSegment] = []
        var pos = 2
        while true {
            guard pos < bytes.count else { throw .noImageData }
            guard bytes[pos] == 0xFF else { throw .unexpectedByte(offset: pos, byte: bytes[pos]) }
            let start = pos
            // Any number of 0xFF fill bytes may precede a marker.
            while pos < bytes.count, bytes[pos] == 0xFF { pos += 1 }
            guard pos < bytes.count else { throw .truncated(offset: start) }
            let marker = bytes[pos]
            pos += 1
            switch marker {
            case 0x00, 0xD8: throw .unexpectedByte(offset: pos - 1, byte: marker)
            case 0xD9: throw .noImageData
            case _ where JPEGSegment.isStandalone(marker):
                segments.append(JPEGSegment(marker: marker, offset: start, payload: Data()))
                continue
            default: break
            }
            guard let length = reader.u16(pos) else { throw .truncated(offset: start) }
            guard length >= 2 else { throw .badSegmentLength(marker: marker, offset: start) }
            let end = pos + Int(length)
            guard end <= bytes.count else { throw .truncated(offset: start) }
            if marker == 0xDA {
                self.segments = segments
                self.scanOffset = start
                return
            }
            segments.append(JPEGSegment(marker: marker, offset: start, payload: Data(bytes[(pos + 2)..<end])))
            pos = end
        }
    }

    /// The size in the frame header (SOF0…SOF15), or nil when there is none.
    public var frameSize: PixelSize? {
        let sofMarkers: Set<UInt8> = Set(0xC0...0xCF).subtracting([0xC4, 0xC8, 0xCC])
        guard let sof = segments.first(where: { sofMarkers.contains($0.marker) }), sof.payload.count >= 5 else {
            return nil
        }
        let p = [UInt8](sof.payload)
        return PixelSize(width: Int(p[3]) << 8 | Int(p[4]), height: Int(p[1]) << 8 | Int(p[2]))
    }
}

enum JPEGSignature {
    static let exif: [UInt8] = Array("Exif".utf8) + [0, 0]
    static let xmp: [UInt8] = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]
    static let icc: [UInt8] = Array("ICC_PROFILE".utf8) + [0]
    static let jfif: [UInt8] = Array("JFIF".utf8) + [0]
    static let iptc: [UInt8] = Array("Photoshop 3.0".utf8) + [0]
    /// The most payload one segment holds: a 16-bit length that counts its own two bytes.
    static let maxPayload = 65533
    /// ICC bytes per APP2 chunk: 65533 less the signature and the sequence/count bytes.
    static let iccChunk = maxPayload - 14
    /// The XMP packet limit the XMP specification sets for the main APP1 segment.
    static let maxXMP = 65502
}

/// Reassembles an ICC profile from its APP2 chunks, in sequence order; nil when there are none.
func reassembleICC(_ segments: [JPEGSegment]) throws(MetadataError) -> Data? {
    let chunks = segments.filter { $0.isApp(2, JPEGSignature.icc) }.map { [UInt8]($0.payload) }
    guard !chunks.isEmpty else { return nil }
    var parts: [Int: ArraySlice<UInt8>] = [:]
    var total: Int?
    for chunk in chunks {
        guard chunk.count >= 14 else { throw .badICCProfile("an APP2 chunk has no sequence number") }
        let seq = Int(chunk[12]), count = Int(chunk[13])
        guard count >= 1, (1...count).contains(seq) else {
            throw .badICCProfile("chunk \(seq) of \(count)")
        }
        guard total == nil || total == count else { throw .badICCProfile("chunks disagree on their count") }
        guard parts[seq] == nil else { throw .badICCProfile("chunk \(seq) appears twice") }
        total = count
        parts[seq] = chunk[14...]
    }
    guard let total, parts.count == total else {
        throw .badICCProfile("\(parts.count) of \(total ?? 0) chunks present")
    }
    return Data((1...total).flatMap { parts[$0]! })
}

/// The APP2 segments that carry `icc`, split at 65519 bytes and numbered from 1.
func iccSegments(_ icc: Data) -> [JPEGSegment]? {
    let bytes = [UInt8](icc)
    let count = max(1, (bytes.count + JPEGSignature.iccChunk - 1) / JPEGSignature.iccChunk)
    guard count <= 255 else { return nil }
    return (0..<count).map { i in
        let part = bytes[(i * JPEGSignature.iccChunk)..<min(bytes.count, (i + 1) * JPEGSignature.iccChunk)]
        return JPEGSegment(marker: 0xE2, payload: Data(JPEGSignature.icc + [UInt8(i + 1), UInt8(count)] + part))
    }
}
