// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CGStreamer
internal import CGstApp
internal import CGstVideo

/// Raw video formats the tool works in. Blending happens in the frame's own format.
public enum PixelFormat: String, CaseIterable, Sendable {
    case i420 = "I420", nv12 = "NV12", yuy2 = "YUY2", bgrx = "BGRx", bgra = "BGRA", rgbx = "RGBx", rgba = "RGBA"

    var gst: GstVideoFormat { gst_video_format_from_string(rawValue) }

    init?(_ format: GstVideoFormat) {
        guard let name = gst_video_format_to_string(format) else { return nil }
        self.init(rawValue: String(cString: name))
    }
}

/// One video frame: a GstBuffer (writable while only Swift holds it) and the video info that
/// describes its planes.
public final class VideoFrame: @unchecked Sendable {
    private(set) var buffer: UnsafeMutablePointer<GstBuffer>
    /// Who keeps `buffer` alive, and so what this object releases.
    private var ownership: Ownership
    var info: GstVideoInfo
    /// Caps of the frame (owned ref), handed to outputs so appsrc needs no guessing.
    let caps: UnsafeMutablePointer<GstCaps>

    private enum Ownership {
        /// The appsink sample the buffer belongs to: we hold the sample rather than a second ref
        /// to its buffer. Once appsink lets go of the sample, the buffer has a single ref (the
        /// sample's), so it stays writable and blending in place needs no copy.
        case sample(OpaquePointer)
        /// One ref of the buffer, ours.
        case owned
        /// Lent by the pipeline for the duration of a pad probe: neither owned nor released, and
        /// already writable (the probe made it so).
        case borrowed
    }

    private init(
        buffer: UnsafeMutablePointer<GstBuffer>, ownership: Ownership, caps: UnsafeMutablePointer<GstCaps>,
        info: GstVideoInfo
    ) {
        self.buffer = buffer
        self.ownership = ownership
        self.caps = gst_caps_ref(caps)
        self.info = info
    }

    /// Adopts `buffer` (one ref) and refs `caps`.
    convenience init(
        adopting buffer: UnsafeMutablePointer<GstBuffer>, caps: UnsafeMutablePointer<GstCaps>, info: GstVideoInfo
    ) {
        self.init(buffer: buffer, ownership: .owned, caps: caps, info: info)
    }

    /// Borrows a writable `buffer` from a pad probe; valid only during the probe.
    convenience init(
        borrowing buffer: UnsafeMutablePointer<GstBuffer>, caps: UnsafeMutablePointer<GstCaps>, info: GstVideoInfo
    ) {
        precondition(gst_mini_object_is_writable(gcast(buffer)) != 0, "a borrowed frame must already be writable")
        self.init(buffer: buffer, ownership: .borrowed, caps: caps, info: info)
    }

    /// Adopts `sample` (one ref, as pulled from appsink) and uses its buffer in place.
    convenience init(
        adoptingSample sample: OpaquePointer, buffer: UnsafeMutablePointer<GstBuffer>,
        caps: UnsafeMutablePointer<GstCaps>, info: GstVideoInfo
    ) {
        self.init(buffer: buffer, ownership: .sample(sample), caps: caps, info: info)
    }

    deinit {
        switch ownership {
        case .sample(let sample): gst_sample_unref(sample)
        case .owned: gst_buffer_unref(buffer)
        case .borrowed: break
        }
        gst_caps_unref(caps)
    }

    /// A new frame filled with zero bytes, for tests and synthetic sources. `colorimetry` is
    /// GStreamer's name for it (`bt709`, `bt601`, `1:4:0:0`); nil takes the default for the size.
    public convenience init(width: Int, height: Int, format: PixelFormat, colorimetry: String? = nil) throws(MediaError)
    {
        try self.init(width: width, height: height, format: format, colorimetry: colorimetry, rate: nil)
    }

    /// The same, at `rate` frames per second (numerator, denominator): a crop of a camera's frame
    /// keeps its rate, which an encoder after it wants.
    convenience init(
        width: Int, height: Int, format: PixelFormat, colorimetry: String?, rate: (gint, gint)?
    ) throws(MediaError) {
        try GStreamer.initialize()
        var info = GstVideoInfo()
        guard gst_video_info_set_format(&info, format.gst, guint(width), guint(height)) != 0 else {
            throw .invalidTemplate("cannot describe a \(width)x\(height) \(format.rawValue) frame")
        }
        if let colorimetry, gst_video_colorimetry_from_string(&info.colorimetry, colorimetry) == 0 {
            throw .invalidTemplate("unknown colorimetry '\(colorimetry)'")
        }
        if let rate {
            info.fps_n = rate.0
            info.fps_d = rate.1
        }
        let caps = gst_video_info_to_caps(&info)!
        defer { gst_caps_unref(caps) }
        self.init(buffer: gst_buffer_new_allocate(nil, info.size, nil), ownership: .owned, caps: caps, info: info)
        try withMapped { $0.fill(0) }
    }

