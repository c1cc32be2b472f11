import Foundation
internal import CJPEGCoefficients

/// Why a JPEG could not be stamped in its DCT coefficients; the caller then re-encodes it.
public struct CoefficientStampError: Error, Sendable, CustomStringConvertible {
    public let description: String
}

/// Stamps a JPEG without re-encoding it: libjpeg reads the quantised DCT coefficients, and only
/// the 8×8 blocks under the marks are changed (dequantised with the photo's own tables, inverse
/// DCT, the mark blended in that component's plane, forward DCT, quantised with the same tables).
/// Every other block is written back exactly as it was, so the rest of the photo decodes to the
/// same pixels. The photo keeps its stored orientation: the marks are drawn into stored
/// coordinates so that they show upright once a viewer applies the EXIF orientation.
public enum JPEGCoefficientStamp {
    public struct Result: Sendable {
        /// A bare JPEG (no APP segments): the metadata is the caller's to add.
        public let data: Data
        /// How many 8×8 blocks, over all components, were rewritten, and how many there are.
        public let blocksChanged: Int
        public let blocksTotal: Int
    }

    /// `composition` is laid out for the upright picture (the stored one turned by `orientation`).
    /// Throws for what libjpeg reads but this path does not write (arithmetic coding, 12-bit
    /// samples, CMYK/YCCK) and for damaged data (any libjpeg warning).
    public static func stamp(_ jpeg: Data, composition: OverlayComposition,
                             orientation: Orientation) throws(CoefficientStampError) -> Result {
        let job = Job(placements: composition.placements, orientation: orientation)
        let context = Unmanaged.passUnretained(job).toOpaque()
        var message = [CChar](repeating: 0, count: Int(CS_MESSAGE_LENGTH))
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        let status = withExtendedLifetime(job) {
            jpeg.withUnsafeBytes { raw in
                cs_rewrite_coefficients(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, prepareCallback, filterCallback,
                                        context, &output, &length, &message)
            }
        }
        guard status == 0, let output else {
            if let failure = job.failure { throw CoefficientStampError(description: failure) }
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw CoefficientStampError(description: "the picture data is damaged (\(text))")
        }
        return Result(data: Data(bytesNoCopy: output, count: length, deallocator: .free),
                      blocksChanged: job.blocksChanged, blocksTotal: job.blocksTotal)
    }

    /// BT.601 full range, as JFIF defines YCbCr.
    private static let kr = 0.299, kb = 0.114

    /// One mark in one component's plane and resolution: premultiplied value (0…255 scale) and
    /// alpha over a rectangle of that component's pixels.
    private struct Patch {
        var x0 = 0, y0 = 0, width = 0, height = 0
        var value: [Double] = []
        var alpha: [Double] = []
        /// The blocks the rectangle covers (half-open).
        var blockColumns = 0..<0, blockRows = 0..<0
    }

    /// What one component changes: a patch per mark placement (each only over its own box, so a
    /// logo top-left and a text bottom-right do not make one box the size of the photo), blended
    /// in placement order, which composites them as the frame path does.
    private struct Plane {
        var patches: [Patch] = []
        var quant = [Double](repeating: 1, count: 64)
    }

    /// One placement's pixels in stored coordinates: premultiplied RGBA (0…1), rows packed.
    private struct StoredMark {
        var x0: Int, y0: Int, width: Int, height: Int
        var pixels: [Double]
    }

    private final class Job {
        let placements: [OverlayComposition.Placement]
        let orientation: Orientation
        var planes: [Plane] = []
        var failure: String?
        var blocksChanged = 0
        var blocksTotal = 0

        init(placements: [OverlayComposition.Placement], orientation: Orientation) {
            self.placements = placements
            self.orientation = orientation
        }

