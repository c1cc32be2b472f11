// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CGStreamer
internal import CGstApp
internal import CGstVideo
import Synchronization

/// A rendered mark's pixels, ready to be blended into frames of any format. Built once per
/// rendered mark and reused for every frame.
///
/// GStreamer's blender works on straight (not premultiplied) alpha, in the frame's colour family:
/// handed Cairo's premultiplied RGB, it un-premultiplies (a division per pixel) and converts to YUV
/// on every frame. So the conversion is done here, once per frame colour space: straight-alpha
/// AYUV with the frame's own matrix and range for YUV frames (more exact than the blender's
/// fixed BT.601 conversion too), straight-alpha BGRA for RGB frames.
public final class OverlayImage: @unchecked Sendable {
    public let width: Int
    public let height: Int
    /// Cairo ARGB32, premultiplied, native-endian, tightly packed (`width * 4` bytes a row).
    /// Read by the coefficient stamp too (JPEGCoefficientStamp), which blends in YCbCr itself.
    let premultiplied: [UInt8]
    /// For each row, the columns from its first to its last pixel that is not wholly transparent
    /// (an empty range for a clear row): the 4:2:0 blend skips the rest, most of a text's box.
    let coveredColumns: [Range<Int>]
    private let conversions = Mutex<[ColourSpace: Converted]>([:])

    /// The straight-alpha pixels for one colour space, in the GstBuffer that GStreamer's blender
    /// takes: AYUV or BGRA/ARGB (`overlayRGBFormat`) bytes, `width * 4` a row.
    struct Converted: @unchecked Sendable {
        let box: GstBufferBox
        /// For YUV frames, each pixel's terms of the blend, `width` a row: Y × α, Cb × α, Cr × α
        /// and 255 − α, so that a blended sample is (term + frame × (255 − α)) / 255 (`Planes420`).
        let weighted: (y: [UInt16], cb: [UInt16], cr: [UInt16], inverse: [UInt16])?
    }

    /// Copies `pixels`: Cairo ARGB32, premultiplied, native-endian (B,G,R,A bytes in memory on
    /// little-endian), rows `stride` bytes apart. GStreamer is not initialised here but when the
    /// image is first blended into a frame: a JPEG stamped in its coefficients never needs it.
    /// (Throws nothing now; it stays `throws` so that callers do not change.) `pixels` may be a
    /// window into a larger image (its last row then ends at the window's right edge).
    public init(
        width: Int, height: Int, stride: Int, premultipliedBGRA pixels: UnsafeRawBufferPointer
    ) throws(MediaError) {
        precondition(
            width > 0 && height > 0 && stride >= width * 4 && pixels.count >= stride * (height - 1) + width * 4,
            "overlay pixels do not match \(width)x\(height) with stride \(stride)")
        self.width = width
        self.height = height
        var packed = [UInt8](repeating: 0, count: width * height * 4)
        for row in 0..<height {
            packed.withUnsafeMutableBytes { target in
                target.baseAddress!.advanced(by: row * width * 4)
                    .copyMemory(from: pixels.baseAddress!.advanced(by: row * stride), byteCount: width * 4)
            }
        }
        premultiplied = packed
        coveredColumns = packed.withUnsafeBufferPointer { Self.coveredColumns($0, width: width, height: height) }
    }

    /// For each row of `pixels` (premultiplied, so a clear pixel's alpha is 0), the columns from
    /// its first to its last pixel that is not wholly transparent.
    private static func coveredColumns(_ pixels: UnsafeBufferPointer<UInt8>, width: Int, height: Int) -> [Range<Int>] {
        #if _endian(little)
        let alphaByte = 3
        #else
        let alphaByte = 0
        #endif
        return (0..<height).map { row in
            let base = row * width * 4 + alphaByte
            guard let first = (0..<width).first(where: { pixels[base + $0 * 4] != 0 }) else { return 0..<0 }
            var last = width - 1
            while pixels[base + last * 4] == 0 { last -= 1 }
            return first..<last + 1
        }
    }

