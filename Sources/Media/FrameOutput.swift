import CGStreamer
import CGstApp
import CGstVideo

/// An output: a pipeline starting with `appsrc name=stamped` (an encoder and a sink after it).
public final class FrameOutput: @unchecked Sendable {
    public let pipeline: Pipeline
    private let source: Element
    private var appsrc: UnsafeMutablePointer<GstAppSrc> { gcast(source.pointer) }
    private var currentCaps: UnsafeMutablePointer<GstCaps>?
    private var ended = false
    private let blocking: Bool
    private let maxBuffers: UInt64

    /// `block: true` makes `push` wait when `maxBuffers` are queued (a file must get every frame);
    /// `block: false` drops the frame instead when the queue is full (live: `push` returns false,
    /// so latency and memory stay bounded when the encoder falls behind).
    public init(pipeline: Pipeline, maxBuffers: Int = 4, block: Bool = true, sourceName: String = "stamped") throws(MediaError) {
        self.pipeline = pipeline
        blocking = block
        self.maxBuffers = UInt64(maxBuffers)
        source = try pipeline.element(named: sourceName)
        // appsrc defaults to format=bytes: muxers then write a 0-second file and exit 0.
        try source.set("format", "time")
        try source.set("block", block)
        try source.set("max-buffers", maxBuffers)
        try source.set("max-bytes", 0)
    }

    deinit {
        if let currentCaps { gst_caps_unref(currentCaps) }
    }

    /// Starts the pipeline without waiting for preroll, which only happens after the first frame.
    public func start() throws(MediaError) {
        try pipeline.setState(.playing, wait: false)
    }

    /// Sends `frame` downstream. Returns false when a non-blocking output dropped it.
    @discardableResult
    public func push(_ frame: VideoFrame) throws(MediaError) -> Bool {
        if let error = pipeline.pendingError() { throw error }
        if currentCaps == nil || gst_caps_is_equal(currentCaps, frame.caps) == 0 {
            gst_app_src_set_caps(appsrc, frame.caps)
            if let currentCaps { gst_caps_unref(currentCaps) }
            currentCaps = gst_caps_ref(frame.caps)
        }
        if !blocking && gst_app_src_get_current_level_buffers(appsrc) >= maxBuffers { return false }
        let result = gst_app_src_push_buffer(appsrc, frame.bufferReference())
        if result != GST_FLOW_OK {
            if let error = pipeline.pendingError() ?? pipeline.waitForError(timeout: .milliseconds(500)) { throw error }
            throw .stream(element: source.name, domain: "camstamp", code: Int(result.rawValue),
                          message: "output stopped (\(String(cString: gst_flow_get_name(result))))", debug: nil)
        }
        return true
    }

    /// Ends the stream and waits (bounded) for it to be written completely: muxers write their
    /// index on EOS, so a file stopped without this is unplayable.
    public func finish(timeout: Duration = .seconds(10)) throws(MediaError) {
        guard !ended else { return }
        ended = true
        gst_app_src_end_of_stream(appsrc)
        defer { pipeline.stop() }
        switch pipeline.waitForEndOrError(timeout: timeout) {
        case .endOfStream: return
        case .error(let error): throw error
        case nil: throw .timeout("\(pipeline.description.prefix(60))… did not finish within \(timeout)")
        }
    }

    /// Stops at once without finalising (second Ctrl-C, or after a failure).
    public func abort() {
        ended = true
        pipeline.stop()
    }
}
