// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors

/// What a picture's mark reads as: the majority bit of each position and how clear the vote was.
public struct MarkReading: Sendable {
    /// The payload the majorities spell (a picture without a mark spells one too: compare it with
    /// the payload expected, `agreement`, or look at `strength`).
    public let payload: MarkPayload
    /// Per bit, the share of its blocks that read 1.
    public let shares: [Double]

    /// How far apart the 1s' and the 0s' shares are, from 0 (no mark) to 1 (every block agreed).
    public var strength: Double {
        let bits = payload.bits
        let ones = zip(shares, bits).filter { $1 == 1 }.map(\.0), zeros = zip(shares, bits).filter { $1 == 0 }.map(\.0)
        guard !ones.isEmpty, !zeros.isEmpty else { return 0 }
        return ones.reduce(0, +) / Double(ones.count) - zeros.reduce(0, +) / Double(zeros.count)
    }

    /// How many of `expected`'s 64 bits were read back.
    public func agreement(with expected: MarkPayload) -> Int { payload.agreement(with: expected) }

    /// Whether this reading is `expected`'s mark: at least 56 of 64 bits (a picture without it
    /// agrees so by chance about once in 4·10⁹).
    public func matches(_ expected: MarkPayload) -> Bool { agreement(with: expected) >= 56 }
}

extension InvisibleMark {
    /// Reads the 64-bit mark in `plane`, as invisible-watermark's `decode` does.
    public static func read(_ plane: ChromaPlane) throws(Failure) -> MarkReading {
        let rows = plane.height / 8, columns = plane.width / 8
        guard rows * columns >= minimumBlocks else { throw .tooSmall(width: plane.width, height: plane.height) }
        let count = MarkPayload.bitCount
        var ones = [Int](repeating: 0, count: count), totals = [Int](repeating: 0, count: count)
        let values = UnsafeMutablePointer<Float>.allocate(capacity: 16)
        defer { values.deallocate() }
        for row in 0..<rows {
            for column in 0..<columns {
                plane.coefficients(row: row, column: column, into: values)
                let magnitude = abs(values[largest(values)])
                let bit = (row * columns + column) % count
                // Python's `%` of a positive float, then `> 0.5 * scale`.
                if magnitude.truncatingRemainder(dividingBy: scale) > scale / 2 { ones[bit] += 1 }
                totals[bit] += 1
            }
        }
        let shares = zip(ones, totals).map { Double($0) / Double(max($1, 1)) }
        let threshold = threshold(shares)
        let bits = shares.map { $0 > threshold ? UInt8(1) : 0 }
        let bytes = stride(from: 0, to: count, by: 8).map { start in
            bits[start..<start + 8].reduce(UInt8(0)) { $0 << 1 | $1 }
        }
        return MarkReading(payload: MarkPayload(bytes: bytes)!, shares: shares)
    }

    /// Where the 0s' shares end and the 1s' begin. invisible-watermark cuts at one half; but a
    /// picture's own blocks lean one way (smooth chroma reads mostly 0 or mostly 1), and its
    /// embedder leaves many 0s unwritten, so its 0s can read at 0.6 beside 1s at 1.0. The cut that
    /// best splits the 64 shares in two (Otsu's) follows that; without two clear groups (no mark,
    /// or a payload of one bit value) it is one half.
    static func threshold(_ shares: [Double]) -> Double {
        let sorted = shares.sorted()
        var best = (score: 0.0, cut: 0.5, separation: 0.0)
        for split in 1..<sorted.count {
            let low = sorted[..<split], high = sorted[split...]
            let lowMean = low.reduce(0, +) / Double(low.count), highMean = high.reduce(0, +) / Double(high.count)
            let score = Double(low.count * high.count) * (highMean - lowMean) * (highMean - lowMean)
            if score > best.score { best = (score, (sorted[split - 1] + sorted[split]) / 2, highMean - lowMean) }
        }
        return best.separation >= minimumSeparation ? best.cut : 0.5
    }

    /// The gap between the two groups' mean shares below which they are taken for one.
    static let minimumSeparation = 0.2
}