        func prepare(_ frame: cs_frame) -> Bool {
            if frame.arithmetic != 0 { failure = "arithmetic coding"; return false }
            if frame.precision != 8 { failure = "\(frame.precision)-bit samples"; return false }
            // 1 grey, 2 RGB, 3 YCbCr in libjpeg's J_COLOR_SPACE; CMYK and YCCK are not blended here.
            guard [1, 2, 3].contains(frame.colour_space), frame.components == (frame.colour_space == 1 ? 1 : 3) else {
                failure = "a \(frame.components)-component colour model other than grey, RGB or YCbCr (CMYK/YCCK)"
                return false
            }
            let width = Int(frame.width), height = Int(frame.height)
            let h = integers(frame.h)
            let v = integers(frame.v)
            let columns = integers(frame.width_in_blocks)
            let rows = integers(frame.height_in_blocks)
            let quant = withUnsafeBytes(of: frame.quant) { Array($0.bindMemory(to: UInt16.self)) }
            let components = Int(frame.components)
            blocksTotal = (0..<components).reduce(0) { $0 + columns[$1] * rows[$1] }
            for c in 0..<components where Int(frame.max_h) % h[c] != 0 || Int(frame.max_v) % v[c] != 0 {
                failure = "an unusual chroma sampling (\(h[c])×\(v[c]) of \(frame.max_h)×\(frame.max_v))"
                return false
            }
            let marks = placements.compactMap { storedMark($0, width: width, height: height) }
            // A grey JPEG has no colour to hold a coloured mark: the re-encoding path writes it in
            // colour instead, so that a red mark stays red.
            if frame.colour_space == 1, marks.contains(where: { Self.hasColour($0.pixels) }) {
                failure = "a coloured mark on a grey photo (written in colour instead)"
                return false
            }
            planes = (0..<components).map { c in
                let fx = Int(frame.max_h) / h[c], fy = Int(frame.max_v) / v[c]
                return Plane(patches: marks.map { mark in
                    var patch = Self.patch(mark, component: c, colourSpace: Int(frame.colour_space), fx: fx, fy: fy)
                    patch.blockColumns = patch.x0 / 8..<min(columns[c], (patch.x0 + patch.width + 7) / 8)
                    patch.blockRows = patch.y0 / 8..<min(rows[c], (patch.y0 + patch.height + 7) / 8)
                    return patch
                }, quant: (0..<64).map { Double(quant[c * 64 + $0]) })
            }
            return true
        }

        /// `mark` in component `component`'s plane, whose pixels each cover fx×fy full-resolution
        /// pixels: their premultiplied average (pixels outside the mark count as transparent).
        private static func patch(_ mark: StoredMark, component c: Int, colourSpace: Int, fx: Int, fy: Int) -> Patch {
            var patch = Patch()
            patch.x0 = mark.x0 / fx
            patch.y0 = mark.y0 / fy
            patch.width = (mark.x0 + mark.width + fx - 1) / fx - patch.x0
            patch.height = (mark.y0 + mark.height + fy - 1) / fy - patch.y0
            patch.value = [Double](repeating: 0, count: patch.width * patch.height)
            patch.alpha = patch.value
            let scale = 1 / Double(fx * fy)
            for py in 0..<patch.height {
                for px in 0..<patch.width {
                    var r = 0.0, g = 0.0, b = 0.0, a = 0.0
                    for sy in (patch.y0 + py) * fy..<(patch.y0 + py + 1) * fy where sy >= mark.y0 && sy < mark.y0 + mark.height {
                        for sx in (patch.x0 + px) * fx..<(patch.x0 + px + 1) * fx where sx >= mark.x0 && sx < mark.x0 + mark.width {
                            let i = ((sy - mark.y0) * mark.width + (sx - mark.x0)) * 4
                            r += mark.pixels[i]; g += mark.pixels[i + 1]; b += mark.pixels[i + 2]; a += mark.pixels[i + 3]
                        }
                    }
                    r *= scale; g *= scale; b *= scale; a *= scale
                    let y = kr * r + (1 - kr - kb) * g + kb * b
                    let value: Double = switch (colourSpace, c) {
                    case (1, _), (3, 0): y
                    case (3, 1): 0.5 * a + (b - y) / (2 * (1 - kb))
                    case (3, _): 0.5 * a + (r - y) / (2 * (1 - kr))
                    case (_, 0): r
                    case (_, 1): g
                    default: b
                    }
                    patch.value[py * patch.width + px] = 255 * value
                    patch.alpha[py * patch.width + px] = a
                }
            }
            return patch
        }

