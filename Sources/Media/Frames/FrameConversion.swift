// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CGStreamer
internal import CGstVideo

extension VideoFrame {
    /// GStreamer's name of the frame's colours (`bt709`, `bt601`, `1:4:0:0`).
    public var colorimetry: String {
        var colorimetry = info.colorimetry
        return takeGString(gst_video_colorimetry_to_string(&colorimetry)) ?? "unknown"
    }

    /// Whether the frame is I420 of full-range BT.601: JPEG's YCbCr, which a JPEG encoder writes
    /// as it is and every decoder reads back alike.
    public var isJPEGColour: Bool {
        format == .i420 && info.colorimetry.range == GST_VIDEO_COLOR_RANGE_0_255
            && info.colorimetry.matrix == GST_VIDEO_COLOR_MATRIX_BT601
    }

    /// A new I420 frame of this one in full-range BT.601 (`isJPEGColour`), stamped with its time:
    /// a camera's limited-range (or BT.709) frame as the JPEG encoder would have converted it.
    public func inJPEGColour() throws(MediaError) -> VideoFrame {
        let target = try VideoFrame(
            width: width, height: height, format: .i420, colorimetry: "1:4:0:0",
            rate: info.fps_n > 0 ? (info.fps_n, info.fps_d) : nil)
        target.setTimestamps(pts: presentationTime, duration: nil)
        var targetInfo = target.info
        guard let converter = gst_video_converter_new(&info, &targetInfo, nil) else {
            throw .invalidTemplate("cannot convert \(formatName) frames of \(colorimetry) to full-range BT.601")
        }
        defer { gst_video_converter_free(converter) }
        try withVideoFrame { from throws(MediaError) in
            try target.withVideoFrame { to in gst_video_converter_frame(converter, from, to) }
        }
        return target
    }
}
