// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// A landscape drawn in code, the picture presets are previewed on: an evening sky, a low sun,
/// blue hills, a green meadow with a lake and a few trees. Made to any size and aspect (every
/// shape is placed relative to the picture), so a portrait and a landscape preview show the same
/// scene; grain keeps it from looking like a flat graphic. No file to ship, and the same pixels
/// on every machine.
enum SampleScene {
    typealias Colour = (r: Double, g: Double, b: Double)

    /// The scene as packed RGBx rows (stride 4 × width).
    static func rgbx(width: Int, height: Int) -> [UInt8] {
        var pixels = [UInt8](repeating: 255, count: 4 * width * height)
        let w = Double(width), h = Double(height), unit = min(w, h)
        let sun = (x: 0.70 * w, y: 0.42 * h, radius: 0.07 * unit)
        for row in 0..<height {
            let y = Double(row) + 0.5
            for column in 0..<width {
                let x = Double(column) + 0.5
                var colour = ground(x: x / w, y: y / h, unit: unit / h) ?? sky(x: x, y: y, h: h, sun: sun)
                let grain = (hash(column, row) - 0.5) * 0.035
                colour = (colour.r + grain, colour.g + grain, colour.b + grain)
                let at = 4 * (row * width + column)
                pixels[at] = byte(colour.r)
                pixels[at + 1] = byte(colour.g)
                pixels[at + 2] = byte(colour.b)
            }
        }
        return pixels
    }

    /// The sky at (x, y) in pixels: deep blue above, warm at the horizon, the sun and its glow.
    private static func sky(x: Double, y: Double, h: Double, sun: (x: Double, y: Double, radius: Double)) -> Colour {
        let t = min(1, max(0, y / (0.62 * h)))
        var colour = mix((0.16, 0.33, 0.62), (0.98, 0.74, 0.50), t * t)
        let distance = ((x - sun.x) * (x - sun.x) + (y - sun.y) * (y - sun.y)).squareRoot()
        let glow = max(0, 1 - distance / (5 * sun.radius))
        colour = mix(colour, (1.0, 0.86, 0.58), 0.55 * glow * glow)
        let disc = min(1, max(0, sun.radius - distance + 0.5))
        return mix(colour, (1.0, 0.96, 0.82), disc)
    }

    /// The land at (x, y) in 0…1 of the picture, or nil where the sky shows. `unit` is the short
    /// side over the height, so trees keep their shape in portrait and landscape.
    private static func ground(x: Double, y: Double, unit: Double) -> Colour? {
        let far = 0.56 - 0.05 * sin(x * 7.1 + 0.6) - 0.03 * sin(x * 17.3 + 1.9)
        let near = 0.68 - 0.03 * sin(x * 4.3 + 2.2) - 0.012 * sin(x * 23.0)
        if let tree = tree(x: x, y: y, baseline: near, unit: unit) { return tree }
        if y >= near {
            let depth = (y - near) / (1 - near)
            if lake(x: x, y: y, near: near) { return mix((0.47, 0.62, 0.78), (0.30, 0.45, 0.66), depth) }
            return mix((0.42, 0.60, 0.27), (0.20, 0.36, 0.15), depth)
        }
        if y >= far {
            let depth = (y - far) / max(0.01, near - far)
            return mix((0.48, 0.52, 0.66), (0.33, 0.40, 0.50), depth)
        }
        return nil
    }

    /// A lake in the meadow's middle distance: an ellipse, flattened by perspective.
    private static func lake(x: Double, y: Double, near: Double) -> Bool {
        let dx = (x - 0.38) / 0.26, dy = (y - (near + 0.09)) / 0.05
        return dx * dx + dy * dy < 1
    }

    /// Five conifers standing on the meadow's edge: a dark triangle each over a trunk.
    private static func tree(x: Double, y: Double, baseline: Double, unit: Double) -> Colour? {
        let trees: [(x: Double, size: Double)] = [(0.08, 1.0), (0.14, 0.7), (0.83, 1.2), (0.90, 0.8), (0.95, 0.6)]
        for tree in trees {
            let height = 0.16 * tree.size * unit, width = 0.055 * tree.size * unit
            let foot = baseline + 0.01, top = foot - height
            guard y >= top, y <= foot + 0.015 * unit else { continue }
            let dx = abs(x - tree.x)
            if y > foot - 0.03 * tree.size * unit, dx < 0.006 * tree.size * unit { return (0.29, 0.20, 0.13) }
            let along = (y - top) / (0.85 * height)
            if along <= 1, dx < width * along { return mix((0.13, 0.30, 0.16), (0.08, 0.20, 0.11), along) }
        }
        return nil
    }

    private static func mix(_ a: Colour, _ b: Colour, _ t: Double) -> Colour {
        (a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t)
    }

    private static func byte(_ value: Double) -> UInt8 { UInt8(min(255, max(0, (value * 255).rounded()))) }

    /// A fixed pseudo-random value in 0…1 for a pixel (an integer hash: the same grain everywhere).
    private static func hash(_ x: Int, _ y: Int) -> Double {
        var h = UInt32(truncatingIfNeeded: x &* 374_761_393 &+ y &* 668_265_263)
        h = (h ^ (h >> 13)) &* 1_274_126_177
        h ^= h >> 16
        return Double(h & 0xFFFF) / 65535
    }
}
