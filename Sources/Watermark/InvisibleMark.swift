// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors

/// An invisible mark read and written as invisible-watermark's `dwtDct` method reads it (PyPI
/// `invisible-watermark` 0.2.0, `EmbedMaxDct` with its defaults), so either reads the other's:
/// the U channel's one-level Haar LL band in 4×4 blocks (8×8 pixels), block after block row by
/// row carrying bit `n mod 64`; a block's bit is whether its coefficient of largest magnitude
/// (but the first) has a remainder above 18 modulo 36 (a 0 is written at 9, a 1 at 27). A reader
/// takes each bit's majority. (Despite the name, 0.2.0's method takes no DCT.)
/// How this embedder writes differs from invisible-watermark's (which quantises that one
/// coefficient): it shifts the whole block's U by the least that brings the remainder within 6
/// of its bit's centre (leaving the blocks that would need the most). One coefficient's change is high-frequency chroma, which JPEG's
/// subsampling and quantisation wipe out (0.2.0's own marks rarely survive quality 90); a
/// block's is its lowest frequency, kept at quality 50. The largest coefficient stays the largest.
public enum InvisibleMark {
    /// The name this mark goes by in a soft-binding assertion. Not an algorithm from the C2PA
    /// soft-binding registry: camstamp's own.
    public static let algorithm = "org.camstamp.dwtdct64.1"
    /// The quantisation step (invisible-watermark's `scales[1]`).
    static let scale: Float = 36
    /// How close to its bit's centre (9 or 27) a block's remainder is brought: 3 inside the
    /// decision's edges, past the ±2 that JPEG q75 moves a smooth block's value.
    static let reach: Float = 6
    /// A block whose remainder lies further than this from its bit's centre (near the other bit's)
    /// is left as it is: moving it costs the most, and its wrong vote is outvoted. The PSNR this
    /// saves buys the larger margin above, for every other block.
    static let giveUp: Float = 16
    /// Pictures with fewer 8×8 blocks carry too few votes per bit (invisible-watermark refuses
    /// under 256×256 pixels).
    public static let minimumBlocks = 1024

    /// Why a picture was not marked.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case tooSmall(width: Int, height: Int)

        public var description: String {
            switch self {
            case .tooSmall(let width, let height):
                "the picture is \(width)×\(height); an invisible mark needs at least 256×256 pixels"
            }
        }
    }

    /// Writes `payload` into `plane`'s pixels.
    public static func embed(_ payload: MarkPayload, into plane: ChromaPlane) throws(Failure) {
        let rows = plane.height / 8, columns = plane.width / 8
        guard rows * columns >= minimumBlocks else { throw .tooSmall(width: plane.width, height: plane.height) }
        let bits = payload.bits
        let values = UnsafeMutablePointer<Float>.allocate(capacity: 16)
        defer { values.deallocate() }
        for row in 0..<rows {
            for column in 0..<columns {
                plane.coefficients(row: row, column: column, into: values)
                let value = values[largest(values)]
                let change = shift(abs(value), bit: bits[(row * columns + column) % bits.count])
                if change != 0 { plane.shift(value < 0 ? -change : change, row: row, column: column) }
            }
        }
    }

    /// The index (1…15) of the coefficient a reader takes, as numpy's `argmax` finds it (the first
    /// of equals).
    static func largest(_ values: UnsafeMutablePointer<Float>) -> Int {
        var index = 1, best = abs(values[1])
        for candidate in 2..<16 where abs(values[candidate]) > best {
            best = abs(values[candidate])
            index = candidate
        }
        return index
    }

    /// The least change that brings `magnitude`'s remainder modulo 36 within `reach` of `bit`'s
    /// centre.
    static func shift(_ magnitude: Float, bit: UInt8) -> Float {
        var offset = magnitude - scale * (bit == 0 ? 0.25 : 0.75)
        offset -= (offset / scale).rounded() * scale
        guard abs(offset) > reach, abs(offset) <= giveUp else { return 0 }
        return offset > 0 ? reach - offset : -reach - offset
    }
}
