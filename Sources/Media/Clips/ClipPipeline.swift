// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CGStreamer
internal import CGstApp
internal import CGstVideo
import Foundation
internal import ISOBMFF

/// libav's video decoders in a clip coded by x264 or x265 decode with slice threads, not frame
/// threads: the encoder is the clip's bottleneck (x264 medium takes ~8x a frame's decode at
/// 1080p) and keeps every core busy, so frame threads only add their hand-offs: 2.0-2.1 s of CPU
/// against 1.5-1.6 s to decode the bench's 60 s 1080p clip (`avdec_h264` alone).
private let decoderAdded:
    @convention(c) (
        UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutablePointer<GstElement>?,
        gpointer?
    ) -> Void = { _, _, element, _ in
        guard let element, Pipeline.factoryName(of: element)?.hasPrefix("avdec_") == true else { return }
        gst_object_ref(UnsafeMutableRawPointer(element))
        // An audio decoder (avdec_aac) has no thread-type: nothing to set.
        try? Element(adopting: element).set("thread-type", "slice")
    }

/// One clip decoded, turned upright, marked in place and encoded, its audio passed through.
///
/// decodebin3 decodes the video and stops at parsed audio (its `caps`), which goes into the muxer
/// as it came. The marks are blended in a pad probe as each frame passes the element named
/// `mark`, as in `PhotoPipeline`: no appsink/appsrc hop, no clock, so it runs as fast as the
/// encoder. For a clip with a rotation tag, `videoflip video-direction=auto` applies it to the
/// pixels; a clip without one has no videoflip at all, since videoflip copies every frame even
/// when it turns nothing (1800 copies of 3 MB for a 60 s 1080p clip, and a pool of them faulted in).
public final class ClipPipeline: @unchecked Sendable {
    public let pipeline: Pipeline
    private let marking = MarkProbe()
    private let output: URL
    /// The source's sound edit that qtdemux is given open, with what says it was: the output's
    /// edit is then put back as the source has it (see `ClipAudioEdit`).
    private var audioEdit: (edit: ClipAudioEdit, applied: ClipAudioEdit.Applied)?

    /// Frame by frame: the frame to draw on in place, its 0-based number and its timestamp (ns).
    public typealias Mark = (VideoFrame, Int, UInt64?) -> Error?

