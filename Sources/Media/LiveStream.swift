internal import CGStreamer
internal import CGstApp
internal import CGstVideo
import Foundation

/// A live stream in one pipeline: the capture (its template, `appsink name=frames` taken out)
/// linked straight to the output (a template starting at `identity name=mark`, then a queue named
/// `encodequeue` before the encoder). The marks are blended in place as each frame leaves `mark`,
/// in a pad probe (`MarkProbe`, as for clips): no appsink → Swift → appsrc hop, no second
/// pipeline, no frame held for Swift. Swift still owns what it must: the decision to drop a frame
/// the encoder cannot take yet (counted), the marks, a snapshot copied on request, the end.
///
/// The capture and the output are bins of their own (`capture`, `output`), so an error says by its
/// element path which side it came from (`isCapture`).
public final class LiveStream: @unchecked Sendable {
    public let pipeline: Pipeline
    private let marking = MarkProbe()
    private let queue: Element
    private let mark: Element
    private let backlogLimit: UInt32
    private let events = EventWatch()
    private var ended = false

    /// Frame by frame, on the capture's streaming thread: the frame to draw on in place, its
    /// 0-based number and its timestamp (ns on the pipeline's running time).
    public typealias Mark = (VideoFrame, Int, UInt64?) -> MarkVerdict

    /// `capture` ends in `appsink name=frames` (linked to the element before it when parsed);
    /// `output` has `identity name=mark` (not linked upstream) and `queue name=encodequeue`.
    /// `backlog` frames may wait before the encoder; while that many do, `encoderIsBehind`.
    public init(capture: String, output: String, backlog: Int) throws(MediaError) {
        pipeline = try Pipeline(parts: ["capture": capture, "output": output])
        mark = try pipeline.element(named: "mark")
        queue = try pipeline.element(named: "encodequeue")
        backlogLimit = UInt32(max(backlog, 1))
        // Counted in frames only (the default 10 MB and 1 s would drop or block on their own);
        // one more than the backlog, so the queue never blocks the camera: frames are dropped
        // before it, by the caller, and counted.
        try queue.set("max-size-buffers", Int(backlogLimit) + 1)
        try queue.set("max-size-bytes", 0)
        try queue.set("max-size-time", 0)
        try splice()
        // The pictures are paced by the system clock, as the capture alone was: a sound source's
        // clock (pulsesrc provides one, and would be chosen) would pace them too, and a PulseAudio
        // source that was slow to start gave 2.2 s of pictures in 4 s. Sound is slaved to it.
        let clock = gst_system_clock_obtain()
        gst_pipeline_use_clock(gcast(pipeline.element), clock)
        gst_object_unref(UnsafeMutableRawPointer(clock))
    }

    /// Takes the capture's appsink out and links what fed it to `mark` (through ghost pads: the
    /// two are in different bins).
    private func splice() throws(MediaError) {
        let sink = try pipeline.element(named: "frames")
        guard let sinkPad = gst_element_get_static_pad(sink.pointer, "sink") else {
            throw .missingNamedElement(name: "frames", pipeline: pipeline.description)
        }
        defer { gst_object_unref(UnsafeMutableRawPointer(sinkPad)) }
        guard let upstream = gst_pad_get_peer(sinkPad) else {
            throw .invalidTemplate("appsink name=frames must be linked to a fixed element before it (end the capture with {caps} ! appsink name=frames)")
        }
        defer { gst_object_unref(UnsafeMutableRawPointer(upstream)) }
        guard let feeder = gst_pad_get_parent_element(upstream) else {
            throw .invalidTemplate("appsink name=frames is fed by a pad without an element")
        }
        defer { gst_object_unref(UnsafeMutableRawPointer(feeder)) }
        _ = gst_pad_unlink(upstream, sinkPad)
        if let parent = gst_object_get_parent(gcast(sink.pointer)) {
            gst_bin_remove(gcast(parent), sink.pointer)
            gst_object_unref(UnsafeMutableRawPointer(parent))
        }
        let padName = objectName(gcast(upstream))
        guard gst_element_link_pads(feeder, padName, mark.pointer, "sink") != 0 else {
            throw .invalidTemplate("the capture's \(objectName(gcast(feeder))) cannot be linked to the marks")
        }
    }

