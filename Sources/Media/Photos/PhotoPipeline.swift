// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CGStreamer
internal import CGstApp
internal import CGstVideo
import Foundation

/// Decode → orient → scale → mark → encode, in one pipeline that is reused for photo after photo.
///
/// The marks are blended in a pad probe as the upright frame passes the element named `mark`:
/// there the buffer is owned by the pipeline alone, so it is written in place, never copied, and
/// only one decoded frame per pipeline is alive at a time. After an error the pipeline is rebuilt
/// for the next photo.
public final class PhotoPipeline: @unchecked Sendable {
    /// The widest and tallest picture a photo pipeline takes: GStreamer 1.22's videoconvert and
    /// videoscale accept at most 32767 pixels a side, and refuse more as "not-negotiated".
    public static let maxSide = 32767

    private let template: PipelineTemplate
    private let input: PhotoCodec
    private let values: [String: PipelineTemplate.Value]
    private var parts: Parts?
    private var sequence: UInt64 = 0

    /// What the probe calls, and what it found; guarded by its lock (probe thread vs caller).
    private final class Marking: @unchecked Sendable {
        let lock = NSLock()
        var action: ((VideoFrame) -> Error?)?
        var failure: Error?
        /// Set when the photo's end marker passed without a frame before it: the decoder gave up.
        var undecodable = false
        var sawFrame = false
        /// Frames that had to be copied to be written (expected: none).
        var copies = 0
    }

    /// How many frames the probe had to copy before writing (0 when buffers are ours alone).
    var framesCopied: Int { parts.map { parts in parts.marking.lock.withLock { parts.marking.copies } } ?? 0 }

    private struct Parts {
        let pipeline: Pipeline
        let source: Element
        let orient: Element
        let size: Element
        /// The optional per-photo elements (`work`, `encoding`, `encoder`); nil when the template has none.
        let work: Element?
        let encoding: Element?
        let encoder: Element?
        let output: Element
        let marking: Marking
        /// What each per-photo property was last set to, by element and property name.
        let applied = Applied()
    }

    /// The per-photo properties as last set: a capsfilter (and appsrc) renegotiates the whole
    /// pipeline at every set, even to the caps it already has, so an unchanged value is not set
    /// again.
    private final class Applied {
        var values: [String: String] = [:]

        func set(_ element: Element, _ property: String, _ value: String) throws(MediaError) {
            let key = element.name + "." + property
            guard values[key] != value else { return }
            values[key] = nil
            try element.set(property, value)
            values[key] = value
        }
    }

    /// `template` has `{decoder}` and the other placeholders in `values` (e.g. `{quality}`).
    public init(template: PipelineTemplate, input: PhotoCodec, values: [String: PipelineTemplate.Value]) {
        self.template = template
        self.input = input
        self.values = values
    }

