// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CGStreamer
internal import CGstApp
internal import CGstVideo
import Foundation
internal import ISOBMFF

/// What a clip holds, seen by parsing (not decoding) it up to its first frames.
public struct ClipStreams: Sendable {
    /// The video stream's media type (`video/x-h264`); nil when the file has no video.
    public var video: String?
    /// The audio stream's caps, parsed (not decoded), when there is one.
    public var audio: String?
    /// The creation time the container records (MP4 `mvhd`, Matroska `DateUTC`), as a GstDateTime tag.
    public var created: Date?
    /// The clip's own timecode (a MOV/MP4 `tmcd` track, a Matroska `TIMECODE` tag), when it has one.
    public var timecode: ClipTimecode?
    /// Nanoseconds, when the container says.
    public var duration: UInt64?
    /// The video stream's own duration (ns): an MP4/MOV's video track's media duration (qtdemux
    /// says the movie's), else what its demuxer says; shorter than `duration` when the sound runs on.
    public var videoDuration: UInt64?
    /// The video's width and height as stored (before any rotation), when its caps say.
    public var videoSize: (width: Int, height: Int)?
    /// The video's `image-orientation` tag (`rotate-90`, `flip-rotate-0`): a phone's rotation
    /// flag, which players apply and the clip's pixels do not; nil when the clip has none.
    public var orientation: String?

    /// How many sound streams the file has (only the first is carried into a marked clip).
    public var audioStreams = 0

    /// The media types of its streams that are neither picture nor sound, in order: subtitles
    /// (`text/x-raw`, `application/x-ssa`, `subpicture/x-pgs`) or data, none of which a marked
    /// clip carries.
    public var otherStreams: [String] = []
    /// How many files the container carries attached (a Matroska's fonts), which a marked clip
    /// leaves out.
    public var attachments = 0
    /// Whether the video has a transparency channel beside its picture (WebM's VP9 `alpha_mode`,
    /// said in the caps as `codec-alpha`): a marked clip is opaque.
    public var videoHasAlpha = false
    /// The turn (clockwise degrees) an MP4/MOV video track's matrix asks players for when it is
    /// no quarter turn: not applied (see `ContainerMatrix`).
    public var unappliedTurn: Double?

    /// The video's profile as the demuxer says it (`high`, `main-10`; VP9: `0` to `3`), when it does.
    public var videoProfile: String?

    /// Whether the video has more than 8 bits a sample, by its profile (H.264 `high-10`, HEVC
    /// `main-10`, `main-12`, `main-422-10`…, VP9 `2` and `3`): a marked clip is coded in 8 bits.
    public var isDeeperThan8Bits: Bool {
        guard let videoProfile else { return false }
        // Profiles that allow more but are mostly coded in 8 bits (H.264 high-4:4:4, high-4:2:2) are
        // not counted: the profile alone cannot tell.
        return videoProfile.hasSuffix("-10") || videoProfile.hasSuffix("-12") || videoProfile.contains("-10-")
            || videoProfile.contains("-12-")
            || (video == "video/x-vp9" && ["2", "3"].contains(videoProfile))
    }

    /// The earliest timestamp of any stream's first packet (ns), as the demuxer gives it (absolute
    /// stream time): where the clip starts, sound or picture.
    public var start: UInt64?

    /// Whether the pixels must be turned (or mirrored) to come out upright: an orientation other
    /// than `rotate-0`.
    public var isTurned: Bool { orientation.map { $0 != "rotate-0" } ?? false }

    /// The audio's media type (`audio/mpeg`).
    public var audioType: String? { audio.map { String($0.prefix { $0 != "," }) } }

    /// Whether `container`'s muxer takes this audio as it is (no re-encoding).
    public func audioFits(_ container: ClipContainer) -> Bool {
        guard let audio, let factory = gst_element_factory_find(container.muxer) else { return false }
        defer { gst_object_unref(UnsafeMutableRawPointer(factory)) }
        guard let caps = gst_caps_from_string(audio) else { return false }
        defer { gst_caps_unref(caps) }
        return gst_element_factory_can_sink_any_caps(factory, caps) != 0
    }

