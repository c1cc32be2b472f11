// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
extension JPEGCoefficientStamp {
    /// One pixel of a mark over one block: where in the block, and the mark's alpha and
    /// premultiplied value there (alpha > 0).
    struct Tap {
        var index: Int32
        var alpha: Float
        var value: Float
    }

    /// A block that one mark or more covers: its taps, in placement order and row by row within
    /// each mark (the order the blend composites them), or, when a mark covers all 64 pixels
    /// opaquely, the coefficients it comes to whatever was under it.
    struct BlockPlan {
        var column: Int
        var taps: Range<Int>
        /// The block's first coefficient in `PlanePlan.fixed`, or -1.
        var fixed: Int
    }

    /// What `filter` does in one component's plane, worked out from its patches once for a
    /// batch's photos of one size, sampling and orientation (the photos' tables are applied
    /// per photo). Immutable, so the workers share it.
    final class PlanePlan: Sendable {
        /// Block rows `firstRow...` have an entry in `wanted` and `rows`.
        let firstRow: Int
        /// The block columns the patches reach in each row (what `wants` answers), if any.
        let wanted: [Range<Int>?]
        /// Each row's blocks (sorted by column) in `blocks`.
        let rows: [Range<Int>]
        let blocks: [BlockPlan]
        let taps: [Tap]
        /// 64 coefficients (natural order, not quantised) per opaquely covered block.
        let fixed: [Double]

        /// The plan of `patches` (in placement order), their block ranges set.
        init(patches: [Patch], workspace: DCT.Workspace) {
            let first = patches.map(\.blockRows.lowerBound).min() ?? 0
            let end = max(first, patches.map(\.blockRows.upperBound).max() ?? 0)
            var wanted: [Range<Int>?] = [], rows: [Range<Int>] = [], blocks: [BlockPlan] = []
            var taps: [Tap] = [], fixed: [Double] = []
            for row in first..<end {
                let active = patches.filter { $0.blockRows.contains(row) }
                let columns = active.map(\.blockColumns)
                if let low = columns.map(\.lowerBound).min(), let high = columns.map(\.upperBound).max() {
                    wanted.append(low..<high)
                } else {
                    wanted.append(nil)
                }
                let start = blocks.count
                for column in Set(active.flatMap { $0.blockColumns }).sorted() {
                    let tapStart = taps.count
                    var opaque: Int?
                    for patch in active where patch.blockColumns.contains(column) {
                        let before = taps.count
                        patch.taps(row: row, column: column, into: &taps)
                        let whole = taps.count - before == 64 && taps[before...].allSatisfy { $0.alpha == 1 }
                        if whole { opaque = before }
                    }
                    guard taps.count > tapStart else { continue }
                    var block = BlockPlan(column: column, taps: tapStart..<taps.count, fixed: -1)
                    if let opaque {
                        // The mark replaced every sample: what was under it no longer counts.
                        for k in 0..<64 { workspace.samples[k] = 0 }
                        Self.blend(taps[opaque..<taps.count], into: workspace.samples)
                        workspace.forward()
                        block.fixed = fixed.count
                        fixed += UnsafeBufferPointer(start: workspace.coefficients, count: 64)
                        taps.removeSubrange(tapStart...)
                        block.taps = tapStart..<tapStart
                    }
                    blocks.append(block)
                }
                rows.append(start..<blocks.count)
            }
            (self.firstRow, self.wanted, self.rows, self.blocks, self.taps, self.fixed) =
                (first, wanted, rows, blocks, taps, fixed)
        }

        /// Blends `taps` into a block's samples (level-shifted, −128…127).
        @inline(__always)
        static func blend(_ taps: some Collection<Tap>, into samples: UnsafeMutablePointer<Double>) {
            for tap in taps {
                let k = Int(tap.index), a = Double(tap.alpha)
                // A decoder clamps before showing a sample: the mark covers what it shows.
                let shown = min(255, max(0, samples[k] + 128))
                samples[k] = shown * (1 - a) + Double(tap.value) - 128
            }
        }
    }
}
