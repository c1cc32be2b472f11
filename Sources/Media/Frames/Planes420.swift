// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CGStreamer
internal import CGstVideo

/// The planes of an 8-bit 4:2:0 frame (I420, NV12), for blending marks straight into them.
///
/// Even on the columns a mark covers, GStreamer's blender unpacks each row to AYUV, blends and
/// packs it back: 0.9 % of a marked 1080p clip's CPU (`perf record`, bench clip), most of it on
/// the clear part of a text's box. This does the blender's own arithmetic on the planes and skips
/// each mark row's clear ends, so the bytes out are the blender's (`ColumnBlendTests` compares
/// them): out = (mark × α + frame × (255 − α)) / 255, luma per pixel; chroma on even rows only,
/// from the top-left pixel of each 2×2 block, which is the sample GStreamer's 4:2:0 pack keeps.
struct Planes420 {
    let width: Int, height: Int
    let luma: UnsafeMutablePointer<UInt8>, lumaStride: Int
    /// Sample 0 of chroma row 0 of Cb and of Cr; samples `chromaStep` apart (1 planar, 2
    /// interleaved), rows `chromaStride` apart.
    let cb: UnsafeMutablePointer<UInt8>, cr: UnsafeMutablePointer<UInt8>
    let chromaStep: Int, chromaStride: Int

    /// Nil for a frame of any other format.
    init?(_ frame: UnsafeMutablePointer<GstVideoFrame>) {
        let info = frame.pointee.info
        guard let finfo = info.finfo, [GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_NV12].contains(finfo.pointee.format)
        else { return nil }
        let data = withUnsafeBytes(of: frame.pointee.data) { Array($0.bindMemory(to: gpointer?.self)) }
        let strides = withUnsafeBytes(of: info.stride) { Array($0.bindMemory(to: gint.self)) }
        let planes = withUnsafeBytes(of: finfo.pointee.plane) { Array($0.bindMemory(to: guint.self)) }
        let offsets = withUnsafeBytes(of: finfo.pointee.poffset) { Array($0.bindMemory(to: guint.self)) }
        let steps = withUnsafeBytes(of: finfo.pointee.pixel_stride) { Array($0.bindMemory(to: gint.self)) }
        /// Where component `index` (0 Y, 1 Cb, 2 Cr) starts.
        func component(_ index: Int) -> UnsafeMutablePointer<UInt8>? {
            data[Int(planes[index])].map { $0.assumingMemoryBound(to: UInt8.self) + Int(offsets[index]) }
        }
        guard let luma = component(0), let cb = component(1), let cr = component(2) else { return nil }
        (width, height) = (Int(info.width), Int(info.height))
        (self.luma, lumaStride) = (luma, Int(strides[Int(planes[0])]))
        (self.cb, self.cr) = (cb, cr)
        (chromaStep, chromaStride) = (Int(steps[1]), Int(strides[Int(planes[1])]))
    }

    /// Blends `image` with its top-left corner at (`x`, `y`); what falls outside the frame is
    /// left out. A clear pixel's terms (0 and 255) give the frame's own sample back, so the loops
    /// need no branch and the luma one runs as vector code (0.3 % of the bench clip's CPU,
    /// against 1 % for GStreamer's blender on the same columns).
    func blend(_ image: OverlayImage, space: ColourSpace, x: Int, y: Int) {
        let rows = max(0, -y)..<max(0, min(image.height, height - y))
        let columns = max(0, -x)..<max(0, min(image.width, width - x))
        guard !rows.isEmpty, !columns.isEmpty, let weighted = image.converted(for: space).weighted else { return }
        weighted.y.withUnsafeBufferPointer { markY in
            weighted.cb.withUnsafeBufferPointer { markCb in
                weighted.cr.withUnsafeBufferPointer { markCr in
                    weighted.inverse.withUnsafeBufferPointer { inverse in
                        for row in rows {
                            let covered = image.coveredColumns[row].clamped(to: columns)
                            guard !covered.isEmpty else { continue }
                            let frameRow = y + row, mark = row * image.width
                            let lumaRow = luma + frameRow * lumaStride + x
                            // Pointers from the row's first covered pixel and a count, so that the loop has
                            // no index arithmetic to check and the compiler makes it vector code.
                            let frame = lumaRow + covered.lowerBound
                            let terms = markY.baseAddress! + mark + covered.lowerBound
                            let inverses = inverse.baseAddress! + mark + covered.lowerBound
                            for index in 0..<covered.count {
                                frame[index] = Self.mix(terms[index], frame[index], inverses[index])
                            }
                            // Chroma: even frame rows, even frame columns (the top-left pixel of each block).
                            guard frameRow & 1 == 0 else { continue }
                            let chromaRow = frameRow / 2 * chromaStride
                            for column in Swift.stride(
                                from: covered.lowerBound + (x + covered.lowerBound) & 1, to: covered.upperBound, by: 2)
                            {
                                let sample = chromaRow + (x + column) / 2 * chromaStep
                                cb[sample] = Self.mix(markCb[mark + column], cb[sample], inverse[mark + column])
                                cr[sample] = Self.mix(markCr[mark + column], cr[sample], inverse[mark + column])
                            }
                        }
                    }
                }
            }
        }
    }

    /// (term + frame × inverse) / 255, rounded down as GStreamer's blender does. The sum is at
    /// most 255 × 255, so it fits 16 bits, and (x + 1 + x / 256) / 256 is x / 255 exactly there.
    @inline(__always)
    private static func mix(_ term: UInt16, _ frame: UInt8, _ inverse: UInt16) -> UInt8 {
        let x = term &+ UInt16(frame) &* inverse
        return UInt8(truncatingIfNeeded: (x &+ 1 &+ (x &>> 8)) &>> 8)
    }
}
