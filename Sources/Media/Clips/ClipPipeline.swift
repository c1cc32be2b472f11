internal import CGStreamer
internal import CGstApp
internal import CGstVideo
import Foundation
internal import ISOBMFF

/// The video codec a clip is re-encoded with.
public enum ClipVideoCodec: String, Sendable, CaseIterable {
    case h264, hevc, vp9

    /// The codec of a parsed stream's media type (`video/x-h265`), when it is one we encode.
    public init?(mediaType: String) {
        switch mediaType {
        case "video/x-h264": self = .h264
        case "video/x-h265": self = .hevc
        case "video/x-vp9": self = .vp9
        default: return nil
        }
    }

    /// The encoder and its parser, named `encoder`, 4:2:0, with `threads` worker threads so that
    /// parallel clips do not oversubscribe the CPU (0: the encoder's own choice for the machine).
    ///
    /// H.264 is libx264's defaults, what `ffmpeg -c:v libx264` gives: preset medium, CRF 23,
    /// keyframes at most 250 frames apart, no VBV. The element is camstamp's own
    /// (`camstampx264enc`, Sources/CX264Encoder): libx264 set up as x264enc `pass=qual
    /// vbv-buf-capacity=0` set it, but letting go of each frame once libx264 has copied it, where
    /// x264enc kept ~50 (the bench's 1080p clip: 620 MiB peak instead of 974, 50 k page faults
    /// instead of 113-143 k). x264 writes the settings it ran with into the stream (an SEI,
    /// `strings out.mp4 | grep x264`): they are ffmpeg's, line for line.
    func fragment(threads: Int) -> LaunchFragment {
        let cores = threads > 0 ? threads : ProcessInfo.processInfo.activeProcessorCount
        switch self {
        case .h264:
            return LaunchFragment("camstampx264enc name=encoder speed-preset=\(Self.x264Preset) crf=\(Self.x264CRF) key-int-max=250 threads=\(threads) ! video/x-h264,profile=high ! h264parse")
        case .hevc:
            // x265 at veryfast: its medium is several times slower than x264's.
            return LaunchFragment("x265enc name=encoder speed-preset=veryfast option-string=\"crf=24:pools=\(cores):frame-threads=\(min(cores, 4))\" ! h265parse")
        case .vp9:
            return LaunchFragment("vp9enc name=encoder deadline=1 cpu-used=8 end-usage=cq cq-level=32 target-bitrate=20000000 row-mt=true threads=\(cores)")
        }
    }

    /// libx264's default speed preset and constant rate factor.
    static let x264Preset = "medium"
    static let x264CRF = 23
}

/// The container a clip is written in.
public enum ClipContainer: String, Sendable, CaseIterable {
    case mp4, mov, mkv, webm

    var muxer: String {
        switch self {
        case .mp4: "mp4mux"
        case .mov: "qtmux"
        case .mkv: "matroskamux"
        case .webm: "webmmux"
        }
    }

