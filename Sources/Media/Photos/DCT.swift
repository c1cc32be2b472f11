// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// The 8×8 DCT of JPEG (ITU T.81 A.3.3), orthonormal, on natural-order (row-major) blocks.
enum DCT {
    /// basis[x * 8 + u] = C(u)/2 · cos((2x+1)uπ/16).
    static let basis: [Double] = (0..<64).map { index in
        let x = Double(index / 8), u = Double(index % 8)
        return (u == 0 ? 1 / 2.0.squareRoot() : 1) / 2 * cos((2 * x + 1) * u * Double.pi / 16)
    }

    /// One thread's block buffers and the basis beside them, so that a block costs no
    /// allocation, no bounds check and no lookup of a global. Not thread-safe.
    final class Workspace {
        /// The block in the sample domain (level-shifted) and in the coefficient domain.
        let samples: UnsafeMutablePointer<Double>
        let coefficients: UnsafeMutablePointer<Double>
        /// The 64 values between the two passes.
        private let middle: UnsafeMutablePointer<Double>
        /// rows[x][u] = basis[x * 8 + u] (x the sample, u the frequency); columns[u][x] the same.
        private let rows: UnsafeMutablePointer<SIMD8<Double>>
        private let columns: UnsafeMutablePointer<SIMD8<Double>>
        private let memory: UnsafeMutableRawPointer

        init() {
            let block = 64 * MemoryLayout<Double>.stride
            memory = .allocate(byteCount: 5 * block, alignment: 64)
            samples = memory.initializeMemory(as: Double.self, repeating: 0, count: 64)
            coefficients = (memory + block).initializeMemory(as: Double.self, repeating: 0, count: 64)
            middle = (memory + 2 * block).initializeMemory(as: Double.self, repeating: 0, count: 64)
            rows = (memory + 3 * block).bindMemory(to: SIMD8<Double>.self, capacity: 8)
            columns = (memory + 4 * block).bindMemory(to: SIMD8<Double>.self, capacity: 8)
            for i in 0..<8 {
                (rows + i).initialize(to: SIMD8((0..<8).map { DCT.basis[i * 8 + $0] }))
                (columns + i).initialize(to: SIMD8((0..<8).map { DCT.basis[$0 * 8 + i] }))
            }
        }

        deinit { memory.deallocate() }

        /// `coefficients` to `samples`: rows[y] · C · columnsᵀ. `nonzeroRows` and `nonzeroColumns`
        /// have bit i set when row or column i of the coefficients holds anything but zeros: the
        /// terms of the others are zeros, which leave a sum as it is (or turn a −0 into +0, which
        /// no later step tells apart), so they are left out.
        func inverse(nonzeroRows: UInt8, nonzeroColumns: UInt8) {
            let from = UnsafeRawPointer(coefficients)
            for i in 0..<8 {
                var sum = SIMD8<Double>(repeating: 0)
                var mask = nonzeroRows
                while mask != 0 {
                    let j = mask.trailingZeroBitCount
                    sum += rows[i][j] * from.loadUnaligned(fromByteOffset: j * 64, as: SIMD8<Double>.self)
                    mask &= mask - 1
                }
                UnsafeMutableRawPointer(middle).storeBytes(of: sum, toByteOffset: i * 64, as: SIMD8<Double>.self)
            }
            let to = UnsafeMutableRawPointer(samples)
            for i in 0..<8 {
                var sum = SIMD8<Double>(repeating: 0)
                var mask = nonzeroColumns
                while mask != 0 {
                    let k = mask.trailingZeroBitCount
                    sum += middle[i * 8 + k] * columns[k]
                    mask &= mask - 1
                }
                to.storeBytes(of: sum, toByteOffset: i * 64, as: SIMD8<Double>.self)
            }
        }

        /// `samples` to `coefficients`, the transpose of `inverse`.
        func forward() {
            twoPasses(from: samples, into: coefficients, first: columns, second: rows)
        }

        /// out[i] = Σk (Σj first[i][j] · input[j])[k] · second[k], for 8×8 blocks held as rows
        /// of eight: each pass adds up scaled rows (SIMD) in the same order as the textbook sums,
        /// so the same results.
        private func twoPasses(
            from input: UnsafePointer<Double>, into output: UnsafeMutablePointer<Double>,
            first: UnsafePointer<SIMD8<Double>>, second: UnsafePointer<SIMD8<Double>>
        ) {
            let from = UnsafeRawPointer(input)
            for i in 0..<8 {
                var sum = SIMD8<Double>(repeating: 0)
                for j in 0..<8 {
                    sum += first[i][j] * from.loadUnaligned(fromByteOffset: j * 64, as: SIMD8<Double>.self)
                }
                UnsafeMutableRawPointer(middle).storeBytes(of: sum, toByteOffset: i * 64, as: SIMD8<Double>.self)
            }
            let to = UnsafeMutableRawPointer(output)
            for i in 0..<8 {
                var sum = SIMD8<Double>(repeating: 0)
                for k in 0..<8 { sum += middle[i * 8 + k] * second[k] }
                to.storeBytes(of: sum, toByteOffset: i * 64, as: SIMD8<Double>.self)
            }
        }
    }
}
