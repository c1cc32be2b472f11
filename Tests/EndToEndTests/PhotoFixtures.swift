// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Media
import TestSupport

/// Test photos: an upright picture (grey, with a white block in its top-left corner) stored the
/// way a camera stores it for each EXIF orientation, with camera EXIF and GPS.
enum PhotoFixtures {
    static let grey: UInt8 = 64
    static let white: UInt8 = 235

    /// The upright position of stored pixel (x, y) for `orientation` (what a viewer shows).
    static func upright(_ x: Int, _ y: Int, storedWidth w: Int, storedHeight h: Int, orientation: Int) -> (Int, Int) {
        switch orientation {
        case 2: (w - 1 - x, y)
        case 3: (w - 1 - x, h - 1 - y)
        case 4: (x, h - 1 - y)
        case 5: (y, x)
        case 6: (h - 1 - y, x)
        case 7: (h - 1 - y, w - 1 - x)
        case 8: (y, w - 1 - x)
        default: (x, y)
        }
    }

    /// A JPEG whose upright picture is `width`×`height` with the white block top-left.
    static func jpeg(width: Int, height: Int, orientation: Int, exif: Data?) throws -> Data {
        let swaps = orientation >= 5
        let storedWidth = swaps ? height : width, storedHeight = swaps ? width : height
        let frame = try VideoFrame(width: storedWidth, height: storedHeight, format: .i420)
        try frame.withMapped { mapped in
            let luma = mapped.plane(0), stride = mapped.stride(0)
            for y in 0..<storedHeight {
                for x in 0..<storedWidth {
                    let (ux, uy) = upright(
                        x, y, storedWidth: storedWidth, storedHeight: storedHeight, orientation: orientation)
                    luma[y * stride + x] = ux < width / 4 && uy < height / 4 ? white : grey
                }
            }
            mapped.plane(1).initializeMemory(as: UInt8.self, repeating: 128)
            mapped.plane(2).initializeMemory(as: UInt8.self, repeating: 128)
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("fixture-\(UUID().uuidString).jpg")
        defer { try? FileManager.default.removeItem(at: file) }
        let output = try FrameOutput(
            pipeline: Pipeline(
                PipelineTemplate("appsrc name=stamped ! jpegenc quality=95 ! filesink location={location}")
                    .render(["location": .quoted(file.path)])))
        try output.start()
        frame.setTimestamps(pts: 0, duration: 1_000_000_000)
        try output.push(frame)
        try output.finish()
        var jpeg = try Data(contentsOf: file)
        if let exif {
            // APP1 right after SOI.
            jpeg.insert(contentsOf: appSegment(0xE1, [UInt8](exif)), at: 2)
        }
        return jpeg
    }

    /// An EXIF APP1 payload (`Exif\0\0` + little-endian TIFF): Make, Model, Orientation, an Exif IFD
    /// with DateTimeOriginal and FNumber, and a GPS IFD at 48°51'N.
    static func exif(orientation: Int, model: String = "Fixture Cam 1", date: String = "2024:05:06 07:08:09") -> Data {
        var tiff = TIFFBuilder(bigEndian: false)
        tiff.ifd0 = [
            tiff.ascii(0x010F, "Camstamp Labs"), tiff.ascii(0x0110, model),
            tiff.short(0x0112, [UInt16(orientation)]),
        ]
        tiff.exif = [tiff.ascii(0x9003, date), tiff.rational(0x829D, [(28, 10)])]
        tiff.gps = [
            tiff.ascii(0x0001, "N"), tiff.rational(0x0002, [(48, 1), (51, 1), (0, 1)]), tiff.ascii(0x0003, "E"),
            tiff.rational(0x0004, [(2, 1), (21, 1), (0, 1)]),
        ]
        return Data("Exif\0\0".utf8) + tiff.build()
    }
}

/// A 16-bit-per-channel RGB PNG (which pngdec decodes to ARGB64), written by hand: zlib with
/// stored blocks, so no compressor is needed.
enum PNG16 {
    static func make(width: Int, height: Int) -> Data {
        var raw: [UInt8] = []
        for y in 0..<height {
            raw.append(0)  // filter: none
            for x in 0..<width {
                for value in [x * 1000, y * 1300, 40000] { raw += [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
            }
        }
        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65535, raw.count - offset)
            let final: UInt8 = offset + count == raw.count ? 1 : 0
            zlib += [final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8(~count >> 8 & 0xFF)]
            zlib += raw[offset..<offset + count]
            offset += count
        } while offset < raw.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in raw {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        zlib += be32(b << 16 | a)
        let header = be32(UInt32(width)) + be32(UInt32(height)) + [16, 2, 0, 0, 0]
        return Data(
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", zlib)
                + chunk("IEND", []))
    }

    private static func be32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(value >> (24 - 8 * $0) & 0xFF) } }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in body {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return be32(UInt32(data.count)) + body + be32(~crc)
    }
}