    public var width: Int { Int(info.width) }
    public var height: Int { Int(info.height) }
    public var format: PixelFormat? { PixelFormat(info.finfo.pointee.format) }
    /// GStreamer's name of the frame's format (`I420`, `Y444`, `RGB`…), for formats `PixelFormat` lacks.
    public var formatName: String { String(cString: gst_video_format_to_string(info.finfo.pointee.format)) }

    /// Frames per second from the caps; nil for a variable or unknown rate.
    public var framesPerSecond: Double? {
        info.fps_n > 0 && info.fps_d > 0 ? Double(info.fps_n) / Double(info.fps_d) : nil
    }

    /// Presentation time in nanoseconds, if the buffer has one.
    public var presentationTime: UInt64? {
        let pts = buffer.pointee.pts
        return pts == GstClockTime.max ? nil : UInt64(pts)
    }

    /// Sets the presentation time and duration (nanoseconds); nil clears them.
    public func setTimestamps(pts: UInt64?, duration: UInt64?) {
        ensureWritable()
        buffer.pointee.pts = pts.map { GstClockTime($0) } ?? GstClockTime.max
        buffer.pointee.duration = duration.map { GstClockTime($0) } ?? GstClockTime.max
    }

    /// Whether the buffer can be written in place without a copy (no one else holds it).
    var isWritable: Bool { gst_mini_object_is_writable(gcast(buffer)) != 0 }

    /// Whether its pixels, too, are the buffer's alone: a buffer of its own can still share its
    /// memory with another (a shallow copy), and mapping it for writing then copies the pixels.
    var pixelsAreExclusive: Bool { isWritable && gst_buffer_is_all_memory_writable(buffer) != 0 }

    /// Makes the buffer writable (copies only if someone else still holds it).
    func ensureWritable() {
        guard !isWritable else { return }
        switch ownership {
        case .sample(let sample):
            // Someone else holds the sample's buffer: work on our own (shallow) copy.
            buffer = gst_buffer_copy(buffer)
            gst_sample_unref(sample)
            ownership = .owned
        case .owned:
            buffer = gcast(gst_mini_object_make_writable(gcast(buffer)))
        case .borrowed:
            preconditionFailure("a borrowed frame cannot be replaced")
        }
    }

    /// Labels the frame with its SMPTE timecode (a GstVideoTimeCodeMeta): qtmux writes the first
    /// one it gets as the MOV's timecode track. `rate` is the count's (30000/1001 for 29.97);
    /// `dropFrame` skips numbers as at 29.97 drop-frame. Throws `MediaError.timecode` when
    /// GStreamer takes it for no timecode (24 hours or more, a frame number past the rate).
    public func setTimecode(
        hours: Int, minutes: Int, seconds: Int, frames: Int, rate: (numerator: Int, denominator: Int),
        dropFrame: Bool
    ) throws(MediaError) {
        let label = String(format: "%02d:%02d:%02d%@%02d", hours, minutes, seconds, dropFrame ? ";" : ":", frames)
        let fields = [hours, minutes, seconds, frames]
        guard fields.allSatisfy({ (0...Int(UInt32.max)).contains($0) }), (1...Int(Int32.max)).contains(rate.numerator),
            (1...Int(Int32.max)).contains(rate.denominator)
        else {
            throw .timecode(label, rate: "\(rate.numerator)/\(rate.denominator)")
        }
        ensureWritable()
        // One timecode a frame: a decoder's (from the stream's SEI) gives way to the source's.
        if let old = gst_buffer_get_meta(buffer, gst_video_time_code_meta_api_get_type()) {
            _ = gst_buffer_remove_meta(buffer, old)
        }
        let flags = dropFrame ? GST_VIDEO_TIME_CODE_FLAGS_DROP_FRAME : GST_VIDEO_TIME_CODE_FLAGS_NONE
        // gst_buffer_add_video_time_code_meta_full checks the timecode and adds nothing when it is none.
        guard
            gst_buffer_add_video_time_code_meta_full(
                buffer, guint(rate.numerator), guint(rate.denominator), nil, flags,
                guint(hours), guint(minutes), guint(seconds), guint(frames), 0) != nil
        else {
            throw .timecode(label, rate: "\(rate.numerator)/\(rate.denominator)")
        }
    }