    /// `template` has `{input}`, `{output}`, `{stop}` (decodebin3's caps), `{orient}` (the element
    /// that turns the frames upright), `{encoder}`, `{muxer}` and `{audio}` (the audio branch, or
    /// nothing). `turned`: the clip has a rotation tag (`ClipStreams.isTurned`) for `{orient}` to apply;
    /// when it has none `{orient}` is a pass-through `identity`. `matroskaStart`: for a Matroska or
    /// WebM source, where it starts (`ClipStreams.start`), so that its picture keeps its place against
    /// its sound (see `startSegments`). `duration`: the clip's (`ClipStreams.duration`); MP4/MOV
    /// video gets a 90 kHz timescale only where that length is known to fit in it (`ClipTimescale`).
    public init(
        template: PipelineTemplate, input: URL, output: URL, codec: ClipVideoCodec, container: ClipContainer,
        audio: AudioHandling, threads: Int, turned: Bool = true, matroskaStart: UInt64? = nil, duration: UInt64? = nil,
        mark: @escaping Mark
    ) throws(MediaError) {
        var stop = "video/x-raw(ANY)"
        let branch: LaunchFragment
        switch audio {
        case .none: branch = LaunchFragment("")
        case .passThrough(let caps):
            stop += ";" + String(caps.prefix { $0 != "," })
            // The muxer takes sound only as fast as the encoder lets out pictures, and x264 lets out
            // its first only ~50 frames in (its lookahead): 10 s of a 5 fps clip. A queue of 3 s
            // filled first, held up the demuxer, and the video never came: a 5 or 10 fps clip with
            // sound stalled. So no limit in time; 64 MiB of compressed sound is an hour and more.
            branch = LaunchFragment(
                "decode.audio_0 ! queue max-size-time=0 max-size-bytes=67108864 max-size-buffers=0 ! mux.audio_0")
        case .drop:
            branch = LaunchFragment("decode.audio_0 ! fakesink sync=false async=false")
        }
        let description = try template.render([
            "input": .quoted(input.path), "output": .quoted(output.path), "stop": .quoted(stop),
            "orient": .fragment(
                LaunchFragment(turned ? "videoflip name=orient video-direction=auto" : "identity name=orient")),
            "encoder": .fragment(codec.fragment(threads: max(0, threads))),
            "muxer": .fragment(LaunchFragment("\(container.muxer) name=mux")), "audio": .fragment(branch),
        ])
        pipeline = try Pipeline(description)
        self.output = output
        // Only MP4 and MOV can take the source's edit back; Matroska keeps GStreamer's reading.
        if case .passThrough = audio, [.mp4, .mov].contains(container), let edit = ClipAudioEdit.read(from: input),
            let applied = edit.install(on: pipeline, reading: input)
        {
            audioEdit = (edit, applied)
            if let encoder = try? pipeline.element(named: "encoder") { ClipAudioEdit.dropGaps(before: encoder) }
        }
        ClipMediaDurations.read(from: input).install(on: pipeline, reading: input)
        pipeline.keepColours(ofClip: input)
        ClipTimescale.install(on: pipeline, duration: duration)
        // Not for VP9: its real-time encoder is fast enough that the decoder's speed counts.
        if codec != .vp9 {
            g_signal_connect_data(
                pipeline.element, "deep-element-added", unsafeBitCast(decoderAdded, to: GCallback.self), nil, nil,
                GConnectFlags(0))
        }
        Self.passStreamEnds(in: pipeline)
        marking.action = { frame, index, pts in mark(frame, index, pts).map { .fail($0) } ?? .pass }
        try marking.install(on: pipeline, element: "mark")
        if let matroskaStart { try startSegments(at: matroskaStart) }
    }

    /// decodebin3 (GStreamer 1.22) holds back the end of each stream it outputs until every one
    /// has ended: the end qtdemux sends for a sound that stops before the picture is turned into
    /// decodebin3's own and dropped where the stream leaves its multiqueue. qtmux waits for a
    /// packet or the end on every pad, so once the sound was over the pictures piled up in the
    /// queues until they were full, and the clip stopped with nothing moving: a sound that ends
    /// 4 s or more before the picture, as when a picture starts that late after a sound as long
    /// (10 s of picture 8 s after 14 s of sound: 264 of 300 frames, then nothing for 20 s; a
    /// shorter tail fits in the queues). So each stream's end is passed on as it leaves the
    /// multiqueue, from that stream's own thread after its last packet, ahead of decodebin3's
    /// probe (added to the pad after ours, as its slot is made): the one decodebin3 sends when all
    /// have ended then finds the pad ended, and is dropped there. Not on a GStreamer whose
    /// decodebin3 passes each end on itself (`UpstreamFix.decodebin3HoldsStreamEnds`).
    private static func passStreamEnds(in pipeline: Pipeline) {
        guard !UpstreamFix.decodebin3HoldsStreamEnds.isFixed else { return }
        for bin in pipeline.allElements() where Pipeline.factoryName(of: bin.pointer) == "decodebin3" {
            // decodebin3 makes its multiqueue as it is made, before any stream: a child already.
            let object: UnsafeMutablePointer<GstObject> = gcast(bin.pointer)
            g_mutex_lock(&object.pointee.lock)
            var list = gcast(bin.pointer, to: GstBin.self).pointee.children
            while let node = list {
                let child = node.pointee.data.assumingMemoryBound(to: GstElement.self)
                if Pipeline.factoryName(of: child) == "multiqueue" {
                    g_signal_connect_data(
                        child, "pad-added", unsafeBitCast(multiqueuePadAdded, to: GCallback.self), nil, nil,
                        GConnectFlags(0))
                }
                list = node.pointee.next
            }
            g_mutex_unlock(&object.pointee.lock)
        }
    }

