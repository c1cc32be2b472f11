// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
@testable import Presets
@testable import Render

extension Color {
    /// Opaque black (the library has no use for it, the tests do).
    static let black = Color(red: 0, green: 0, blue: 0)
}

/// The repository's `fonts/` folder, found from this file (never from the shared docs).
let bundledFonts = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("fonts", isDirectory: true)

/// A renderer with the bundled fonts registered first, as the jobs do it.
func makeRenderer() throws -> MarkRenderer {
    try Fonts.registerBundled(directory: bundledFonts)
    return MarkRenderer()
}

/// A plain text mark with no effects; tests switch on what they check.
func textMark(
    _ text: String, size: Double = 48, color: Color = .white, markup: Bool = false,
    weight: Int = 400
) -> ResolvedMark {
    ResolvedMark(
        content: .text(text, markup: markup), fontFamily: nil, fontFile: nil, weight: weight,
        fontSize: size, color: color, outline: nil, shadow: nil, box: nil, align: .left,
        maxWidth: nil, imageWidth: nil, imageHeight: nil, rotate: 0, opacity: 1,
        anchor: .bottomRight, marginX: 10, marginY: 10, offsetX: 0, offsetY: 0, tileGap: nil)
}

func imageMark(_ url: URL, width: Double? = nil, height: Double? = nil) -> ResolvedMark {
    var mark = textMark("")
    mark.content = .image(url)
    mark.imageWidth = width
    mark.imageHeight = height
    mark.anchor = .topLeft
    return mark
}

/// A fresh temporary folder for files a test writes.
func temporaryFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("camstamp-render-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Integer pixel rectangle, max edges exclusive.
struct PixelBox: Equatable, CustomStringConvertible {
    var minX: Int, minY: Int, maxX: Int, maxY: Int
    var width: Int { maxX - minX }
    var height: Int { maxY - minY }
    var description: String { "(\(minX),\(minY))-(\(maxX),\(maxY))" }
}

extension Bitmap {
    /// The smallest box holding every pixel with alpha above `threshold`; nil when there is none.
    func inkBox(threshold: UInt8 = 0) -> PixelBox? {
        var box: PixelBox?
        for y in 0..<height {
            for x in 0..<width where self[x, y].alpha > threshold {
                if var b = box {
                    b.minX = min(b.minX, x)
                    b.minY = min(b.minY, y)
                    b.maxX = max(b.maxX, x + 1)
                    b.maxY = max(b.maxY, y + 1)
                    box = b
                } else {
                    box = PixelBox(minX: x, minY: y, maxX: x + 1, maxY: y + 1)
                }
            }
        }
        return box
    }

    /// The first pixel whose colour channel exceeds its alpha, which premultiplied data never has.
    func premultipliedViolation() -> String? {
        for y in 0..<height {
            for x in 0..<width {
                let p = self[x, y]
                if p.red > p.alpha || p.green > p.alpha || p.blue > p.alpha { return "(\(x),\(y)) \(p)" }
            }
        }
        return nil
    }
}

/// The mark's alpha laid onto a transparent `width`×`height` frame at each origin (clipped).
func frameAlpha(_ rendered: RenderedMark, width: Int, height: Int) -> [UInt8] {
    var frame = [UInt8](repeating: 0, count: width * height)
    let bitmap = rendered.bitmap
    for origin in rendered.origins {
        let ox = Int(origin.x), oy = Int(origin.y)
        for y in 0..<bitmap.height where (0..<height).contains(oy + y) {
            for x in 0..<bitmap.width where (0..<width).contains(ox + x) {
                let i = (oy + y) * width + ox + x
                frame[i] = max(frame[i], bitmap[x, y].alpha)
            }
        }
    }
    return frame
}
