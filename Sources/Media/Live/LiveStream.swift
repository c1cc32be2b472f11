// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CGStreamer
internal import CGstApp
internal import CGstVideo
import Foundation
import Synchronization

/// A live stream in one pipeline: the capture (its template, `appsink name=frames` taken out)
/// linked straight to the output, a template that starts at `identity name=pace` and then waits
/// for the encoder in `queue name=mark`. Swift owns what it must, in pad probes on `mark`, and
/// no frame crosses into a Swift thread:
///
/// - as a frame enters `mark` (the capture's thread), whether it is taken: it is left out past
///   the end, or when `backlog` frames already wait for the encoder (a live source is never held
///   up by a slow encoder), so latency and memory stay bounded;
/// - as it leaves `mark` (the encoder's thread), the marks are blended in place (`MarkProbe`, the
///   clip's). By then the capture has let go of it (videorate holds the frame it pushes until the
///   push returns: marked on the capture's thread, every frame was copied to be written).
///
/// The capture and the output are bins of their own (`capture`, `output`), so an error says by its
/// element path which side it came from (`isCapture`).
public final class LiveStream: @unchecked Sendable {
    /// The one pipeline: the bins `capture` and `output`, linked.
    public let pipeline: Pipeline
    private let marking = MarkProbe()
    private let admission = Admission()
    /// The file sinks' watches, by the location each writes.
    private var files: FileSinkWatches?
    private let queue: Element
    private let pace: Element
    private var ended = false
    /// The failed-branch gates of `isolateFailedBranches`, once it was called.
    var gates: BranchGates?

    /// Frame by frame, on the encoder's thread: the frame to draw on in place, its 0-based number
    /// among the frames taken, and its timestamp (ns on the pipeline's running time).
    public typealias Mark = (VideoFrame, Int, UInt64?) -> MarkVerdict
    /// Frame by frame, on the capture's thread, before the encoder's queue: whether to take the
    /// frame with this timestamp, knowing whether the encoder is behind (`backlog` frames wait).
    public typealias Admit = (_ pts: UInt64?, _ encoderIsBehind: Bool) -> Bool