    /// matroskademux starts every stream's segment at the first block it reads, and starts them
    /// again earlier when a block of another stream comes with an earlier time: the frames that
    /// went out before that (ffmpeg stores the first video block first, its B-frames' decode time
    /// being the earliest) are a segment late, at running time 0, with the sound that started
    /// before them then at 0 too. A clip whose picture starts 54 ms after its sound came out with
    /// both at 0 and an 88 ms first frame. So every segment that starts after `start`, the clip's
    /// first timestamp, is started at `start`: the running time of each packet
    /// is then its time from the clip's start, as the later segments have it. The video's segments
    /// are taken before the encoder, whose own may start 1000 hours on (room for B-frames' negative
    /// decode times); the sound's at the muxer.
    private func startSegments(at start: UInt64) throws(MediaError) {
        let mux = try pipeline.element(named: "mux"), mark = try pipeline.element(named: "mark")
        func startSegments(on pad: UnsafeMutablePointer<GstPad>) {
            let context = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
            context.initialize(to: start)
            gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, startSegmentProbe, context) {
                $0?.assumingMemoryBound(to: UInt64.self).deallocate()
            }
        }
        if let pad = gst_element_get_static_pad(mark.pointer, "sink") {
            startSegments(on: pad)
            gst_object_unref(UnsafeMutableRawPointer(pad))
        }
        forEachPad(of: mux.pointer, sink: true) { pad in
            if objectName(gcast(pad)).hasPrefix("audio") { startSegments(on: pad) }
        }
    }

    /// Writes `date` as a Matroska or WebM output's `DateUTC` (matroskamux's `creation-time`),
    /// the source's creation time, where the muxer would write the time it ran. MP4 and MOV are
    /// `ClipMetadata`'s: qtmux has no such setting. Call it before `run`.
    public func keepCreationTime(_ date: Date) throws(MediaError) {
        let mux = try pipeline.element(named: "mux")
        guard ["matroskamux", "webmmux"].contains(Pipeline.factoryName(of: mux.pointer) ?? ""),
            let whole = g_date_time_new_from_unix_utc(gint64(date.timeIntervalSince1970.rounded(.down)))
        else { return }
        defer { g_date_time_unref(whole) }
        let microseconds = (date.timeIntervalSince1970 - date.timeIntervalSince1970.rounded(.down)) * 1e6
        guard let time = g_date_time_add(whole, GTimeSpan(microseconds.rounded())) else { return }
        defer { g_date_time_unref(time) }
        var value = GValue()
        g_value_init(&value, g_date_time_get_type())
        defer { g_value_unset(&value) }
        g_value_set_boxed(&value, UnsafeRawPointer(time))
        g_object_set_property(gcast(mux.pointer), "creation-time", &value)
    }

    /// Which of the source's tags (title, artist, comment, date, location...) GStreamer carries to
    /// the muxer, which writes them: none when `any` is false (`--strip-metadata`), none of its
    /// `geo-location-*` tags when `location` is false (`--strip-gps`). Never its encoder and
    /// application name (the output's video is camstamp's encoding, not the source's), nor the
    /// `private-qt-tag` atoms qtdemux could not name (an iPhone's `mdta` items, numbered, which
    /// mp4mux would write as unnamed iTunes items: `ClipMetadata` copies them with their names).
    public func keepTags(location: Bool, any: Bool) throws(MediaError) {
        let mux = try pipeline.element(named: "mux")
        let mode = !any ? TagFilter.none : location ? TagFilter.keep : TagFilter.noLocation
        forEachPad(of: mux.pointer, sink: true) {
            gst_pad_add_probe(
                $0, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, tagFilterProbe,
                UnsafeMutableRawPointer(bitPattern: mode.rawValue), nil)
        }
    }

    /// How many frames reached the marks with their pixels still shared with the decoder (which
    /// keeps a frame as a reference for a while), and so were copied whole to be marked.
    var sharedFrames: Int { marking.lock.withLock { marking.shared } }

    /// The most marked frames alive at once downstream of the marks: those the encoder held.
    /// Counted only once `countsFramesHeld` is set, before the run (a token per frame).
    var mostFramesHeld: Int { marking.lock.withLock { marking.mostHeld } }
    var countsFramesHeld: Bool {
        get { marking.countsHeld }
        set { marking.countsHeld = newValue }
    }

    /// What happens to the clip's audio.
    public enum AudioHandling: Sendable, Equatable {
        /// No audio stream.
        case none
        /// Parsed audio with these caps goes into the muxer untouched.
        case passThrough(String)
        /// The container cannot hold it: left out.
        case drop
    }

    /// How long a clip may go without a frame reaching the marks or its position moving before it
    /// is given up: a file cut short in its media data (its index intact) can leave the demuxer,
    /// decoder and muxer waiting on each other with no error and no end. A frame of the slowest
    /// encode takes a few seconds at most.
    public static let stallLimit: Duration = .seconds(20)

    /// Runs the clip to its end. `progress` is called about every 250 ms with the position (ns);
    /// `cancelled` is asked as often, and stops the run (throwing `.cancelled`) when it says so.
    /// Returns the frames written. A run where nothing moves for `stallLimit` throws `MediaError.stalled`.
    public func run(
        progress: (UInt64) -> Void, cancelled: () -> Bool, stallLimit: Duration = ClipPipeline.stallLimit
    ) throws -> Int {
        defer { pipeline.stop() }
        try pipeline.setState(.playing, wait: false)
        var seen: (frames: Int, position: UInt64?) = (-1, nil)
        var lastMove = ContinuousClock.now
        while true {
            if cancelled() { throw ClipPipelineCancelled() }
            let result = pipeline.waitForEndOrError(timeout: .milliseconds(250))
            if let failure = marking.lock.withLock({ marking.failure }) { throw failure }
            switch result {
            case .endOfStream?:
                // The file is closed at NULL: its edit is written after.
                pipeline.stop()
                if let audioEdit, audioEdit.applied.isComplete { try audioEdit.edit.restore(in: output) }
                return marking.lock.withLock { marking.frames }
            case .error(let error)?:
                throw error
            case nil:
                let position = pipeline.position()
                if let position { progress(position) }
                let frames = marking.lock.withLock { marking.frames }
                if frames != seen.frames || position != seen.position {
                    seen = (frames, position)
                    lastMove = ContinuousClock.now
                } else if ContinuousClock.now - lastMove >= stallLimit {
                    throw MediaError.stalled(frames: frames, seconds: Int(stallLimit.components.seconds))
                }
            }
        }
    }
}

