// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// DEC sixel graphics, for terminals that show pictures that way (foot, mlterm, contour, xterm
/// started with `-ti vt340`). Colours are those of a 6×6×6 cube (216 registers, which every sixel
/// terminal has), each pixel the nearest: enough to tell one preset from another.
enum Sixel {
    /// The picture (packed R, G, B rows) as one sixel sequence.
    static func encode(rgb: [UInt8], width: Int, height: Int) -> String {
        var out = "\u{1B}P0;1;0q\"1;1;\(width);\(height)"
        let indices = rgb.withUnsafeBufferPointer { pixels in
            (0..<width * height).map { cube(pixels[3 * $0], pixels[3 * $0 + 1], pixels[3 * $0 + 2]) }
        }
        for colour in Set(indices).sorted() {
            let (r, g, b) = (colour / 36, colour / 6 % 6, colour % 6)
            out += "#\(colour);2;\(r * 20);\(g * 20);\(b * 20)"
        }
        for top in stride(from: 0, to: height, by: 6) {
            // Each colour's six-pixel columns in this band: bit n is row top + n.
            var bands: [Int: [UInt8]] = [:]
            for row in top..<min(top + 6, height) {
                let bit = UInt8(1) << (row - top)
                for column in 0..<width {
                    bands[indices[row * width + column], default: [UInt8](repeating: 0, count: width)][column] |= bit
                }
            }
            let colours = bands.keys.sorted()
            for (index, colour) in colours.enumerated() {
                out += "#\(colour)" + run(bands[colour]!) + (index < colours.count - 1 ? "$" : "")
            }
            out += "-"
        }
        return out + "\u{1B}\\"
    }

    /// The register of the cube colour nearest to (r, g, b).
    static func cube(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Int {
        func level(_ value: UInt8) -> Int { (Int(value) * 5 + 127) / 255 }
        return level(r) * 36 + level(g) * 6 + level(b)
    }

    /// One colour's columns as sixel characters, runs of four or more as `!COUNT` and the character.
    static func run(_ columns: [UInt8]) -> String {
        var out = ""
        var index = 0
        while index < columns.count {
            var end = index
            while end < columns.count, columns[end] == columns[index] { end += 1 }
            let character = String(UnicodeScalar(63 + columns[index]))
            out += end - index >= 4 ? "!\(end - index)\(character)" : String(repeating: character, count: end - index)
            index = end
        }
        return out
    }
}
