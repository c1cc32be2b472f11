// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import CGStreamer
import Foundation
import Testing
@testable import Media

@Suite struct LiveOutputTests {
    @Test func aPulledFrameIsWritableInPlaceWithoutACopy() throws {
        let description =
            "videotestsrc is-live=true ! video/x-raw,format=I420,width=320,height=240 ! appsink name=frames"
        for exclusive in [false, true] {
            let source = try FrameSource(pipeline: Pipeline(description), live: true, exclusiveFrames: exclusive)
            try source.start()
            defer { source.stop() }
            var writable: [Bool] = []
            while writable.count < 5 {
                switch try source.pull(timeout: .seconds(5)) {
                case .frame(let frame): writable.append(frame.isWritable)
                case .timeout: continue
                case .endOfStream:
                    Issue.record("unexpected end")
                    return
                }
            }
            // appsink holds the sample it handed out last: only a frame handed out one pull late
            // is ours alone, so blending into it needs no copy.
            #expect(writable == Array(repeating: exclusive, count: 5), "exclusive \(exclusive): \(writable)")
        }
    }

    @Test func aSlowOutputDropsFramesInsteadOfQueueingThem() throws {
        // identity sleeps 50 ms per frame: a consumer at 20 fps fed as fast as we can push.
        let output = try FrameOutput(
            pipeline: Pipeline("appsrc name=stamped ! identity sleep-time=50000 ! fakesink sync=false"),
            maxBuffers: 4, block: false)
        try output.start()
        var accepted = 0, dropped = 0
        let start = ContinuousClock.now
        for index in 0..<60 {
            let frame = try VideoFrame(width: 64, height: 48, format: .i420)
            frame.setTimestamps(pts: UInt64(index) * 33_333_333, duration: 33_333_333)
            if try output.push(frame) { accepted += 1 } else { dropped += 1 }
        }
        // Pushing never waited for the slow consumer...
        #expect(ContinuousClock.now - start < .seconds(1))
        // ...and what it could not take was dropped, not queued.
        #expect(dropped > 40, "accepted \(accepted), dropped \(dropped)")
        #expect(accepted >= 4)
        try output.finish(timeout: .seconds(10))
    }

    @Test func aBlockingOutputTakesEveryFrame() throws {
        let output = try FrameOutput(
            pipeline: Pipeline("appsrc name=stamped ! identity sleep-time=2000 ! fakesink sync=false"),
            maxBuffers: 2, block: true)
        try output.start()
        for index in 0..<30 {
            let frame = try VideoFrame(width: 64, height: 48, format: .i420)
            frame.setTimestamps(pts: UInt64(index) * 33_333_333, duration: 33_333_333)
            #expect(try output.push(frame))
        }
        try output.finish(timeout: .seconds(10))
    }
}

@Suite struct CaptureSourceTests {
    @Test func aCameraIsAskedForTheSizeAndRateRawOrMJPEG() {
        let fragment = CaptureSource.v4l2(device: "/dev/video0").fragment(
            for: CaptureFormat(width: 1280, height: 720, fps: 30)
        ).text
        #expect(
            fragment
                == #"v4l2src name="camera" device="/dev/video0" ! capsfilter caps="video/x-raw,width=1280,height=720,framerate=30/1;image/jpeg,width=1280,height=720,framerate=30/1" ! decodebin"#
        )
        let free = CaptureSource.v4l2(device: "/dev/video0").fragment(for: CaptureFormat()).text
        #expect(free == #"v4l2src name="camera" device="/dev/video0" ! decodebin"#)
    }

    @Test func theCameraFragmentParses() throws {
        // v4l2src is installed here even without a camera: the description must be valid launch syntax.
        let template = try shippedTemplate("capture")
        _ = try FrameSource.capture(
            .v4l2(device: "/dev/video0"), format: CaptureFormat(width: 640, height: 480, fps: 15), template: template)
    }
}

