// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
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
                            if block.fixed >= 0 {
                                DCT.quantise(fixed.baseAddress! + block.fixed, quant, into: target)
                            } else {
                                let (rows, columns) = Self.dequantise(target, quant, into: space.coefficients)
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
                            recorder?.rewrote(component: component, row: row, column: block.column)
                        }
                    }
                }
            }
        }
    }

    /// The block's coefficients times their steps, row by row, and which rows and columns hold
    /// anything but zeros (bit i for row or column i); the rows of zeros are not written.
    @inline(__always)
    static func dequantise(
        _ block: UnsafePointer<Int16>, _ quant: UnsafePointer<Double>, into coefficients: UnsafeMutablePointer<Double>
    ) -> (rows: UInt8, columns: UInt8) {
        var rows: UInt8 = 0
        var union = SIMD8<Int16>(repeating: 0)
        let from = UnsafeRawPointer(block), steps = UnsafeRawPointer(quant)
        let to = UnsafeMutableRawPointer(coefficients)
        for v in 0..<8 {
            let row = from.loadUnaligned(fromByteOffset: v * 16, as: SIMD8<Int16>.self)
            guard any(row .!= 0) else { continue }
            rows |= 1 << v
            union |= row
            let step = steps.loadUnaligned(fromByteOffset: v * 64, as: SIMD8<Double>.self)
            to.storeBytes(of: SIMD8<Double>(row) * step, toByteOffset: v * 64, as: SIMD8<Double>.self)
        }
        // One bit a column: the lanes' masks (all ones or zero) in their own bit.
        let bits = SIMD8<Int16>(1, 2, 4, 8, 16, 32, 64, 128)
        let lanes = SIMD8<Int16>(repeating: 0).replacing(with: -1, where: union .!= 0)
        let columns = UInt8(truncatingIfNeeded: (bits & lanes).wrappedSum())
        return (rows, columns)
    }
}
