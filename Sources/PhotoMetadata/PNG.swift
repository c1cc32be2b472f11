// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// One PNG chunk.
public struct PNGChunk: Sendable, Equatable {
    /// Four ASCII letters: `IHDR`, `eXIf`, `iCCP`, `iTXt`, ...
    public let type: String
    public let data: Data

    public init(type: String, data: Data) {
        self.type = type
        self.data = data
    }

    /// Length, type, data and CRC-32 over type and data.
    public var encoded: [UInt8] {
        let typeBytes = Array(type.utf8)
        var out: [UInt8] = []
        out.appendBE32(UInt32(data.count))
        out.append(contentsOf: typeBytes)
        out.append(contentsOf: data)
        out.appendBE32(CRC32.checksum(typeBytes + [UInt8](data)))
        return out
    }

    /// The eight bytes every PNG starts with.
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Every chunk up to and including IEND; throws on a bad signature, a chunk past the end or a
    /// bad CRC.
    static func parse(_ data: Data) throws(MetadataError) -> [PNGChunk] {
        try parse(data, skippingBadAncillary: false).chunks
    }

    /// As `parse(_:)`; with `skippingBadAncillary`, an ancillary chunk (lower-case first letter:
    /// metadata, never pixels) with a bad CRC is left out and named in `skipped` instead.
    static func parse(
        _ data: Data, skippingBadAncillary: Bool
    ) throws(MetadataError) -> (chunks: [PNGChunk], skipped: [String]) {
        let bytes = [UInt8](data)
        guard bytes.hasPrefix(signature) else { throw .notPNG }
        let reader = ByteReader(bytes: bytes, bigEndian: true)
        var chunks: [PNGChunk] = []
        var skipped: [String] = []
        var pos = signature.count
        while pos < bytes.count {
            guard let length = reader.u32(pos), length < 0x8000_0000, pos + 12 + Int(length) <= bytes.count else {
                throw .truncated(offset: pos)
            }
            let typeBytes = Array(bytes[(pos + 4)..<(pos + 8)])
            let type = String(decoding: typeBytes, as: UTF8.self)
            let body = Array(bytes[(pos + 8)..<(pos + 8 + Int(length))])
            pos += 12 + Int(length)
            if reader.u32(pos - 4) != CRC32.checksum(typeBytes + body) {
                guard skippingBadAncillary, typeBytes[0] & 0x20 != 0 else { throw .badPNGChunkCRC(chunk: type) }
                skipped.append(type)
                continue
            }
            chunks.append(PNGChunk(type: type, data: Data(body)))
            if type == "IEND" { return (chunks, skipped) }
        }
        throw .truncated(offset: pos)
    }

    static let xmpKeyword = "XML:com.adobe.xmp"

    /// An uncompressed iTXt chunk holding an XMP packet.
    static func xmp(_ packet: Data) -> PNGChunk {
        // keyword, NUL, compression flag 0, method 0, empty language tag and translated keyword.
        PNGChunk(type: "iTXt", data: Data(Array(xmpKeyword.utf8) + [0, 0, 0, 0, 0]) + packet)
    }

    /// The XMP packet of an uncompressed `XML:com.adobe.xmp` iTXt chunk, else nil.
    var xmpPacket: Data? {
        guard type == "iTXt" else { return nil }
        let b = [UInt8](data)
        let key = Array(Self.xmpKeyword.utf8) + [0]
        guard b.hasPrefix(key), b.count >= key.count + 2, b[key.count] == 0 else { return nil }
        var pos = key.count + 2
        for _ in 0..<2 {  // language tag, translated keyword
            guard let nul = b[pos...].firstIndex(of: 0) else { return nil }
            pos = nul + 1
        }
        return Data(b[pos...])
    }

    /// The most a PNG's profile may inflate to: more than a JPEG's 255 APP2 segments hold, and
    /// far more than any real profile (Display P3's is under 1 KB, a printer's a few MB).
    static let maxICCBytes = 16 << 20

    /// The ICC profile of an iCCP chunk's `data`: a name of 1 to 79 bytes, NUL, compression method
    /// 0, then the profile as a zlib stream, inflated here to at most `maxICCBytes`.
    static func iccProfile(iccp data: Data) throws(ICCPError) -> Data {
        let bytes = [UInt8](data)
        guard let nul = bytes.prefix(80).firstIndex(of: 0), nul >= 1, nul + 1 < bytes.count, bytes[nul + 1] == 0 else {
            throw .badHeader
        }
        return try Zlib.inflate(Data(bytes[(nul + 2)...]), limit: maxICCBytes)
    }

    /// An iCCP chunk for a raw ICC profile: deflated, as PNG requires (compression method 0).
    static func iccp(_ profile: Data) -> PNGChunk {
        PNGChunk(type: "iCCP", data: Data(Array("ICC Profile".utf8) + [0, 0] + Zlib.deflate([UInt8](profile))))
    }
}

/// A zlib stream of stored deflate blocks (RFC 1950/1951): header, ≤65535-byte blocks, Adler-32.
func zlibStored(_ bytes: [UInt8]) -> [UInt8] {
    var out: [UInt8] = [0x78, 0x01]
    var pos = 0
    repeat {
        let n = min(65535, bytes.count - pos)
        let final: UInt8 = pos + n == bytes.count ? 1 : 0
        out.append(final)
        out.append(contentsOf: [UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8(~n >> 8 & 0xFF)])
        out.append(contentsOf: bytes[pos..<(pos + n)])
        pos += n
    } while pos < bytes.count
    var a: UInt32 = 1, b: UInt32 = 0
    for byte in bytes {
        a = (a + UInt32(byte)) % 65521
        b = (b + a) % 65521
    }
    out.appendBE32(b << 16 | a)
    return out
}

/// CRC-32 as PNG (and zlib) define it: polynomial 0xEDB88320, reflected, inverted.
enum CRC32 {
    static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in bytes { c = table[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }
}
