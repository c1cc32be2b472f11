// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CGStreamer
internal import CGstVideo

/// Views of a mapped frame narrowed to a band of columns, for the pixel formats whose columns are
/// plain byte offsets in each plane (8-bit, not tiled, chroma at most halved across): `PixelFormat`'s.
struct ColumnViews {
    /// Where a view may start: a whole chroma sample (2 for 4:2:0 and 4:2:2, 1 for RGB).
    let alignment: Int
    /// For each plane, the bytes one column of `alignment` pixels takes.
    let planeBytesPerAlignment: [Int]

    init?(_ info: GstVideoInfo) {
        guard let finfo = info.finfo, PixelFormat(finfo.pointee.format) != nil else { return nil }
        let format = finfo.pointee
        let components = Int(format.n_components), planes = Int(format.n_planes)
        let strides = withUnsafeBytes(of: format.pixel_stride) { Array($0.bindMemory(to: gint.self)) }
        let subsampling = withUnsafeBytes(of: format.w_sub) { Array($0.bindMemory(to: guint.self)) }
        let planeOf = withUnsafeBytes(of: format.plane) { Array($0.bindMemory(to: guint.self)) }
        guard (0..<components).allSatisfy({ strides[$0] > 0 && subsampling[$0] <= 1 }) else { return nil }
        let alignment = (0..<components).contains { subsampling[$0] == 1 } ? 2 : 1
        var bytes = [Int?](repeating: nil, count: planes)
        for component in 0..<components where bytes[Int(planeOf[component])] == nil {
            bytes[Int(planeOf[component])] = (alignment >> Int(subsampling[component])) * Int(strides[component])
        }
        guard bytes.allSatisfy({ $0 != nil }) else { return nil }
        self.alignment = alignment
        self.planeBytesPerAlignment = bytes.map { $0! }
    }

    /// Blends `image` at (`x`, `y`) into the columns of `frame` it covers; false when GStreamer's
    /// blender refuses. A placement wholly outside the frame is nothing to do.
    func blend(
        _ image: OverlayImage, space: ColourSpace, x: Int, y: Int, into frame: UnsafeMutablePointer<GstVideoFrame>
    ) -> Bool {
        let width = Int(frame.pointee.info.width), height = Int(frame.pointee.info.height)
        guard x < width, x + image.width > 0, y < height, y + image.height > 0 else { return true }
        let first = max(0, x) / alignment
        let end = min(width, (min(width, x + image.width) + alignment - 1) / alignment * alignment)
        var view = frame.pointee
        view.info.width = gint(end - first * alignment)
        withUnsafeMutableBytes(of: &view.data) { data in
            let pointers = data.bindMemory(to: gpointer?.self)
            for plane in planeBytesPerAlignment.indices {
                pointers[plane] = pointers[plane].map { $0 + first * planeBytesPerAlignment[plane] }
            }
        }
        let buffer = image.buffer(for: space)
        var info = GstVideoInfo()
        let format: GstVideoFormat
        if case .rgb = space { format = overlayRGBFormat } else { format = GST_VIDEO_FORMAT_AYUV }
        guard gst_video_info_set_format(&info, format, guint(image.width), guint(image.height)) != 0 else {
            return false
        }
        var pixels = GstVideoFrame()
        guard gst_video_frame_map(&pixels, &info, buffer, GST_MAP_READ) != 0 else { return false }
        defer { gst_video_frame_unmap(&pixels) }
        return gst_video_blend(&view, &pixels, gint(x - first * alignment), gint(y), 1) != 0
    }
}
