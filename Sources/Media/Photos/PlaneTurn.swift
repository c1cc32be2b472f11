// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors

/// One 8-bit picture plane turned upright, as videoflip turns it (each plane on its own), but in
/// 8×8 blocks: videoflip's quarter turn reads a column a byte at a time, a cache miss per pixel.
enum PlaneTurn {
    /// A plane in memory: `width`×`height` bytes, rows `stride` bytes apart.
    struct Plane {
        var base: UnsafeMutablePointer<UInt8>
        var width: Int
        var height: Int
        var stride: Int
    }

    /// Writes `source` turned by `orientation` into `target`, whose size is the turned size
    /// (width and height swapped for the quarter turns).
    static func turn(_ source: Plane, into target: Plane, _ orientation: Orientation) {
        precondition(
            orientation.swapsAxes
                ? (target.width == source.height && target.height == source.width)
                : (target.width == source.width && target.height == source.height),
            "a turned plane has the turned size")
        if orientation.swapsAxes {
            quarter(source, into: target, orientation)
        } else {
            rows(source, into: target, orientation)
        }
    }

    /// Normal, mirrored, 180° and flipped: each target row is a source row, reversed when mirrored.
    private static func rows(_ source: Plane, into target: Plane, _ orientation: Orientation) {
        let upsideDown = orientation == .rotated180 || orientation == .flipped
        let mirrored = orientation == .rotated180 || orientation == .mirrored
        let width = source.width
        for y in 0..<target.height {
            let from = source.base + (upsideDown ? source.height - 1 - y : y) * source.stride
            let to = target.base + y * target.stride
            guard mirrored else {
                to.update(from: from, count: width)
                continue
            }
            var x = 0
            // Eight bytes at a time: a word from the far end, byte-swapped.
            while x + 8 <= width {
                let word = UnsafeRawPointer(from + width - x - 8).loadUnaligned(as: UInt64.self)
                UnsafeMutableRawPointer(to + x).storeBytes(of: word.byteSwapped, as: UInt64.self)
                x += 8
            }
            while x < width {
                to[x] = from[width - 1 - x]
                x += 1
            }
        }
    }

    /// The quarter turns and the two transposes: target (x, y) is source (column(y), row(x)).
    private static func quarter(_ source: Plane, into target: Plane, _ orientation: Orientation) {
        // Whether the source column falls as the target row rises, and the source row as the
        // target column rises.
        let columnFalls = orientation == .transverse || orientation == .rotated270
        let rowFalls = orientation == .rotated90 || orientation == .transverse
        func sourceRow(_ x: Int) -> UnsafeMutablePointer<UInt8> {
            source.base + (rowFalls ? source.height - 1 - x : x) * source.stride
        }
        func sourceColumn(_ y: Int) -> Int { columnFalls ? source.width - 1 - y : y }
        let rowStep = rowFalls ? -source.stride : source.stride
        let fullWidth = target.width & ~7
        let fullHeight = target.height & ~7
        // Bands of 64 target rows: the source bytes a band reads are whole cache lines.
        for band in stride(from: 0, to: fullHeight, by: 64) {
            let bandEnd = min(band + 64, fullHeight)
            for x0 in stride(from: 0, to: fullWidth, by: 8) {
                for y0 in stride(from: band, to: bandEnd, by: 8) {
                    block(
                        sourceRow(x0) + (columnFalls ? sourceColumn(y0 + 7) : y0), step: rowStep,
                        into: target.base + y0 * target.stride + x0, stride: target.stride, reversed: columnFalls)
                }
            }
        }
        // The right and bottom edges that do not fill a block, a byte at a time.
        for y in 0..<target.height {
            let to = target.base + y * target.stride
            let column = sourceColumn(y)
            for x in (y < fullHeight ? fullWidth : 0)..<target.width { to[x] = sourceRow(x)[column] }
        }
    }

    /// One 8×8 block: eight words `step` bytes apart from `from` (one per target column),
    /// transposed in registers, stored as eight target rows from `to` (from the last when `reversed`).
    @inline(__always)
    private static func block(
        _ from: UnsafeMutablePointer<UInt8>, step: Int, into to: UnsafeMutablePointer<UInt8>, stride: Int,
        reversed: Bool
    ) {
        func load(_ i: Int) -> UInt64 { UnsafeRawPointer(from + i * step).loadUnaligned(as: UInt64.self) }
        var r0 = load(0), r1 = load(1), r2 = load(2), r3 = load(3)
        var r4 = load(4), r5 = load(5), r6 = load(6), r7 = load(7)
        // Byte j of word i goes to byte i of word j: swap bytes, then pairs, then quads.
        @inline(__always) func swap(_ a: inout UInt64, _ b: inout UInt64, _ shift: UInt64, _ mask: UInt64) {
            let t = ((a >> shift) ^ b) & mask
            b ^= t
            a ^= t << shift
        }
        let bytes: UInt64 = 0x00FF_00FF_00FF_00FF
        swap(&r0, &r1, 8, bytes)
        swap(&r2, &r3, 8, bytes)
        swap(&r4, &r5, 8, bytes)
        swap(&r6, &r7, 8, bytes)
        let pairs: UInt64 = 0x0000_FFFF_0000_FFFF
        swap(&r0, &r2, 16, pairs)
        swap(&r1, &r3, 16, pairs)
        swap(&r4, &r6, 16, pairs)
        swap(&r5, &r7, 16, pairs)
        let quads: UInt64 = 0x0000_0000_FFFF_FFFF
        swap(&r0, &r4, 32, quads)
        swap(&r1, &r5, 32, quads)
        swap(&r2, &r6, 32, quads)
        swap(&r3, &r7, 32, quads)
        @inline(__always) func store(_ j: Int, _ word: UInt64) {
            UnsafeMutableRawPointer(to + (reversed ? 7 - j : j) * stride).storeBytes(of: word, as: UInt64.self)
        }
        store(0, r0)
        store(1, r1)
        store(2, r2)
        store(3, r3)
        store(4, r4)
        store(5, r5)
        store(6, r6)
        store(7, r7)
    }
}