    /// The pixels for frames in `space`, converted on first use and kept.
    func buffer(for space: ColourSpace) -> UnsafeMutablePointer<GstBuffer> {
        converted(for: space).box.buffer
    }

    func converted(for space: ColourSpace) -> Converted {
        conversions.withLock { cache in
            if let done = cache[space] { return done }
            let done = convert(for: space)
            cache[space] = done
            return done
        }
    }

    private func convert(for space: ColourSpace) -> Converted {
        var pixels = [UInt8](repeating: 0, count: premultiplied.count)
        let format: GstVideoFormat
        var weighted: (y: [UInt16], cb: [UInt16], cr: [UInt16], inverse: [UInt16])?
        switch space {
        case .rgb:
            format = overlayRGBFormat
            pixels.withUnsafeMutableBufferPointer { convertToRGB(into: $0) }
        case .yuv(let kr, let kb, let fullRange):
            format = GST_VIDEO_FORMAT_AYUV
            weighted = pixels.withUnsafeMutableBufferPointer {
                convertToAYUV(into: $0, kr: kr, kb: kb, fullRange: fullRange)
            }
        }
        let buffer = gst_buffer_new_allocate(nil, gsize(pixels.count), nil)!
        _ = pixels.withUnsafeBytes { gst_buffer_fill(buffer, 0, $0.baseAddress, gsize($0.count)) }
        var offsets: [gsize] = [0, 0, 0, 0]
        var strides: [gint] = [gint(width * 4), 0, 0, 0]
        // The overlay API requires a video meta describing the layout.
        _ = gst_buffer_add_video_meta_full(
            buffer, GST_VIDEO_FRAME_FLAG_NONE, format,
            guint(width), guint(height), 1, &offsets, &strides)
        return Converted(box: GstBufferBox(buffer), weighted: weighted)
    }

    /// Straight-alpha BGRA bytes in memory on little-endian, as Cairo writes them (ARGB on
    /// big-endian), into `pixels` (zeroed: a clear pixel stays as it is).
    private func convertToRGB(into pixels: UnsafeMutableBufferPointer<UInt8>) {
        #if _endian(little)
        let (b, g, r, a) = (0, 1, 2, 3)
        #else
        let (a, r, g, b) = (0, 1, 2, 3)
        #endif
        premultiplied.withUnsafeBufferPointer { source in
            for offset in stride(from: 0, to: pixels.count, by: 4) where source[offset + a] != 0 {
                let (red, green, blue, alpha) = Self.straight(source, at: offset)
                pixels[offset + r] = red
                pixels[offset + g] = green
                pixels[offset + b] = blue
                pixels[offset + a] = alpha
            }
        }
    }

    /// Straight-alpha AYUV with the frame's matrix and range into `pixels`, and each pixel's
    /// terms of the blend (`Converted.weighted`), in one pass; a clear pixel's terms are 0, 0, 0
    /// and 255.
    private func convertToAYUV(
        into pixels: UnsafeMutableBufferPointer<UInt8>, kr: Double, kb: Double, fullRange: Bool
    ) -> (y: [UInt16], cb: [UInt16], cr: [UInt16], inverse: [UInt16]) {
        let count = width * height, kg = 1 - kr - kb
        let (lumaScale, lumaOffset, chromaScale) = fullRange ? (255.0, 0.0, 255.0) : (219.0, 16.0, 224.0)
        var y = [UInt16](repeating: 0, count: count), cb = y, cr = y
        var inverse = [UInt16](repeating: 255, count: count)
        #if _endian(little)
        let alphaByte = 3
        #else
        let alphaByte = 0
        #endif
        // A clear pixel: alpha 0 and black, as the blender has always been given it.
        let clear = (clampByte(lumaOffset), clampByte(128), clampByte(128))
        for offset in stride(from: 0, to: pixels.count, by: 4) {
            (pixels[offset + 1], pixels[offset + 2], pixels[offset + 3]) = clear
        }
        premultiplied.withUnsafeBufferPointer { source in
            for pixel in 0..<count where source[pixel * 4 + alphaByte] != 0 {
                let offset = pixel * 4
                let (red, green, blue, alpha) = Self.straight(source, at: offset)
                let r = Double(red) / 255, g = Double(green) / 255, b = Double(blue) / 255
                let luma = kr * r + kg * g + kb * b
                let u = (b - luma) / (2 * (1 - kb)), v = (r - luma) / (2 * (1 - kr))
                let (ys, us, vs) = (
                    clampByte(lumaOffset + lumaScale * luma), clampByte(128 + chromaScale * u),
                    clampByte(128 + chromaScale * v)
                )
                pixels[offset] = alpha
                pixels[offset + 1] = ys
                pixels[offset + 2] = us
                pixels[offset + 3] = vs
                let weight = UInt16(alpha)
                y[pixel] = UInt16(ys) * weight
                cb[pixel] = UInt16(us) * weight
                cr[pixel] = UInt16(vs) * weight
                inverse[pixel] = 255 - weight
            }
        }
        return (y, cb, cr, inverse)
    }

