// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CGStreamer
internal import CGstVideo
import Foundation
internal import CTurboJPEG

/// A photo decoded outside GStreamer, ready to be pushed into a raw photo pipeline: one RGB
/// buffer (owned here until a pipeline takes it) and what the decoder had to say about the data.
public final class DecodedPicture: @unchecked Sendable {
    public let width: Int
    public let height: Int
    /// libjpeg's warning when the data was damaged but a picture came out (e.g. "Corrupt JPEG
    /// data: premature end of data segment"); nil for clean data.
    public let warning: String?
    let caps: String
    /// Taken (set to nil) by the pipeline that pushes it: appsrc takes ownership of the buffer.
    var buffer: UnsafeMutablePointer<GstBuffer>?

    init(width: Int, height: Int, warning: String?, caps: String, buffer: UnsafeMutablePointer<GstBuffer>) {
        self.width = width
        self.height = height
        self.warning = warning
        self.caps = caps
        self.buffer = buffer
    }

    deinit { if let buffer { gst_buffer_unref(buffer) } }
}

extension DecodedPicture {
    /// A new picture of `format`, `width`×`height`, whose rows `fill` writes into the mapped
    /// buffer (given its stride, as GStreamer lays rows out); `fill` returns the decoder's warning,
    /// if any. The one place a raw picture buffer is described and allocated; errors name `element`
    /// and say it was `what` (e.g. "RGB picture").
    static func filled(
        _ format: GstVideoFormat, width: Int, height: Int, element: String, what: String,
        fill: (_ data: UnsafeMutablePointer<UInt8>, _ stride: Int) throws(MediaError) -> String?
    )
        throws(MediaError) -> DecodedPicture
    {
        try filled(format, width: width, height: height, element: element, what: what) {
            data, info throws(MediaError) in try fill(data, Int(info.stride.0))
        }
    }

    /// A picture's description, full range; `jpegColour` as jpegdec describes its output
    /// (BT.601, JPEG chroma siting). nil when GStreamer cannot describe that size.
    static func videoInfo(_ format: GstVideoFormat, width: Int, height: Int, jpegColour: Bool) -> GstVideoInfo? {
        var info = GstVideoInfo()
        guard gst_video_info_set_format(&info, format, guint(width), guint(height)) != 0 else { return nil }
        info.colorimetry.range = GST_VIDEO_COLOR_RANGE_0_255
        if jpegColour {
            info.colorimetry.matrix = GST_VIDEO_COLOR_MATRIX_BT601
            info.colorimetry.transfer = GST_VIDEO_TRANSFER_UNKNOWN
            info.colorimetry.primaries = GST_VIDEO_COLOR_PRIMARIES_UNKNOWN
            info.chroma_site = GST_VIDEO_CHROMA_SITE_JPEG
        }
        // One picture a second, as the photo pipeline stamps them (0/1 makes a CRITICAL downstream).
        info.fps_n = 1
        info.fps_d = 1
        return info
    }

    /// As `filled(_:width:height:element:what:fill:)`, for a format with several planes: `fill`
    /// gets the buffer's layout (`offset` and `stride` per plane). `jpegColour` describes the
    /// picture as jpegdec does (BT.601 full range, JPEG chroma siting), so a YUV picture goes
    /// through the pipeline as jpegdec's would.
    static func filled(
        _ format: GstVideoFormat, width: Int, height: Int, element: String, what: String,
        jpegColour: Bool = false,
        fill: (_ data: UnsafeMutablePointer<UInt8>, _ info: GstVideoInfo) throws(MediaError) -> String?
    )
        throws(MediaError) -> DecodedPicture
    {
        func failure(_ message: String) -> MediaError {
            .picture(library: element, message: message)
        }
        guard let described = videoInfo(format, width: width, height: height, jpegColour: jpegColour) else {
            throw failure("cannot describe a \(width)x\(height) \(what)")
        }
        var info = described
        let buffer = gst_buffer_new_allocate(nil, info.size, nil)!
        var map = GstMapInfo()
        guard gst_buffer_map(buffer, &map, GST_MAP_WRITE) != 0 else {
            gst_buffer_unref(buffer)
            throw failure("cannot map a \(info.size)-byte buffer")
        }
        let warning: String?
        do { warning = try fill(map.data, info) } catch {
            gst_buffer_unmap(buffer, &map)
            gst_buffer_unref(buffer)
            throw error
        }
        gst_buffer_unmap(buffer, &map)
        let caps = gst_video_info_to_caps(&info)!
        defer { gst_caps_unref(caps) }
        return DecodedPicture(
            width: width, height: height, warning: warning,
            caps: takeGString(gst_caps_to_string(caps)) ?? "video/x-raw", buffer: buffer)
    }

