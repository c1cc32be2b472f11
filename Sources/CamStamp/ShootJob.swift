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

    /// Takes the photo and returns where it was written (`/dev/stdout` for `-o -`).
    public func run(interrupts: Interrupts? = nil) throws(CamStampError) -> URL {
        // Everything that can be checked without a camera is checked first.
        let (preset, variables) = try MarkSetup.preset(names: options.presets, text: options.text,
                                                       variables: options.variables, resources: resources)
        let destination = try StillDestination(output: options.output, format: options.format, overwrite: options.overwrite,
                                               toStandardOutput: options.toStandardOutput)
        let stillTemplate = try Templates.load(nil, builtIn: options.format == .png ? "still-png" : "still-jpeg", resources: resources)
        let camera = try Camera(spec: options.source, size: options.size, fps: options.fps, pipeline: options.pipeline,
                                resources: resources)
        try camera.start()
        defer { camera.stop() }

        let frame = try grabFrame(from: camera, interrupts: interrupts)
        let marker = Marker(preset: preset, variables: variables)
        try marker.mark(frame, context: marker.context(width: frame.width, height: frame.height))
        // What a write failure names: the photo asked for, or the folder its name is made in.
        let target = options.toStandardOutput ? "stdout"
            : destination.fileName.map { destination.folder.appendingPathComponent($0).path } ?? destination.folder.path
        return try destination.write { (temporary: URL) throws(CamStampError) in
            try encode(frame, to: temporary, template: stillTemplate, target: target)
        }
    }

    /// Skips the warm-up frames and returns the next one.
    private func grabFrame(from camera: Camera, interrupts: Interrupts?) throws(CamStampError) -> VideoFrame {
        var remaining = options.warmup ?? camera.source.defaultWarmup
        // A camera that gives nothing for this long is broken or stuck, not slow.
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            if interrupts?.isRequested == true { throw .interrupted }
            switch try camera.pull() {
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

    private func encode(_ frame: VideoFrame, to file: URL, template: PipelineTemplate, target: String) throws(CamStampError) {
        do {
            let description = try template.render(["quality": .integer(options.quality), "location": .quoted(file.path)])
            let output = try FrameOutput(pipeline: Pipeline(description))
            try output.start()
            try output.push(frame)
            try output.finish()
        } catch {
            throw CamStampError.unwritable(error, path: target, what: "the photo", option: "-o") ?? .failure("encode: \(error)")
        }
    }
}
