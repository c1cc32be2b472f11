import Foundation
@testable import PhotoMetadata

/// Builds TIFF (EXIF) blocks in either byte order: IFD0, then the Exif, GPS and IFD1 tables, each
/// followed by its out-of-line values, then the thumbnail. Pointer tags are added by `build()`.
struct TIFFBuilder {
    struct Tag {
        var tag: UInt16
        var type: UInt16
        var count: UInt32
        var bytes: [UInt8]
    }

    var bigEndian: Bool
    var ifd0: [Tag] = []
    var exif: [Tag] = []
    var gps: [Tag] = []
    var ifd1: [Tag] = []
    var thumbnail: [UInt8]?

    func u16(_ v: UInt16) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
    func u32(_ v: UInt32) -> [UInt8] {
        let b = [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
        return bigEndian ? b : b.reversed()
    }

    func ascii(_ tag: UInt16, _ s: String) -> Tag {
        let b = Array(s.utf8) + [0]
        return Tag(tag: tag, type: 2, count: UInt32(b.count), bytes: b)
    }
    func short(_ tag: UInt16, _ v: [UInt16]) -> Tag { Tag(tag: tag, type: 3, count: UInt32(v.count), bytes: v.flatMap(u16)) }
    func long(_ tag: UInt16, _ v: [UInt32]) -> Tag { Tag(tag: tag, type: 4, count: UInt32(v.count), bytes: v.flatMap(u32)) }
    func rational(_ tag: UInt16, _ v: [(UInt32, UInt32)]) -> Tag {
        Tag(tag: tag, type: 5, count: UInt32(v.count), bytes: v.flatMap { u32($0.0) + u32($0.1) })
    }
    func srational(_ tag: UInt16, _ v: [(Int32, Int32)]) -> Tag {
        Tag(tag: tag, type: 10, count: UInt32(v.count),
            bytes: v.flatMap { u32(UInt32(bitPattern: $0.0)) + u32(UInt32(bitPattern: $0.1)) })
    }
    func undefined(_ tag: UInt16, _ b: [UInt8]) -> Tag { Tag(tag: tag, type: 7, count: UInt32(b.count), bytes: b) }
    func byte(_ tag: UInt16, _ b: [UInt8]) -> Tag { Tag(tag: tag, type: 1, count: UInt32(b.count), bytes: b) }

    private func size(_ tags: [Tag]) -> Int {
        2 + 12 * tags.count + 4 + tags.reduce(0) { $0 + ($1.bytes.count > 4 ? ($1.bytes.count + 1) & ~1 : 0) }
    }

    func build() -> [UInt8] {
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
    func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        [0xFF, marker, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
    }
    let w = 8 * bw, h = 8 * bh
    var out: [UInt8] = [0xFF, 0xD8]
    if jfif { out += segment(0xE0, Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]) }
    for e in extra { out += e }
    out += segment(0xDB, [0] + [UInt8](repeating: 1, count: 64))
    out += segment(0xC0, [8, UInt8(h >> 8), UInt8(h & 0xFF), UInt8(w >> 8), UInt8(w & 0xFF), 1, 1, 0x11, 0])
    out += segment(0xC4, [0x00, 1] + [UInt8](repeating: 0, count: 15) + [0])
    out += segment(0xC4, [0x10, 1] + [UInt8](repeating: 0, count: 15) + [0])
    out += segment(0xDA, [1, 1, 0x00, 0, 63, 0])
    // Two zero bits per block (DC category 0, EOB), padded with ones.
    let bits = 2 * bw * bh
    out += [UInt8](repeating: 0, count: bits / 8)
    if bits % 8 != 0 { out.append(UInt8(0xFF >> (bits % 8))) }
    return out + [0xFF, 0xD9]
}

func app1EXIF(_ tiff: [UInt8]) -> [UInt8] {
    let payload = Array("Exif".utf8) + [0, 0] + tiff
    return [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
}

func appSegment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
    [0xFF, marker, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
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
