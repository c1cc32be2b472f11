// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CGStreamer
internal import CGstApp
internal import CGstVideo
import Foundation

/// The capture side: a pipeline ending in `appsink name=frames`, pulled from one thread with a
/// bounded wait so the puller can notice Ctrl-C, errors and the end of the stream.
public final class FrameSource: @unchecked Sendable {
    public let pipeline: Pipeline
    private let sink: Element
    private var appsink: UnsafeMutablePointer<GstAppSink> { sink.appSink }
    // Video info parsed once per distinct caps, not per frame.
    private var cachedCaps: UnsafeMutablePointer<GstCaps>?
    private var cachedInfo = GstVideoInfo()
    /// With `exclusiveFrames`, the frame pulled last, handed out only once the next one is pulled.
    private var held: VideoFrame?
    private let exclusiveFrames: Bool

    public enum Pull {
        case frame(VideoFrame)
        case endOfStream
        case timeout
    }

    /// `live`: drop old frames rather than queue them when the consumer is slower than the
    /// camera. Not live (photos, files as files): never drop, block the producer instead.
    ///
    /// `exclusiveFrames`: appsink keeps a ref to the sample it handed out last (it reuses it), so a
    /// pulled frame is shared and writing into it would first copy all of it (0.2–1 ms at 1080p).
    /// Once the next sample is pulled, appsink lets go of the previous one. With this set, each
    /// frame is handed out one pull late, when it is ours alone: blending needs no copy, at the
    /// price of one frame of latency.
    public init(pipeline: Pipeline, live: Bool, maxBuffers: Int = 2, exclusiveFrames: Bool = false) throws(MediaError) {
        self.pipeline = pipeline
        self.exclusiveFrames = exclusiveFrames
        sink = try pipeline.element(named: "frames")
        try sink.configure(live ? .live(maxBuffers: maxBuffers) : .everyBuffer(maxBuffers: maxBuffers))
    }

    deinit {
        if let cachedCaps { gst_caps_unref(cachedCaps) }
    }

    /// Starts capturing. `wait: false` for a source whose data comes later (a network receiver):
    /// its sink cannot preroll until the first packet arrives.
    public func start(wait: Bool = true) throws(MediaError) {
        try pipeline.setState(.playing, wait: wait)
    }

    /// Waits up to `timeout` for the next frame. Errors posted on the bus are thrown.
    public func pull(timeout: Duration = .milliseconds(100)) throws(MediaError) -> Pull {
        let pulled = try pullSample(timeout: timeout)
        guard exclusiveFrames else { return pulled }
        switch pulled {
        case .frame(let frame):
            defer { held = frame }
            // The first frame waits for its successor: report a timeout so the caller pulls again.
            return held.map { .frame($0) } ?? .timeout
        case .endOfStream:
            defer { held = nil }
            return held.map { .frame($0) } ?? .endOfStream
        case .timeout:
            return .timeout
        }
    }

    private func pullSample(timeout: Duration) throws(MediaError) -> Pull {
        guard let sample = gst_app_sink_try_pull_sample(appsink, GstClockTime(timeout.nanoseconds)) else {
            if let error = pipeline.pendingError() { throw error }
            return gst_app_sink_is_eos(appsink) != 0 ? .endOfStream : .timeout
        }
        guard let buffer = gst_sample_get_buffer(sample), let caps = gst_sample_get_caps(sample) else {
            gst_sample_unref(sample)
            throw .emptySample(element: sink.name)
        }
        if cachedCaps == nil || gst_caps_is_equal(cachedCaps, caps) == 0 {
            do { cachedInfo = try rawVideoInfo(caps, at: sink.name) } catch {
                gst_sample_unref(sample)
                throw error
            }
            if let cachedCaps { gst_caps_unref(cachedCaps) }
            cachedCaps = gst_caps_ref(caps)
        }
        // The frame keeps the sample (and so the buffer, whose only ref is the sample's).
        return .frame(VideoFrame(adoptingSample: sample, buffer: buffer, caps: caps, info: cachedInfo))
    }

    /// Asks the sources to finish; `pull` then drains what is queued and returns `.endOfStream`.
    public func sendEndOfStream() { pipeline.sendEndOfStream() }

    public func stop() { pipeline.stop() }
}

extension FrameSource {
    /// The first frame of an image or video file, decoded and converted to `format`: for looking
    /// at what was written (tests, previews).
    public static func firstFrame(
        of file: URL, format: PixelFormat, timeout: Duration = .seconds(10)
    ) throws(MediaError) -> VideoFrame {
        let description = try PipelineTemplate(
            "filesrc location={location} ! decodebin ! videoconvert ! video/x-raw,format={format} ! appsink name=frames"
        )
        .render(["location": .quoted(file.path), "format": .word(format.rawValue)])
        let source = try FrameSource(pipeline: Pipeline(description), live: false)
        try source.start()
        defer { source.stop() }
        guard case .frame(let frame) = try source.pull(timeout: timeout) else {
            throw .timeout("no frame decoded from \(file.path)")
        }
        return frame
    }
}