        /// Whether premultiplied RGBA pixels (0…1) hold any colour other than grey.
        private static func hasColour(_ pixels: [Double]) -> Bool {
            let tolerance = 2.0 / 255
            for i in stride(from: 0, to: pixels.count, by: 4) {
                let r = pixels[i], g = pixels[i + 1], b = pixels[i + 2]
                if abs(r - g) > tolerance || abs(g - b) > tolerance { return true }
            }
            return false
        }

        /// A C array of four ints (a tuple in Swift) as an array.
        private func integers(_ tuple: (Int32, Int32, Int32, Int32)) -> [Int] { [Int(tuple.0), Int(tuple.1), Int(tuple.2), Int(tuple.3)] }

        /// One placement over its box in the stored picture, each stored pixel taking the mark
        /// pixel it shows as once the picture is turned upright; nil when it misses the picture.
        private func storedMark(_ p: OverlayComposition.Placement, width: Int, height: Int) -> StoredMark? {
            let shown = orientation.swapsAxes ? (width: height, height: width) : (width: width, height: height)
            let ux0 = max(0, p.x), uy0 = max(0, p.y)
            let ux1 = min(shown.width, p.x + p.image.width), uy1 = min(shown.height, p.y + p.image.height)
            guard ux0 < ux1, uy0 < uy1 else { return nil }
            let a = stored(ux0, uy0, width: width, height: height)
            let b = stored(ux1 - 1, uy1 - 1, width: width, height: height)
            let x0 = min(a.x, b.x), y0 = min(a.y, b.y)
            let w = max(a.x, b.x) - x0 + 1, h = max(a.y, b.y) - y0 + 1
            var pixels = [Double](repeating: 0, count: w * h * 4)
            #if _endian(little)
            let (bi, gi, ri, ai) = (0, 1, 2, 3)
            #else
            let (ai, ri, gi, bi) = (0, 1, 2, 3)
            #endif
            let source = p.image.premultiplied
            for sy in y0..<y0 + h {
                for sx in x0..<x0 + w {
                    let u = upright(sx, sy, width: width, height: height)
                    let o = ((u.y - p.y) * p.image.width + (u.x - p.x)) * 4
                    let i = ((sy - y0) * w + (sx - x0)) * 4
                    pixels[i] = Double(source[o + ri]) / 255
                    pixels[i + 1] = Double(source[o + gi]) / 255
                    pixels[i + 2] = Double(source[o + bi]) / 255
                    pixels[i + 3] = Double(source[o + ai]) / 255
                }
            }
            return StoredMark(x0: x0, y0: y0, width: w, height: h, pixels: pixels)
        }

        /// Where stored pixel (x, y) of a `width`×`height` picture shows once turned upright.
        private func upright(_ x: Int, _ y: Int, width: Int, height: Int) -> (x: Int, y: Int) {
            switch orientation {
            case .normal: (x, y)
            case .mirrored: (width - 1 - x, y)
            case .rotated180: (width - 1 - x, height - 1 - y)
            case .flipped: (x, height - 1 - y)
            case .transposed: (y, x)
            case .rotated90: (height - 1 - y, x)
            case .transverse: (height - 1 - y, width - 1 - x)
            case .rotated270: (y, width - 1 - x)
            }
        }

        /// The stored pixel that shows at upright (x, y): the inverse of `upright`.
        private func stored(_ x: Int, _ y: Int, width: Int, height: Int) -> (x: Int, y: Int) {
            switch orientation {
            case .normal: (x, y)
            case .mirrored: (width - 1 - x, y)
            case .rotated180: (width - 1 - x, height - 1 - y)
            case .flipped: (x, height - 1 - y)
            case .transposed: (y, x)
            case .rotated90: (y, height - 1 - x)
            case .transverse: (width - 1 - y, height - 1 - x)
            case .rotated270: (width - 1 - y, x)
            }
        }

