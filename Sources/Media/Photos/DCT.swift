// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import CJPEGCoefficients

/// The 8×8 DCT of JPEG (ITU T.81 A.3.3), orthonormal, on natural-order (row-major) blocks.
enum DCT {
    /// basis[x * 8 + u] = C(u)/2 · cos((2x+1)uπ/16).
    static let basis: [Double] = (0..<64).map { index in
        let x = Double(index / 8), u = Double(index % 8)
        return (u == 0 ? 1 / 2.0.squareRoot() : 1) / 2 * cos((2 * x + 1) * u * Double.pi / 16)
    }

    /// Coefficients divided by their steps into a block, clamped to ±1023 and rounded half away
    /// from zero. Baseline Huffman coding holds DC differences in 11 bits and AC values in 10: a
    /// DC within ±1023 (what 8-bit samples give) differs from its neighbour's by at most 2047,
    /// which libjpeg's encoder does not check.
    static func quantise(
        _ coefficients: UnsafePointer<Double>, _ steps: UnsafePointer<Double>, into block: UnsafeMutablePointer<Int16>
    ) {
        cs_dct_quantise(coefficients, steps, block)
    }

    /// The block's coefficients times their steps, and which rows and columns hold anything
    /// but zeros (bit i for row or column i).
    static func dequantise(
        _ block: UnsafePointer<Int16>, _ steps: UnsafePointer<Double>, into coefficients: UnsafeMutablePointer<Double>
    ) -> (rows: UInt8, columns: UInt8) {
        let masks = cs_dct_dequantise(block, steps, coefficients)
        return (UInt8(truncatingIfNeeded: masks), UInt8(truncatingIfNeeded: masks >> 8))
    }

    /// Blends a mark's layer (64 alphas, then 64 premultiplied values on the 0…255 scale) into a
    /// block's samples (level-shifted, −128…127), where its alpha is above 0.
    static func blend(into samples: UnsafeMutablePointer<Double>, layer: UnsafePointer<Float>) {
        cs_dct_blend(samples, layer, layer + 64)
    }

    /// One thread's block buffers and the basis beside them, so that a block costs no
    /// allocation, no bounds check and no lookup of a global. Not thread-safe.
    final class Workspace {
        /// The block in the sample domain (level-shifted) and in the coefficient domain.
        let samples: UnsafeMutablePointer<Double>
        let coefficients: UnsafeMutablePointer<Double>
        /// The 64 values between the two passes.
        private let middle: UnsafeMutablePointer<Double>
        /// rows[x * 8 + u] = basis[x * 8 + u] (x the sample, u the frequency); columns[u * 8 + x]
        /// the same.
        private let rows: UnsafeMutablePointer<Double>
        private let columns: UnsafeMutablePointer<Double>
        /// A block's quantised coefficients as they were before it was rewritten.
        let saved: UnsafeMutablePointer<Int16>
        private let memory: UnsafeMutableRawPointer

        init() {
            let block = 64 * MemoryLayout<Double>.stride
            memory = .allocate(byteCount: 6 * block, alignment: 64)
            samples = memory.initializeMemory(as: Double.self, repeating: 0, count: 64)
            coefficients = (memory + block).initializeMemory(as: Double.self, repeating: 0, count: 64)
            middle = (memory + 2 * block).initializeMemory(as: Double.self, repeating: 0, count: 64)
            rows = (memory + 3 * block).initializeMemory(as: Double.self, from: DCT.basis, count: 64)
            columns = (memory + 4 * block).initializeMemory(
                as: Double.self, from: (0..<64).map { DCT.basis[($0 % 8) * 8 + $0 / 8] }, count: 64)
            saved = (memory + 5 * block).initializeMemory(as: Int16.self, repeating: 0, count: 64)
        }

        deinit { memory.deallocate() }

        /// `coefficients` to `samples`: rows[y] · C · columnsᵀ, in two passes that add up scaled
        /// rows in the order of the textbook sums. `nonzeroRows` and `nonzeroColumns` have bit i
        /// set when row or column i of the coefficients holds anything but zeros: the terms of
        /// the others are zeros, which leave a sum as it is (or turn a −0 into +0, which no later
        /// step tells apart), so they are left out.
        func inverse(nonzeroRows: UInt8, nonzeroColumns: UInt8) {
            cs_dct_two_passes(
                coefficients, samples, middle, rows, columns, UInt32(nonzeroRows), UInt32(nonzeroColumns))
        }

        /// `samples` to `coefficients`, the transpose of `inverse`.
        func forward() {
            cs_dct_two_passes(samples, coefficients, middle, columns, rows, 0xFF, 0xFF)
        }
    }
}
