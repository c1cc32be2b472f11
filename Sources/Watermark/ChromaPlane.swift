// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors

/// A picture's pixels as the mark sees them: the U of OpenCV's 8-bit YUV
/// (`U = 0.492 (B − Y) + 128`, Y of BT.601), through its Haar LL band, read from packed RGB or
/// from the Cb plane of full-range BT.601 YCbCr (JPEG's), and written back there.
/// Valid only while the memory it points at is.
public struct ChromaPlane {
    /// Where the pixels lie.
    public enum Layout: Sendable, Equatable {
        /// Interleaved 8-bit samples, `bytesPerPixel` a pixel, red, green and blue at those offsets.
        case packed(bytesPerPixel: Int, red: Int, green: Int, blue: Int)
        /// The Cb plane of full-range BT.601 YCbCr, one sample per `subsampling`² pixels (1 or 2).
        case cb(subsampling: Int)
    }

    let base: UnsafeMutablePointer<UInt8>
    let stride: Int
    let layout: Layout
    /// The picture's size in pixels (not the Cb plane's).
    public let width: Int
    public let height: Int

    /// The plane at `base`, `stride` bytes a row, of a `width`×`height` picture.
    public init(base: UnsafeMutableRawPointer, stride: Int, width: Int, height: Int, layout: Layout) {
        self.base = base.assumingMemoryBound(to: UInt8.self)
        self.stride = stride
        self.width = width
        self.height = height
        self.layout = layout
    }

    /// (Cb − 128) · cbToU = U − 128: both are B − Y scaled (by 0.5/0.886 and by 0.492).
    static let cbToU: Float = 0.492 * 1.772
    /// The smallest change of red, green and blue that moves U by 1: along U's gradient
    /// (−0.147, −0.289, 0.436) over its squared length. Y moves too, which no reader looks at.
    static let rgbForU: (red: Float, green: Float, blue: Float) = (-0.498558, -0.978771, 1.477325)

    /// The 16 LL coefficients of the 8×8 pixels at (`row`, `column`) · 8, row by row: each is
    /// the sum of a 2×2 square's U over 2 (pywt's `dwt2(…, 'haar')`).
    func coefficients(row: Int, column: Int, into values: UnsafeMutablePointer<Float>) {
        switch layout {
        case .packed(let step, let red, let green, let blue):
            for index in 0..<16 {
                let top = base + (row * 8 + (index >> 2) * 2) * stride + (column * 8 + (index & 3) * 2) * step
                var sum: Float = 0
                for pixel in [top, top + step, top + stride, top + stride + step] {
                    sum +=
                        -0.147108 * Float(pixel[red]) - 0.288804 * Float(pixel[green]) + 0.435912
                        * Float(pixel[blue])
                }
                values[index] = sum / 2 + 256
            }
        case .cb(let subsampling):
            for index in 0..<16 {
                let y = (row * 8 + (index >> 2) * 2) / subsampling, x = (column * 8 + (index & 3) * 2) / subsampling
                let top = base + y * stride + x
                let sum: Float =
                    subsampling == 2
                    ? 4 * Float(top[0]) : Float(top[0]) + Float(top[1]) + Float(top[stride]) + Float(top[stride + 1])
                values[index] = (sum - 512) * Self.cbToU / 2 + 256
            }
        }
    }

    /// Adds `delta` to every LL coefficient of the block at (`row`, `column`): U of its 8×8 pixels
    /// by `delta` / 2. A whole block's shift lives in the lowest frequencies of JPEG's chroma, which
    /// its quantisation keeps; one coefficient's (invisible-watermark's) is gone at quality 90.
    func shift(_ delta: Float, row: Int, column: Int) {
        let uChange = delta / 2
        switch layout {
        case .packed(let step, let red, let green, let blue):
            let (redChange, greenChange, blueChange) = (
                uChange * Self.rgbForU.red, uChange * Self.rgbForU.green, uChange * Self.rgbForU.blue
            )
            for y in row * 8..<row * 8 + 8 {
                var pixel = base + y * stride + column * 8 * step
                for _ in 0..<8 {
                    pixel[red] = Self.rounded(pixel[red], redChange)
                    pixel[green] = Self.rounded(pixel[green], greenChange)
                    pixel[blue] = Self.rounded(pixel[blue], blueChange)
                    pixel += step
                }
            }
        case .cb(let subsampling):
            let change = uChange / Self.cbToU, side = 8 / subsampling
            for y in row * side..<row * side + side {
                let sample = base + y * stride + column * side
                for x in 0..<side { sample[x] = Self.rounded(sample[x], change) }
            }
        }
    }

    private static func rounded(_ value: UInt8, _ change: Float) -> UInt8 {
        UInt8(clamping: Int((Float(value) + change).rounded()))
    }
}