        /// Rewrites the blocks of one row that the marks cover; the others are left as they are.
        func filter(component: Int, row: Int, blocks: UnsafeMutablePointer<Int16>, count: Int) {
            let plane = planes[component]
            let active = plane.patches.filter { $0.blockRows.contains(row) }
            guard !active.isEmpty else { return }
            let columns = Set(active.flatMap { $0.blockColumns }).sorted()
            var samples = [Double](repeating: 0, count: 64)
            var coefficients = [Double](repeating: 0, count: 64)
            for column in columns where column < count {
                // Each patch's alpha and value over this block, in placement order; none when
                // every pixel of the block is transparent in every patch.
                var layers: [(alpha: [Double], value: [Double])] = []
                for patch in active where patch.blockColumns.contains(column) {
                    var alphas = [Double](repeating: 0, count: 64), values = alphas
                    var touched = false
                    for j in 0..<8 {
                        let py = row * 8 + j - patch.y0
                        guard py >= 0, py < patch.height else { continue }
                        for i in 0..<8 {
                            let px = column * 8 + i - patch.x0
                            guard px >= 0, px < patch.width else { continue }
                            let alpha = patch.alpha[py * patch.width + px]
                            alphas[j * 8 + i] = alpha
                            values[j * 8 + i] = patch.value[py * patch.width + px]
                            if alpha > 0 { touched = true }
                        }
                    }
                    if touched { layers.append((alphas, values)) }
                }
                guard !layers.isEmpty else { continue }
                let block = blocks + column * 64
                for k in 0..<64 { coefficients[k] = Double(block[k]) * plane.quant[k] }
                DCT.inverse(coefficients, into: &samples)
                for layer in layers {
                    for k in 0..<64 where layer.alpha[k] > 0 {
                        // Samples are level-shifted (−128…127); a decoder clamps before showing them.
                        let shown = min(255, max(0, samples[k] + 128))
                        samples[k] = shown * (1 - layer.alpha[k]) + layer.value[k] - 128
                    }
                }
                DCT.forward(samples, into: &coefficients)
                for k in 0..<64 {
                    // Baseline Huffman coding holds DC differences in 11 bits and AC values in 10.
                    let limit = k == 0 ? 2047.0 : 1023.0
                    block[k] = Int16(max(-limit, min(limit, (coefficients[k] / plane.quant[k]).rounded())))
                }
                blocksChanged += 1
            }
        }
    }

    private static let prepareCallback: cs_prepare = { context, frame in
        guard let context, let frame else { return 1 }
        return Unmanaged<Job>.fromOpaque(context).takeUnretainedValue().prepare(frame.pointee) ? 0 : 1
    }

    private static let filterCallback: cs_filter = { context, component, row, blocks, count in
        guard let context, let blocks else { return 1 }
        Unmanaged<Job>.fromOpaque(context).takeUnretainedValue().filter(component: Int(component), row: Int(row),
                                                                        blocks: blocks, count: Int(count))
        return 0
    }
}

/// The 8×8 DCT of JPEG (ITU T.81 A.3.3), orthonormal, on natural-order (row-major) blocks.
enum DCT {
    /// basis[x * 8 + u] = C(u)/2 · cos((2x+1)uπ/16).
    static let basis: [Double] = (0..<64).map { index in
        let x = Double(index / 8), u = Double(index % 8)
        return (u == 0 ? 1 / 2.0.squareRoot() : 1) / 2 * cos((2 * x + 1) * u * Double.pi / 16)
    }

    static func inverse(_ coefficients: [Double], into samples: inout [Double]) {
        var rows = [Double](repeating: 0, count: 64)
        for y in 0..<8 {
            for u in 0..<8 {
                var sum = 0.0
                for v in 0..<8 { sum += basis[y * 8 + v] * coefficients[v * 8 + u] }
                rows[y * 8 + u] = sum
            }
        }
        for y in 0..<8 {
            for x in 0..<8 {
                var sum = 0.0
                for u in 0..<8 { sum += basis[x * 8 + u] * rows[y * 8 + u] }
                samples[y * 8 + x] = sum
            }
        }
    }

    static func forward(_ samples: [Double], into coefficients: inout [Double]) {
        var columns = [Double](repeating: 0, count: 64)
        for v in 0..<8 {
            for x in 0..<8 {
                var sum = 0.0
                for y in 0..<8 { sum += basis[y * 8 + v] * samples[y * 8 + x] }
                columns[v * 8 + x] = sum
            }
        }
        for v in 0..<8 {
            for u in 0..<8 {
                var sum = 0.0
                for x in 0..<8 { sum += basis[x * 8 + u] * columns[v * 8 + x] }
                coefficients[v * 8 + u] = sum
            }
        }
    }
}
