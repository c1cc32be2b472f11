// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import Media

/// What is drawn on the preview and never on a photo: the rule-of-thirds grid. Everything else
/// the preview shows (the square, the mirror, the turn, the marks) is the photo's own pixels.
/// Drawn on the scaled preview frame as it passes the preview pipeline's `overlay` element, so a
/// 1 px line stays 1 px whatever the camera's resolution.
final class PreviewDecor: @unchecked Sendable {
    private let lock = NSLock()
    private var grid = false
    private struct Key: Hashable {
        var width: Int
        var height: Int
    }
    private var cached: (key: Key, composition: OverlayComposition)?

    func set(grid: Bool) {
        lock.withLock { self.grid = grid }
    }

    /// Draws the grid on `frame` in place (preview streaming thread).
    func draw(on frame: VideoFrame) {
        let composition: OverlayComposition? = lock.withLock {
            guard grid else { return nil }
            let key = Key(width: frame.width, height: frame.height)
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

    /// The thirds of the frame, which is the photo (the square when Square is on).
    private static func composition(for key: Key) -> OverlayComposition {
        var placements: [OverlayComposition.Placement] = []
        let (width, height) = (key.width, key.height)
        let vertical = lines(width: 2, height: height, vertical: true)
        let horizontal = lines(width: width, height: 2, vertical: false)
        for third in 1...2 {
            if let vertical { placements.append(.init(image: vertical, x: width * third / 3, y: 0)) }
            if let horizontal { placements.append(.init(image: horizontal, x: 0, y: height * third / 3)) }
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
}
