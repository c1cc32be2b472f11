// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import CGStreamer
import Foundation
import Synchronization
import Testing
@testable import Media

/// A network tap ended before anything came through it (`SampleTap.endIfNothingCame`, a stream
/// stopped right after its start): its muxer must take nothing more, so it never fails the stream.
@Suite struct SampleTapTests {
    /// The stream's network branch as `Publishing` builds it (the leaky queues, the muxer, the
    /// appsink), with the pictures held at `gate` and a live sound.
    /// `soundEnds`: the sound ends before its first buffer (`num-buffers=0`), not when told.
    func branch(_ muxer: String, soundEnds: Bool = false) -> String {
        let leaky = "queue leaky=downstream max-size-buffers=0 max-size-bytes=0 max-size-time=2000000000"
        return
            "videotestsrc is-live=true ! video/x-raw,width=320,height=240,framerate=30/1 ! valve name=gate drop=true drop-mode=forward-sticky-events "
            + "! x264enc speed-preset=ultrafast tune=zerolatency key-int-max=30 ! h264parse config-interval=-1 "
            + "! video/x-h264,stream-format=byte-stream,alignment=au ! \(leaky) name=pictures ! h264parse ! \(muxer) name=mux ! appsink name=relay "
            + "audiotestsrc name=sound is-live=true\(soundEnds ? " num-buffers=0" : "") ! audio/x-raw,format=F32LE,layout=interleaved,rate=48000,channels=2 "
            + "! audioconvert ! avenc_aac bitrate=128000 ! aacparse ! \(leaky) ! mux."
    }

    /// The sound ends before its first buffer (a Ctrl-C right after the start), so its encoder
    /// never makes anything and the muxer's sound pad gets its end with no caps; then the tap is
    /// ended, and the pictures that were on their way reach the muxer. mpegtsmux failed on them
    /// ("Could not create handler for stream"); flvmux's refusal stopped the pictures' branch
    /// ("Internal data stream error"): either made a stream with SRT or RTMP beside a file, stopped
    /// in its first ~100 ms, exit 1.
    @Test(arguments: ["mpegtsmux alignment=7", "flvmux streamable=true"])
    func anIdleTapsMuxerTakesNothingMoreOnceItIsEnded(muxer: String) throws {
        // The sound ends before its first buffer whatever the machine's load: told to end once
        // playing, a live source on a busy machine had sometimes made a buffer or two first,
        // whose sound the muxer then sent through the tap (not the case tested).
        let pipeline = try Pipeline(branch(muxer, soundEnds: true))
        let tap = try SampleTap(pipeline: pipeline, name: "relay")
        try pipeline.setState(.playing)
        defer { pipeline.stop() }
        // The sound's end must have reached the muxer (through two queues) before the tap is
        // ended: that is the case tested. A fixed wait was too short on a loaded machine.
        let mux = try pipeline.element(named: "mux")
        let deadline = ContinuousClock.now + .seconds(10)
        while mux.sinkPadsAtEnd == 0 && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(mux.sinkPadsAtEnd == 1, "the sound's end did not reach the muxer")
        #expect(tap.endIfNothingCame(), "the tap had carried something before the pictures were let through")
        try pipeline.element(named: "gate").set("drop", false)
        // Well past the muxer's live timeout (its latency), with a keyframe through x264.
        let error = pipeline.waitForError(timeout: .seconds(1.5))
        #expect(error == nil, "\(error.map { "\($0)" } ?? "")")
        guard case .endOfStream = tap.pull(timeout: .milliseconds(100)) else {
            Issue.record("the ended tap gave something other than its end")
            return
        }
    }

    /// The muxer was sending its first buffer when the tap was ended: that push failed on the
    /// ended appsink, and the muxer's pads kept the failure. A format or tag event let through to
    /// it afterwards (a picture's tags, caps once the pictures start) came back as that failure and
    /// stopped the pictures' branch: flvmux, "Internal data stream error", exit 1, one stream in a
    /// few dozen under load. The muxer's output is held here until the tap has ended, and a tag is
    /// sent down the pictures' branch after it, which makes that order certain.
    @Test(arguments: ["mpegtsmux alignment=7", "flvmux streamable=true"])
    func aMuxerCaughtSendingWhenTheTapEndsFailsNothing(muxer: String) throws {
        let pipeline = try Pipeline(branch(muxer))
        let tap = try SampleTap(pipeline: pipeline, name: "relay")
        let mux = try pipeline.element(named: "mux")
        let output = try #require(gst_element_get_static_pad(mux.pointer, "src"))
        defer { gst_object_unref(UnsafeMutableRawPointer(output)) }
        let held = HeldFlag()
        // Its first item, whatever it is (the stream's start, then its caps, then data).
        let first =
            GST_PAD_PROBE_TYPE_BUFFER.rawValue | GST_PAD_PROBE_TYPE_BUFFER_LIST.rawValue
            | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM.rawValue
        let hold = gst_pad_add_probe(
            output, GstPadProbeType(GST_PAD_PROBE_TYPE_BLOCK.rawValue | first), noteHeld,
            Unmanaged.passUnretained(held).toOpaque(), nil)
        try pipeline.element(named: "gate").set("drop", false)
        try pipeline.setState(.playing)
        defer { pipeline.stop() }
        let deadline = ContinuousClock.now + .seconds(10)
        while !held.value.load(ordering: .acquiring) && ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        let wasHeld = held.value.load(ordering: .acquiring)
        try #require(wasHeld, "the muxer never sent anything")
        #expect(tap.endIfNothingCame(), "the tap had carried something while the muxer was held")
        gst_pad_remove_probe(output, hold)
        // The held push now meets the ended appsink; then a tag comes down the pictures' branch.
        Thread.sleep(forTimeInterval: 0.2)
        let queue = try #require(gst_element_get_static_pad(try pipeline.element(named: "pictures").pointer, "sink"))
        defer { gst_object_unref(UnsafeMutableRawPointer(queue)) }
        let tags = try #require(gst_tag_list_new_from_string("taglist, bitrate=(uint)1000000"))
        #expect(gst_pad_send_event(queue, gst_event_new_tag(tags)) != 0)
        let error = pipeline.waitForError(timeout: .seconds(1.5))
        #expect(error == nil, "\(error.map { "\($0)" } ?? "")")
    }
}

/// Set once the muxer's output has been held (on its streaming thread, read on the test's).
private final class HeldFlag: Sendable {
    let value = Atomic(false)
}

private let noteHeld: GstPadProbeCallback = { _, _, context in
    if let context {
        Unmanaged<HeldFlag>.fromOpaque(context).takeUnretainedValue().value.store(true, ordering: .releasing)
    }
    return GST_PAD_PROBE_OK
}