@Suite struct LiveStreamTests {
    /// One pipeline, capture to output, with a consumer slower than the camera (40 ms a frame at
    /// 30 fps): the marks see frames whose pixels are theirs alone, although the capture ends in
    /// videorate (which holds the frame it pushes until the push returns: marked on the capture's
    /// thread, every frame's pixels were copied before they could be written), and the camera is
    /// never held up: frames the encoder cannot take yet are left out before its queue.
    @Test func framesAreMarkedInPlaceAndASlowEncoderNeverHoldsUpTheCamera() throws {
        let capture =
            "videotestsrc is-live=true ! video/x-raw,format=I420,width=320,height=240,framerate=30/1 ! videorate drop-only=true ! video/x-raw,framerate=30/1 ! appsink name=frames"
        let output = "identity name=pace ! queue name=mark ! identity sleep-time=40000 ! fakesink sync=false"
        let stream = try LiveStream(capture: capture, output: output, backlog: 2)
        let lock = NSLock()
        var exclusive: [Bool] = [], seen = 0, behind = 0
        try stream.start(
            admit: { _, encoderIsBehind in
                lock.withLock {
                    seen += 1
                    if encoderIsBehind { behind += 1 }
                }
                return !encoderIsBehind
            },
            mark: { frame, _, _ in
                lock.withLock { exclusive.append(frame.pixelsAreExclusive) }
                return .pass
            }, accepts: { _, _, _ in nil }, ending: {})
        let deadline = ContinuousClock.now + .seconds(20)
        while lock.withLock({ exclusive.count }) < 20 && ContinuousClock.now < deadline {
            if let result = stream.poll(timeout: .milliseconds(100)) {
                Issue.record("\(result)")
                break
            }
        }
        try stream.finish(timeout: .seconds(10))
        lock.withLock {
            // The first frames may find the queue empty and its thread waiting; after them, each
            // frame waits for the one before it.
            #expect(exclusive.count >= 20 && exclusive.dropFirst(2).allSatisfy { $0 }, "\(exclusive)")
            // 20 frames marked at 25 a second took about 0.8 s, in which the camera made about
            // 24: it went on at its own pace, and what the encoder could not take was left out.
            #expect(
                behind > 0 && seen >= exclusive.count + behind,
                "seen \(seen), behind \(behind), marked \(exclusive.count)")
        }
    }
}

@Suite struct LiveStreamEndTests {
    /// The end goes in (Ctrl-C) before the capture has sent anything (a camera still opening,
    /// held here at `gate`); then the capture starts: its stream-start reopens the pads the end
    /// went through, and its first frame reached the marks, was counted as written and never
    /// written (the muxers had finished), so the job kept a recording with no frame. Nothing
    /// after the end reaches the marks. (The encoder after `mark`, as in the stream: with a sink
    /// right after it, the queue refused the new stream's events by itself.)
    @Test func noFrameReachesTheMarksAfterTheEnd() throws {
        let capture =
            "videotestsrc is-live=true ! video/x-raw,format=I420,width=320,height=240,framerate=30/1 ! valve name=gate drop=true ! appsink name=frames"
        let output =
            "identity name=pace sync=true ! queue name=mark ! videoconvert ! x264enc tune=zerolatency ! fakesink sync=false"
        let stream = try LiveStream(capture: capture, output: output, backlog: 2)
        defer { stream.abort() }
        let lock = NSLock()
        var marked = 0, ends = 0
        try stream.start(
            admit: { _, _ in true },
            mark: { _, _, _ in
                lock.withLock { marked += 1 }
                return .pass
            }, accepts: { _, _, _ in nil }, ending: { lock.withLock { ends += 1 } })
        // The end as `finish` sends it, at pace's sink pad, without its wait and stop.
        let pace = try stream.pipeline.element(named: "pace")
        let pad = try #require(gst_element_get_static_pad(pace.pointer, "sink"))
        _ = gst_pad_send_event(pad, gst_event_new_eos())
        gst_object_unref(UnsafeMutableRawPointer(pad))
        #expect(stream.poll(timeout: .seconds(5)) == .endOfStream)
        try stream.pipeline.element(named: "gate").set("drop", false)
        Thread.sleep(forTimeInterval: 0.5)
        lock.withLock {
            #expect(ends == 1)
            #expect(marked == 0, "\(marked) frames marked after the end")
        }
    }
}
