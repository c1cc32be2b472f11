import CGStreamer
import CGstApp
import Foundation

/// EXIF orientation (1…8) as the flip that makes the picture upright.
public enum Orientation: Int, Sendable, CaseIterable {
    case normal = 1, mirrored, rotated180, flipped, transposed, rotated90, transverse, rotated270

    /// videoflip's method nick for this orientation.
    var flipMethod: String {
        switch self {
        case .normal: "none"
        case .mirrored: "horizontal-flip"
        case .rotated180: "rotate-180"
        case .flipped: "vertical-flip"
        case .transposed: "upper-left-diagonal"
        case .rotated90: "clockwise"
        case .transverse: "upper-right-diagonal"
        case .rotated270: "counterclockwise"
        }
    }

    /// Whether the upright picture swaps width and height.
    public var swapsAxes: Bool { rawValue >= 5 }
}

/// Decodes photos (JPEG or PNG bytes) into upright frames, reusing one pipeline for many photos.
/// After a decoding error the pipeline is rebuilt for the next photo.
public final class StillDecoder: @unchecked Sendable {
    private let template: PipelineTemplate
    private let caps: String
    private var parts: (pipeline: Pipeline, source: Element, sink: FrameSource, orient: Element, size: Element)?
    private var sequence: UInt64 = 0

    /// `caps`: what the bytes are, `image/jpeg` or `image/png`.
    public init(template: PipelineTemplate, caps: String) {
        self.template = template
        self.caps = caps
    }

    private func build() throws(MediaError) -> (pipeline: Pipeline, source: Element, sink: FrameSource, orient: Element, size: Element) {
        if let parts { return parts }
        let pipeline = try Pipeline(template.render([:]))
        let source = try pipeline.element(named: "encoded")
        try source.set("format", "time")
        try source.set("caps", caps)
        try source.set("block", true)
        try source.set("max-buffers", 2)
        // A photo's frames must all arrive: not live, no dropping.
        let sink = try FrameSource(pipeline: pipeline, live: false, maxBuffers: 1)
        let built = (pipeline, source, sink, try pipeline.element(named: "orient"), try pipeline.element(named: "size"))
        try pipeline.setState(.playing, wait: false)
        parts = built
        return built
    }

    /// Decodes `data`, applies `orientation` and scales to `size` (upright) when given.
    public func decode(_ data: Data, orientation: Orientation, size: (width: Int, height: Int)?) throws(MediaError) -> VideoFrame {
        let parts = try build()
        do throws(MediaError) {
            try parts.orient.set("method", orientation.flipMethod)
            try parts.size.set("caps", size.map { "video/x-raw,width=\($0.width),height=\($0.height),pixel-aspect-ratio=1/1" } ?? "video/x-raw")
            let buffer = data.withUnsafeBytes { bytes -> UnsafeMutablePointer<GstBuffer> in
                let buffer = gst_buffer_new_allocate(nil, gsize(bytes.count), nil)!
                _ = gst_buffer_fill(buffer, 0, bytes.baseAddress, gsize(bytes.count))
                return buffer
            }
            // Each photo is one second after the last: timestamps only need to increase.
            buffer.pointee.pts = GstClockTime(sequence * 1_000_000_000)
            buffer.pointee.duration = 1_000_000_000
            sequence += 1
            let result = gst_app_src_push_buffer(gcast(parts.source.pointer), buffer)
            guard result == GST_FLOW_OK else {
                throw parts.pipeline.pendingError() ?? .stream(element: "decoder", domain: "camstamp", code: Int(result.rawValue),
                                                               message: "decoder stopped", debug: nil)
            }
            let deadline = ContinuousClock.now + .seconds(30)
            while ContinuousClock.now < deadline {
                switch try parts.sink.pull(timeout: .milliseconds(200)) {
                case .frame(let frame): return frame
                case .endOfStream: throw MediaError.stream(element: "decoder", domain: "camstamp", code: 0, message: "no picture in the file", debug: nil)
                case .timeout: continue
                }
            }
            throw MediaError.timeout("decoding took longer than 30 s")
        } catch {
            // The pipeline may be half-broken now: start afresh for the next photo.
            self.parts = nil
            throw error
        }
    }
}

/// Encodes frames to JPEG or PNG bytes in memory, reusing one pipeline for many frames.
public final class StillEncoder: @unchecked Sendable {
    private let template: PipelineTemplate
    private let values: [String: PipelineTemplate.Value]
    private var parts: (output: FrameOutput, sink: Element)?
    private var sequence: UInt64 = 0

    public init(template: PipelineTemplate, values: [String: PipelineTemplate.Value]) {
        self.template = template
        self.values = values
    }

    private func build() throws(MediaError) -> (output: FrameOutput, sink: Element) {
        if let parts { return parts }
        let pipeline = try Pipeline(template.render(values))
        let output = try FrameOutput(pipeline: pipeline, maxBuffers: 2, block: true)
        let sink = try pipeline.element(named: "encoded")
        try sink.set("sync", false)
        try sink.set("max-buffers", 1)
        try sink.set("enable-last-sample", false)
        try output.start()
        parts = (output, sink)
        return (output, sink)
    }

    /// The encoded bytes of `frame`.
    public func encode(_ frame: VideoFrame) throws(MediaError) -> Data {
        let parts = try build()
        do throws(MediaError) {
            frame.setTimestamps(pts: sequence * 1_000_000_000, duration: 1_000_000_000)
            sequence += 1
            try parts.output.push(frame)
            let deadline = ContinuousClock.now + .seconds(30)
            while ContinuousClock.now < deadline {
                if let sample = gst_app_sink_try_pull_sample(gcast(parts.sink.pointer), GstClockTime(200_000_000)) {
                    defer { gst_sample_unref(sample) }
                    guard let buffer = gst_sample_get_buffer(sample) else { break }
                    var map = GstMapInfo()
                    guard gst_buffer_map(buffer, &map, GST_MAP_READ) != 0 else { break }
                    defer { gst_buffer_unmap(buffer, &map) }
                    return Data(bytes: map.data, count: Int(map.size))
                }
                if let error = parts.output.pipeline.pendingError() { throw error }
            }
            throw MediaError.timeout("encoding took longer than 30 s")
        } catch {
            self.parts?.output.abort()
            self.parts = nil
            throw error
        }
    }
}
