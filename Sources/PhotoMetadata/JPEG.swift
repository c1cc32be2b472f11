// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
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

    /// True for a source APPn segment that goes into JPEG outputs byte for byte: what we neither
    /// edit nor must drop. Dropped: JFIF (the encoder writes its own), JFXX and AVI1 (a thumbnail,
    /// a video frame's tables), Adobe APP14 (its colour-transform flag must be the encoder's: a
    /// wrong one mis-decodes), MPF and FlashPix APP2 (secondary images and previews, with offsets
    /// into a file that no longer exists), FLIR APP1 and JUMBF APP11 (thermal and embedded
    /// pictures, gain maps, C2PA manifests bound to the source's pixels), and any segment that
    /// holds a JPEG picture. EXIF, XMP, ICC and IPTC are written by their own code.
    var carriedVerbatim: Bool {
        guard (0xE0...0xEF).contains(marker) else { return false }
        let ownCode: [(UInt8, [UInt8])] = [
            (1, JPEGSignature.exif), (1, JPEGSignature.xmp), (1, JPEGSignature.xmpExtension),
            (2, JPEGSignature.icc), (13, JPEGSignature.iptc),
        ]
        let dropped: [(UInt8, [UInt8])] = [
            (0, JPEGSignature.jfif), (0, Array("JFXX\0".utf8)), (0, Array("AVI1".utf8)),
            (1, Array("FLIR\0".utf8)), (2, Array("MPF\0".utf8)), (2, Array("FPXR\0".utf8)),
            (11, Array("JP".utf8)), (14, Array("Adobe".utf8)),
        ]
        if (ownCode + dropped).contains(where: { isApp($0.0, $0.1) }) { return false }
        return embeddedJPEGs(in: [UInt8](payload)).isEmpty
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
        // The header is parsed from a copy of the file's first 256 KB, and only a header longer
        // than that from a copy of all of it: a photo is parsed three times on its way through
        // (facts, metadata, output), and copying its few MB of scan each time cost more than the
        // parse. Within the prefix every byte is the file's, so any other error is the file's.
        let prefix = 1 << 18
        if data.count > prefix {
            do throws(MetadataError) {
                try self.init(bytes: [UInt8](data.prefix(prefix)))
                return
            } catch .truncated, .noImageData {
                // Ran off the prefix (or met an EOI there, which the whole file meets too).
            }
        }
        try self.init(bytes: [UInt8](data))
    }

    private init(bytes: [UInt8]) throws(MetadataError) {
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
    /// Extended XMP: the rest of a packet too large for one segment, tied to it by a GUID.
    static let xmpExtension: [UInt8] = Array("http://ns.adobe.com/xmp/extension/".utf8) + [0]
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

/// Where whole JPEG pictures lie inside `bytes` (a thumbnail or preview inside an EXIF block or
/// an APP segment): each from its SOI to its EOI, or to the end of `bytes` when the picture is cut
/// short. A candidate counts only when its header reads as a JPEG's (marker segments with sound
/// lengths, a frame header, then a scan), so FF D8 FF met by chance in other data is passed over.
func embeddedJPEGs(in bytes: [UInt8]) -> [Range<Int>] {
    var found: [Range<Int>] = []
    var i = 0
    while i + 3 < bytes.count {
        guard bytes[i] == 0xFF, bytes[i + 1] == 0xD8, bytes[i + 2] == 0xFF, let end = jpegEnd(bytes, from: i) else {
            i += 1
            continue
        }
        found.append(i..<end)
        i = end
    }
    return found
}

/// The end of the JPEG picture whose SOI is at `start`: after its EOI, or `bytes.count` when it
/// has a frame header and a scan but no EOI. nil when its header is not a JPEG's.
private func jpegEnd(_ bytes: [UInt8], from start: Int) -> Int? {
    let reader = ByteReader(bytes: bytes, bigEndian: true)
    let frameMarkers: Set<UInt8> = Set(0xC0...0xCF).subtracting([0xC4, 0xC8, 0xCC])
    var pos = start + 2
    var sawFrame = false
    // The header: marker segments up to the first scan.
    while true {
        guard pos + 1 < bytes.count, bytes[pos] == 0xFF else { return nil }
        while pos + 1 < bytes.count, bytes[pos + 1] == 0xFF { pos += 1 }
        let marker = bytes[pos + 1]
        guard marker != 0x00, marker != 0xD8, marker != 0xD9, !JPEGSegment.isStandalone(marker),
            let length = reader.u16(pos + 2), length >= 2, pos + 2 + Int(length) <= bytes.count
        else { return nil }
        if frameMarkers.contains(marker) { sawFrame = true }
        pos += 2 + Int(length)
        if marker == 0xDA { break }
    }
    guard sawFrame else { return nil }
    // Entropy-coded data: FF is followed by 00 (a stuffed byte), a restart marker, fill, or a
    // marker; further segments (a progressive picture's tables and scans) are skipped whole.
    while pos + 1 < bytes.count {
        guard bytes[pos] == 0xFF else {
            pos += 1
            continue
        }
        let next = bytes[pos + 1]
        switch next {
        case 0xD9: return pos + 2
        case 0x00, 0xD0...0xD7: pos += 2
        case 0xFF: pos += 1
        default:
            guard let length = reader.u16(pos + 2), length >= 2 else { return bytes.count }
            pos += 2 + Int(length)
        }
    }
    return bytes.count
}
