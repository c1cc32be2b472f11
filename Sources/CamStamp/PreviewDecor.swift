// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import Media

/// What is drawn on the preview and never on a photo: the rule-of-thirds grid and the frame of the
/// square crop. Drawn on the scaled preview frame as it passes the preview pipeline's `overlay`
/// element, so a 1 px line stays 1 px whatever the camera's resolution.
final class PreviewDecor: @unchecked Sendable {
    private let lock = NSLock()
    private var grid = false
    private var square = false
    private struct Key: Hashable {
        var width: Int
        var height: Int
        var grid: Bool
        var square: Bool
    }
    private var cached: (key: Key, composition: OverlayComposition)?

    func set(grid: Bool, square: Bool) {
        lock.withLock {
            self.grid = grid
            self.square = square
        }
    }

    /// Draws the grid and the square frame on `frame` in place (preview streaming thread).
    func draw(on frame: VideoFrame) {
        let composition: OverlayComposition? = lock.withLock {
            let key = Key(width: frame.width, height: frame.height, grid: grid, square: square)
            guard key.grid || key.square else { return nil }
            if let cached, cached.key == key { return cached.composition }
            let built = Self.composition(for: key)
            cached = (key, built)
            return built
        }
        // The grid is a viewing aid on the preview only (never on a photo): a frame it cannot be
        // drawn on is shown without it rather than stopping the viewfinder.
        if let composition { try? composition.blend(into: frame) }
    }

    // A light line (white, 75%) with a faint dark companion (black, 35%) beside it: one of the two
    // shows on any background, white sky or black night.
    private static let light: [UInt8] = [191, 191, 191, 191]
    private static let dark: [UInt8] = [0, 0, 0, 89]
    /// Outside the square: dimmed (black, 45%), so the crop reads at a glance.
    private static let dim: [UInt8] = [0, 0, 0, 115]

    private static func composition(for key: Key) -> OverlayComposition {
        var placements: [OverlayComposition.Placement] = []
        let (width, height) = (key.width, key.height)
        // The area the grid divides: the square when it is on (the photo's thirds), else the frame.
        var area = (x: 0, y: 0, width: width, height: height)
        if key.square {
            let crop = StillGeometry.centreSquare(width: width, height: height)
            area = (crop.x, crop.y, crop.side, crop.side)
            if width > height, crop.x > 0 {
                placements += [
                    image(crop.x, height, dim).map { .init(image: $0, x: 0, y: 0) },
                    image(width - crop.x - crop.side, height, dim).map {
                        .init(image: $0, x: crop.x + crop.side, y: 0)
                    },
                ]
                .compactMap { $0 }
            } else if height > width, crop.y > 0 {
                placements += [
                    image(width, crop.y, dim).map { .init(image: $0, x: 0, y: 0) },
                    image(width, height - crop.y - crop.side, dim).map {
                        .init(image: $0, x: 0, y: crop.y + crop.side)
                    },
                ]
                .compactMap { $0 }
            }
        }
        if key.grid {
            let vertical = lines(width: 2, height: area.height, vertical: true)
            let horizontal = lines(width: area.width, height: 2, vertical: false)
            for third in 1...2 {
                if let vertical {
                    placements.append(.init(image: vertical, x: area.x + area.width * third / 3, y: area.y))
                }
                if let horizontal {
                    placements.append(.init(image: horizontal, x: area.x, y: area.y + area.height * third / 3))
                }
            }
        }
        return OverlayComposition(placements)
    }

    /// A 2-pixel band: the light line, then its dark companion (right of it, or below it).
    private static func lines(width: Int, height: Int, vertical: Bool) -> OverlayImage? {
        guard width > 0, height > 0 else { return nil }
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let first = vertical ? x == 0 : y == 0
                pixels.replaceSubrange((y * width + x) * 4..<(y * width + x) * 4 + 4, with: first ? light : dark)
            }
        }
        return pixels.withUnsafeBytes {
            try? OverlayImage(width: width, height: height, stride: width * 4, premultipliedBGRA: $0)
        }
    }

    private static func image(_ width: Int, _ height: Int, _ pixel: [UInt8]) -> OverlayImage? {
        guard width > 0, height > 0 else { return nil }
        let pixels = [[UInt8]](repeating: pixel, count: width * height).flatMap { $0 }
        return pixels.withUnsafeBytes {
            try? OverlayImage(width: width, height: height, stride: width * 4, premultipliedBGRA: $0)
        }
    }
}
