// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

/// A decoded picture: `channels` bytes a pixel (1 grey, 3 RGB), rows packed.
struct Raster: Equatable {
    var width: Int
    var height: Int
    var channels: Int
    var pixels: [UInt8]

    /// Parses binary PGM (P5) or PPM (P6), as djpeg and ImageMagick write them.
    init(width: Int, height: Int, channels: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.channels = channels
        self.pixels = pixels
    }

    init(pnm data: Data) throws {
        struct BadPNM: Error {}
        let bytes = [UInt8](data)
        var fields: [String] = []
        var position = 0
        while fields.count < 4 {
            while position < bytes.count, bytes[position] == 0x23 || (bytes[position] <= 0x20) {
                if bytes[position] == 0x23 { while position < bytes.count, bytes[position] != 0x0A { position += 1 } }
                position += 1
            }
            var field = ""
            while position < bytes.count, bytes[position] > 0x20 {
                field.append(Character(UnicodeScalar(bytes[position])))
                position += 1
            }
            fields.append(field)
        }
        position += 1
        guard ["P5", "P6"].contains(fields[0]), let w = Int(fields[1]), let h = Int(fields[2]), fields[3] == "255"
        else { throw BadPNM() }
        width = w
        height = h
        channels = fields[0] == "P5" ? 1 : 3
        pixels = Array(bytes[position..<position + w * h * channels])
    }

    /// Each pixel the mean of its 3×3 neighbourhood (clipped at the edges).
    func blurred() -> Raster {
        var out = self
        for y in 0..<height {
            for x in 0..<width {
                for k in 0..<channels {
                    var sum = 0, n = 0
                    for yy in max(0, y - 1)...min(height - 1, y + 1) {
                        for xx in max(0, x - 1)...min(width - 1, x + 1) {
                            sum += Int(pixels[(yy * width + xx) * channels + k])
                            n += 1
                        }
                    }
                    out.pixels[(y * width + x) * channels + k] = UInt8((sum + n / 2) / n)
                }
            }
        }
        return out
    }

    /// The picture's luma (BT.601 from RGB), which chroma subsampling leaves alone.
    func luma() -> Raster {
        guard channels == 3 else { return self }
        var out = Raster(
            width: width, height: height, channels: 1, pixels: [UInt8](repeating: 0, count: width * height))
        for i in 0..<width * height {
            let r = Int(pixels[3 * i]), g = Int(pixels[3 * i + 1]), b = Int(pixels[3 * i + 2])
            out.pixels[i] = UInt8((299 * r + 587 * g + 114 * b + 500) / 1000)
        }
        return out
    }

    /// The largest difference over channels at (x, y).
    func difference(_ other: Raster, _ x: Int, _ y: Int) -> Int {
        let c = min(channels, other.channels)
        var largest = 0
        for k in 0..<c {
            largest = max(
                largest,
                abs(
                    Int(pixels[(y * width + x) * channels + k])
                        - Int(other.pixels[(y * other.width + x) * other.channels + k])))
        }
        return largest
    }
}

/// A box of pixels, bounds inclusive.
struct PixelBox: CustomStringConvertible {
    var minX: Int, minY: Int, maxX: Int, maxY: Int
    func contains(_ x: Int, _ y: Int) -> Bool { x >= minX && x <= maxX && y >= minY && y <= maxY }
    var description: String { "(\(minX),\(minY))–(\(maxX),\(maxY))" }
}

/// Decodes with djpeg (libjpeg-turbo); `-nosmooth` upsamples chroma within each MCU only.
func djpeg(_ file: URL, smooth: Bool = true) throws -> Raster {
    try Raster(pnm: tool("djpeg", (smooth ? [] : ["-nosmooth"]) + ["-pnm", file.path]))
}

/// The picture as a viewer shows it (EXIF orientation applied), decoded by ImageMagick.
func upright(_ file: URL) throws -> Raster {
    try Raster(pnm: tool("convert", [file.path, "-auto-orient", "ppm:-"]))
}

/// The bounding box of the pixels where `a` and `b` differ by more than `threshold`.
func differingBox(_ a: Raster, _ b: Raster, threshold: Int) -> PixelBox? {
    var box: PixelBox?
    for y in 0..<a.height {
        for x in 0..<a.width where a.difference(b, x, y) > threshold {
            if var b = box {
                b.minX = min(b.minX, x)
                b.minY = min(b.minY, y)
                b.maxX = max(b.maxX, x)
                b.maxY = max(b.maxY, y)
                box = b
            } else {
                box = PixelBox(minX: x, minY: y, maxX: x, maxY: y)
            }
        }
    }
    return box
}
