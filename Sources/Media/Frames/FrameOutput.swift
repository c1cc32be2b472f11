// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CGStreamer
internal import CGstApp
internal import CGstVideo

/// An output: a pipeline starting with `appsrc name=stamped` (an encoder and a sink after it).
public final class FrameOutput: @unchecked Sendable {
    public let pipeline: Pipeline
    private let source: Element
    private var appsrc: UnsafeMutablePointer<GstAppSrc> { source.appSource }
    private let caps = CapsTracker()
    private var ended = false
    private let blocking: Bool
    private let maxBuffers: UInt64

    /// `block: true` makes `push` wait when `maxBuffers` are queued (a file must get every frame);
    /// `block: false` drops the frame instead when the queue is full (live: `push` returns false,
    /// so latency and memory stay bounded when the encoder falls behind).
    public init(
        pipeline: Pipeline, maxBuffers: Int = 4, block: Bool = true, sourceName: String = "stamped"
    ) throws(MediaError) {
        self.pipeline = pipeline
        blocking = block
        self.maxBuffers = UInt64(maxBuffers)
        source = try pipeline.element(named: sourceName)
        try source.configure(AppSrcSettings.frames(maxBuffers: maxBuffers, block: block))
        // A still's (or the preview's) jpegenc gets rows of whole blocks (see JPEGEncoderInput).
        if let encoder = try? pipeline.element(named: "encoder") { try JPEGEncoderInput.install(on: encoder) }
    }

    /// Starts the pipeline without waiting for preroll, which only happens after the first frame.
    public func start() throws(MediaError) {
        try pipeline.setState(.playing, wait: false)
    }

    /// Sends `frame` downstream. Returns false when a non-blocking output dropped it.
    @discardableResult
    public func push(_ frame: VideoFrame) throws(MediaError) -> Bool {
        if let error = pipeline.pendingError() { throw error }
        caps.update(frame.caps, on: appsrc)
        if !blocking && gst_app_src_get_current_level_buffers(appsrc) >= maxBuffers { return false }
        let result = gst_app_src_push_buffer(appsrc, frame.bufferReference())
        if result != GST_FLOW_OK {
            if let error = pipeline.pendingError() ?? pipeline.waitForError(timeout: .milliseconds(500)) { throw error }
            throw .outputStopped(element: source.name, flow: String(cString: gst_flow_get_name(result)))
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
