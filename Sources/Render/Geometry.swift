// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
/// An axis-aligned rectangle in pixels, as its edges (internal layout arithmetic only).
struct Rect: Equatable {
    var minX: Double, minY: Double, maxX: Double, maxY: Double

    init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    init(x: Double, y: Double, width: Double, height: Double) {
        self.init(minX: x, minY: y, maxX: x + width, maxY: y + height)
    }

    var width: Double { maxX - minX }
    var height: Double { maxY - minY }
    var isEmpty: Bool { width <= 0 || height <= 0 }

    /// Grown by `amount` on every side.
    func outset(by amount: Double) -> Rect {
        Rect(minX: minX - amount, minY: minY - amount, maxX: maxX + amount, maxY: maxY + amount)
    }

    func offsetBy(dx: Double, dy: Double) -> Rect {
        Rect(minX: minX + dx, minY: minY + dy, maxX: maxX + dx, maxY: maxY + dy)
    }

    func union(_ other: Rect) -> Rect {
        Rect(
            minX: min(minX, other.minX), minY: min(minY, other.minY),
            maxX: max(maxX, other.maxX), maxY: max(maxY, other.maxY))
    }

    /// The smallest rectangle with integer edges that contains this one. The small tolerance keeps
    /// floating-point noise (12.000000001) from adding a whole empty pixel row.
    var integral: Rect {
        let tolerance = 1e-6
        return Rect(
            minX: (minX + tolerance).rounded(.down), minY: (minY + tolerance).rounded(.down),
            maxX: (maxX - tolerance).rounded(.up), maxY: (maxY - tolerance).rounded(.up))
    }
}
