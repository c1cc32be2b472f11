// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

extension JPEGCoefficientStamp.Job {
    /// The block columns `filter` may change in block row `row` of `component`, if any.
    func wants(component: Int, row: Int) -> Range<Int>? {
        guard component < plans.count else { return nil }
        let plan = plans[component], index = row - plan.firstRow
        guard index >= 0, index < plan.wanted.count else { return nil }
        return plan.wanted[index]
    }

    /// Rewrites the blocks of one row that the marks cover; the others are left as they are.
    /// `blocks` holds `count` blocks from block column `first`.
    func filter(component: Int, row: Int, first: Int = 0, blocks: UnsafeMutablePointer<Int16>, count: Int) {
        guard component < plans.count else { return }
        let plan = plans[component], index = row - plan.firstRow
        guard index >= 0, index < plan.rows.count, !plan.rows[index].isEmpty else { return }
        let space = owner.workspace
        quant.withUnsafeBufferPointer { steps in
            plan.blocks.withUnsafeBufferPointer { planned in
                plan.layers.withUnsafeBufferPointer { layers in
                    plan.fixed.withUnsafeBufferPointer { fixed in
                        let quant = steps.baseAddress! + component * 64
                        let columns = first..<first + count
                        for block in planned[plan.rows[index]] where columns.contains(block.column) {
                            let target = blocks + (block.column - first) * 64
                            let before = space.saved
                            before.update(from: target, count: 64)
                            if block.fixed >= 0 {
                                DCT.quantise(fixed.baseAddress! + block.fixed, quant, into: target)
                            } else {
                                let (rows, columns) = DCT.dequantise(target, quant, into: space.coefficients)
                                space.inverse(nonzeroRows: rows, nonzeroColumns: columns)
                                // In placement order, as the frame path composites them.
                                let size = JPEGCoefficientStamp.PlanePlan.layerSize
                                for layer in block.layers {
                                    DCT.blend(into: space.samples, layer: layers.baseAddress! + layer * size)
                                }
                                space.forward()
                                DCT.quantise(space.coefficients, quant, into: target)
                            }
                            blocksChanged += 1
                            if memcmp(before, target, 64 * MemoryLayout<Int16>.size) != 0 { blocksAltered += 1 }
                            recorder?.rewrote(component: component, row: row, column: block.column)
                        }
                    }
                }
            }
        }
    }
}