    /// A new reference to the buffer, for pushing downstream (transfer full).
    func bufferReference() -> UnsafeMutablePointer<GstBuffer> { gst_buffer_ref(buffer) }

    /// A deep copy, for handing a frame to a second consumer that may outlive this one.
    public func copy() -> VideoFrame {
        let copied = gst_buffer_copy_deep(buffer)!
        return VideoFrame(adopting: copied, caps: caps, info: info)
    }

    /// Maps the frame's planes for reading and writing for the duration of `body`. Strides come
    /// from the frame's info, never guessed; the map never outlives the call. A frame that cannot
    /// be mapped throws `MediaError.unmappableFrame`.
    public func withMapped<R>(_ body: (MappedFrame) throws(MediaError) -> R) throws(MediaError) -> R {
        try withVideoFrame { frame throws(MediaError) in try body(MappedFrame(frame: frame)) }
    }

    /// Maps the raw frame, readable and writable (made writable first, copied only if shared),
    /// for the duration of `body`: the one place a frame is mapped.
    func withVideoFrame<R>(
        _ body: (UnsafeMutablePointer<GstVideoFrame>) throws(MediaError) -> R
    ) throws(MediaError) -> R {
        ensureWritable()
        var frame = GstVideoFrame()
        let flags = GstMapFlags(GST_MAP_READ.rawValue | GST_MAP_WRITE.rawValue)
        guard gst_video_frame_map(&frame, &info, buffer, flags) != 0 else {
            throw .unmappableFrame(format: format?.rawValue ?? "unknown", width: width, height: height)
        }
        defer { gst_video_frame_unmap(&frame) }
        return try body(&frame)
    }
}

/// The video info of the raw-video `caps` arriving at `element`. gst_video_info_from_caps also
/// takes encoded video and images (format ENCODED, no planes): those are refused here, before a
/// frame is made of them.
func rawVideoInfo(_ caps: UnsafeMutablePointer<GstCaps>, at element: String) throws(MediaError) -> GstVideoInfo {
    var info = GstVideoInfo()
    guard gst_video_info_from_caps(&info, caps) != 0, info.finfo.pointee.format != GST_VIDEO_FORMAT_ENCODED else {
        throw .notRawVideo(element: element, caps: takeGString(gst_caps_to_string(caps)) ?? "no caps")
    }
    return info
}

/// A mapped frame's planes. Valid only inside `VideoFrame.withMapped`.
public struct MappedFrame {
    let frame: UnsafeMutablePointer<GstVideoFrame>

    public var planeCount: Int { Int(frame.pointee.info.finfo.pointee.n_planes) }

    /// Bytes per row of plane `index`.
    public func stride(_ index: Int) -> Int {
        withUnsafeBytes(of: frame.pointee.info.stride) {
            $0.load(fromByteOffset: index * MemoryLayout<gint>.stride, as: gint.self)
        }.int
    }

    /// The pixel rows of plane `index` (its height follows from the format's subsampling).
    public func plane(_ index: Int) -> UnsafeMutableRawBufferPointer {
        let data = withUnsafeBytes(of: frame.pointee.data) {
            $0.load(
                fromByteOffset: index * MemoryLayout<UnsafeMutableRawPointer?>.stride, as: UnsafeMutableRawPointer?.self
            )
        }
        let info = frame.pointee.info
        // The vertical subsampling of the first component stored in this plane.
        let planes = withUnsafeBytes(of: info.finfo.pointee.plane) { Array($0.bindMemory(to: guint.self)) }
        let subsampling = withUnsafeBytes(of: info.finfo.pointee.h_sub) { Array($0.bindMemory(to: guint.self)) }
        let component = planes.prefix(Int(info.finfo.pointee.n_components)).firstIndex(of: guint(index)) ?? 0
        let hSub = Int(subsampling[component])
        let rows = (Int(info.height) + (1 << hSub) - 1) >> hSub
        return UnsafeMutableRawBufferPointer(start: data, count: rows * stride(index))
    }

    /// Fills every plane with `byte`.
    public func fill(_ byte: UInt8) {
        for index in 0..<planeCount { plane(index).initializeMemory(as: UInt8.self, repeating: byte) }
    }
}

private extension gint { var int: Int { Int(self) } }
