// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import TestSupport
@testable import PhotoMetadata

/// A camera-like EXIF block: IFD0 text tags, an Exif IFD with exposure data, an unknown tag and a
/// MakerNote, a GPS IFD, and IFD1 with a thumbnail.
func cameraEXIF(bigEndian: Bool, orientation: UInt16? = 6) -> TIFFBuilder {
    var b = TIFFBuilder(bigEndian: bigEndian)
    b.ifd0 = [
        b.ascii(0x010F, "Canon"), b.ascii(0x0110, "Canon EOS R6"), b.ascii(0x010E, "Harbour at dawn"),
        b.rational(0x011A, [(72, 1)]), b.rational(0x011B, [(72, 1)]), b.short(0x0128, [2]),
        b.ascii(0x0131, "Firmware 1.8.1"), b.ascii(0x013B, "Jane Doe"), b.ascii(0x8298, "© 2026 Jane Doe"),
        b.ascii(0x0132, "2026:03:14 15:09:26"),
    ]
    if let orientation { b.ifd0.append(b.short(0x0112, [orientation])) }
    b.exif = [
        b.rational(0x829A, [(1, 125)]), b.rational(0x829D, [(28, 10)]), b.short(0x8827, [400]),
        b.undefined(0x9000, Array("0232".utf8)), b.ascii(0x9003, "2026:03:14 15:09:26"),
        b.rational(0x920A, [(50, 1)]), b.srational(0x9204, [(-2, 3)]),
        b.short(0xA002, [6000]), b.short(0xA003, [4000]), b.ascii(0xA434, "RF24-105mm F4 L IS USM"),
        b.undefined(0x927C, makerNote), b.long(0xC4A5, [0xDEAD_BEEF, 7]),
    ]
    b.gps = [
        b.byte(0x00, [2, 3, 0, 0]), b.ascii(0x01, "S"), b.rational(0x02, [(33, 1), (51, 1), (2148, 100)]),
        b.ascii(0x03, "W"), b.rational(0x04, [(70, 1), (39, 1), (3600, 100)]), b.byte(0x05, [0]),
        b.rational(0x06, [(1234, 10)]), b.ascii(0x12, "WGS-84-SECRET"),
    ]
    b.ifd1 = [b.short(0x0103, [6]), b.rational(0x011A, [(72, 1)]), b.rational(0x011B, [(72, 1)])]
    b.thumbnail = thumbnailBytes
    return b
}

/// MakerNote bytes with an offset inside, as many cameras write them.
let makerNote: [UInt8] = Array("MAKERNOTE-BLOB:".utf8) + (0..<40).map { UInt8($0 * 7 & 0xFF) }
/// A recognisable fake thumbnail.
let thumbnailBytes: [UInt8] = [0xFF, 0xD8] + Array("THUMBNAIL-OF-THE-UNMARKED-PHOTO".utf8) + [0xFF, 0xD9]

/// A valid baseline 8·bw×8·bh grey JPEG: every block flat mid-grey (DC 0, EOB), one-code Huffman
/// tables. `extra` segments go right after the JFIF APP0.
func tinyJPEG(blocksWide bw: Int = 1, blocksHigh bh: Int = 1, jfif: Bool = true, extra: [[UInt8]] = []) -> [UInt8] {
    let w = 8 * bw, h = 8 * bh
    var out: [UInt8] = [0xFF, 0xD8]
    if jfif { out += appSegment(0xE0, Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]) }
    for e in extra { out += e }
    out += appSegment(0xDB, [0] + [UInt8](repeating: 1, count: 64))
    out += appSegment(0xC0, [8, UInt8(h >> 8), UInt8(h & 0xFF), UInt8(w >> 8), UInt8(w & 0xFF), 1, 1, 0x11, 0])
    out += appSegment(0xC4, [0x00, 1] + [UInt8](repeating: 0, count: 15) + [0])
    out += appSegment(0xC4, [0x10, 1] + [UInt8](repeating: 0, count: 15) + [0])
    out += appSegment(0xDA, [1, 1, 0x00, 0, 63, 0])
    // Two zero bits per block (DC category 0, EOB), padded with ones.
    let bits = 2 * bw * bh
    out += [UInt8](repeating: 0, count: bits / 8)
    if bits % 8 != 0 { out.append(UInt8(0xFF >> (bits % 8))) }
    return out + [0xFF, 0xD9]
}

/// A minimal PNG of `w`×`h` grey pixels, as pngenc lays it out: IHDR, IDAT, IEND.
func tinyPNG(width w: Int = 4, height h: Int = 2, extra: [PNGChunk] = []) -> Data {
    let ihdr = PNGChunk(type: "IHDR", data: Data([0, 0, 0, UInt8(w), 0, 0, 0, UInt8(h), 8, 0, 0, 0, 0]))
    let raw = (0..<h).flatMap { _ in [UInt8(0)] + [UInt8](repeating: 0x80, count: w) }
    let idat = PNGChunk(type: "IDAT", data: Data(zlibStored(raw)))
    let chunks = [ihdr] + extra + [idat, PNGChunk(type: "IEND", data: Data())]
    return Data(PNGChunk.signature + chunks.flatMap(\.encoded))
}

extension Data {
    func contains(_ needle: [UInt8]) -> Bool { range(of: Data(needle)) != nil }
}

/// `body` behind the 132 bytes an ICC profile starts with (header and tag count: its size, RGB
/// display class, `acsp`): what camstamp checks before it carries a PNG's profile.
func iccProfileBytes(_ body: [UInt8]) -> [UInt8] {
    var header = [UInt8](repeating: 0, count: 132)
    let size = header.count + body.count
    header.replaceSubrange(0..<4, with: (0..<4).map { UInt8(size >> (24 - 8 * $0) & 0xFF) })
    header.replaceSubrange(12..<24, with: Array("mntrRGB XYZ ".utf8))
    header.replaceSubrange(36..<40, with: Array("acsp".utf8))
    return header + body
}
