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

        /// Appends the mark's pixels over block (row, column) that are not wholly transparent,
        /// row by row.
        func taps(row: Int, column: Int, into taps: inout [Tap]) {
            for j in max(0, row * 8 - y0)..<min(height, row * 8 + 8 - y0) {
                for i in max(0, column * 8 - x0)..<min(width, column * 8 + 8 - x0) where alpha[j * width + i] > 0 {
                    let k = (y0 + j - row * 8) * 8 + (x0 + i - column * 8)
                    taps.append(Tap(index: Int32(k), alpha: alpha[j * width + i], value: value[j * width + i]))
                }
            }
        }
    }
}