    /// The pixel at `offset` of `source` (Cairo's premultiplied bytes) with its alpha divided
    /// out, as (red, green, blue, alpha).
    private static func straight(_ source: UnsafeBufferPointer<UInt8>, at offset: Int) -> (UInt8, UInt8, UInt8, UInt8) {
        #if _endian(little)
        let (b, g, r, a) = (source[offset], source[offset + 1], source[offset + 2], source[offset + 3])
        #else
        let (a, r, g, b) = (source[offset], source[offset + 1], source[offset + 2], source[offset + 3])
        #endif
        guard a > 0 else { return (0, 0, 0, 0) }
        guard a < 255 else { return (r, g, b, a) }
        func divide(_ channel: UInt8) -> UInt8 { UInt8(min(255, (Int(channel) * 255 + Int(a) / 2) / Int(a))) }
        return (divide(r), divide(g), divide(b), a)
    }
}

/// The format of an overlay's straight-alpha pixels for RGB frames: BGRA bytes in memory on
/// little-endian, as Cairo writes them (ARGB on big-endian).
#if _endian(little)
let overlayRGBFormat = GST_VIDEO_FORMAT_BGRA
#else
let overlayRGBFormat = GST_VIDEO_FORMAT_ARGB
#endif

private func clampByte(_ value: Double) -> UInt8 { UInt8(max(0, min(255, value.rounded()))) }

/// The colour space a frame's pixels are in, as far as blending cares.
enum ColourSpace: Hashable {
    case rgb
    /// Matrix coefficients Kr and Kb, and whether the range is full (0–255) or video (16–235).
    case yuv(kr: Double, kb: Double, fullRange: Bool)

    init(_ info: GstVideoInfo) {
        if info.finfo.pointee.flags.rawValue & GST_VIDEO_FORMAT_FLAG_RGB.rawValue != 0 {
            self = .rgb
            return
        }
        var kr = 0.299, kb = 0.114
        var matrix = info.colorimetry.matrix
        // Unknown or RGB matrix on a YUV frame: BT.601, as GStreamer itself assumes.
        if matrix == GST_VIDEO_COLOR_MATRIX_UNKNOWN || matrix == GST_VIDEO_COLOR_MATRIX_RGB {
            matrix = GST_VIDEO_COLOR_MATRIX_BT601
        }
        _ = gst_video_color_matrix_get_Kr_Kb(matrix, &kr, &kb)
        self = .yuv(kr: kr, kb: kb, fullRange: info.colorimetry.range == GST_VIDEO_COLOR_RANGE_0_255)
    }
}

/// Owns one GstBuffer ref.
final class GstBufferBox: @unchecked Sendable {
    let buffer: UnsafeMutablePointer<GstBuffer>
    init(_ buffer: UnsafeMutablePointer<GstBuffer>) { self.buffer = buffer }
    deinit { gst_buffer_unref(buffer) }
}

