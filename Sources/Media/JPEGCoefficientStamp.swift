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

    /// What one component changes: the mark in that component's plane and resolution, as
    /// premultiplied value (0…255 scale) and alpha over a rectangle of its pixels.
    private struct Plane {
        var x0 = 0, y0 = 0, width = 0, height = 0
        var value: [Double] = []
        var alpha: [Double] = []
        /// The blocks the rectangle covers (half-open).
        var blockColumns = 0..<0, blockRows = 0..<0
        var quant = [Double](repeating: 1, count: 64)
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
            let mark = markInStoredCoordinates(width: width, height: height)
            // A grey JPEG has no colour to hold a coloured mark: the re-encoding path writes it in
            // colour instead, so that a red mark stays red.
            if frame.colour_space == 1, let pixels = mark?.pixels, Self.hasColour(pixels) {
                failure = "a coloured mark on a grey photo (written in colour instead)"
                return false
            }
            planes = (0..<components).map { c in
                var plane = Plane()
                plane.quant = (0..<64).map { Double(quant[c * 64 + $0]) }
                guard let mark else { return plane }
                let fx = Int(frame.max_h) / h[c], fy = Int(frame.max_v) / v[c]
                plane.x0 = mark.x0 / fx
                plane.y0 = mark.y0 / fy
                plane.width = (mark.x0 + mark.width + fx - 1) / fx - plane.x0
                plane.height = (mark.y0 + mark.height + fy - 1) / fy - plane.y0
                plane.value = [Double](repeating: 0, count: plane.width * plane.height)
                plane.alpha = plane.value
                let scale = 1 / Double(fx * fy)
                for py in 0..<plane.height {
                    for px in 0..<plane.width {
                        // The component's pixel covers fx×fy full-resolution pixels: their average,
                        // premultiplied (pixels outside the mark's box count as transparent).
                        var r = 0.0, g = 0.0, b = 0.0, a = 0.0
                        for sy in (plane.y0 + py) * fy..<(plane.y0 + py + 1) * fy where sy >= mark.y0 && sy < mark.y0 + mark.height {
                            for sx in (plane.x0 + px) * fx..<(plane.x0 + px + 1) * fx where sx >= mark.x0 && sx < mark.x0 + mark.width {
                                let i = ((sy - mark.y0) * mark.width + (sx - mark.x0)) * 4
                                r += mark.pixels[i]; g += mark.pixels[i + 1]; b += mark.pixels[i + 2]; a += mark.pixels[i + 3]
                            }
                        }
                        r *= scale; g *= scale; b *= scale; a *= scale
                        let y = kr * r + (1 - kr - kb) * g + kb * b
                        let value: Double = switch (frame.colour_space, c) {
                        case (1, _), (3, 0): y
                        case (3, 1): 0.5 * a + (b - y) / (2 * (1 - kb))
                        case (3, _): 0.5 * a + (r - y) / (2 * (1 - kr))
                        case (_, 0): r
                        case (_, 1): g
                        default: b
                        }
                        plane.value[py * plane.width + px] = 255 * value
                        plane.alpha[py * plane.width + px] = a
                    }
                }
                plane.blockColumns = plane.x0 / 8..<min(columns[c], (plane.x0 + plane.width + 7) / 8)
                plane.blockRows = plane.y0 / 8..<min(rows[c], (plane.y0 + plane.height + 7) / 8)
                return plane
            }
            return true
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

        /// The marks composited (premultiplied RGBA, 0…1) over their bounding box in the stored
        /// picture, each stored pixel taking the mark pixel it shows as once the picture is turned
        /// upright; nil when no mark falls on the picture.
        private func markInStoredCoordinates(width: Int, height: Int) -> (x0: Int, y0: Int, width: Int, height: Int, pixels: [Double])? {
            let shown = orientation.swapsAxes ? (width: height, height: width) : (width: width, height: height)
            var box: (x0: Int, y0: Int, x1: Int, y1: Int)?
            for p in placements {
                let x0 = max(0, p.x), y0 = max(0, p.y)
                let x1 = min(shown.width, p.x + p.image.width), y1 = min(shown.height, p.y + p.image.height)
                guard x0 < x1, y0 < y1 else { continue }
                box = box.map { (min($0.x0, x0), min($0.y0, y0), max($0.x1, x1), max($0.y1, y1)) } ?? (x0, y0, x1, y1)
            }
            guard let box else { return nil }
            let a = stored(box.x0, box.y0, width: width, height: height)
            let b = stored(box.x1 - 1, box.y1 - 1, width: width, height: height)
            let x0 = min(a.x, b.x), y0 = min(a.y, b.y)
            let w = max(a.x, b.x) - x0 + 1, h = max(a.y, b.y) - y0 + 1
            var pixels = [Double](repeating: 0, count: w * h * 4)
            #if _endian(little)
            let (bi, gi, ri, ai) = (0, 1, 2, 3)
            #else
            let (ai, ri, gi, bi) = (0, 1, 2, 3)
            #endif
            for sy in y0..<y0 + h {
                for sx in x0..<x0 + w {
                    let u = upright(sx, sy, width: width, height: height)
                    let i = ((sy - y0) * w + (sx - x0)) * 4
                    // Later placements lie on top, as in the frame path's composition.
                    for p in placements {
                        let px = u.x - p.x, py = u.y - p.y
                        guard px >= 0, py >= 0, px < p.image.width, py < p.image.height else { continue }
                        let o = (py * p.image.width + px) * 4
                        let source = p.image.premultiplied
                        let alpha = Double(source[o + ai]) / 255
                        guard alpha > 0 else { continue }
                        let keep = 1 - alpha
                        pixels[i] = Double(source[o + ri]) / 255 + pixels[i] * keep
                        pixels[i + 1] = Double(source[o + gi]) / 255 + pixels[i + 1] * keep
                        pixels[i + 2] = Double(source[o + bi]) / 255 + pixels[i + 2] * keep
                        pixels[i + 3] = alpha + pixels[i + 3] * keep
                    }
                }
            }
            return (x0, y0, w, h, pixels)
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

        /// Rewrites the blocks of one row that the mark covers; the others are left as they are.
        func filter(component: Int, row: Int, blocks: UnsafeMutablePointer<Int16>, count: Int) {
            let plane = planes[component]
            guard plane.blockRows.contains(row) else { return }
            var samples = [Double](repeating: 0, count: 64)
            var alphas = [Double](repeating: 0, count: 64)
            var values = [Double](repeating: 0, count: 64)
            for column in plane.blockColumns where column < count {
                var touched = false
                for j in 0..<8 {
                    for i in 0..<8 {
                        let px = column * 8 + i - plane.x0, py = row * 8 + j - plane.y0
                        var alpha = 0.0, value = 0.0
                        if px >= 0, py >= 0, px < plane.width, py < plane.height {
                            alpha = plane.alpha[py * plane.width + px]
                            value = plane.value[py * plane.width + px]
                        }
                        alphas[j * 8 + i] = alpha
                        values[j * 8 + i] = value
                        if alpha > 0 { touched = true }
                    }
                }
                guard touched else { continue }
                let block = blocks + column * 64
                var coefficients = [Double](repeating: 0, count: 64)
                for k in 0..<64 { coefficients[k] = Double(block[k]) * plane.quant[k] }
                DCT.inverse(coefficients, into: &samples)
                for k in 0..<64 where alphas[k] > 0 {
                    // Samples are level-shifted (−128…127); a decoder clamps before showing them.
                    let shown = min(255, max(0, samples[k] + 128))
                    samples[k] = shown * (1 - alphas[k]) + values[k] - 128
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
