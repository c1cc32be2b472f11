// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// Byte-level photo fixtures: TIFF (EXIF) blocks and JPEG segments, built by hand so a test
// controls every offset and count (the metadata parsers' tests damage them on purpose).

/// Builds TIFF (EXIF) blocks in either byte order: IFD0, then the Exif, GPS and IFD1 tables, each
/// followed by its out-of-line values, then the thumbnail. Pointer tags are added by `build()`.
package struct TIFFBuilder {
    package struct Tag {
        package var tag: UInt16
        package var type: UInt16
        package var count: UInt32
        package var bytes: [UInt8]

        package init(tag: UInt16, type: UInt16, count: UInt32, bytes: [UInt8]) {
            self.tag = tag
            self.type = type
            self.count = count
            self.bytes = bytes
        }
    }

    package var bigEndian: Bool
    package var ifd0: [Tag] = []
    package var exif: [Tag] = []
    package var gps: [Tag] = []
    package var ifd1: [Tag] = []
    package var thumbnail: [UInt8]?

    package init(bigEndian: Bool) { self.bigEndian = bigEndian }

    package func u16(_ v: UInt16) -> [UInt8] {
        bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)]
    }
    package func u32(_ v: UInt32) -> [UInt8] {
        let b = [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
        return bigEndian ? b : b.reversed()
    }

    package func ascii(_ tag: UInt16, _ s: String) -> Tag {
        let b = Array(s.utf8) + [0]
        return Tag(tag: tag, type: 2, count: UInt32(b.count), bytes: b)
    }
    package func short(_ tag: UInt16, _ v: [UInt16]) -> Tag {
        Tag(tag: tag, type: 3, count: UInt32(v.count), bytes: v.flatMap(u16))
    }
    package func long(_ tag: UInt16, _ v: [UInt32]) -> Tag {
        Tag(tag: tag, type: 4, count: UInt32(v.count), bytes: v.flatMap(u32))
    }
    package func rational(_ tag: UInt16, _ v: [(UInt32, UInt32)]) -> Tag {
        Tag(tag: tag, type: 5, count: UInt32(v.count), bytes: v.flatMap { u32($0.0) + u32($0.1) })
    }
    package func srational(_ tag: UInt16, _ v: [(Int32, Int32)]) -> Tag {
        Tag(
            tag: tag, type: 10, count: UInt32(v.count),
            bytes: v.flatMap { u32(UInt32(bitPattern: $0.0)) + u32(UInt32(bitPattern: $0.1)) })
    }
    package func undefined(_ tag: UInt16, _ b: [UInt8]) -> Tag {
        Tag(tag: tag, type: 7, count: UInt32(b.count), bytes: b)
    }
    package func byte(_ tag: UInt16, _ b: [UInt8]) -> Tag { Tag(tag: tag, type: 1, count: UInt32(b.count), bytes: b) }

    private func size(_ tags: [Tag]) -> Int {
        2 + 12 * tags.count + 4 + tags.reduce(0) { $0 + ($1.bytes.count > 4 ? ($1.bytes.count + 1) & ~1 : 0) }
    }

    package func build() -> [UInt8] {
        var ifd0 = self.ifd0, ifd1 = self.ifd1
        if !exif.isEmpty { ifd0.append(long(0x8769, [0])) }
        if !gps.isEmpty { ifd0.append(long(0x8825, [0])) }
        if let thumbnail { ifd1 += [long(0x0201, [0]), long(0x0202, [UInt32(thumbnail.count)])] }
        let exifAt = 8 + size(ifd0)
        let gpsAt = exifAt + (exif.isEmpty ? 0 : size(exif))
        let ifd1At = gpsAt + (gps.isEmpty ? 0 : size(gps))
        let thumbAt = ifd1At + (ifd1.isEmpty ? 0 : size(ifd1))
        for i in ifd0.indices {
            if ifd0[i].tag == 0x8769 { ifd0[i].bytes = u32(UInt32(exifAt)) }
            if ifd0[i].tag == 0x8825 { ifd0[i].bytes = u32(UInt32(gpsAt)) }
        }
        for i in ifd1.indices where ifd1[i].tag == 0x0201 { ifd1[i].bytes = u32(UInt32(thumbAt)) }

        var out: [UInt8] = (bigEndian ? Array("MM".utf8) : Array("II".utf8)) + u16(42) + u32(8)
        func write(_ tags: [Tag], next: Int) {
            let sorted = tags.sorted { $0.tag < $1.tag }
            var dataAt = out.count + 2 + 12 * sorted.count + 4
            var data: [UInt8] = []
            out += u16(UInt16(sorted.count))
            for t in sorted {
                out += u16(t.tag) + u16(t.type) + u32(t.count)
                if t.bytes.count <= 4 {
                    out += t.bytes + [UInt8](repeating: 0, count: 4 - t.bytes.count)
                } else {
                    out += u32(UInt32(dataAt))
                    let padded = t.bytes + (t.bytes.count % 2 == 1 ? [0] : [])
                    data += padded
                    dataAt += padded.count
                }
            }
            out += u32(UInt32(next)) + data
        }
        write(ifd0, next: ifd1.isEmpty ? 0 : ifd1At)
        if !exif.isEmpty { write(exif, next: 0) }
        if !gps.isEmpty { write(gps, next: 0) }
        if !ifd1.isEmpty { write(ifd1, next: 0) }
        if let thumbnail { out += thumbnail }
        return out
    }
}

/// A JPEG segment: its marker (`0xE1` for APP1), its length, `payload`.
package func appSegment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
    [0xFF, marker, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
}

/// An APP1 EXIF segment holding the TIFF block `tiff`.
package func app1EXIF(_ tiff: [UInt8]) -> [UInt8] {
    appSegment(0xE1, Array("Exif".utf8) + [0, 0] + tiff)
}
