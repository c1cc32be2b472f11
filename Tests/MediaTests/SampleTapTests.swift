// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
@testable import Media

/// A network tap ended before anything came through it (`SampleTap.endIfNothingCame`, a stream
/// stopped right after its start): its muxer must take nothing more, so it never fails the stream.
@Suite struct SampleTapTests {
    /// The stream's network branch as `Publishing` builds it (the leaky queues, the muxer, the
    /// appsink), with the pictures held at `gate` and a live sound.
    func branch(_ muxer: String) -> String {
        let leaky = "queue leaky=downstream max-size-buffers=0 max-size-bytes=0 max-size-time=2000000000"
        return
            "videotestsrc is-live=true ! video/x-raw,width=320,height=240,framerate=30/1 ! valve name=gate drop=true drop-mode=forward-sticky-events "
            + "! x264enc speed-preset=ultrafast tune=zerolatency key-int-max=30 ! h264parse config-interval=-1 "
            + "! video/x-h264,stream-format=byte-stream,alignment=au ! \(leaky) ! h264parse ! \(muxer) name=mux ! appsink name=relay "
            + "audiotestsrc name=sound is-live=true ! audio/x-raw,format=F32LE,layout=interleaved,rate=48000,channels=2 "
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
        let pipeline = try Pipeline(branch(muxer))
        let tap = try SampleTap(pipeline: pipeline, name: "relay")
        try pipeline.setState(.playing)
        defer { pipeline.stop() }
        try pipeline.element(named: "sound").sendEndOfStream()
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
}