    /// Starts the stream. `mark` is called for every frame (see `Mark`); `accepts` for every
    /// format the capture settles on, before the encoder sees it (a refusal fails the stream
    /// there, so no encoder error comes first); `ending` once, when the end of the stream passes
    /// the marks (from the source, or from `finish`), before the encoder and muxers see it.
    public func start(mark: @escaping Mark, accepts: @escaping (_ width: Int, _ height: Int) -> Error?,
                      ending: @escaping () -> Void) throws(MediaError) {
        marking.action = mark
        try marking.install(on: pipeline, element: "mark")
        events.accepts = accepts
        events.ending = ending
        events.marking = marking
        guard let pad = gst_element_get_static_pad(self.mark.pointer, "src") else {
            throw .missingNamedElement(name: "mark", pipeline: pipeline.description)
        }
        defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
        gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, eventProbe, Unmanaged.passRetained(events).toOpaque()) {
            if let context = $0 { Unmanaged<AnyObject>.fromOpaque(context).release() }
        }
        // Not waited for: the sinks of a live pipeline complete the change only with data.
        try pipeline.setState(.playing, wait: false)
    }

    /// Whether `backlog` frames already wait before the encoder: the next one should be dropped
    /// (a live source is never held up by a slow encoder).
    public var encoderIsBehind: Bool {
        let object: UnsafeMutablePointer<GObject> = gcast(queue.pointer)
        var value = GValue()
        g_value_init(&value, gType(7))  // G_TYPE_UINT
        defer { g_value_unset(&value) }
        g_object_get_property(object, "current-level-buffers", &value)
        return g_value_get_uint(&value) >= backlogLimit
    }

    /// The failure that stopped the marks (the action's, or a format refused), if any.
    public var failure: Error? { marking.lock.withLock { marking.failure } }

    /// The next error or the end from the bus, waiting up to `timeout`; nil when neither came.
    public func poll(timeout: Duration) -> Pipeline.BusResult? {
        let result = pipeline.waitForEndOrError(timeout: timeout)
        if result == .endOfStream { ended = true }
        return result
    }

    /// Whether `error` came from the capture's side (the camera, the file source, their decoding).
    public func isCapture(_ error: MediaError) -> Bool { error.isInside(part: "capture") }

    /// Ends the stream and waits (bounded) until every sink has it: the encoder drains, muxers
    /// write their index. The end goes in at the marks, so it does not depend on the source (a
    /// camera that failed still gets its recording finalised). Then the pipeline stops.
    public func finish(timeout: Duration) throws(MediaError) {
        defer { abort() }
        guard !ended else { return }
        if let pad = gst_element_get_static_pad(mark.pointer, "sink") {
            // Refused (harmlessly) when the source's own end already passed.
            _ = gst_pad_send_event(pad, gst_event_new_eos())
            gst_object_unref(UnsafeMutableRawPointer(pad))
        }
        switch pipeline.waitForEndOrError(timeout: timeout) {
        case .endOfStream: ended = true
        case .error(let error): throw error
        case nil: throw .timeout("the stream did not finish within \(timeout)")
        }
    }

    /// Stops at once without finalising (second Ctrl-C, or after a failure of the output). The
    /// caller's closures are let go (they may hold this stream).
    public func abort() {
        pipeline.stop()
        marking.lock.withLock { marking.action = nil }
        events.accepts = nil
        events.ending = nil
    }
}

/// What the event probe on `mark`'s source pad calls (streaming thread, or `finish`'s).
private final class EventWatch: @unchecked Sendable {
    var accepts: ((Int, Int) -> Error?)?
    var ending: (() -> Void)?
    var marking: MarkProbe?
    private let lock = NSLock()
    private var endSeen = false

    func handle(_ event: UnsafeMutablePointer<GstEvent>) -> GstPadProbeReturn {
        switch event.pointee.type {
        case GST_EVENT_CAPS:
            var caps: UnsafeMutablePointer<GstCaps>?
            gst_event_parse_caps(event, &caps)
            guard let caps, let marking else { return GST_PAD_PROBE_OK }
            let refusal: Error?
            do {
                let info = try rawVideoInfo(caps, at: "mark")
                refusal = accepts?(Int(info.width), Int(info.height))
            } catch {
                refusal = error
            }
            guard let refusal else { return GST_PAD_PROBE_OK }
            marking.lock.withLock { marking.failure = marking.failure ?? refusal }
            // Kept from the encoder, which would fail on it with words of its own.
            return GST_PAD_PROBE_DROP
        case GST_EVENT_EOS:
            let first = lock.withLock { () -> Bool in defer { endSeen = true }; return !endSeen }
            if first { ending?() }
            return GST_PAD_PROBE_OK
        default:
            return GST_PAD_PROBE_OK
        }
    }
}

private let eventProbe: GstPadProbeCallback = { _, info, context in
    guard let info, let context, let data = info.pointee.data else { return GST_PAD_PROBE_OK }
    return Unmanaged<EventWatch>.fromOpaque(context).takeUnretainedValue().handle(data.assumingMemoryBound(to: GstEvent.self))
}
