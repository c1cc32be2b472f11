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

        /// Appends the mark's layer over block (row, column) (`PlanePlan.layers`), if any of its
        /// pixels there is not wholly transparent: true when all 64 are opaque.
        func layer(row: Int, column: Int, into layers: inout [Float]) -> Bool? {
            let start = layers.count
            layers.append(contentsOf: repeatElement(0, count: PlanePlan.layerSize))
            var covered = 0, opaque = 0
            layers.withUnsafeMutableBufferPointer { all in
                let layer = all.baseAddress! + start
                for j in max(0, row * 8 - y0)..<min(height, row * 8 + 8 - y0) {
                    for i in max(0, column * 8 - x0)..<min(width, column * 8 + 8 - x0) where alpha[j * width + i] > 0 {
                        let k = (y0 + j - row * 8) * 8 + (x0 + i - column * 8)
                        layer[k] = alpha[j * width + i]
                        layer[64 + k] = value[j * width + i]
                        covered += 1
                        if layer[k] == 1 { opaque += 1 }
                    }
                }
            }
            guard covered > 0 else {
                layers.removeSubrange(start...)
                return nil
            }
            return opaque == 64
        }
    }
}
