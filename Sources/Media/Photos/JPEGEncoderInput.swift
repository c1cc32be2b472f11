// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CGStreamer
internal import CGstVideo

/// Whole 8×8 blocks for jpegenc.
///
/// GStreamer 1.22's jpegenc hands libjpeg the planar frame's rows as they lie in memory
/// (`jpeg_write_raw_data`), and libjpeg reads whole blocks: where a plane's width is not a multiple
/// of 8 it reads past the last pixel of each row into the stride's padding, which nothing wrote
/// (so the same photo came out different from run to run, by up to 24 levels in its right-edge
/// blocks), and where the stride is narrower than the blocks, into the next row or past the end
/// of the buffer. Such a frame is copied here into rows as wide as their blocks, the last pixel
/// repeated into the padding, as libjpeg pads the pictures it is given row by row. Frames whose
/// planes are all whole blocks wide (most camera photos) pass untouched.
enum JPEGEncoderInput {
    /// Pads the frames entering `encoder` when it is a jpegenc; any other encoder is left alone.
    static func install(on encoder: Element) throws(MediaError) {
        guard let factory = gst_element_get_factory(encoder.pointer),
            let name = gst_object_get_name(UnsafeMutableRawPointer(factory).assumingMemoryBound(to: GstObject.self))
        else { return }
        defer { g_free(name) }
        guard String(cString: name) == "jpegenc" else { return }
        guard let pad = gst_element_get_static_pad(encoder.pointer, "sink") else {
            throw .missingNamedElement(name: "encoder", pipeline: "jpegenc without a sink pad")
        }
        gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, padProbe, nil, nil)
        gst_object_unref(UnsafeMutableRawPointer(pad))
    }

    private static let padProbe: GstPadProbeCallback = { pad, info, _ in
        guard let pad, let info, let data = info.pointee.data, let caps = gst_pad_get_current_caps(pad) else {
            return GST_PAD_PROBE_OK
        }
        defer { gst_caps_unref(caps) }
        // What is not raw video is jpegenc's to refuse, with its own error.
        guard var videoInfo = try? rawVideoInfo(caps, at: "encoder") else { return GST_PAD_PROBE_OK }
        let buffer = data.assumingMemoryBound(to: GstBuffer.self)
        if let padded = blockPadded(buffer, info: &videoInfo) {
            info.pointee.data = UnsafeMutableRawPointer(padded)
            gst_buffer_unref(buffer)
        }
        return GST_PAD_PROBE_OK
    }

    /// A copy of `buffer` whose planes' rows hold whole blocks, or nil when they already do (or
    /// the format is packed: jpegenc copies those rows itself, to their exact width).
    static func blockPadded(
        _ buffer: UnsafeMutablePointer<GstBuffer>, info: inout GstVideoInfo
    ) -> UnsafeMutablePointer<GstBuffer>? {
        let format = info.finfo.pointee
        let planeCount = Int(format.n_planes)
        guard planeCount > 1 || format.n_components == 1, planeCount == Int(format.n_components), planeCount <= 4,
            format.flags.rawValue & GST_VIDEO_FORMAT_FLAG_COMPLEX.rawValue == 0
        else { return nil }
        let widthShift = withUnsafeBytes(of: format.w_sub) { Array($0.bindMemory(to: guint.self)) }
        let heightShift = withUnsafeBytes(of: format.h_sub) { Array($0.bindMemory(to: guint.self)) }
        let width = Int(info.width), height = Int(info.height)
        let widths = (0..<planeCount).map { (width + (1 << widthShift[$0]) - 1) >> widthShift[$0] }
        let heights = (0..<planeCount).map { (height + (1 << heightShift[$0]) - 1) >> heightShift[$0] }
        guard widths.contains(where: { $0 % 8 != 0 }) else { return nil }
        // Whole blocks, in 16s (an MCU of 4:2:0 luma), so each row is also aligned.
        let strides = widths.map { ($0 + 15) / 16 * 16 }
        var offsets = [gsize](repeating: 0, count: 4), strideValues = [gint](repeating: 0, count: 4)
        var size = 0
        for plane in 0..<planeCount {
            offsets[plane] = gsize(size)
            strideValues[plane] = gint(strides[plane])
            size += strides[plane] * heights[plane]
        }
        var source = GstVideoFrame()
        guard gst_video_frame_map(&source, &info, buffer, GST_MAP_READ) != 0 else { return nil }
        defer { gst_video_frame_unmap(&source) }
        guard let padded = gst_buffer_new_allocate(nil, gsize(size), nil) else { return nil }
        var map = GstMapInfo()
        guard gst_buffer_map(padded, &map, GST_MAP_WRITE) != 0 else {
            gst_buffer_unref(padded)
            return nil
        }
        let sourceData = withUnsafeBytes(of: source.data) { Array($0.bindMemory(to: UnsafeMutableRawPointer?.self)) }
        let sourceStrides = withUnsafeBytes(of: source.info.stride) { Array($0.bindMemory(to: gint.self)) }
        for plane in 0..<planeCount {
            guard let from = sourceData[plane]?.assumingMemoryBound(to: UInt8.self) else { continue }
            let to = map.data + Int(offsets[plane])
            let rowWidth = widths[plane], stride = strides[plane]
            for row in 0..<heights[plane] {
                let source = from + row * Int(sourceStrides[plane]), target = to + row * stride
                target.update(from: source, count: rowWidth)
                (target + rowWidth).initialize(repeating: source[rowWidth - 1], count: stride - rowWidth)
            }
        }
        gst_buffer_unmap(padded, &map)
        _ = gst_buffer_copy_into(
            padded, buffer, GstBufferCopyFlags(GST_BUFFER_COPY_FLAGS.rawValue | GST_BUFFER_COPY_TIMESTAMPS.rawValue), 0,
            gsize.max)
        _ = gst_buffer_add_video_meta_full(
            padded, GST_VIDEO_FRAME_FLAG_NONE, format.format, guint(width), guint(height),
            guint(planeCount), &offsets, &strideValues)
        return padded
    }
}
