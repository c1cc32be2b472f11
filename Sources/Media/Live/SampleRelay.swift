// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CGStreamer
internal import CGstApp
internal import CGstVideo
import Synchronization

/// GST_CLOCK_TIME_NONE, whose C spelling (-1 in an unsigned type) does not import.
let noTime = GstClockTime.max

/// One encoded buffer and its caps, taken from an appsink: the unit passed from the one encode to
/// the pipelines that publish it (a network connection, an RTSP viewer's media).
public final class EncodedSample: @unchecked Sendable {
    let sample: OpaquePointer

    init(adopting sample: OpaquePointer) { self.sample = sample }
    deinit { gst_sample_unref(sample) }

    var buffer: UnsafeMutablePointer<GstBuffer>? { gst_sample_get_buffer(sample) }
    var caps: UnsafeMutablePointer<GstCaps>? { gst_sample_get_caps(sample) }

    /// A point a decoder can start from: a keyframe, or any buffer of a stream without deltas (audio).
    public var isKeyframe: Bool {
        guard let buffer else { return false }
        return buffer.pointee.mini_object.flags & GST_BUFFER_FLAG_DELTA_UNIT.rawValue == 0
    }

    /// Presentation time (decode time when there is none), nanoseconds.
    public var time: UInt64? {
        guard let buffer else { return nil }
        let time = buffer.pointee.pts != noTime ? buffer.pointee.pts : buffer.pointee.dts
        return time == noTime ? nil : UInt64(time)
    }

    /// `time` as a running time, by the sample's segment: comparable between the taps of one
    /// pipeline, where the times themselves need not be (x264enc's start 1000 hours on).
    var runningTime: UInt64? {
        guard let time, let segment = gst_sample_get_segment(sample), segment.pointee.format == GST_FORMAT_TIME else {
            return nil
        }
        let running = gst_segment_to_running_time(segment, GST_FORMAT_TIME, GstClockTime(time))
        return running == noTime ? nil : UInt64(running)
    }
}

/// The end of a branch of the encoding pipeline: `appsink name=…` whose buffers are taken one by one.
public final class SampleTap: @unchecked Sendable {
    private let element: Element
    private var appsink: UnsafeMutablePointer<GstAppSink> { element.appSink }

    /// Takes the appsink `name` of `pipeline` (before it starts): never paced by the clock, never
    /// holding the tee it hangs from, the oldest buffers dropped when nobody takes them.
    public init(pipeline: Pipeline, name: String) throws(MediaError) {
        element = try pipeline.element(named: name)
        try element.configure(AppSinkSettings.tap)
        // Notes the first buffer, then goes.
        if let pad = gst_element_get_static_pad(element.pointer, "sink") {
            gst_pad_add_probe(
                pad, GST_PAD_PROBE_TYPE_BUFFER, firstBufferProbe, Unmanaged.passRetained(received).toOpaque()
            ) {
                if let context = $0 { Unmanaged<AnyObject>.fromOpaque(context).release() }
            }
            gst_object_unref(UnsafeMutableRawPointer(pad))
        }
    }

    /// Whether a buffer ever reached the appsink.
    private let received = Flag()

    /// Ends a tap that has received nothing yet, right here, and cuts off the element that feeds
    /// it (its muxer): from then on its sink pads drop all that comes down, data and events.
    /// The end alone: flvmux that got it on every pad before any data spun forever and never
    /// passed it on. The data: pictures still on their way when the stream ends reached a muxer
    /// whose sound had ended before its encoder made anything (no caps on that pad), and
    /// mpegtsmux failed on them ("Could not create handler for stream"), flvmux pushed them into
    /// this ended appsink and the queue before it stopped ("Internal data stream error"): either
    /// failed the whole stream; a muxer caught sending as the tap ended failed on the next format
    /// or tag (`dropDownstream`). A tap that has carried data ends with its branch, as it should.
    /// Returns whether it was ended here.
    @discardableResult
    public func endIfNothingCame() -> Bool {
        guard !received.value.load(ordering: .acquiring),
            let pad = gst_element_get_static_pad(element.pointer, "sink")
        else { return false }
        defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
        if let peer = gst_pad_get_peer(pad) {
            if let feeder = gst_pad_get_parent_element(peer) {
                cutOff(feeder)
                gst_object_unref(UnsafeMutableRawPointer(feeder))
            }
            gst_object_unref(UnsafeMutableRawPointer(peer))
        }
        _ = gst_pad_send_event(pad, gst_event_new_eos())
        return true
    }

    /// Drops all that comes down to every sink pad of `element`, before its own handling: what
    /// it refuses or fails on never reaches the queues that feed it (they take a drop as a push).
    /// Queries still reach it.
    private func cutOff(_ element: UnsafeMutablePointer<GstElement>) {
        let types = GstPadProbeType(
            GST_PAD_PROBE_TYPE_BUFFER.rawValue | GST_PAD_PROBE_TYPE_BUFFER_LIST.rawValue
                | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM.rawValue)
        forEachPad(of: element, sink: true) { gst_pad_add_probe($0, types, dropDownstream, nil, nil) }
    }

    public enum Pull: Sendable {
        case sample(EncodedSample)
        case timeout
        case endOfStream
    }

    /// Asks the encoder upstream for a keyframe now (a viewer who just joined can start on it
    /// instead of waiting for the next one).
    public func requestKeyframe() {
        guard let event = gst_video_event_new_upstream_force_key_unit(noTime, 1, 0) else { return }
        gst_element_send_event(element.pointer, event)
    }