/// A time segment that starts after the clip's start (the context) is replaced by one starting
/// there, its stream time moved back as far (not below 0).
private let startSegmentProbe: GstPadProbeCallback = { _, info, context in
    guard let info, let context, let data = info.pointee.data else { return GST_PAD_PROBE_OK }
    let event = data.assumingMemoryBound(to: GstEvent.self)
    guard event.pointee.type == GST_EVENT_SEGMENT else { return GST_PAD_PROBE_OK }
    let start = guint64(context.assumingMemoryBound(to: UInt64.self).pointee)
    var parsed: UnsafePointer<GstSegment>?
    gst_event_parse_segment(event, &parsed)
    guard let parsed, parsed.pointee.format == GST_FORMAT_TIME, parsed.pointee.rate > 0, parsed.pointee.start > start
    else {
        return GST_PAD_PROBE_OK
    }
    var segment = parsed.pointee
    let late = segment.start - start
    segment.start = start
    segment.time = segment.time > late ? segment.time - late : 0
    segment.position = start
    guard let replacement = gst_event_new_segment(&segment) else { return GST_PAD_PROBE_OK }
    replaceProbeEvent(info, with: replacement)
    return GST_PAD_PROBE_OK
}

/// A source pad of decodebin3's multiqueue: its stream's end is passed on (`passStreamEnds`).
private let multiqueuePadAdded:
    @convention(c) (UnsafeMutablePointer<GstElement>?, UnsafeMutablePointer<GstPad>?, gpointer?) -> Void = {
        _, pad, _ in
        guard let pad, gst_pad_get_direction(pad) == GST_PAD_SRC else { return }
        gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, streamEndProbe, nil, nil)
    }

