// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CGStreamer
internal import CGstApp
internal import CGstVideo

// What the camera's viewfinder needs of frames and parts beyond drawing on them: their size, a
// copy that shares the pixels under another time, and header lines in each MJPEG part.

extension VideoFrame {
    /// The bytes of the frame's planes, padding included.
    public var byteCount: Int { Int(info.size) }

    /// A new frame over the same pixels (no copy) stamped with `pts`: a second consumer on another
    /// clock (a recording that starts at 0) without touching this one's time.
    public func sharingPixels(pts: UInt64?) -> VideoFrame {
        let shallow = gst_buffer_copy(buffer)!
        shallow.pointee.pts = pts.map { GstClockTime($0) } ?? GstClockTime.max
        shallow.pointee.duration = GstClockTime.max
        return VideoFrame(adopting: shallow, caps: caps, info: info)
    }
}

extension Element {
    /// Adds header lines to every part this `multipartmux` sends, after its own (Content-Type,
    /// Content-Length), on its streaming thread: `headers` gets the part's presentation time (the
    /// frame's, kept through the encoder) and returns the lines, `(name, value)`. The JPEG's
    /// bytes are not copied: the part is the new head and the old buffer's memory after it.
    public func addPartHeaders(_ headers: @escaping @Sendable (UInt64?) -> [(String, String)]) throws(MediaError) {
        guard let pad = gst_element_get_static_pad(pointer, "src") else {
            throw .missingNamedElement(name: name, pipeline: "(the preview)")
        }
        defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
        let box = Unmanaged.passRetained(PartHeaderSource(headers)).toOpaque()
        gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, partHeaderProbe, box) {
            if let box = $0 { Unmanaged<PartHeaderSource>.fromOpaque(box).release() }
        }
    }
}

private final class PartHeaderSource: Sendable {
    let headers: @Sendable (UInt64?) -> [(String, String)]
    init(_ headers: @escaping @Sendable (UInt64?) -> [(String, String)]) { self.headers = headers }
}

private let partHeaderProbe: GstPadProbeCallback = { _, info, context in
    guard let info, let context, let data = info.pointee.data else { return GST_PAD_PROBE_OK }
    let source = Unmanaged<PartHeaderSource>.fromOpaque(context).takeUnretainedValue()
    let buffer = data.assumingMemoryBound(to: GstBuffer.self)
    let pts = buffer.pointee.pts == GstClockTime.max ? nil : UInt64(buffer.pointee.pts)
    let lines = source.headers(pts)
    guard !lines.isEmpty else { return GST_PAD_PROBE_OK }
    // multipartmux writes `--boundary\r\nName: value\r\n…\r\n\r\n` before the JPEG, in one buffer.
    let total = Int(gst_buffer_get_size(buffer))
    var head = [UInt8](repeating: 0, count: min(512, total))
    let got = Int(gst_buffer_extract(buffer, 0, &head, gsize(head.count)))
    guard got >= 4, let end = (0...(got - 4)).first(where: { head[$0..<$0 + 4] == [13, 10, 13, 10] }) else {
        return GST_PAD_PROBE_OK
    }
    let split = end + 2
    let added = Array(lines.map { "\($0.0): \($0.1)\r\n" }.joined().utf8)
    let headBytes = Array(head[0..<split]) + added
    guard let part = gst_buffer_new_allocate(nil, gsize(headBytes.count), nil),
        let rest = gst_buffer_copy_region(buffer, GST_BUFFER_COPY_MEMORY, gsize(split), gsize(total - split))
    else { return GST_PAD_PROBE_OK }
    _ = headBytes.withUnsafeBytes { gst_buffer_fill(part, 0, $0.baseAddress, gsize($0.count)) }
    let copied = GstBufferCopyFlags(GST_BUFFER_COPY_FLAGS.rawValue | GST_BUFFER_COPY_TIMESTAMPS.rawValue)
    gst_buffer_copy_into(part, buffer, copied, 0, gsize.max)
    let joined = gst_buffer_append(part, rest)
    gst_buffer_unref(buffer)
    info.pointee.data = UnsafeMutableRawPointer(joined)
    return GST_PAD_PROBE_OK
}

extension Pipeline {
    /// How long ago, on the pipeline's clock, a live source stamped a buffer of running time
    /// `pts` (its capture), in nanoseconds: 0 for a time not reached yet, nil with no clock (not
    /// playing) or for an age past a second (a file's times, which are not running times).
    public func age(ofRunningTime pts: UInt64) -> UInt64? {
        guard let clock = gst_element_get_clock(element) else { return nil }
        defer { gst_object_unref(UnsafeMutableRawPointer(clock)) }
        let now = UInt64(gst_clock_get_time(clock))
        let stamped = UInt64(gst_element_get_base_time(element)) &+ pts
        guard now > stamped else { return 0 }
        let age = now - stamped
        return age <= 1_000_000_000 ? age : nil
    }
}
