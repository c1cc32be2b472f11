// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
extension JPEGCoefficientStamp {
    /// BT.601 full range, as JFIF defines YCbCr.
    static let kr = 0.299, kb = 0.114

    /// One mark in one component's plane and resolution: premultiplied value (0…255 scale) and
    /// alpha over a rectangle of that component's pixels.
    struct Patch {
        var x0 = 0, y0 = 0, width = 0, height = 0
        var value: [Float] = []
        var alpha: [Float] = []
        /// The blocks the rectangle covers (half-open).
        var blockColumns = 0..<0, blockRows = 0..<0

        /// Whether any pixel of block (row, column) is under the mark.
        func covers(row: Int, column: Int) -> Bool {
            for j in max(0, row * 8 - y0)..<min(height, row * 8 + 8 - y0) {
                for i in max(0, column * 8 - x0)..<min(width, column * 8 + 8 - x0) where alpha[j * width + i] > 0 {
                    return true
                }
            }
            return false
        }

        /// Blends the mark into block (row, column)'s samples (level-shifted, −128…127).
        func blend(row: Int, column: Int, into samples: inout [Double]) {
            for j in max(0, row * 8 - y0)..<min(height, row * 8 + 8 - y0) {
                for i in max(0, column * 8 - x0)..<min(width, column * 8 + 8 - x0) {
                    let a = Double(alpha[j * width + i])
                    guard a > 0 else { continue }
                    let k = (y0 + j - row * 8) * 8 + (x0 + i - column * 8)
                    // A decoder clamps before showing a sample: the mark covers what it shows.
                    let shown = min(255, max(0, samples[k] + 128))
                    samples[k] = shown * (1 - a) + Double(value[j * width + i]) - 128
                }
            }
        }
    }

    /// What one component changes: a patch per mark placement (each only over its own box, so a
    /// logo top-left and a text bottom-right do not make one box the size of the photo), blended
    /// in placement order, which composites them as the frame path does.
    struct Plane {
        var patches: [Patch] = []
        var quant = [Double](repeating: 1, count: 64)
    }
}
