// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// stamp-photo OUTPUT.jpg: draws a 640×480 gradient, stamps it with the shipped `credit` preset
// and a caption, writes the JPEG, then marks a raw video frame and says what changed.
import CamStamp
import Foundation

let output = URL(fileURLWithPath: CommandLine.arguments.dropFirst().first ?? "stamped.jpg")

do {
    // A shipped preset by name, and one built in code (JSON text works too: `.json("{…}")`); the
    // preset model (`Mark`, `Preset`) comes with `import CamStamp`.
    var caption = Mark(content: .text("{stem} · {width}×{height}"))
    caption.anchor = .topLeft
    let stamper = try Stamper(
        presets: [.named("credit"), .preset(Preset(name: "caption", marks: [caption]))],
        variables: ["author": "StampPhoto example"],
        settings: .init(format: .convert(.jpg), quality: 90))

    let photo = try stamper.stamp(GradientPNG.make(width: 640, height: 480), filename: "gradient.png")
    try photo.data.write(to: output, options: .atomic)
    print("wrote \(output.path): \(photo.format.rawValue), \(photo.width)×\(photo.height), \(photo.data.count) bytes")
    for warning in photo.report.warnings { print("warning: \(warning)") }

    // A raw frame, as a decoder or camera would hand it over: I420, rows padded to 64 bytes.
    var frame = try PixelBuffer(
        format: .i420, width: 640, height: 360,
        planes: [
            .init(bytes: [UInt8](repeating: 40, count: 640 * 360), stride: 640),
            .init(bytes: [UInt8](repeating: 128, count: 320 * 180), stride: 320),
            .init(bytes: [UInt8](repeating: 128, count: 320 * 180), stride: 320),
        ])
    let before = frame.planes[0].bytes
    try stamper.mark(&frame, frameNumber: 1, fps: 30, cancellation: CancellationToken())
    let changed = zip(before, frame.planes[0].bytes).filter { $0 != $1 }.count
    print("marked a 640×360 I420 frame: \(changed) luma bytes changed")
    guard changed > 0 else { throw CamStampError.failure("the frame was not marked") }
} catch {
    FileHandle.standardError.write(Data("stamp-photo: \(error)\n".utf8))
    exit(1)
}

/// A PNG made here, so the example needs no input: a colour gradient, stored uncompressed.
enum GradientPNG {
    static func make(width: Int, height: Int) -> Data {
        var raw: [UInt8] = []
        for y in 0..<height {
            raw.append(0)  // filter: none
            for x in 0..<width {
                raw += [UInt8(x * 255 / width), UInt8(y * 255 / height), 160]
            }
        }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += chunk("IHDR", be32(width) + be32(height) + [8, 2, 0, 0, 0])
        png += chunk("IDAT", zlibStored(raw))
        png += chunk("IEND", [])
        return Data(png)
    }

    static func be32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(data.count) + body + be32(Int(crc32(body)))
    }

    /// zlib with deflate "stored" blocks (no compression), at most 65535 bytes each.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65535, data.count - offset)
            let last: UInt8 = offset + count == data.count ? 1 : 0
            out += [last, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += data[offset..<offset + count]
            offset += count
        } while offset < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return out + be32(Int(b << 16 | a))
    }

    static func crc32(_ data: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return ~crc
    }
}
