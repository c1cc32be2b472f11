// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// Colour profiles camstamp writes itself.
public enum ICCProfile {
    /// Whether `data` starts as an ICC profile does: a 128-byte header and a tag count, the file
    /// signature `acsp` at byte 36, and a size (its first four bytes) that the data holds.
    static func hasProfileHeader(_ data: Data) -> Bool {
        guard data.count >= 132 else { return false }
        let bytes = [UInt8](data.prefix(40))
        let size = bytes[0..<4].reduce(0) { $0 << 8 | Int($1) }
        return bytes[36..<40].elementsEqual("acsp".utf8) && (132...data.count).contains(size)
    }

    /// An ICC v2 display profile for Display P3: the P3 primaries with a D65 white, adapted to the
    /// ICC's D50 as Apple's own profile is, and the sRGB tone curve (P3's, as HEIF's nclx
    /// "primaries 12, transfer 13" says). For pictures that describe their colours as P3 without
    /// a profile (an AVIF or HEIC with an nclx `colr` box): once decoded to RGB the description
    /// would be lost and viewers would take the colours for sRGB, paler than they are.
    public static let displayP3: Data = {
        func be32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(v >> (24 - 8 * $0) & 0xFF) } }
        func s15(_ v: Double) -> [UInt8] { be32(UInt32(bitPattern: Int32((v * 65536).rounded()))) }
        func xyz(_ x: Double, _ y: Double, _ z: Double) -> [UInt8] {
            Array("XYZ ".utf8) + [0, 0, 0, 0] + s15(x) + s15(y) + s15(z)
        }
        let text = Array("Display P3".utf8) + [0]
        // textDescriptionType: ASCII, then empty Unicode and ScriptCode parts.
        let desc =
            Array("desc".utf8) + [0, 0, 0, 0] + be32(UInt32(text.count)) + text
            + [UInt8](repeating: 0, count: 4 + 4 + 2 + 1 + 67)
        let cprt = Array("text".utf8) + [0, 0, 0, 0] + Array("Public domain".utf8) + [0]
        // The sRGB decoding curve as a 1024-entry table (a v2 profile has no parametric curves).
        let entries = 1024
        var curve = Array("curv".utf8) + [0, 0, 0, 0] + be32(UInt32(entries))
        for i in 0..<entries {
            let v = Double(i) / Double(entries - 1)
            let linear = v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
            let n = UInt16((linear * 65535).rounded())
            curve += [UInt8(n >> 8), UInt8(n & 0xFF)]
        }
        let tags: [(String, [UInt8])] = [
            ("desc", desc), ("cprt", cprt), ("wtpt", xyz(0.96420, 1.0, 0.82491)),
            ("rXYZ", xyz(0.51512, 0.24120, -0.00105)), ("gXYZ", xyz(0.29198, 0.69225, 0.04189)),
            ("bXYZ", xyz(0.15710, 0.06657, 0.78407)), ("rTRC", curve), ("gTRC", curve), ("bTRC", curve),
        ]
        let start = 128 + 4 + 12 * tags.count
        var table: [UInt8] = [], body: [UInt8] = []
        var placed: [String: (offset: Int, size: Int)] = [:]
        for (signature, var data) in tags {
            while data.count % 4 != 0 { data.append(0) }
            // The three tone curves are one table, stored once.
            let key = String(decoding: data.prefix(4), as: UTF8.self) == "curv" ? "curv" : signature
            let place = placed[key] ?? (start + body.count, data.count)
            if placed[key] == nil {
                placed[key] = place
                body += data
            }
            table += Array(signature.utf8) + be32(UInt32(place.offset)) + be32(UInt32(place.size))
        }
        var header = be32(UInt32(start + body.count)) + [0, 0, 0, 0] + [2, 0x10, 0, 0] + Array("mntrRGB XYZ ".utf8)
        header += [UInt8](repeating: 0, count: 12) + Array("acsp".utf8) + [UInt8](repeating: 0, count: 4 * 4 + 8 + 4)
        header += s15(0.9642) + s15(1.0) + s15(0.8249) + [UInt8](repeating: 0, count: 4 + 16 + 28)
        return Data(header + be32(UInt32(tags.count)) + table + body)
    }()
}