/// Marks placed on a frame: each image at one or more top-left positions. Build it when the
/// marks change; `blend(into:)` every frame.
public final class OverlayComposition: @unchecked Sendable {
    public struct Placement: Sendable {
        public var image: OverlayImage
        public var x: Int
        public var y: Int
        public init(image: OverlayImage, x: Int, y: Int) {
            self.image = image
            self.x = x
            self.y = y
        }
    }

    let placements: [Placement]
    /// One GstVideoOverlayComposition per colour space met so far (usually exactly one).
    private let compositions = Mutex<[ColourSpace: OpaqueBox]>([:])

    public init(_ placements: [Placement]) {
        self.placements = placements
    }

    public var isEmpty: Bool { placements.isEmpty }

    /// Blends every placement into `frame` in place, in the frame's own pixel format; only the
    /// rows and columns the marks cover are touched. A frame that cannot take them is an error,
    /// never a frame let through unmarked.
    ///
    /// GStreamer's blender (`gst_video_blend`) converts each covered row of the frame to AYUV and
    /// back across the frame's whole width, however narrow the mark: a 173-pixel logo on a 1080p
    /// frame cost eleven times the pixels it covers (2.3 % of a marked clip's CPU, three times
    /// what ffmpeg's overlay and drawtext take). So each placement is blended into a view of the
    /// frame that starts at the mark's first column, rounded down to a whole chroma sample, and
    /// ends at its last: the same conversions on the same pixels, so the same bytes out. The
    /// 4:2:0 frames of clips and streams (I420, NV12) skip the conversions too (`Planes420`).
    public func blend(into frame: VideoFrame) throws(MediaError) {
        guard !placements.isEmpty else { return }
        // The overlay buffers are GstBuffers (OverlayImage leaves GStreamer alone until now).
        try GStreamer.initialize()
        let space = ColourSpace(frame.info)
        let blended = try frame.withVideoFrame { video in
            if let planes = Planes420(video) {
                for placement in placements {
                    planes.blend(placement.image, space: space, x: placement.x, y: placement.y)
                }
                return true
            }
            guard let columns = ColumnViews(video.pointee.info) else {
                return gst_video_overlay_composition_blend(self.composition(for: space), video) != 0
            }
            return placements.allSatisfy { columns.blend($0.image, space: space, x: $0.x, y: $0.y, into: video) }
        }
        guard blended else {
            throw .blend(format: frame.format?.rawValue ?? "unknown", width: frame.width, height: frame.height)
        }
    }

    /// Blends with GStreamer's composition over whole rows, as `blend(into:)` did before it
    /// blended into column views; kept for the tests that check the two agree byte for byte.
    func blendWholeRows(into frame: VideoFrame) throws(MediaError) {
        guard !placements.isEmpty else { return }
        let composition = self.composition(for: ColourSpace(frame.info))
        _ = try frame.withVideoFrame { gst_video_overlay_composition_blend(composition, $0) != 0 }
    }

    private func composition(for space: ColourSpace) -> OpaquePointer {
        compositions.withLock { cache in
            if let box = cache[space] { return box.pointer }
            var composition: OpaquePointer?
            for placement in placements {
                let rectangle = gst_video_overlay_rectangle_new_raw(
                    placement.image.buffer(for: space), gint(placement.x), gint(placement.y),
                    guint(placement.image.width), guint(placement.image.height), GST_VIDEO_OVERLAY_FORMAT_FLAG_NONE)!
                if let composition {
                    gst_video_overlay_composition_add_rectangle(composition, rectangle)
                } else {
                    composition = gst_video_overlay_composition_new(rectangle)
                }
                // The composition holds its own ref to the rectangle.
                gst_mini_object_unref(UnsafeMutablePointer<GstMiniObject>(rectangle))
            }
            let box = OpaqueBox(composition!)
            cache[space] = box
            return box.pointer
        }
    }
}

/// Owns one ref of a GstVideoOverlayComposition (an opaque mini object).
final class OpaqueBox: @unchecked Sendable {
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }
    deinit { gst_mini_object_unref(UnsafeMutablePointer<GstMiniObject>(pointer)) }
}
