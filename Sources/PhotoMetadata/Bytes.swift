// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// Bounds-checked integer reads over a byte array; nil past the end, never a trap.
struct ByteReader {
    let bytes: [UInt8]
    let bigEndian: Bool

    func u8(_ offset: Int) -> UInt8? {
        offset >= 0 && offset < bytes.count ? bytes[offset] : nil
    }

    func u16(_ offset: Int) -> UInt16? {
        guard offset >= 0, offset <= bytes.count - 2 else { return nil }
        let a = UInt16(bytes[offset]), b = UInt16(bytes[offset + 1])
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    func u32(_ offset: Int) -> UInt32? {
        guard offset >= 0, offset <= bytes.count - 4 else { return nil }
        let b0 = UInt32(bytes[offset]), b1 = UInt32(bytes[offset + 1])
        let b2 = UInt32(bytes[offset + 2]), b3 = UInt32(bytes[offset + 3])
        return bigEndian ? b0 << 24 | b1 << 16 | b2 << 8 | b3 : b3 << 24 | b2 << 16 | b1 << 8 | b0
    }

    func u64(_ offset: Int) -> UInt64? {
        guard let a = u32(offset), let b = u32(offset + 4) else { return nil }
        return bigEndian ? UInt64(a) << 32 | UInt64(b) : UInt64(b) << 32 | UInt64(a)
    }
}

extension Array where Element == UInt8 {
    mutating func put16(_ value: UInt16, at offset: Int, bigEndian: Bool) {
        let hi = UInt8(value >> 8), lo = UInt8(value & 0xFF)
        self[offset] = bigEndian ? hi : lo
        self[offset + 1] = bigEndian ? lo : hi
    }

    mutating func put32(_ value: UInt32, at offset: Int, bigEndian: Bool) {
        let b = [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
        for i in 0..<4 { self[offset + i] = bigEndian ? b[i] : b[3 - i] }
    }

    mutating func appendBE16(_ value: Int) {
        append(UInt8(value >> 8 & 0xFF))
        append(UInt8(value & 0xFF))
    }

    mutating func appendBE32(_ value: UInt32) {
        append(contentsOf: [
            UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF),
        ])
    }

    func hasPrefix(_ prefix: [UInt8]) -> Bool {
        count >= prefix.count && self[0..<prefix.count].elementsEqual(prefix)
    }
}

extension Data {
    func hasPrefix(_ prefix: [UInt8]) -> Bool {
        count >= prefix.count && self.prefix(prefix.count).elementsEqual(prefix)
    }
}