    /// The next buffer, waiting up to `timeout`.
    public func pull(timeout: Duration) -> Pull {
        if let sample = gst_app_sink_try_pull_sample(appsink, GstClockTime(timeout.nanoseconds)) {
            return .sample(EncodedSample(adopting: sample))
        }
        return gst_app_sink_is_eos(appsink) != 0 ? .endOfStream : .timeout
    }
}

/// What `SampleFeed.onKeyframeRequest` calls, kept alive by its pad probe.
private final class KeyframeRequest: Sendable {
    let handler: @Sendable () -> Void
    init(_ handler: @escaping @Sendable () -> Void) { self.handler = handler }
}

/// A flag set on a streaming thread, read on another.
private final class Flag: Sendable {
    let value = Atomic(false)
}

private let firstBufferProbe: GstPadProbeCallback = { _, _, context in
    guard let context else { return GST_PAD_PROBE_REMOVE }
    Unmanaged<Flag>.fromOpaque(context).takeUnretainedValue().value.store(true, ordering: .releasing)
    return GST_PAD_PROBE_REMOVE
}

/// Everything that goes down into the muxer: buffers, lists and every event, formats and tags
/// too. A muxer caught sending when its tap ended keeps that push's failure on all its pads and
/// answers each event with it: flvmux's "error" came back on the pictures' next tag or caps and
/// stopped their branch. A dropped sticky event stays pending upstream, so nothing fails there.
private let dropDownstream: GstPadProbeCallback = { _, _, _ in GST_PAD_PROBE_DROP }

/// The start of a publishing pipeline: `appsrc name=…` fed with samples from a `SampleTap`.
public final class SampleFeed: @unchecked Sendable {
    private let element: Element
    private var appsrc: UnsafeMutablePointer<GstAppSrc> { element.appSource }
    private let caps = CapsTracker()

    /// Feeds the appsrc `name` of a network relay's `pipeline` (before it starts): live, the
    /// oldest buffers dropped while a connection is being made.
    public convenience init(pipeline: Pipeline, name: String) throws(MediaError) {
        let element = try pipeline.element(named: name)
        try element.configure(AppSrcSettings.relay)
        try self.init(element: element)
    }

    /// Feeds `element`, set up by whoever made it (the RTSP server's media) but for its format.
    init(element: Element) throws(MediaError) {
        self.element = element
        // appsrc defaults to format=bytes; these buffers carry times.
        try element.set("format", "time")
    }

    /// Pushes a sample's buffer. `timeOrigin` is subtracted from its times and `start` added (a
    /// publishing pipeline restarted mid-stream starts again from zero; a viewer's media from where
    /// its clock is); nil clears them, for an appsrc that stamps buffers itself (`do-timestamp`).
    /// Returns false when the pipeline no longer takes data.
    @discardableResult
    public func push(_ sample: EncodedSample, timeOrigin: UInt64?, start: UInt64 = 0) -> Bool {
        guard let source = sample.buffer else { return true }
        if let sampleCaps = sample.caps { caps.update(sampleCaps, on: appsrc) }
        // A shallow copy: the memory is shared, only the times differ from the other branches'.
        guard let buffer = gst_buffer_copy(source) else { return true }
        func shifted(_ time: GstClockTime) -> GstClockTime {
            guard let timeOrigin, time != noTime else { return noTime }
            return (UInt64(time) >= timeOrigin ? time - GstClockTime(timeOrigin) : 0) + GstClockTime(start)
        }
        buffer.pointee.pts = shifted(buffer.pointee.pts)
        buffer.pointee.dts = shifted(buffer.pointee.dts)
        return gst_app_src_push_buffer(appsrc, buffer) == GST_FLOW_OK
    }

    public func endOfStream() {
        gst_app_src_end_of_stream(appsrc)
    }

    /// Calls `handler` whenever the pipeline downstream asks for a keyframe: a WebRTC
    /// receiver's PLI or FIR, which the RTP session turns into an upstream force-key-unit event.
    /// The appsrc cannot make one; the encode upstream of the tap can (`SampleTap.requestKeyframe`).
    public func onKeyframeRequest(_ handler: @escaping @Sendable () -> Void) {
        guard let pad = gst_element_get_static_pad(element.pointer, "src") else { return }
        defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
        let box = Unmanaged.passRetained(KeyframeRequest(handler) as AnyObject).toOpaque()
        gst_pad_add_probe(
            pad, GST_PAD_PROBE_TYPE_EVENT_UPSTREAM,
            { _, info, context in
                guard let info, let context, let data = info.pointee.data,
                    gst_video_event_is_force_key_unit(data.assumingMemoryBound(to: GstEvent.self)) != 0,
                    let request = Unmanaged<AnyObject>.fromOpaque(context).takeUnretainedValue() as? KeyframeRequest
                else { return GST_PAD_PROBE_OK }
                request.handler()
                return GST_PAD_PROBE_OK
            }, box, { if let context = $0 { Unmanaged<AnyObject>.fromOpaque(context).release() } })
    }

    /// The running time of the appsrc's pipeline now (its clock's time less its base time); nil
    /// before it has a clock (not playing yet).
    var runningTime: UInt64? {
        guard let clock = gst_element_get_clock(element.pointer) else { return nil }
        defer { gst_object_unref(UnsafeMutableRawPointer(clock)) }
        let now = gst_clock_get_time(clock), base = gst_element_get_base_time(element.pointer)
        return now != noTime && now >= base ? UInt64(now - base) : nil
    }
}
