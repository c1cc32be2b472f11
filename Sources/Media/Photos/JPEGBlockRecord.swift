// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import CJPEGCoefficients

/// What a JPEG stamped in its coefficients proves of its parent: the layout of its blocks, the
/// blocks the stamp rewrote (as rectangles, per component), and a SHA-256 over the parent's
/// quantisation tables and the quantised coefficients of every other block
/// (`jpeg_blocks.h` and docs/credentials.md give the order).
public struct JPEGBlockRecord: Sendable, Equatable {
    /// A rectangle of blocks, in block columns and rows of its component.
    public struct Rectangle: Sendable, Equatable {
        public var x: Int, y: Int, width: Int, height: Int

        public init(x: Int, y: Int, width: Int, height: Int) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
    }

    /// One component: its size in blocks, its sampling factors, its changed blocks.
    public struct Component: Sendable, Equatable {
        public var width: Int, height: Int
        public var h: Int, v: Int
        public var changed: [Rectangle]

        public init(width: Int, height: Int, h: Int, v: Int, changed: [Rectangle]) {
            self.width = width
            self.height = height
            self.h = h
            self.v = v
            self.changed = changed
        }
    }

    public var components: [Component]
    /// The SHA-256 over the blocks outside `changed`, 32 bytes; none (`[]`) in a spliced photo's.
    public var digest: [UInt8]

    public init(components: [Component], digest: [UInt8]) {
        self.components = components
        self.digest = digest
    }

    /// The most rectangles a record holds: beyond, each component's changed set is its bounding box.
    public static let maxRectangles = 1024

    /// The most blocks a record (or a file compared with one) may have, all components together.
    public static let maxBlocks = Int(CS_MAX_BLOCKS)

    public var blocksTotal: Int { components.reduce(0) { $0 + $1.width * $1.height } }

    /// The blocks inside the changed set (rectangles may overlap only when a record is forged:
    /// counted by the map).
    public var blocksChanged: Int { skipMap().reduce(0) { $0 + Int($1) } }

    /// A byte per block, component after component, row by row: 1 inside the changed set.
    func skipMap() -> [UInt8] {
        var map = [UInt8](repeating: 0, count: blocksTotal)
        var base = 0
        for component in components {
            for r in component.changed {
                let rows = max(0, r.y)..<min(component.height, r.y + r.height)
                let columns = max(0, r.x)..<min(component.width, r.x + r.width)
                for row in rows where !columns.isEmpty {
                    for column in columns { map[base + row * component.width + column] = 1 }
                }
            }
            base += component.width * component.height
        }
        return map
    }

    /// The changed blocks of a `width`×`height` map (1 where changed) as rectangles: each row's
    /// runs, a run continued downwards while the next row has the same one.
    static func rectangles(_ map: ArraySlice<UInt8>, width: Int, height: Int) -> [Rectangle] {
        var done: [Rectangle] = []
        var open: [Rectangle] = []
        let start = map.startIndex
        for row in 0..<height {
            var runs: [Range<Int>] = []
            var column = 0
            while column < width {
                guard map[start + row * width + column] != 0 else {
                    column += 1
                    continue
                }
                let first = column
                while column < width, map[start + row * width + column] != 0 { column += 1 }
                runs.append(first..<column)
            }
            var next: [Rectangle] = []
            for run in runs {
                if let index = open.firstIndex(where: { $0.x == run.lowerBound && $0.width == run.count }) {
                    var grown = open.remove(at: index)
                    grown.height += 1
                    next.append(grown)
                } else {
                    next.append(Rectangle(x: run.lowerBound, y: row, width: run.count, height: 1))
                }
            }
            done += open
            open = next
        }
        return done + open
    }

    /// The same set in no more than `maxRectangles`: each component's bounding box beyond that.
    static func capped(_ components: [Component]) -> [Component] {
        guard components.reduce(0, { $0 + $1.changed.count }) > maxRectangles else { return components }
        return components.map { component in
            var capped = component
            guard let x0 = component.changed.map(\.x).min(), let y0 = component.changed.map(\.y).min(),
                let x1 = component.changed.map({ $0.x + $0.width }).max(),
                let y1 = component.changed.map({ $0.y + $0.height }).max()
            else { return capped }
            capped.changed = [Rectangle(x: x0, y: y0, width: x1 - x0, height: y1 - y0)]
            return capped
        }
    }
}

/// Why the blocks of a JPEG could not be read or compared.
public enum JPEGBlockError: Error, Sendable, CustomStringConvertible {
    /// libjpeg could not read it (damaged, or not a JPEG).
    case unreadable(String)
    /// Its components, sampling, size in blocks or tables are not the ones it is compared with.
    case layout(String)

    public var description: String {
        switch self {
        case .unreadable(let why): "its coefficients cannot be read (\(why))"
        case .layout(let why): why
        }
    }
}
