// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CJPEGCoefficients

extension JPEGCoefficientStamp {
    /// One stamp's work, reached from the C callbacks through its context pointer: the planes
    /// it prepares from the frame, and the blocks it rewrites.
    final class Job {
        let placements: [OverlayComposition.Placement]
        let orientation: Orientation
        unowned let owner: JPEGCoefficientStamp
        /// Each component's plan, and its quantisation table (64 steps a component).
        var plans: [PlanePlan] = []
        var quant: [Double] = []
        var failure: String?
        var blocksChanged = 0
        /// Of those, the blocks whose coefficients came out other than they were.
        var blocksAltered = 0
        var blocksTotal = 0
        /// Set when the stamp records its blocks (for a signed output's block record).
        var recorder: BlockRecorder?

        init(placements: [OverlayComposition.Placement], orientation: Orientation, owner: JPEGCoefficientStamp) {
            self.placements = placements
            self.orientation = orientation
            self.owner = owner
        }

        func prepare(_ frame: cs_frame) -> Bool {
            if frame.arithmetic != 0 {
                failure = "arithmetic coding"
                return false
            }
            if frame.precision != 8 {
                failure = "\(frame.precision)-bit samples"
                return false
            }
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
            let quantised = withUnsafeBytes(of: frame.quant) { Array($0.bindMemory(to: UInt16.self)) }
            let components = Int(frame.components)
            // A zero step (T.81 allows 1…255) makes every coefficient of the blended blocks
            // unbounded: decoding and encoding again is the only way to a file that decodes.
            guard !quantised.prefix(components * 64).contains(0) else {
                failure = "a zero in a quantisation table"
                return false
            }
            blocksTotal = (0..<components).reduce(0) { $0 + columns[$1] * rows[$1] }
            for c in 0..<components where Int(frame.max_h) % h[c] != 0 || Int(frame.max_v) % v[c] != 0 {
                failure = "an unusual chroma sampling (\(h[c])×\(v[c]) of \(frame.max_h)×\(frame.max_v))"
                return false
            }
            let key = PatchKey(
                placements: placements.map { PlacementKey(image: $0.image, x: $0.x, y: $0.y) },
                orientation: orientation, width: width, height: height, colourSpace: Int(frame.colour_space),
                factors: (0..<components).flatMap { [h[$0], v[$0]] })
            if let cached = owner.cache.plans(for: key) {
                plans = cached
            } else {
                // A grey JPEG has no colour to hold a coloured mark: the re-encoding path writes it
                // in colour instead, so that a red mark stays red.
                if frame.colour_space == 1, placements.contains(where: { Self.hasColour($0.image.premultiplied) }) {
                    failure = "a coloured mark on a grey photo (written in colour instead)"
                    return false
                }
                plans = (0..<components).map { c in
                    let fx = Int(frame.max_h) / h[c], fy = Int(frame.max_v) / v[c]
                    let patches = placements.compactMap { placement -> Patch? in
                        guard
                            var patch = patch(
                                placement, width: width, height: height, component: c,
                                colourSpace: Int(frame.colour_space), fx: fx, fy: fy)
                        else { return nil }
                        patch.blockColumns = patch.x0 / 8..<min(columns[c], (patch.x0 + patch.width + 7) / 8)
                        patch.blockRows = patch.y0 / 8..<min(rows[c], (patch.y0 + patch.height + 7) / 8)
                        return patch
                    }
                    return PlanePlan(patches: patches, workspace: owner.workspace)
                }
                owner.cache.store(plans, for: key)
            }
            quant = quantised.prefix(components * 64).map { Double($0) }
            recorder?.prepare(frame)
            return true
        }