    /// `capture` ends in `appsink name=frames` (linked to the element before it when parsed);
    /// `output` starts with the element named `pace` (not linked upstream) and has the queue named
    /// `mark` before the encoder, where `backlog` frames may wait.
    public init(capture: String, output: String, backlog: Int) throws(MediaError) {
        pipeline = try Pipeline(parts: ["capture": capture, "output": output])
        pace = try pipeline.element(named: "pace")
        queue = try pipeline.element(named: "mark")
        admission.backlog = UInt32(max(backlog, 1))
        // Counted in frames only (the default 10 MB and 1 s would drop or block on their own);
        // one more than the backlog, so the queue never blocks the camera: frames are left out
        // before it, and counted.
        try queue.set("max-size-buffers", backlog + 1)
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

    /// Takes the capture's appsink out and links what fed it to `pace` (through ghost pads: the
    /// two are in different bins).
    private func splice() throws(MediaError) {
        let sink = try pipeline.element(named: "frames")
        guard let sinkPad = gst_element_get_static_pad(sink.pointer, "sink") else {
            throw .missingNamedElement(name: "frames", pipeline: pipeline.description)
        }
        defer { gst_object_unref(UnsafeMutableRawPointer(sinkPad)) }
        guard let upstream = gst_pad_get_peer(sinkPad) else {
            throw .invalidTemplate(
                "appsink name=frames must be linked to a fixed element before it (end the capture with {caps} ! appsink name=frames)"
            )
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
        guard gst_element_link_pads(feeder, objectName(gcast(upstream)), pace.pointer, "sink") != 0 else {
            throw .invalidTemplate("the capture's \(objectName(gcast(feeder))) cannot be linked to the stream's output")
        }
    }

    /// Starts the stream. `admit` and `mark` are called for every frame (see their types);
    /// `accepts` for every format the capture settles on, before the encoder sees it (a refusal
    /// fails the stream there, so no encoder error comes first); `ending` once, when the end of
    /// the stream reaches the encoder's queue (from the source, or from `finish`), before the
    /// encoder and muxers see it.
    public func start(
        admit: @escaping Admit, mark: @escaping Mark,
        accepts: @escaping (_ width: Int, _ height: Int, _ framesPerSecond: Double?) -> Error?,
        ending: @escaping () -> Void
    ) throws(MediaError) {
        marking.action = mark
        try marking.install(on: pipeline, element: "mark")
        admission.admit = admit
        admission.accepts = accepts
        admission.ending = ending
        admission.marking = marking
        admission.queue = queue
        guard let pad = gst_element_get_static_pad(queue.pointer, "sink") else {
            throw .missingNamedElement(name: "mark", pipeline: pipeline.description)
        }
        defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
        let types = GstPadProbeType(GST_PAD_PROBE_TYPE_BUFFER.rawValue | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM.rawValue)
        gst_pad_add_probe(pad, types, admissionProbe, Unmanaged.passRetained(admission).toOpaque()) {
            if let context = $0 { Unmanaged<AnyObject>.fromOpaque(context).release() }
        }
        files = FileSinkWatches(pipeline: pipeline)
        hideDurationsFromMuxers()
        // Not waited for: the sinks of a live pipeline complete the change only with data.
        try pipeline.setState(.playing, wait: false)
    }

    /// Whether the file sink writing `location` has a frame on disk: the muxer's output of a
    /// frame went into the file, and something came after it (a filesink writes each buffer
    /// before it takes the next, or the end). Until then the file is no recording (only headers).
    public func hasFrameOnDisk(location: String) -> Bool {
        files?.hasFrameOnDisk(location: location) ?? false
    }

    /// A live stream has no length until it ends: a clip played as the camera answered the
    /// muxers' duration query with its own, and matroskamux wrote it in the header, so a killed
    /// recording of 2.6 s said 10 s. Each file muxer's sink pads fail that query now, as with a
    /// camera (the length is written when the recording is finalised).
    private func hideDurationsFromMuxers() {
        for element in pipeline.allElements()
        where ["matroskamux", "mp4mux", "qtmux"].contains(Pipeline.factoryName(of: element.pointer) ?? "") {
            forEachPad(of: element.pointer, sink: true) { pad in
                gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_QUERY_UPSTREAM, durationQueryProbe, nil, nil)
            }
        }
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
    /// write their index. The end goes in at `pace`, so it does not depend on the source (a
    /// camera that failed still gets its recording finalised). Then the pipeline stops. Errors
    /// `ignoringErrors` says are known already (what one failed output set off on its way up)
    /// are ignored while the others finish.
    public func finish(
        timeout: Duration, ignoringErrors isKnown: (MediaError) -> Bool = { _ in false }
    ) throws(MediaError) {
        defer { abort() }
        guard !ended else { return }
        if let pad = gst_element_get_static_pad(pace.pointer, "sink") {
            // Refused (harmlessly) when the source's own end already passed.
            _ = gst_pad_send_event(pad, gst_event_new_eos())
            gst_object_unref(UnsafeMutableRawPointer(pad))
        }
        let deadline = ContinuousClock.now + timeout
        while true {
            switch pipeline.waitForEndOrError(timeout: max(deadline - ContinuousClock.now, .zero)) {
            case .endOfStream:
                ended = true
                return
            case .error(let error) where isKnown(error): continue
            case .error(let error): throw error
            case nil: throw .timeout("the stream did not finish within \(timeout)")
            }
        }
    }

    /// Stops at once without finalising (second Ctrl-C, or after a failure of the output). The
    /// caller's closures are let go (they may hold this stream).
    public func abort() {
        pipeline.stop()
        marking.lock.withLock { marking.action = nil }
        admission.clear()
    }
}

/// What the probe on the sink pad of `mark` (the encoder's queue) does, on the capture's thread
/// (or `finish`'s, for the end): frames taken or left out, formats checked, the end announced.
private final class Admission: @unchecked Sendable {
    var admit: LiveStream.Admit?
    var accepts: ((Int, Int, Double?) -> Error?)?
    var ending: (() -> Void)?
    var marking: MarkProbe?
    var queue: Element?
    var backlog: UInt32 = 1
    private let lock = NSLock()
    private var endSeen = false

    /// Lets go of the caller's closures and of the queue (which holds this through its pad),
    /// once the pipeline has stopped.
    func clear() {
        lock.withLock {
            admit = nil
            accepts = nil
            ending = nil
            queue = nil
        }
    }

    func handle(_ info: UnsafeMutablePointer<GstPadProbeInfo>, _ data: UnsafeMutableRawPointer) -> GstPadProbeReturn {
        if info.pointee.type.rawValue & GST_PAD_PROBE_TYPE_BUFFER.rawValue != 0 {
            let buffer = data.assumingMemoryBound(to: GstBuffer.self)
            guard let (admit, queue) = lock.withLock({ endSeen ? nil : admit.map { ($0, queue) } }) else {
                return GST_PAD_PROBE_DROP
            }
            let pts = buffer.pointee.pts == GstClockTime.max ? nil : UInt64(buffer.pointee.pts)
            return admit(pts, isBehind(queue)) ? GST_PAD_PROBE_OK : GST_PAD_PROBE_DROP
        }
        let event = data.assumingMemoryBound(to: GstEvent.self)
        // Nothing after the end: a capture that starts only once `finish` has sent it (a Ctrl-C
        // while the camera opens) sends its stream-start, which reopens every pad the end went
        // through, and frames the muxers, already finished, never write; counted as written,
        // they kept a recording with no frame (the end passed before any frame, and the job
        // took "frames written, then the end" for "every file holds them").
        if event.pointee.type != GST_EVENT_EOS, lock.withLock({ endSeen }) { return GST_PAD_PROBE_DROP }
        switch event.pointee.type {
        case GST_EVENT_CAPS:
            var caps: UnsafeMutablePointer<GstCaps>?
            gst_event_parse_caps(event, &caps)
            guard let caps, let marking else { return GST_PAD_PROBE_OK }
            let refusal: Error?
            do {
                let info = try rawVideoInfo(caps, at: "mark")
                let fps = info.fps_n > 0 && info.fps_d > 0 ? Double(info.fps_n) / Double(info.fps_d) : nil
                refusal = lock.withLock { accepts }?(Int(info.width), Int(info.height), fps)
            } catch {
                refusal = error
            }
            guard let refusal else { return GST_PAD_PROBE_OK }
            marking.lock.withLock { marking.failure = marking.failure ?? refusal }
            // Kept from the encoder, which would fail on it with words of its own.
            return GST_PAD_PROBE_DROP
        case GST_EVENT_EOS:
            let ending = lock.withLock { () -> (() -> Void)? in
                defer { endSeen = true }
                return endSeen ? nil : self.ending
            }
            ending?()
            return GST_PAD_PROBE_OK
        default:
            return GST_PAD_PROBE_OK
        }
    }

    /// Whether `backlog` frames already wait in `queue` for the encoder.
    private func isBehind(_ queue: Element?) -> Bool {
        guard let queue else { return false }
        let object: UnsafeMutablePointer<GObject> = gcast(queue.pointer)
        var value = GValue()
        g_value_init(&value, gType(7))  // G_TYPE_UINT
        defer { g_value_unset(&value) }
        g_object_get_property(object, "current-level-buffers", &value)
        return g_value_get_uint(&value) >= backlog
    }
}

/// Fails a duration query (dropped unanswered: the asking muxer gets false), lets any other pass.
private let durationQueryProbe: GstPadProbeCallback = { _, info, _ in
    guard let info, let data = info.pointee.data,
        data.assumingMemoryBound(to: GstQuery.self).pointee.type == GST_QUERY_DURATION
    else { return GST_PAD_PROBE_OK }
    return GST_PAD_PROBE_DROP
}

private let admissionProbe: GstPadProbeCallback = { _, info, context in
    guard let info, let context, let data = info.pointee.data else { return GST_PAD_PROBE_OK }
    return Unmanaged<Admission>.fromOpaque(context).takeUnretainedValue().handle(info, data)
}
