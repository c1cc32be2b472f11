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

    /// basis as rows of eight: rows[x][u] = basis[x * 8 + u] (x the sample, u the frequency).
    static let rows: [SIMD8<Double>] = (0..<8).map { x in SIMD8((0..<8).map { basis[x * 8 + $0] }) }

    /// columns[u][x] = basis[x * 8 + u].
    static let columns: [SIMD8<Double>] = (0..<8).map { u in SIMD8((0..<8).map { basis[$0 * 8 + u] }) }

    /// Coefficients (natural order) to samples: rows[y] · C · columnsᵀ, in two passes.
    static func inverse(_ coefficients: [Double], into samples: inout [Double], scratch: inout [Double]) {
        twoPasses(coefficients, into: &samples, scratch: &scratch, first: rows, second: columns)
    }

    /// Samples to coefficients (natural order), the transpose of `inverse`.
    static func forward(_ samples: [Double], into coefficients: inout [Double], scratch: inout [Double]) {
        twoPasses(samples, into: &coefficients, scratch: &scratch, first: columns, second: rows)
    }

    /// out[i] = Σk (Σj first[i][j] · input[j])[k] · second[k], for 8×8 blocks held as rows of
    /// eight: each pass adds up scaled rows (SIMD) in the same order as the textbook sums, so the
    /// same results. `scratch` holds the 64 values between the passes, so a block costs no
    /// allocation.
    private static func twoPasses(
        _ input: [Double], into output: inout [Double], scratch: inout [Double],
        first: [SIMD8<Double>], second: [SIMD8<Double>]
    ) {
        input.withUnsafeBufferPointer { source in
            scratch.withUnsafeMutableBufferPointer { middle in
                output.withUnsafeMutableBufferPointer { out in
                    let from = UnsafeRawPointer(source.baseAddress!),
                        between = UnsafeMutableRawPointer(middle.baseAddress!)
                    for i in 0..<8 {
                        var sum = SIMD8<Double>(repeating: 0)
                        for j in 0..<8 {
                            sum += first[i][j] * from.loadUnaligned(fromByteOffset: j * 64, as: SIMD8<Double>.self)
                        }
                        between.storeBytes(of: sum, toByteOffset: i * 64, as: SIMD8<Double>.self)
                    }
                    let to = UnsafeMutableRawPointer(out.baseAddress!)
                    for i in 0..<8 {
                        var sum = SIMD8<Double>(repeating: 0)
                        for k in 0..<8 { sum += middle[i * 8 + k] * second[k] }
                        to.storeBytes(of: sum, toByteOffset: i * 64, as: SIMD8<Double>.self)
                    }
                }
            }
        }
    }
}
