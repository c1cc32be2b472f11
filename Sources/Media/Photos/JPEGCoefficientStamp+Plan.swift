// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
extension JPEGCoefficientStamp {
    /// A block that one mark or more covers: a layer per mark, in placement order (the order
    /// the blend composites them), or, when a mark covers all 64 pixels opaquely, the
    /// coefficients it comes to whatever was under it.
    struct BlockPlan {
        var column: Int
        /// Layers in `PlanePlan.layers`: 64 alphas (0 off the mark), then 64 premultiplied values.
        var layers: Range<Int>
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
        /// `layerSize` floats a layer.
        let layers: [Float]
        static let layerSize = 128
        /// About what the plan holds in memory.
        var bytes: Int {
            layers.count * MemoryLayout<Float>.stride + fixed.count * MemoryLayout<Double>.stride
                + blocks.count * MemoryLayout<BlockPlan>.stride
        }
        /// 64 coefficients (natural order, not quantised) per opaquely covered block.
        let fixed: [Double]

        /// The plan of `patches` (in placement order), their block ranges set.
        init(patches: [Patch], workspace: DCT.Workspace) {
            let first = patches.map(\.blockRows.lowerBound).min() ?? 0
            let end = max(first, patches.map(\.blockRows.upperBound).max() ?? 0)
            var wanted: [Range<Int>?] = [], rows: [Range<Int>] = [], blocks: [BlockPlan] = []
            var layers: [Float] = [], fixed: [Double] = []
            let size = Self.layerSize
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
                    let layerStart = layers.count / size
                    var opaque: Int?
                    for patch in active where patch.blockColumns.contains(column) {
                        guard let whole = patch.layer(row: row, column: column, into: &layers) else { continue }
                        if whole { opaque = layers.count / size - 1 }
                    }
                    let layerEnd = layers.count / size
                    guard layerEnd > layerStart else { continue }
                    var block = BlockPlan(column: column, layers: layerStart..<layerEnd, fixed: -1)
                    if let opaque {
                        // The mark replaced every sample: what was under it no longer counts.
                        for k in 0..<64 { workspace.samples[k] = 0 }
                        layers.withUnsafeBufferPointer { all in
                            for layer in opaque..<layerEnd {
                                DCT.blend(into: workspace.samples, layer: all.baseAddress! + layer * size)
                            }
                        }
                        workspace.forward()
                        block.fixed = fixed.count
                        fixed += UnsafeBufferPointer(start: workspace.coefficients, count: 64)
                        layers.removeSubrange((layerStart * size)...)
                        block.layers = layerStart..<layerStart
                    }
                    blocks.append(block)
                }
                rows.append(start..<blocks.count)
            }
            (self.firstRow, self.wanted, self.rows, self.blocks, self.layers, self.fixed) =
                (first, wanted, rows, blocks, layers, fixed)
        }
    }
}