    /// A picture another library decoded (Cairo's PNG reader): packed 8-bit rows in `format`, a
    /// GStreamer format name such as BGRA or BGRx, copied into a buffer a raw pipeline takes.
    public static func packed(
        _ pixels: [UInt8], width: Int, height: Int, stride: Int,
        format: String
    ) throws(MediaError) -> DecodedPicture {
        try GStreamer.initialize()
        let videoFormat = gst_video_format_from_string(format)
        let what = "\(format) picture"
        guard videoFormat != GST_VIDEO_FORMAT_UNKNOWN, pixels.count >= stride * height else {
            throw .picture(library: "picture", message: "cannot describe a \(width)x\(height) \(what)")
        }
        let rowBytes = Int(gst_video_format_get_info(videoFormat).pointee.pixel_stride.0) * width
        return try filled(videoFormat, width: width, height: height, element: "picture", what: what) {
            data, targetStride in
            pixels.withUnsafeBytes { source in
                for y in 0..<height {
                    (data + y * targetStride).update(
                        from: source.baseAddress!.assumingMemoryBound(to: UInt8.self) + y * stride,
                        count: rowBytes)
                }
            }
            return nil
        }
    }
}

/// JPEG decoding with libjpeg-turbo directly, for the pictures jpegdec cannot give: CMYK and YCCK
/// (jpegdec fails with "Internal data stream error"), and damaged data libjpeg recovers from with
/// a warning (jpegdec drops the whole picture). The normal path stays jpegdec, which is faster.
public enum JPEGDecoder {
    /// Decodes `data` to packed RGB. CMYK and YCCK are converted with the Adobe convention when
    /// `adobeInverted` (Photoshop and ImageMagick store CMYK inverted and say so in APP14).
    public static func decode(_ data: Data, adobeInverted: Bool) throws(MediaError) -> DecodedPicture {
        try GStreamer.initialize()
        guard let handle = tjInitDecompress() else { throw failure("cannot start libjpeg-turbo") }
        defer { tjDestroy(handle) }
        // withUnsafeBytes rethrows untyped errors: the typed error travels in a Result.
        return try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            Result { () throws(MediaError) -> DecodedPicture in
                let source = raw.bindMemory(to: UInt8.self).baseAddress
                var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colourspace: Int32 = 0
                guard
                    tjDecompressHeader3(handle, source, UInt(raw.count), &width, &height, &subsampling, &colourspace)
                        == 0
                else {
                    throw failure(message(handle))
                }
                let cmyk = colourspace == Int32(TJCS_CMYK.rawValue) || colourspace == Int32(TJCS_YCCK.rawValue)
                return try DecodedPicture.filled(
                    GST_VIDEO_FORMAT_RGB, width: Int(width), height: Int(height),
                    element: "libjpeg-turbo", what: "RGB picture"
                ) { data, stride throws(MediaError) in
                    let status: Int32
                    if cmyk {
                        // libjpeg gives CMYK as stored; the RGB conversion below is ours.
                        var ink = [UInt8](repeating: 0, count: Int(width) * Int(height) * 4)
                        status = tjDecompress2(
                            handle, source, UInt(raw.count), &ink, width, 0, height, Int32(TJPF_CMYK.rawValue), 0)
                        if status == 0 || tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue) {
                            convertCMYK(
                                ink, width: Int(width), height: Int(height), inverted: adobeInverted, into: data,
                                stride: stride)
                        }
                    } else {
                        status = tjDecompress2(
                            handle, source, UInt(raw.count), data, width, Int32(stride), height,
                            Int32(TJPF_RGB.rawValue), 0)
                    }
                    guard status != 0 else { return nil }
                    // A warning means the data was damaged but the whole picture was produced.
                    guard tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue) else {
                        throw failure(message(handle))
                    }
                    return message(handle)
                }
            }
        }.get()
    }

    /// CMYK → RGB without a colour profile, as ImageMagick and browsers do: each ink darkens its
    /// complementary primary and black darkens all three. Inverted (Adobe) data stores 255 − ink.
    private static func convertCMYK(
        _ ink: [UInt8], width: Int, height: Int, inverted: Bool,
        into rgb: UnsafeMutablePointer<UInt8>, stride: Int
    ) {
        ink.withUnsafeBufferPointer { ink in
            for y in 0..<height {
                let row = rgb + y * stride
                var i = y * width * 4
                for x in 0..<width {
                    var c = Int(ink[i]), m = Int(ink[i + 1]), yellow = Int(ink[i + 2]), k = Int(ink[i + 3])
                    if !inverted { (c, m, yellow, k) = (255 - c, 255 - m, 255 - yellow, 255 - k) }
                    // Now each value is 255 − ink: the light left after that ink.
                    row[3 * x] = UInt8((c * k + 127) / 255)
                    row[3 * x + 1] = UInt8((m * k + 127) / 255)
                    row[3 * x + 2] = UInt8((yellow * k + 127) / 255)
                    i += 4
                }
            }
        }
    }

    private static func message(_ handle: tjhandle) -> String {
        tjGetErrorStr2(handle).map { String(cString: $0) } ?? "unknown libjpeg-turbo error"
    }

    static func failure(_ message: String) -> MediaError {
        .picture(library: "libjpeg-turbo", message: message)
    }
}
