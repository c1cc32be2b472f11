// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

extension EXIF {
    /// IFD0 tags that describe a TIFF file's picture and pages (size, samples, strips, tiles,
    /// compression, sub-images) or carry what goes elsewhere (XMP, ICC, IPTC, Photoshop's
    /// resources with their preview): not EXIF, and false for any other picture.
    static let tiffPictureTags: Set<UInt16> = [
        0x00FE, 0x00FF, 0x0100, 0x0101, 0x0102, 0x0103, 0x0106, 0x0107, 0x0108, 0x0109, 0x010A, 0x0111,
        0x0115, 0x0116, 0x0117, 0x0118, 0x0119, 0x011C, 0x0122, 0x0123, 0x0124, 0x0125, 0x013D, 0x0140,
        0x0142, 0x0143, 0x0144, 0x0145, 0x014A, 0x0152, 0x0153, 0x0154, 0x0155, 0x015B, 0x0200, 0x0201,
        0x0202, 0x0203, 0x0205, 0x0206, 0x0207, 0x0208, 0x0209, 0x0212, 0x02BC, 0x83BB, 0x8649, 0x8769,
        0x8773, 0x8825, 0x935C,
    ]

    /// The EXIF of a TIFF file (a scan, an editor's export), where it is the file's own IFD0 with
    /// its EXIF and GPS directories: those tags laid out anew as an EXIF block of their own, as a
    /// JPEG's APP1 holds it, without the picture's tags and data. Values are copied byte for byte
    /// in the file's byte order. nil when the file has no such tag (or no IFD0 to read).
    package static func block(ofTIFFFile data: Data) -> Data? {
        guard let file = try? EXIF(tiff: data) else { return nil }
        func kept(_ ifd: IFDKind) -> [EXIFEntry] {
            file.entries.filter { e in
                e.ifd == ifd && e.valueLength > 0 && !(ifd == .ifd0 && tiffPictureTags.contains(e.tag))
                    && !(ifd == .exif && e.tag == 0xA005)
            }.sorted { $0.tag < $1.tag }
        }
        let exif = kept(.exif), gps = kept(.gps)
        let ifd0 = kept(.ifd0)
        // What a scanner writes in IFD0 alone (Make, Software, DateTime) is EXIF too; a file with
        // only its picture's tags has none.
        guard !ifd0.isEmpty || !exif.isEmpty || !gps.isEmpty else { return nil }
        let big = file.isBigEndian
        var out: [UInt8] = big ? [0x4D, 0x4D, 0, 42] : [0x49, 0x49, 42, 0]
        out += [0, 0, 0, 0]
        out.put32(8, at: 4, bigEndian: big)
        // The sub-directory pointers are entries of IFD0, filled in once their place is known.
        let pointerTags: [UInt16] = (exif.isEmpty ? [] : [0x8769]) + (gps.isEmpty ? [] : [0x8825])
        var pointerEntries: [UInt16: Int] = [:]

        func append(_ entries: [EXIFEntry], pointers: [UInt16]) {
            struct Row {
                var tag: UInt16
                var type: UInt16
                var count: UInt32
                var value: [UInt8]
            }
            var rows = entries.map {
                Row(tag: $0.tag, type: $0.type, count: $0.count, value: [UInt8](file.rawValue($0)))
            }
            rows += pointers.map { Row(tag: $0, type: 4, count: 1, value: [0, 0, 0, 0]) }
            rows.sort { $0.tag < $1.tag }
            let table = out.count
            out += [UInt8](repeating: 0, count: 2 + 12 * rows.count + 4)
            out.put16(UInt16(rows.count), at: table, bigEndian: big)
            for (i, row) in rows.enumerated() {
                let e = table + 2 + 12 * i
                out.put16(row.tag, at: e, bigEndian: big)
                out.put16(row.type, at: e + 2, bigEndian: big)
                out.put32(row.count, at: e + 4, bigEndian: big)
                if pointers.contains(row.tag) { pointerEntries[row.tag] = e + 8 }
                if row.value.count <= 4 {
                    out.replaceSubrange((e + 8)..<(e + 8 + row.value.count), with: row.value)
                } else {
                    if out.count % 2 == 1 { out.append(0) }  // values start on a word boundary
                    out.put32(UInt32(out.count), at: e + 8, bigEndian: big)
                    out += row.value
                }
            }
        }
        append(ifd0, pointers: pointerTags)
        for (tag, entries) in [(UInt16(0x8769), exif), (0x8825, gps)] where !entries.isEmpty {
            if out.count % 2 == 1 { out.append(0) }
            out.put32(UInt32(out.count), at: pointerEntries[tag]!, bigEndian: big)
            append(entries, pointers: [])
        }
        return Data(out)
    }
}
