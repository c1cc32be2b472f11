// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors

/// The 64 bits an invisible mark carries: the first 8 bytes of the SHA-256 of a manifest's
/// instance id (its UTF-8 text, e.g. `xmp:iid:…`). A hash, not the id itself, so that any id fits
/// and the bits are evenly spread; finding the manifest again means looking the value up.
public struct MarkPayload: Sendable, Hashable, CustomStringConvertible {
    /// How many bits a mark carries: 64 leaves each bit ~490 votes in a 2 MP photo, twice what a
    /// 128-bit UUID would get, and invisible-watermark reads any length in bytes.
    public static let bitCount = 64

    /// The payload's 8 bytes, in the order the mark lays their bits out (most significant first).
    public let bytes: [UInt8]

    /// The payload of the manifest whose instance id is `instanceID`.
    public init(instanceID: String) {
        bytes = Array(SHA256.digest(Array(instanceID.utf8)).prefix(Self.bitCount / 8))
    }

    /// A payload of exactly 8 bytes (as decoded, or read from a soft-binding assertion).
    public init?(bytes: [UInt8]) {
        guard bytes.count == Self.bitCount / 8 else { return nil }
        self.bytes = bytes
    }

    /// A payload from its 16 hexadecimal digits.
    public init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count == Self.bitCount / 4 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else {
                return nil
            }
            bytes.append(byte)
        }
        self.bytes = bytes
    }

    /// The payload's bits, most significant bit of the first byte first (numpy's `unpackbits`).
    public var bits: [UInt8] { bytes.flatMap { byte in (0..<8).map { (byte >> (7 - $0)) & 1 } } }

    /// Lower-case hexadecimal, 16 digits.
    public var hex: String {
        bytes.map { String($0 >> 4, radix: 16) + String($0 & 15, radix: 16) }.joined()
    }

    public var description: String { hex }

    /// How many bits `other` has in common with this payload.
    public func agreement(with other: MarkPayload) -> Int {
        zip(bytes, other.bytes).reduce(0) { $0 + 8 - ($1.0 ^ $1.1).nonzeroBitCount }
    }
}
