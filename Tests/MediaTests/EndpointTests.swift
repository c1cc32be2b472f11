// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import CGStreamer
import Foundation
import Testing
@testable import Media

/// camstamp's own failures at the ends where Swift meets a pipeline: each a typed error of its
/// own, never a nil or a bus error made up for the occasion.
@Suite struct EndpointTests {
    /// A 64x48 I420 frame whose buffer holds 100 bytes, not the 4608 the format needs.
    func truncatedFrame() throws -> VideoFrame {
        let whole = try VideoFrame(width: 64, height: 48, format: .i420)
        return VideoFrame(adopting: gst_buffer_new_allocate(nil, 100, nil), caps: whole.caps, info: whole.info)
    }

    @Test func aFrameThatCannotBeMappedThrowsInsteadOfGivingNil() throws {
        let frame = try truncatedFrame()
        #expect(throws: MediaError.unmappableFrame(format: "I420", width: 64, height: 48)) {
            try frame.withMapped { $0.fill(0) }
        }
        #expect(
            MediaError.unmappableFrame(format: "I420", width: 64, height: 48).description
                == "cannot map the pixels of a 64x48 I420 frame: its buffer does not hold the whole frame")
    }

    @Test func marksOnAFrameThatCannotBeMappedAreAnErrorNotASkip() throws {
        let frame = try truncatedFrame()
        let pixels = [UInt8](repeating: 255, count: 4 * 4 * 4)
        let image = try pixels.withUnsafeBytes {
            try OverlayImage(width: 4, height: 4, stride: 16, premultipliedBGRA: $0)
        }
        #expect(throws: MediaError.unmappableFrame(format: "I420", width: 64, height: 48)) {
            try OverlayComposition([.init(image: image, x: 0, y: 0)]).blend(into: frame)
        }
    }

    @Test func somethingOtherThanRawVideoAtTheAppsinkIsSaidSo() throws {
        let source = try FrameSource(
            pipeline: Pipeline(
                "videotestsrc num-buffers=1 ! video/x-raw,width=32,height=32 ! jpegenc ! appsink name=frames"),
            live: false)
        try source.start()
        defer { source.stop() }
        do {
            let pulled = try source.pull(timeout: .seconds(10))
            Issue.record("a JPEG was taken for a frame: \(pulled)")
        } catch {
            guard case .notRawVideo(let element, let caps) = error else {
                Issue.record("expected notRawVideo, got \(error)")
                return
            }
            #expect(element == "frames")
            #expect(caps.hasPrefix("image/jpeg"), "\(caps)")
        }
    }

    @Test func anOutputThatNoLongerTakesFramesSaysWhy() throws {
        let output = try FrameOutput(pipeline: Pipeline("appsrc name=stamped ! fakesink"), block: false)
        try output.start()
        // Finished and stopped: appsrc is flushing, and the bus has nothing to say.
        try output.finish()
        let frame = try VideoFrame(width: 32, height: 32, format: .i420)
        #expect(throws: MediaError.outputStopped(element: "stamped", flow: "flushing")) { try output.push(frame) }
    }

    @Test func theEndpointsAreSetAsTheRulesSay() throws {
        let pipeline = try Pipeline("appsrc name=stamped ! fakesink videotestsrc ! appsink name=frames")
        _ = try FrameSource(pipeline: pipeline, live: true, maxBuffers: 2)
        _ = try FrameOutput(pipeline: pipeline, maxBuffers: 8, block: false)
        let sink = try pipeline.element(named: "frames"), source = try pipeline.element(named: "stamped")
        #expect(sink.string("max-buffers") == "2")
        #expect(sink.string("drop") == "TRUE")
        #expect(sink.string("enable-last-sample") == "FALSE")
        #expect(
            source.string("format") == "((GstFormat) GST_FORMAT_TIME)"
                || source.string("format")?.contains("time") == true)
        #expect(source.string("max-buffers") == "8")
        #expect(source.string("max-bytes") == "0")
        #expect(source.string("block") == "FALSE")
    }
}

/// A template shipped in the checkout's `pipelines/` (what the tool itself runs), not a copy.
func shippedTemplate(_ name: String) throws -> PipelineTemplate {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    return try PipelineTemplate(contentsOf: root.appendingPathComponent("pipelines/\(name).pipeline"))
}
