import Foundation
import Media
import Presets

/// `camstamp shoot`: one watermarked photo from a camera (or the test camera, or a file).
public struct ShootJob {
    public let options: ShootOptions
    public let resources: Resources?

    public init(options: ShootOptions, resources: Resources? = Resources.locate()) {
        self.options = options
        self.resources = resources
    }

    /// Takes the photo and returns where it was written.
    public func run(interrupts: Interrupts? = nil) throws(CamStampError) -> URL {
        // Everything that can be checked without a camera is checked first.
        let (preset, variables) = try MarkSetup.preset(names: options.presets, text: options.text,
                                                       variables: options.variables, resources: resources)
        let destination = try StillDestination(output: options.output, format: options.format)
        let source = try SourceResolution.captureSource(for: options.source)
        let captureTemplate = try Templates.load(options.pipeline, builtIn: "capture", resources: resources)
        let stillTemplate = try Templates.load(nil, builtIn: options.format == .png ? "still-png" : "still-jpeg", resources: resources)

        let capture: FrameSource
        do {
            capture = try FrameSource.capture(source, format: CaptureFormat(width: options.size?.width,
                                                                            height: options.size?.height,
                                                                            fps: options.fps),
                                              template: captureTemplate)
            try capture.start()
        } catch {
            throw SourceResolution.captureError(error, source: source)
        }
        defer { capture.stop() }

        let frame = try grabFrame(from: capture, source: source, interrupts: interrupts)
        let marker = Marker(preset: preset, variables: variables)
        try marker.mark(frame, context: marker.context(width: frame.width, height: frame.height))
        return try destination.write { (temporary: URL) throws(CamStampError) in
            try encode(frame, to: temporary, template: stillTemplate)
        }
    }

    /// Skips the warm-up frames and returns the next one.
    private func grabFrame(from capture: FrameSource, source: CaptureSource, interrupts: Interrupts?) throws(CamStampError) -> VideoFrame {
        var remaining = options.warmup ?? source.defaultWarmup
        // A camera that gives nothing for this long is broken or stuck, not slow.
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            if interrupts?.isRequested == true { throw .interrupted }
            let pulled: FrameSource.Pull
            do { pulled = try capture.pull() } catch { throw SourceResolution.captureError(error, source: source) }
            switch pulled {
            case .frame(let frame):
                if remaining == 0 { return frame }
                remaining -= 1
            case .endOfStream:
                throw .failure("capture: the source ended before a frame could be taken")
            case .timeout:
                if ContinuousClock.now > deadline {
                    throw .failure("capture: no frame from the source within 10 s")
                }
            }
        }
    }

    private func encode(_ frame: VideoFrame, to file: URL, template: PipelineTemplate) throws(CamStampError) {
        do {
            let description = try template.render(["quality": .integer(options.quality), "location": .quoted(file.path)])
            let output = try FrameOutput(pipeline: Pipeline(description))
            try output.start()
            try output.push(frame)
            try output.finish()
        } catch {
            throw .failure("encode: \(error)")
        }
    }
}
