// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
/// A point in frame pixels, origin top-left, y down.
public struct Point: Hashable, Sendable {
    /// Pixels from the left edge.
    public var x: Double
    /// Pixels from the top edge.
    public var y: Double
    /// The point (`x`, `y`).
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// Where marks land on a frame. Pure arithmetic, shared by the renderer and the tests.
public enum Layout {
    /// The top-left corner of a `markWidth`×`markHeight` mark on a `frameWidth`×`frameHeight`
    /// frame: placed at `anchor`, kept `marginX`/`marginY` from the edges it is anchored to
    /// (centred axes ignore the margin), then moved by `offsetX`/`offsetY`.
    public static func origin(
        markWidth: Double, markHeight: Double,
        frameWidth: Double, frameHeight: Double,
        anchor: Anchor, marginX: Double, marginY: Double,
        offsetX: Double = 0, offsetY: Double = 0
    ) -> Point {
        let x: Double =
            switch anchor {
            case .topLeft, .left, .bottomLeft: marginX
            case .top, .center, .bottom: (frameWidth - markWidth) / 2
            case .topRight, .right, .bottomRight: frameWidth - marginX - markWidth
            }
        let y: Double =
            switch anchor {
            case .topLeft, .top, .topRight: marginY
            case .left, .center, .right: (frameHeight - markHeight) / 2
            case .bottomLeft, .bottom, .bottomRight: frameHeight - marginY - markHeight
            }
        return Point(x: x + offsetX, y: y + offsetY)
    }

    /// The origin of `mark` once rendered at `markWidth`×`markHeight`.
    public static func origin(
        of mark: ResolvedMark, markWidth: Double, markHeight: Double,
        frameWidth: Double, frameHeight: Double
    ) -> Point {
        origin(
            markWidth: markWidth, markHeight: markHeight, frameWidth: frameWidth,
            frameHeight: frameHeight, anchor: mark.anchor, marginX: mark.marginX,
            marginY: mark.marginY, offsetX: mark.offsetX, offsetY: mark.offsetY)
    }

    /// How many columns and rows of tiles `tileOrigins` lays out, counted in floating point so a
    /// tiny mark on a huge frame gives a huge count rather than an overflow.
    public static func tileGrid(
        markWidth: Double, markHeight: Double,
        frameWidth: Double, frameHeight: Double, gap: Double
    ) -> (columns: Double, rows: Double) {
        let stepX = markWidth + max(gap, 0), stepY = markHeight + max(gap, 0)
        // One tile centred on the frame's centre, then whole steps out while tiles still overlap
        // the frame: tile k is in when x0 + k·step < width and x0 − k·step + markWidth > 0, which
        // for a centred grid is the same count on both sides.
        let halfColumns = max(((frameWidth + markWidth) / 2 / stepX).rounded(.up) - 1, 0)
        let halfRows = max(((frameHeight + markHeight) / 2 / stepY).rounded(.up) - 1, 0)
        return (2 * halfColumns + 1, 2 * halfRows + 1)
    }

    /// Top-left corners of a grid of `markWidth`×`markHeight` tiles, `gap` apart, centred on the
    /// frame: every tile of that grid that overlaps the frame (edge tiles may be partly outside),
    /// and none that lies wholly outside it. Check `tileGrid` first: the count can be huge.
    public static func tileOrigins(
        markWidth: Double, markHeight: Double,
        frameWidth: Double, frameHeight: Double, gap: Double
    ) -> [Point] {
        precondition(markWidth > 0 && markHeight > 0, "tiles need a positive size")
        let grid = tileGrid(
            markWidth: markWidth, markHeight: markHeight, frameWidth: frameWidth,
            frameHeight: frameHeight, gap: gap)
        precondition(grid.columns * grid.rows <= 1e8, "\(grid) tiles: check tileGrid first")
        let stepX = markWidth + max(gap, 0), stepY = markHeight + max(gap, 0)
        let x0 = (frameWidth - markWidth) / 2, y0 = (frameHeight - markHeight) / 2
        let columns = Int(grid.columns) / 2, rows = Int(grid.rows) / 2
        var points: [Point] = []
        points.reserveCapacity(Int(grid.columns * grid.rows))
        for row in -rows...rows {
            for column in -columns...columns {
                points.append(Point(x: x0 + Double(column) * stepX, y: y0 + Double(row) * stepY))
            }
        }
        return points
    }
}
