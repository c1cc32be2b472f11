import CGStreamer
import CGstVideo

/// A rendered mark's pixels held in a GstBuffer, ready to be blended. Built once per rendered
/// mark and reused for every frame: GStreamer caches the converted (YUV, unpremultiplied) forms
/// on the rectangles made from it, so a frame pays only for the blend itself.
public final class OverlayImage: @unchecked Sendable {
    let buffer: UnsafeMutablePointer<GstBuffer>
    public let width: Int
    public let height: Int

    /// Copies `pixels`: Cairo ARGB32, premultiplied, native-endian (B,G,R,A bytes in memory on
    /// little-endian), rows `stride` bytes apart.
    public init(width: Int, height: Int, stride: Int, premultipliedBGRA pixels: UnsafeRawBufferPointer) throws(MediaError) {
        try GStreamer.initialize()
        precondition(width > 0 && height > 0 && stride >= width * 4 && pixels.count >= stride * height,
                     "overlay pixels do not match \(width)x\(height) with stride \(stride)")
        self.width = width
        self.height = height
        buffer = gst_buffer_new_allocate(nil, gsize(stride * height), nil)
        _ = gst_buffer_fill(buffer, 0, pixels.baseAddress, gsize(stride * height))
        var offsets: [gsize] = [0, 0, 0, 0]
        var strides: [gint] = [gint(stride), 0, 0, 0]
        // The overlay API requires a video meta describing the layout; BGRA on little-endian is
        // GST_VIDEO_OVERLAY_COMPOSITION_FORMAT_RGB.
        _ = gst_buffer_add_video_meta_full(buffer, GST_VIDEO_FRAME_FLAG_NONE, overlayFormat,
                                           guint(width), guint(height), 1, &offsets, &strides)
    }

    deinit { gst_buffer_unref(buffer) }

    private var overlayFormat: GstVideoFormat {
        #if _endian(little)
        GST_VIDEO_FORMAT_BGRA
        #else
        GST_VIDEO_FORMAT_ARGB
        #endif
    }
}

/// Marks placed on a frame: each image at one or more top-left positions. Build it when the
/// marks change; `blend(into:)` every frame.
public final class OverlayComposition: @unchecked Sendable {
    private let composition: OpaquePointer?
    // The images stay alive as long as rectangles point into their buffers.
    private let images: [OverlayImage]

    public struct Placement {
        public var image: OverlayImage
        public var x: Int
        public var y: Int
        public init(image: OverlayImage, x: Int, y: Int) { self.image = image; self.x = x; self.y = y }
    }

    public init(_ placements: [Placement]) {
        images = placements.map(\.image)
        var composition: OpaquePointer?
        for placement in placements {
            let rectangle = gst_video_overlay_rectangle_new_raw(
                placement.image.buffer, gint(placement.x), gint(placement.y),
                guint(placement.image.width), guint(placement.image.height),
                GST_VIDEO_OVERLAY_FORMAT_FLAG_PREMULTIPLIED_ALPHA)!
            if let composition {
                gst_video_overlay_composition_add_rectangle(composition, rectangle)
            } else {
                composition = gst_video_overlay_composition_new(rectangle)
            }
            // The composition holds its own ref to the rectangle.
            gst_mini_object_unref(UnsafeMutablePointer<GstMiniObject>(rectangle))
        }
        self.composition = composition
    }

    deinit { if let composition { gst_mini_object_unref(UnsafeMutablePointer<GstMiniObject>(composition)) } }

    public var isEmpty: Bool { composition == nil }

    /// Blends every placement into `frame` in place, in the frame's own pixel format; only the
    /// rows and columns the marks cover are touched.
    @discardableResult
    public func blend(into frame: VideoFrame) -> Bool {
        guard let composition else { return true }
        return frame.withVideoFrame { gst_video_overlay_composition_blend(composition, $0) != 0 } ?? false
    }
}