    /// The container of a file by its first bytes (ISO BMFF `ftyp` brand, EBML DocType); nil
    /// when it is none of these.
    public init?(sniffing header: Data) {
        let bytes = [UInt8](header.prefix(4096))
        guard bytes.count >= 12 else { return nil }
        if bytes[0...3] == [0x1A, 0x45, 0xDF, 0xA3] {
            // The DocType string is in the EBML header, within its first few dozen bytes.
            let text = String(decoding: bytes.prefix(64).map { $0 < 0x20 || $0 > 0x7E ? 0x20 : $0 }, as: UTF8.self)
            if text.contains("webm") { self = .webm } else if text.contains("matroska") { self = .mkv } else { return nil }
            return
        }
        let box = String(decoding: bytes[4...7], as: UTF8.self)
        if box == "ftyp" {
            self = String(decoding: bytes[8...11], as: UTF8.self) == "qt  " ? .mov : .mp4
        } else if ["moov", "mdat", "wide", "free"].contains(box) {
            self = .mov  // an old QuickTime file without a ftyp box
        } else {
            return nil
        }
    }
}

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
        return videoProfile.hasSuffix("-10") || videoProfile.hasSuffix("-12") || videoProfile.contains("-10-") || videoProfile.contains("-12-")
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
        g_signal_connect_data(demux.pointer, "pad-added", unsafeBitCast(probePadAdded, to: GCallback.self), bin, nil, GConnectFlags(0))
        g_signal_connect_data(demux.pointer, "element-added", unsafeBitCast(holdFirstPullWhilePlugged, to: GCallback.self), nil, nil, GConnectFlags(0))
        // parsebin exposes its streams together once it has parsed their caps; the pipeline has
        // no sink before that, so PAUSED comes at once. Wait for streams with caps whose
        // fakesinks have prerolled.
        try pipeline.setState(.paused, wait: false)
        let deadline = ContinuousClock.now + .seconds(20)
        while true {
            if let error = pipeline.waitForError(timeout: .milliseconds(20)) { throw error }
            let pads = srcPads(of: demux)
            if !pads.isEmpty, pads.allSatisfy({ gst_pad_has_current_caps($0) != 0 && gst_pad_is_linked($0) != 0 }),
               gst_element_get_state(pipeline.element, nil, nil, 0) == GST_STATE_CHANGE_SUCCESS { break }
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
                if gst_structure_get_int(structure, "width", &width) != 0, gst_structure_get_int(structure, "height", &height) != 0 {
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
        guard let sample = g_value_get_boxed(&value), let buffer = gst_sample_get_buffer(OpaquePointer(sample)) else { return nil }
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
    static func firstTag<Value>(on pad: UnsafeMutablePointer<GstPad>,
                                _ read: (UnsafeMutablePointer<GstTagList>) -> Value?) -> Value? {
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
            guard gst_date_time_has_time(dateTime) != 0, let glib = gst_date_time_to_g_date_time(dateTime) else { return nil }
            defer { g_date_time_unref(glib) }
            let seconds = g_date_time_to_unix(glib)
            // MP4 writers that do not know the time write 0 (1904) or the Unix epoch.
            guard seconds > 86_400 else { return nil }
            return Date(timeIntervalSince1970: TimeInterval(seconds) + TimeInterval(g_date_time_get_microsecond(glib)) / 1e6)
        }
    }
}

/// libav's video decoders in a clip coded by x264 or x265 decode with slice threads, not frame
/// threads: the encoder is the clip's bottleneck (x264 medium takes ~8x a frame's decode at
/// 1080p) and keeps every core busy, so frame threads only add their hand-offs: 2.0-2.1 s of CPU
/// against 1.5-1.6 s to decode the bench's 60 s 1080p clip (`avdec_h264` alone).
private let decoderAdded: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutablePointer<GstElement>?,
                                          gpointer?) -> Void = { _, _, element, _ in
    guard let element, Pipeline.factoryName(of: element)?.hasPrefix("avdec_") == true else { return }
    gst_object_ref(UnsafeMutableRawPointer(element))
    // An audio decoder (avdec_aac) has no thread-type: nothing to set.
    try? Element(adopting: element).set("thread-type", "slice")
}

/// parsebin drops the errors of an element it is still plugging in (from adding it until it is
/// PAUSED and linked), and a demuxer that pulls (qtdemux, matroskademux) starts reading in that
/// window: a file cut before its moov had qtdemux's "no playable streams" dropped about one probe
/// in two, and the probe waited 20 s for streams that would never come. So each element parsebin
/// adds waits, before its first pull, until parsebin hands it its state, which parsebin does just
/// after it stops dropping its errors (gstparsebin.c, connect_pad). The wait is capped at 1 s
/// in case parsebin gives the element up instead: a slower failure, never a hang.
private let holdFirstPullWhilePlugged: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GstElement>?, gpointer?) -> Void = { _, element, _ in
    guard let element else { return }
    forEachPad(of: element, sink: true) { pad in
        // A pull probe: an element that is pushed to (a parser) never calls it.
        _ = gst_pad_add_probe(pad, GstPadProbeType(GST_PAD_PROBE_TYPE_PULL.rawValue | GST_PAD_PROBE_TYPE_BLOCK.rawValue),
                              untilPlugged, UnsafeMutableRawPointer(element), nil)
    }
}

private let untilPlugged: GstPadProbeCallback = { _, _, element in
    guard let element = element?.assumingMemoryBound(to: GstElement.self) else { return GST_PAD_PROBE_REMOVE }
    let deadline = ContinuousClock.now + .seconds(1)
    while gst_element_is_locked_state(element) != 0, ContinuousClock.now < deadline { g_usleep(200) }
    return GST_PAD_PROBE_REMOVE
}