    /// Parses `file` up to its first frames (a `parsebin`, each stream into a fakesink) and reads
    /// its streams' caps and tags.
    public static func probe(_ file: URL) throws(MediaError) -> ClipStreams {
        let description = try PipelineTemplate("filesrc location={location} ! parsebin name=demux")
            .render(["location": .quoted(file.path)])
        let pipeline = try Pipeline(description)
        defer { pipeline.stop() }
        // Read as the clip's pipeline reads it: a short track not taken for a preview.
        let durations = ClipMediaDurations.read(from: file)
        durations.install(on: pipeline, reading: file)
        let demux = try pipeline.element(named: "demux")
        let bin = UnsafeMutableRawPointer(pipeline.element)
        g_signal_connect_data(
            demux.pointer, "pad-added", unsafeBitCast(probePadAdded, to: GCallback.self), bin, nil, GConnectFlags(0))
        g_signal_connect_data(
            demux.pointer, "element-added", unsafeBitCast(holdFirstPullWhilePlugged, to: GCallback.self), nil, nil,
            GConnectFlags(0))
        // parsebin exposes its streams together once it has parsed their caps; the pipeline has
        // no sink before that, so PAUSED comes at once. Wait for streams with caps whose
        // fakesinks have prerolled.
        try pipeline.setState(.paused, wait: false)
        let deadline = ContinuousClock.now + .seconds(20)
        while true {
            if let error = pipeline.waitForError(timeout: .milliseconds(20)) { throw error }
            let pads = srcPads(of: demux)
            if !pads.isEmpty, pads.allSatisfy({ gst_pad_has_current_caps($0) != 0 && gst_pad_is_linked($0) != 0 }),
                gst_element_get_state(pipeline.element, nil, nil, 0) == GST_STATE_CHANGE_SUCCESS
            {
                break
            }
            guard ContinuousClock.now < deadline else { throw .timeout("\(file.path): no streams found within 20 s") }
        }
        var streams = ClipStreams()
        streams.duration = pipeline.duration()
        // Each stream's fakesink has prerolled with its first packet.
        streams.start = pipeline.allElements().filter { Pipeline.factoryName(of: $0.pointer) == "fakesink" }
            .compactMap { firstTimestamp(of: $0) }.min()
        for pad in srcPads(of: demux) {
            guard let caps = gst_pad_get_current_caps(pad) else { continue }
            defer { gst_caps_unref(caps) }
            let text = takeGString(gst_caps_to_string(caps)) ?? ""
            let type = String(text.prefix { $0 != "," })
            if type.hasPrefix("video/"), streams.video == nil {
                streams.video = type
                let structure = gst_caps_get_structure(caps, 0)
                var width: gint = 0, height: gint = 0
                if gst_structure_get_int(structure, "width", &width) != 0,
                    gst_structure_get_int(structure, "height", &height) != 0
                {
                    streams.videoSize = (Int(width), Int(height))
                }
                var nanoseconds: gint64 = 0
                if let own = durations.videoDuration {
                    streams.videoDuration = own
                } else if gst_pad_query_duration(pad, GST_FORMAT_TIME, &nanoseconds) != 0, nanoseconds > 0 {
                    streams.videoDuration = UInt64(nanoseconds)
                }
                streams.orientation = orientation(on: pad)
                streams.videoProfile = gst_structure_get_string(structure, "profile").map { String(cString: $0) }
                var alpha: gboolean = 0
                streams.videoHasAlpha = gst_structure_get_boolean(structure, "codec-alpha", &alpha) != 0 && alpha != 0
            }
            if !type.hasPrefix("video/") && !type.hasPrefix("audio/") { streams.otherStreams.append(type) }
            // The container's tags (attachments among them) come on every stream: counted once.
            streams.attachments = max(streams.attachments, attachmentCount(on: pad))
            if type.hasPrefix("audio/") { streams.audioStreams += 1 }
            if type.hasPrefix("audio/"), streams.audio == nil { streams.audio = text }
            if streams.created == nil { streams.created = creationDate(on: pad) }
            if streams.timecode == nil { streams.timecode = timecodeTag(on: pad) }
        }
        streams.timecode = ClipTimecode.track(in: file) ?? streams.timecode
        streams.unappliedTurn = ContainerMatrix.unappliedTurn(of: file)
        return streams
    }

    /// How many `attachment` tags the tag events on `pad` hold (the largest of its tag lists).
    private static func attachmentCount(on pad: UnsafeMutablePointer<GstPad>) -> Int {
        var most = 0
        _ = firstTag(on: pad) { tags -> Bool? in
            most = max(most, Int(gst_tag_list_get_tag_size(tags, "attachment")))
            return nil
        }
        return most
    }

    /// The timestamp (PTS, else DTS) of the packet a fakesink prerolled with, when it has one.
    private static func firstTimestamp(of sink: Element) -> UInt64? {
        var value = GValue()
        g_value_init(&value, gst_sample_get_type())
        defer { g_value_unset(&value) }
        g_object_get_property(gcast(sink.pointer), "last-sample", &value)
        guard let sample = g_value_get_boxed(&value), let buffer = gst_sample_get_buffer(OpaquePointer(sample)) else {
            return nil
        }
        let time = buffer.pointee.pts != GstClockTime.max ? buffer.pointee.pts : buffer.pointee.dts
        return time == GstClockTime.max ? nil : UInt64(time)
    }

    /// The element's source pads now (parsebin adds them from its streaming thread).
    private static func srcPads(of element: Element) -> [UnsafeMutablePointer<GstPad>] {
        var pads: [UnsafeMutablePointer<GstPad>] = []
        forEachPad(of: element.pointer, sink: false) { pads.append($0) }
        return pads
    }