        /// Placement `p` in component `c`'s plane, whose pixels each cover fx×fy pixels of the
        /// stored picture: their premultiplied average, each stored pixel taking the mark pixel it
        /// shows as once the picture is turned upright (pixels off the mark count as transparent);
        /// nil when the mark misses the picture.
        private func patch(
            _ p: OverlayComposition.Placement, width: Int, height: Int, component c: Int,
            colourSpace: Int, fx: Int, fy: Int
        ) -> Patch? {
            let shown = orientation.swapsAxes ? (width: height, height: width) : (width: width, height: height)
            let ux0 = max(0, p.x), uy0 = max(0, p.y)
            let ux1 = min(shown.width, p.x + p.image.width), uy1 = min(shown.height, p.y + p.image.height)
            guard ux0 < ux1, uy0 < uy1 else { return nil }
            // The mark's box in stored coordinates.
            let a = stored(ux0, uy0, width: width, height: height),
                b = stored(ux1 - 1, uy1 - 1, width: width, height: height)
            let sx0 = min(a.x, b.x), sy0 = min(a.y, b.y), sx1 = max(a.x, b.x) + 1, sy1 = max(a.y, b.y) + 1
            var patch = Patch()
            patch.x0 = sx0 / fx
            patch.y0 = sy0 / fy
            patch.width = (sx1 + fx - 1) / fx - patch.x0
            patch.height = (sy1 + fy - 1) / fy - patch.y0
            #if _endian(little)
            let (bi, gi, ri, ai) = (0, 1, 2, 3)
            #else
            let (ai, ri, gi, bi) = (0, 1, 2, 3)
            #endif
            let scale = 1 / (255 * Double(fx * fy))
            // `upright` is affine, so the mark byte a stored pixel shows is too: offset = base +
            // sx * stepX + sy * stepY (the orientation's switch once, not per pixel).
            let origin = upright(0, 0, width: width, height: height)
            let alongX = upright(1, 0, width: width, height: height),
                alongY = upright(0, 1, width: width, height: height)
            let stepX = ((alongX.y - origin.y) * p.image.width + (alongX.x - origin.x)) * 4
            let stepY = ((alongY.y - origin.y) * p.image.width + (alongY.x - origin.x)) * 4
            let base = ((origin.y - p.y) * p.image.width + (origin.x - p.x)) * 4
            var values = [Float](repeating: 0, count: patch.width * patch.height), alphas = values
            let (x0, y0, columns) = (patch.x0, patch.y0, patch.width)
            p.image.premultiplied.withUnsafeBufferPointer { source in
                values.withUnsafeMutableBufferPointer { values in
                    alphas.withUnsafeMutableBufferPointer { alphas in
                        // Offsets within the mark's bytes, which hold them: wrapping arithmetic.
                        let spans = (0..<columns).map { px in
                            max(sx0, (x0 + px) * fx)..<min(sx1, (x0 + px + 1) * fx)
                        }
                        for py in 0..<patch.height {
                            let rows = max(sy0, (y0 + py) * fy)..<min(sy1, (y0 + py + 1) * fy)
                            for px in 0..<columns {
                                var r = 0, g = 0, b = 0, a = 0
                                for sy in rows {
                                    let row = base &+ sy &* stepY
                                    for sx in spans[px] {
                                        let o = row &+ sx &* stepX
                                        r &+= Int(source[o &+ ri])
                                        g &+= Int(source[o &+ gi])
                                        b &+= Int(source[o &+ bi])
                                        a &+= Int(source[o &+ ai])
                                    }
                                }
                                guard a > 0 else { continue }
                                let red = Double(r) * scale, green = Double(g) * scale, blue = Double(b) * scale
                                let y = kr * red + (1 - kr - kb) * green + kb * blue
                                let alpha = Double(a) * scale
                                let value: Double =
                                    switch (colourSpace, c) {
                                    case (1, _), (3, 0): y
                                    case (3, 1): 0.5 * alpha + (blue - y) / (2 * (1 - kb))
                                    case (3, _): 0.5 * alpha + (red - y) / (2 * (1 - kr))
                                    case (_, 0): red
                                    case (_, 1): green
                                    default: blue
                                    }
                                values[py * columns + px] = Float(255 * value)
                                alphas[py * columns + px] = Float(alpha)
                            }
                        }
                    }
                }
            }
            (patch.value, patch.alpha) = (values, alphas)
            return patch
        }

        /// Whether premultiplied BGRA (or ARGB) bytes hold any colour other than grey: the three
        /// colour bytes of each pixel are its first or last three, and equal for grey either way.
        private static func hasColour(_ pixels: [UInt8]) -> Bool {
            for i in stride(from: 0, to: pixels.count, by: 4) {
                #if _endian(little)
                let (b, g, r) = (Int(pixels[i]), Int(pixels[i + 1]), Int(pixels[i + 2]))
                #else
                let (r, g, b) = (Int(pixels[i + 1]), Int(pixels[i + 2]), Int(pixels[i + 3]))
                #endif
                if abs(r - g) > 2 || abs(g - b) > 2 { return true }
            }
            return false
        }

        /// A C array of four ints (a tuple in Swift) as an array.
        private func integers(_ tuple: (Int32, Int32, Int32, Int32)) -> [Int] {
            [Int(tuple.0), Int(tuple.1), Int(tuple.2), Int(tuple.3)]
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
    }
}