/// Each stream parsebin finds goes through a queue into a fakesink, so the pipeline prerolls with
/// every stream's caps and tags (without the queue the first sink to preroll would block the
/// demuxer's one thread before the other streams got a buffer).
private let probePadAdded: @convention(c) (UnsafeMutablePointer<GstElement>?, UnsafeMutablePointer<GstPad>?, gpointer?) -> Void = { _, pad, bin in
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
    public init(template: PipelineTemplate, input: URL, output: URL, codec: ClipVideoCodec, container: ClipContainer,
                audio: AudioHandling, threads: Int, turned: Bool = true, matroskaStart: UInt64? = nil, duration: UInt64? = nil,
                mark: @escaping Mark) throws(MediaError) {
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
            branch = LaunchFragment("decode.audio_0 ! queue max-size-time=0 max-size-bytes=67108864 max-size-buffers=0 ! mux.audio_0")
        case .drop:
            branch = LaunchFragment("decode.audio_0 ! fakesink sync=false async=false")
        }
        let description = try template.render([
            "input": .quoted(input.path), "output": .quoted(output.path), "stop": .quoted(stop),
            "orient": .fragment(LaunchFragment(turned ? "videoflip name=orient video-direction=auto" : "identity name=orient")),
            "encoder": .fragment(codec.fragment(threads: max(0, threads))),
            "muxer": .fragment(LaunchFragment("\(container.muxer) name=mux")), "audio": .fragment(branch),
        ])
        pipeline = try Pipeline(description)
        self.output = output
        // Only MP4 and MOV can take the source's edit back; Matroska keeps GStreamer's reading.
        if case .passThrough = audio, [.mp4, .mov].contains(container), let edit = ClipAudioEdit.read(from: input),
           let applied = edit.install(on: pipeline, reading: input) {
            audioEdit = (edit, applied)
            if let encoder = try? pipeline.element(named: "encoder") { ClipAudioEdit.dropGaps(before: encoder) }
        }
        ClipMediaDurations.read(from: input).install(on: pipeline, reading: input)
        pipeline.keepColours(ofClip: input)
        ClipTimescale.install(on: pipeline, duration: duration)
        // Not for VP9: its real-time encoder is fast enough that the decoder's speed counts.
        if codec != .vp9 {
            g_signal_connect_data(pipeline.element, "deep-element-added", unsafeBitCast(decoderAdded, to: GCallback.self), nil, nil,
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
                    g_signal_connect_data(child, "pad-added", unsafeBitCast(multiqueuePadAdded, to: GCallback.self), nil, nil, GConnectFlags(0))
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
              let whole = g_date_time_new_from_unix_utc(gint64(date.timeIntervalSince1970.rounded(.down))) else { return }
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
            gst_pad_add_probe($0, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, tagFilterProbe, UnsafeMutableRawPointer(bitPattern: mode.rawValue), nil)
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
    public func run(progress: (UInt64) -> Void, cancelled: () -> Bool, stallLimit: Duration = ClipPipeline.stallLimit) throws -> Int {
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
    guard let parsed, parsed.pointee.format == GST_FORMAT_TIME, parsed.pointee.rate > 0, parsed.pointee.start > start else {
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
private let multiqueuePadAdded: @convention(c) (UnsafeMutablePointer<GstElement>?, UnsafeMutablePointer<GstPad>?, gpointer?) -> Void = { _, pad, _ in
    guard let pad, gst_pad_get_direction(pad) == GST_PAD_SRC else { return }
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, streamEndProbe, nil, nil)
}

/// On a stream's way out of decodebin3's multiqueue: an end (decodebin3's own, which its probe
/// after this one drops) goes to the pad's peer as a plain end, after the stream's last packet.
private let streamEndProbe: GstPadProbeCallback = { pad, info, _ in
    guard let pad, let info, let data = info.pointee.data,
          data.assumingMemoryBound(to: GstEvent.self).pointee.type == GST_EVENT_EOS,
          let peer = gst_pad_get_peer(pad) else { return GST_PAD_PROBE_OK }
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
    guard let info, let data = info.pointee.data, let mode = TagFilter(rawValue: Int(bitPattern: context)) else { return GST_PAD_PROBE_OK }
    let event = data.assumingMemoryBound(to: GstEvent.self)
    guard event.pointee.type == GST_EVENT_TAG else { return GST_PAD_PROBE_OK }
    if mode == .none { return GST_PAD_PROBE_DROP }
    var parsed: UnsafeMutablePointer<GstTagList>?
    gst_event_parse_tag(event, &parsed)
    guard let parsed, let tags = gst_tag_list_copy(parsed) else { return GST_PAD_PROBE_OK }
    let names = (0..<max(0, gst_tag_list_n_tags(tags))).compactMap { gst_tag_list_nth_tag_name(tags, guint($0)).map { String(cString: $0) } }
    for name in names where sourceSoftwareTags.contains(name) || (mode == .noLocation && name.hasPrefix("geo-location-")) {
        gst_tag_list_remove_tag(tags, name)
    }
    let privateTag = "private-qt-tag"
    if names.contains(privateTag) {
        var kept: [GValue] = []
        for index in 0..<gst_tag_list_get_tag_size(tags, privateTag) {
            guard let value = gst_tag_list_get_value_index(tags, privateTag, index),
                  let sample = g_value_get_boxed(value), let buffer = gst_sample_get_buffer(OpaquePointer(sample)) else { continue }
            var type = [UInt8](repeating: 0, count: 4)
            // An atom's type is printable; qtdemux's unnamed mdta items are numbered 1, 2, ...
            guard gst_buffer_extract(buffer, 4, &type, 4) == 4, type[0] != 0,
                  mode == .keep || !["\u{A9}xyz", "loci"].contains(String(decoding: type, as: UTF8.self)) else { continue }
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

extension ClipStreams {
    /// Launch text that takes `file`'s audio, parsed and untouched, into the element named `mux` of
    /// the pipeline it is added to (nil when the file has no audio). Its queue, `fileaudio`, holds
    /// at most half a second: the muxer paces it to the video, and `Pipeline.endFileAudio` ends it.
    public func audioBranch(from file: URL) throws(MediaError) -> String? {
        try parsedAudio(from: file).map { $0 + " ! mux.audio_0" }
    }

    /// Launch text that plays `file`'s audio decoded, at the pace of the pipeline's clock as a
    /// microphone would give it, for a stream that encodes its sound once for all its targets
    /// (nil when the file has no audio). It ends as `audioBranch`'s does (`Pipeline.endFileAudio`).
    public func decodedAudio(from file: URL) throws(MediaError) -> String? {
        try parsedAudio(from: file).map { $0 + " ! decodebin ! identity sync=true" }
    }

    /// The name of the file source of `audioBranch` and `decodedAudio`: the pictures' own reads the same file.
    static let fileAudioSource = "fileaudiosource"

    /// `file`'s audio stream as parsebin gives it, through the queue named `fileaudio`.
    private func parsedAudio(from file: URL) throws(MediaError) -> String? {
        guard let type = audioType else { return nil }
        guard type.hasPrefix("audio/"), type.unicodeScalars.allSatisfy({ CharacterSet.alphanumerics.contains($0) || "/-.".unicodeScalars.contains($0) }) else {
            throw .invalidTemplate("unexpected audio media type '\(type)'")
        }
        return try PipelineTemplate("filesrc name=\(Self.fileAudioSource) location={location} ! parsebin ! {caps} ! queue name=fileaudio max-size-time=500000000 max-size-bytes=0 max-size-buffers=0")
            .render(["location": .quoted(file.path), "caps": .fragment(LaunchFragment(type))])
    }
}

extension Pipeline {
    /// Ends the audio branch of `ClipStreams.audioBranch` at `end` (ns, the end of the video
    /// written), so that the muxer neither waits for the rest of the file's audio nor takes more
    /// than the video's length: the first buffer from `end` on leaving its queue is dropped and EOS
    /// goes in its place. (EOS sent into the queue instead would wait for the stream lock that its
    /// full queue's upstream thread holds: a deadlock.) Call it before ending the video.
    public func endFileAudio(at end: UInt64) {
        guard let queue = gst_bin_get_by_name(gcast(element), "fileaudio") else { return }
        defer { gst_object_unref(UnsafeMutableRawPointer(queue)) }
        guard let pad = gst_element_get_static_pad(queue, "src") else { return }
        defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
        let context = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
        context.initialize(to: end)
        gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, endAudioProbe, context) {
            $0?.assumingMemoryBound(to: UInt64.self).deallocate()
        }
    }
}

/// On the streaming thread of the audio queue: buffers before the end pass; from the end on, EOS
/// goes downstream instead (pushed again once the pad is at EOS, it is refused and harmless).
private let endAudioProbe: GstPadProbeCallback = { pad, info, context in
    guard let pad, let info, let context, let data = info.pointee.data else { return GST_PAD_PROBE_OK }
    let buffer = data.assumingMemoryBound(to: GstBuffer.self)
    let end = context.assumingMemoryBound(to: UInt64.self).pointee
    if buffer.pointee.pts != GstClockTime.max, UInt64(buffer.pointee.pts) < end { return GST_PAD_PROBE_OK }
    _ = gst_pad_push_event(pad, gst_event_new_eos())
    return GST_PAD_PROBE_DROP
}