    /// The first value `read` finds in the tag events stuck on `pad` (global and stream tags).
    static func firstTag<Value>(
        on pad: UnsafeMutablePointer<GstPad>,
        _ read: (UnsafeMutablePointer<GstTagList>) -> Value?
    ) -> Value? {
        var index: guint = 0
        while let event = gst_pad_get_sticky_event(pad, GST_EVENT_TAG, index) {
            defer { gst_event_unref(event) }
            index += 1
            var tags: UnsafeMutablePointer<GstTagList>?
            gst_event_parse_tag(event, &tags)
            if let tags, let value = read(tags) { return value }
        }
        return nil
    }

    /// The `image-orientation` tag (a phone's rotation).
    private static func orientation(on pad: UnsafeMutablePointer<GstPad>) -> String? {
        firstTag(on: pad) { tags in
            var value: UnsafeMutablePointer<gchar>?
            guard gst_tag_list_get_string(tags, "image-orientation", &value) != 0, let value else { return nil }
            defer { g_free(value) }
            return String(cString: value)
        }
    }

    /// The `datetime` tag, when it is a real creation time.
    private static func creationDate(on pad: UnsafeMutablePointer<GstPad>) -> Date? {
        firstTag(on: pad) { tags in
            var dateTime: OpaquePointer?
            guard gst_tag_list_get_date_time(tags, "datetime", &dateTime) != 0, let dateTime else { return nil }
            defer { gst_date_time_unref(dateTime) }
            // A date alone (no time of day) is not a creation time to count from.
            guard gst_date_time_has_time(dateTime) != 0, let glib = gst_date_time_to_g_date_time(dateTime) else {
                return nil
            }
            defer { g_date_time_unref(glib) }
            let seconds = g_date_time_to_unix(glib)
            // MP4 writers that do not know the time write 0 (1904) or the Unix epoch.
            guard seconds > 86_400 else { return nil }
            return Date(
                timeIntervalSince1970: TimeInterval(seconds) + TimeInterval(g_date_time_get_microsecond(glib)) / 1e6)
        }
    }
}

/// parsebin drops the errors of an element it is still plugging in (from adding it until it is
/// PAUSED and linked), and a demuxer that pulls (qtdemux, matroskademux) starts reading in that
/// window: a file cut before its moov had qtdemux's "no playable streams" dropped about one probe
/// in two, and the probe waited 20 s for streams that would never come. So each element parsebin
/// adds waits, before its first pull, until parsebin hands it its state, which parsebin does just
/// after it stops dropping its errors (gstparsebin.c, connect_pad). The wait is capped at 1 s
/// in case parsebin gives the element up instead: a slower failure, never a hang.
private let holdFirstPullWhilePlugged:
    @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GstElement>?, gpointer?) -> Void = { _, element, _ in
        guard let element else { return }
        forEachPad(of: element, sink: true) { pad in
            // A pull probe: an element that is pushed to (a parser) never calls it.
            _ = gst_pad_add_probe(
                pad, GstPadProbeType(GST_PAD_PROBE_TYPE_PULL.rawValue | GST_PAD_PROBE_TYPE_BLOCK.rawValue),
                untilPlugged, UnsafeMutableRawPointer(element), nil)
        }
    }

/// A poll, not a wait on a condition: nothing announces the end of the plugging. parsebin sets the
/// element PAUSED while it is locked, then drops its error filter and unlocks it
/// (`gst_element_set_locked_state`, which only flips a flag: no notify, no message, and no state
/// change follows). So the probe looks at the flag every 200 µs, on the demuxer's own thread, at
/// its first pull only, for at most 1 s.
private let untilPlugged: GstPadProbeCallback = { _, _, element in
    guard let element = element?.assumingMemoryBound(to: GstElement.self) else { return GST_PAD_PROBE_REMOVE }
    let deadline = ContinuousClock.now + .seconds(1)
    while gst_element_is_locked_state(element) != 0, ContinuousClock.now < deadline { g_usleep(200) }
    return GST_PAD_PROBE_REMOVE
}

/// Each stream parsebin finds goes through a queue into a fakesink, so the pipeline prerolls with
/// every stream's caps and tags (without the queue the first sink to preroll would block the
/// demuxer's one thread before the other streams got a buffer).
private let probePadAdded:
    @convention(c) (UnsafeMutablePointer<GstElement>?, UnsafeMutablePointer<GstPad>?, gpointer?) -> Void = {
        _, pad, bin in
        guard let pad, let bin, let queue = gst_element_factory_make("queue", nil) else { return }
        guard let sink = gst_element_factory_make("fakesink", nil) else {
            gst_object_unref(UnsafeMutableRawPointer(queue))
            return
        }
        gst_util_set_object_arg(gcast(sink), "sync", "false")
        let pipeline = bin.assumingMemoryBound(to: GstBin.self)
        gst_bin_add(pipeline, queue)
        gst_bin_add(pipeline, sink)
        _ = gst_element_link(queue, sink)
        _ = gst_element_sync_state_with_parent(sink)
        _ = gst_element_sync_state_with_parent(queue)
        if let queuePad = gst_element_get_static_pad(queue, "sink") {
            _ = gst_pad_link(pad, queuePad)
            gst_object_unref(UnsafeMutableRawPointer(queuePad))
        }
    }