/// On a stream's way out of decodebin3's multiqueue: an end (decodebin3's own, which its probe
/// after this one drops) goes to the pad's peer as a plain end, after the stream's last packet.
private let streamEndProbe: GstPadProbeCallback = { pad, info, _ in
    guard let pad, let info, let data = info.pointee.data,
        data.assumingMemoryBound(to: GstEvent.self).pointee.type == GST_EVENT_EOS,
        let peer = gst_pad_get_peer(pad)
    else { return GST_PAD_PROBE_OK }
    defer { gst_object_unref(UnsafeMutableRawPointer(peer)) }
    // Refused (false) when the peer has ended already: the end that follows from decodebin3.
    _ = gst_pad_send_event(peer, gst_event_new_eos())
    return GST_PAD_PROBE_OK
}

/// What `ClipPipeline.keepTags` lets through (a probe's context: nonzero).
private enum TagFilter: Int {
    case keep = 1, noLocation, none
}

/// Tags naming the software that made the source.
private let sourceSoftwareTags: Set<String> = ["encoder", "encoder-version", "application-name"]

/// On a muxer's sink pad: a tag event goes on without what `ClipPipeline.keepTags` leaves out.
private let tagFilterProbe: GstPadProbeCallback = { _, info, context in
    guard let info, let data = info.pointee.data, let mode = TagFilter(rawValue: Int(bitPattern: context)) else {
        return GST_PAD_PROBE_OK
    }
    let event = data.assumingMemoryBound(to: GstEvent.self)
    guard event.pointee.type == GST_EVENT_TAG else { return GST_PAD_PROBE_OK }
    if mode == .none { return GST_PAD_PROBE_DROP }
    var parsed: UnsafeMutablePointer<GstTagList>?
    gst_event_parse_tag(event, &parsed)
    guard let parsed, let tags = gst_tag_list_copy(parsed) else { return GST_PAD_PROBE_OK }
    let names = (0..<max(0, gst_tag_list_n_tags(tags))).compactMap {
        gst_tag_list_nth_tag_name(tags, guint($0)).map { String(cString: $0) }
    }
    for name in names
    where sourceSoftwareTags.contains(name) || (mode == .noLocation && name.hasPrefix("geo-location-")) {
        gst_tag_list_remove_tag(tags, name)
    }
    let privateTag = "private-qt-tag"
    if names.contains(privateTag) {
        var kept: [GValue] = []
        for index in 0..<gst_tag_list_get_tag_size(tags, privateTag) {
            guard let value = gst_tag_list_get_value_index(tags, privateTag, index),
                let sample = g_value_get_boxed(value), let buffer = gst_sample_get_buffer(OpaquePointer(sample))
            else { continue }
            var type = [UInt8](repeating: 0, count: 4)
            // An atom's type is printable; qtdemux's unnamed mdta items are numbered 1, 2, ...
            guard gst_buffer_extract(buffer, 4, &type, 4) == 4, type[0] != 0,
                mode == .keep || !["\u{A9}xyz", "loci"].contains(String(decoding: type, as: UTF8.self))
            else { continue }
            var copy = GValue()
            g_value_init(&copy, value.pointee.g_type)
            g_value_copy(value, &copy)
            kept.append(copy)
        }
        gst_tag_list_remove_tag(tags, privateTag)
        for var value in kept {
            gst_tag_list_add_value(tags, GST_TAG_MERGE_APPEND, privateTag, &value)
            g_value_unset(&value)
        }
    }
    guard let replacement = gst_event_new_tag(tags) else { return GST_PAD_PROBE_OK }
    replaceProbeEvent(info, with: replacement)
    return GST_PAD_PROBE_OK
}

/// Thrown by `ClipPipeline.run` when its caller cancelled it.
public struct ClipPipelineCancelled: Error {}

extension Pipeline {
    /// The position in nanoseconds, when the pipeline knows it.
    public func position() -> UInt64? {
        var position: gint64 = -1
        guard gst_element_query_position(element, GST_FORMAT_TIME, &position) != 0, position >= 0 else { return nil }
        return UInt64(position)
    }
}
