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
    /// frame's, kept through the encoder) and returns the lines, `(name, value)`.
    ///
    /// Each part also leaves as one buffer. multipartmux pushes a part as three (its head, the
    /// JPEG, the closing line), and only the head is a keyframe: multisocketsink, moving a viewer
    /// that fell behind on to the newest keyframe, could send a head and then another part's head,
    /// a part a browser shows as a blank picture and a client reads as a broken JPEG. One buffer
    /// a part, a viewer can only be moved between parts. The JPEG's bytes are not copied.
    public func addPartHeaders(_ headers: @escaping @Sendable (UInt64?) -> [(String, String)]) throws(MediaError) {
        guard let pad = gst_element_get_static_pad(pointer, "src") else {
            throw .missingNamedElement(name: name, pipeline: "(the preview)")
        }
        defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
        let box = Unmanaged.passRetained(PartJoiner(headers)).toOpaque()
        gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, partJoinProbe, box) {
            if let box = $0 { Unmanaged<PartJoiner>.fromOpaque(box).release() }
        }
    }
}

/// The part being put together, on the muxer's streaming thread only (the probe's one caller).
private final class PartJoiner: @unchecked Sendable {
    let headers: @Sendable (UInt64?) -> [(String, String)]
    /// multipartmux's head of the part under way, and its JPEG and closing line so far.
    var head: [UInt8] = []
    var body: UnsafeMutablePointer<GstBuffer>?
    var bodyLength = 0
    var expected = 0
    var pts: UInt64?

    init(_ headers: @escaping @Sendable (UInt64?) -> [(String, String)]) { self.headers = headers }
    deinit { drop() }

    func drop() {
        if let body { gst_buffer_unref(body) }
        body = nil
        bodyLength = 0
    }
}

private let partJoinProbe: GstPadProbeCallback = { _, info, context in
    guard let info, let context, let data = info.pointee.data else { return GST_PAD_PROBE_OK }
    let joiner = Unmanaged<PartJoiner>.fromOpaque(context).takeUnretainedValue()
    let buffer = data.assumingMemoryBound(to: GstBuffer.self)
    if buffer.pointee.mini_object.flags & GST_BUFFER_FLAG_DELTA_UNIT.rawValue == 0,
        let (head, length) = partHead(of: buffer)
    {
        // A new part: whatever was under way is incomplete (multipartmux never does that).
        joiner.drop()
        joiner.head = head
        joiner.expected = length + 2
        joiner.pts = buffer.pointee.pts == GstClockTime.max ? nil : UInt64(buffer.pointee.pts)
        let rest = Int(gst_buffer_get_size(buffer)) - head.count
        if rest > 0 {
            joiner.body = gst_buffer_copy_region(buffer, GST_BUFFER_COPY_MEMORY, gsize(head.count), gsize(rest))
            joiner.bodyLength = rest
        }
        gst_buffer_unref(buffer)
    } else if !joiner.head.isEmpty {
        let size = Int(gst_buffer_get_size(buffer))
        joiner.body = joiner.body.map { gst_buffer_append($0, buffer) } ?? buffer
        joiner.bodyLength += size
    } else {
        return GST_PAD_PROBE_OK
    }
    guard joiner.bodyLength >= joiner.expected, let part = joinedPart(joiner) else {
        info.pointee.data = nil
        return GST_PAD_PROBE_DROP
    }
    info.pointee.data = UnsafeMutableRawPointer(part)
    return GST_PAD_PROBE_OK
}

/// multipartmux's head of a part (`--boundary\r\nName: value\r\n…\r\n\r\n`) at the start of
/// `buffer`, and the Content-Length it gives; nil for anything else.
private func partHead(of buffer: UnsafeMutablePointer<GstBuffer>) -> (head: [UInt8], length: Int)? {
    var bytes = [UInt8](repeating: 0, count: min(512, Int(gst_buffer_get_size(buffer))))
    let got = Int(gst_buffer_extract(buffer, 0, &bytes, gsize(bytes.count)))
    guard got >= 4, bytes.starts(with: [45, 45]),
        let end = (0...(got - 4)).first(where: { bytes[$0..<$0 + 4] == [13, 10, 13, 10] })
    else { return nil }
    let head = Array(bytes[0..<end + 4])
    let text = String(decoding: head, as: UTF8.self)
    guard let length = text.firstMatch(of: /Content-Length: (\d+)/).flatMap({ Int($0.1) }) else { return nil }
    return (head, length)
}

/// The part under way as one buffer: its head with the caller's lines, then its JPEG and closing
/// line, stamped with the JPEG's time.
private func joinedPart(_ joiner: PartJoiner) -> UnsafeMutablePointer<GstBuffer>? {
    let lines = joiner.headers(joiner.pts)
    let head = Array(joiner.head.dropLast(2)) + Array(lines.map { "\($0.0): \($0.1)\r\n" }.joined().utf8) + [13, 10]
    joiner.head = []
    guard let body = joiner.body, let part = gst_buffer_new_allocate(nil, gsize(head.count), nil) else {
        joiner.drop()
        return nil
    }
    joiner.body = nil
    joiner.bodyLength = 0
    _ = head.withUnsafeBytes { gst_buffer_fill(part, 0, $0.baseAddress, gsize($0.count)) }
    part.pointee.pts = joiner.pts.map { GstClockTime($0) } ?? GstClockTime.max
    part.pointee.dts = part.pointee.pts
    part.pointee.duration = body.pointee.duration
    return gst_buffer_append(part, body)
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