    private func build() throws(MediaError) -> Parts {
        if let parts { return parts }
        var values = self.values
        values["decoder"] = .fragment(input.decoder)
        let pipeline = try Pipeline(template.render(values))
        let source = try pipeline.element(named: "encoded")
        // One photo at a time in, one file at a time out; nothing dropped.
        try source.configure(AppSrcSettings.frames(maxBuffers: 1, block: true))
        // Raw input gets each picture's own caps as it is pushed; unfixed caps here could be
        // negotiated before the first picture arrives.
        if input != .raw { try source.set("caps", input.caps) }
        let output = try pipeline.element(named: "output")
        try output.configure(AppSinkSettings.everyBuffer(maxBuffers: 1))
        let marking = Marking()
        let mark = try pipeline.element(named: "mark")
        guard let pad = gst_element_get_static_pad(mark.pointer, "src") else {
            throw .missingNamedElement(name: "mark", pipeline: pipeline.description)
        }
        // The probe holds one ref to `marking`, released with the probe.
        let context = Unmanaged.passRetained(marking).toOpaque()
        gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, markProbe, context) {
            if let context = $0 { Unmanaged<AnyObject>.fromOpaque(context).release() }
        }
        gst_object_unref(UnsafeMutableRawPointer(pad))
        // The photo's end marker is seen as it leaves appsrc: the streaming thread pushes it only
        // once the photo's buffer has gone all the way through (no queues), marked or dropped.
        guard let sourcePad = gst_element_get_static_pad(source.pointer, "src") else {
            throw .missingNamedElement(name: "encoded", pipeline: pipeline.description)
        }
        gst_pad_add_probe(
            sourcePad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, endProbe, Unmanaged.passRetained(marking).toOpaque()
        ) {
            if let context = $0 { Unmanaged<AnyObject>.fromOpaque(context).release() }
        }
        gst_object_unref(UnsafeMutableRawPointer(sourcePad))
        let encoder = try? pipeline.element(named: "encoder")
        if let encoder { try JPEGEncoderInput.install(on: encoder) }
        let built = Parts(
            pipeline: pipeline, source: source, orient: try pipeline.element(named: "orient"),
            size: try pipeline.element(named: "size"), work: try? pipeline.element(named: "work"),
            encoding: try? pipeline.element(named: "encoding"), encoder: encoder,
            output: output, marking: marking)
        try pipeline.setState(.playing, wait: false)
        parts = built
        return built
    }

    /// Runs one photo through: `data` is the file's bytes; `size` is the upright output size when
    /// scaling. `mark` is called once, on a streaming thread, with the upright frame to draw on in
    /// place (the frame is valid only during the call); an error it returns fails the photo.
    /// Returns the encoded file.
    public func process(
        _ data: Data, orientation: Orientation, size: (width: Int, height: Int)?,
        mark: @escaping (VideoFrame) -> Error?
    ) throws -> Data {
        try process(data, request: PhotoRequest(orientation: orientation, size: size), mark: mark)
    }

    /// Runs one photo's bytes through as `request` says (see `process(_:orientation:size:mark:)`).
    public func process(_ data: Data, request: PhotoRequest, mark: @escaping (VideoFrame) -> Error?) throws -> Data {
        _ = try build()  // GStreamer is initialised before the first buffer is made.
        let buffer = data.withUnsafeBytes { bytes -> UnsafeMutablePointer<GstBuffer> in
            let buffer = gst_buffer_new_allocate(nil, gsize(bytes.count), nil)!
            _ = gst_buffer_fill(buffer, 0, bytes.baseAddress, gsize(bytes.count))
            return buffer
        }
        return try run(buffer, caps: nil, request: request, mark: mark)
    }

    /// Runs a picture decoded outside GStreamer through a `.raw` pipeline; the picture's buffer is
    /// handed over (the picture is empty afterwards), so the probe writes it in place.
    public func process(
        _ picture: DecodedPicture, request: PhotoRequest, mark: @escaping (VideoFrame) -> Error?
    ) throws -> Data {
        precondition(input == .raw, "a decoded picture needs a pipeline built for raw input")
        guard let buffer = picture.buffer else { preconditionFailure("a decoded picture goes through a pipeline once") }
        picture.buffer = nil
        return try run(buffer, caps: picture.caps, request: request, mark: mark)
    }

    /// As `process(_:request:mark:)`, through a template that ends in raw video (`photo-raw`):
    /// the marked picture comes back as packed RGB or RGBA (`request.encodingFormat`), for an
    /// encoder outside GStreamer (libheif, libtiff).
    public func processToRaw(
        _ data: Data, request: PhotoRequest, mark: @escaping (VideoFrame) -> Error?
    ) throws -> RawImage {
        lastRaw = nil
        _ = try process(data, request: request, mark: mark)
        return try takeRaw()
    }

    /// As `process(_:request:mark:)` for a decoded picture, giving raw pixels (see `processToRaw`).
    public func processToRaw(
        _ picture: DecodedPicture, request: PhotoRequest, mark: @escaping (VideoFrame) -> Error?
    ) throws -> RawImage {
        lastRaw = nil
        _ = try process(picture, request: request, mark: mark)
        return try takeRaw()
    }

    /// The layout of the last raw output, read from its caps.
    private var lastRaw: (width: Int, height: Int, stride: Int, format: String)?
    private var lastOutput = Data()

    private func takeRaw() throws(MediaError) -> RawImage {
        guard let layout = lastRaw, layout.format == "RGB" || layout.format == "RGBA" else {
            throw .unexpectedOutput(expected: "packed RGB or RGBA", got: lastRaw?.format ?? "encoded data")
        }
        let pixels = lastOutput
        lastOutput = Data()
        return RawImage(
            pixels: pixels, width: layout.width, height: layout.height, stride: layout.stride,
            hasAlpha: layout.format == "RGBA")
    }

    /// Pushes `buffer` (adopted) and waits for its encoded file.
    private func run(
        _ buffer: UnsafeMutablePointer<GstBuffer>, caps: String?, request: PhotoRequest,
        mark: @escaping (VideoFrame) -> Error?
    ) throws -> Data {
        let parts: Parts
        do { parts = try build() } catch {
            gst_buffer_unref(buffer)
            throw error
        }
        do {
            let applied = parts.applied
            try applied.set(parts.orient, "video-direction", request.orientation.videoDirection)
            try applied.set(
                parts.size, "caps",
                request.size.map { "video/x-raw,width=\($0.width),height=\($0.height),pixel-aspect-ratio=1/1" }
                    ?? "video/x-raw")
            try setFormat(request.workFormat, on: parts.work, named: "work", in: parts)
            try setFormat(request.encodingFormat, on: parts.encoding, named: "encoding", in: parts)
            if let quality = request.quality {
                guard let encoder = parts.encoder else {
                    throw MediaError.missingNamedElement(name: "encoder", pipeline: parts.pipeline.description)
                }
                try applied.set(encoder, "quality", String(quality))
            }
            if let caps { try applied.set(parts.source, "caps", caps) }
            parts.marking.lock.withLock {
                parts.marking.action = mark
                parts.marking.failure = nil
                parts.marking.undecodable = false
                parts.marking.sawFrame = false
            }
        } catch {
            gst_buffer_unref(buffer)
            parts.pipeline.stop()
            self.parts = nil
            throw error
        }
        do {
            // Each photo is one second after the last: timestamps only need to increase.
            buffer.pointee.pts = GstClockTime(sequence * 1_000_000_000)
            buffer.pointee.duration = 1_000_000_000
            sequence += 1
            let flow = gst_app_src_push_buffer(parts.source.appSource, buffer)
            guard flow == GST_FLOW_OK else {
                throw parts.pipeline.pendingError()
                    ?? MediaError.outputStopped(
                        element: parts.source.name, flow: String(cString: gst_flow_get_name(flow)))
            }
            // A marker behind the photo: a decoder that drops a damaged picture without a word
            // (jpegdec does) lets it through with no frame before it, and we know at once.
            gst_element_send_event(
                parts.source.pointer,
                gst_event_new_custom(
                    GST_EVENT_CUSTOM_DOWNSTREAM,
                    gst_structure_new_empty(Self.photoEnd)))
            let encoded = try pullOutput(parts)
            let failure = parts.marking.lock.withLock { () -> Error? in
                defer { parts.marking.action = nil }
                return parts.marking.failure
            }
            if let failure { throw failure }
            return encoded
        } catch {
            // The pipeline may be half-broken now: start afresh for the next photo.
            parts.pipeline.stop()
            self.parts = nil
            throw error
        }
    }

    /// Sets a per-photo format on a capsfilter the template may have; asking for one the template
    /// lacks is an error, not a silent no-op.
    private func setFormat(
        _ format: String?, on element: Element?, named name: String, in parts: Parts
    ) throws(MediaError) {
        guard let element else {
            if format != nil { throw .missingNamedElement(name: name, pipeline: parts.pipeline.description) }
            return
        }
        try parts.applied.set(element, "caps", format.map { "video/x-raw,format=\($0)" } ?? "video/x-raw")
    }

    private func pullOutput(_ parts: Parts) throws(MediaError) -> Data {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if let sample = gst_app_sink_try_pull_sample(parts.output.appSink, 200_000_000) {
                defer { gst_sample_unref(sample) }
                guard let buffer = gst_sample_get_buffer(sample) else { throw .emptySample(element: parts.output.name) }
                var map = GstMapInfo()
                guard gst_buffer_map(buffer, &map, GST_MAP_READ) != 0 else {
                    throw .unexpectedOutput(expected: "an encoded photo", got: "a buffer that cannot be read")
                }
                defer { gst_buffer_unmap(buffer, &map) }
                let bytes = Data(bytes: map.data, count: Int(map.size))
                // Raw output: its layout comes from the caps (strides are padded to 4 bytes).
                var info = GstVideoInfo()
                if let caps = gst_sample_get_caps(sample), gst_video_info_from_caps(&info, caps) != 0,
                    let name = gst_video_format_to_string(info.finfo.pointee.format)
                {
                    lastRaw = (Int(info.width), Int(info.height), Int(info.stride.0), String(cString: name))
                    lastOutput = bytes
                }
                return bytes
            }
            if let error = parts.pipeline.pendingError() { throw error }
            if parts.marking.lock.withLock({ parts.marking.undecodable }) { throw .damagedPicture }
        }
        throw .timeout("the photo took longer than 60 s")
    }

    /// Blends in place as the frame passes (streaming thread). Never throws or traps: a failure
    /// is recorded for `process` to report.
    static let photoEnd = "camstamp-photo-end"

    /// Takes the end marker out of the stream and notes whether a frame came before it.
    private let endProbe: GstPadProbeCallback = { _, info, context in
        guard let info, let context, let data = info.pointee.data else { return GST_PAD_PROBE_OK }
        let event = data.assumingMemoryBound(to: GstEvent.self)
        guard event.pointee.type == GST_EVENT_CUSTOM_DOWNSTREAM, let structure = gst_event_get_structure(event),
            gst_structure_has_name(structure, PhotoPipeline.photoEnd) != 0
        else { return GST_PAD_PROBE_OK }
        let marking = Unmanaged<Marking>.fromOpaque(context).takeUnretainedValue()
        marking.lock.withLock { if !marking.sawFrame { marking.undecodable = true } }
        return GST_PAD_PROBE_DROP
    }

    private let markProbe: GstPadProbeCallback = { pad, info, context in
        guard let pad, let info, let context, let data = info.pointee.data else { return GST_PAD_PROBE_OK }
        let marking = Unmanaged<Marking>.fromOpaque(context).takeUnretainedValue()
        marking.lock.withLock { marking.sawFrame = true }
        guard let action = marking.lock.withLock({ marking.action }) else { return GST_PAD_PROBE_OK }
        // Normally ours alone already; if not, the probe may swap in a writable copy.
        let buffer: UnsafeMutablePointer<GstBuffer> = gcast(
            gst_mini_object_make_writable(data.assumingMemoryBound(to: GstMiniObject.self)))
        if UnsafeMutableRawPointer(buffer) != data { marking.lock.withLock { marking.copies += 1 } }
        info.pointee.data = UnsafeMutableRawPointer(buffer)
        // A frame that cannot be marked is a failure, never a photo let through unmarked.
        var failure: Error?
        if let caps = gst_pad_get_current_caps(pad) {
            do {
                let frame = VideoFrame(borrowing: buffer, caps: caps, info: try rawVideoInfo(caps, at: "mark"))
                failure = action(frame)
            } catch {
                failure = error
            }
            gst_caps_unref(caps)
        } else {
            failure = MediaError.notRawVideo(element: "mark", caps: "no caps")
        }
        marking.lock.withLock { marking.failure = failure }
        return GST_PAD_PROBE_OK
    }
}
