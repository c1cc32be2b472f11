// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import CGStreamer
import Foundation
import Synchronization
import Testing
@testable import Media

/// The camera's MJPEG parts as they reach multisocketsink (`Element.addPartHeaders`).
@Suite struct PartHeadersTests {
    /// multisocketsink moves a viewer that fell behind on to the newest buffer that is not a delta
    /// unit. Every buffer after the muxer must be one whole part, a keyframe: head (with the added
    /// lines), the JPEG its Content-Length gives, the closing line. multipartmux alone pushed a
    /// part as three buffers, and a viewer moved on after its head got another part's head.
    @Test func eachPartLeavesTheMuxerAsOneWholeBuffer() throws {
        let pipeline = try Pipeline(
            "videotestsrc num-buffers=12 ! video/x-raw,width=320,height=240 ! jpegenc "
                + "! multipartmux name=mux boundary=camstampframe ! fakesink name=out sync=false")
        defer { pipeline.stop() }
        let counter = Mutex(0)
        try pipeline.element(named: "mux").addPartHeaders { pts in
            let number = counter.withLock { value in
                value += 1
                return value
            }
            return [("X-Frame", String(number)), ("X-Pts", pts.map { String($0) } ?? "none")]
        }
        let seen = Box()
        let out = try pipeline.element(named: "out")
        let pad = try #require(gst_element_get_static_pad(out.pointer, "sink"))
        defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
        let context = Unmanaged.passUnretained(seen).toOpaque()
        gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, collectProbe, context, nil)
        try pipeline.setState(.playing)
        guard case .endOfStream = pipeline.waitForEndOrError(timeout: .seconds(20)) else {
            Issue.record("the pipeline did not reach its end")
            return
        }
        let buffers = seen.buffers.withLock { $0 }
        #expect(buffers.count == 12, "\(buffers.count) buffers for 12 parts")
        for (index, buffer) in buffers.enumerated() {
            let bytes = buffer.bytes, delta = buffer.delta
            #expect(!delta, "buffer \(index) is a delta unit")
            let marker = Array("\r\n\r\n".utf8)
            let end = try #require(
                (0..<max(0, bytes.count - 3)).first { bytes[$0..<$0 + 4].elementsEqual(marker) },
                "buffer \(index) has no part head")
            let head = String(decoding: bytes[0..<end], as: UTF8.self)
            #expect(head.hasPrefix("--camstampframe\r\nContent-Type: image/jpeg\r\n"), "\(head)")
            #expect(head.contains("\r\nX-Frame: \(index + 1)") && head.contains("\r\nX-Pts: \(buffer.pts)"), "\(head)")
            let length = try #require(head.firstMatch(of: /Content-Length: (\d+)/).flatMap { Int($0.1) }, "\(head)")
            let body = bytes[(end + 4)...]
            #expect(body.count == length + 2, "buffer \(index): \(body.count) bytes after a head of \(length)")
            #expect(body.prefix(2).elementsEqual([0xFF, 0xD8]) && body.suffix(4).elementsEqual([0xFF, 0xD9, 13, 10]))
        }
    }
}

/// What reached the sink, buffer by buffer.
private final class Box: Sendable {
    struct Seen: Sendable {
        var bytes: [UInt8]
        var delta: Bool
        var pts: UInt64
    }
    let buffers = Mutex<[Seen]>([])
}

private let collectProbe: GstPadProbeCallback = { _, info, context in
    guard let info, let context, let data = info.pointee.data else { return GST_PAD_PROBE_OK }
    let box = Unmanaged<Box>.fromOpaque(context).takeUnretainedValue()
    let buffer = data.assumingMemoryBound(to: GstBuffer.self)
    var bytes = [UInt8](repeating: 0, count: Int(gst_buffer_get_size(buffer)))
    _ = gst_buffer_extract(buffer, 0, &bytes, gsize(bytes.count))
    let delta = buffer.pointee.mini_object.flags & GST_BUFFER_FLAG_DELTA_UNIT.rawValue != 0
    box.buffers.withLock { $0.append(.init(bytes: bytes, delta: delta, pts: UInt64(buffer.pointee.pts))) }
    return GST_PAD_PROBE_OK
}
