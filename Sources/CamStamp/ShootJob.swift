// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import Media
import Presets

/// `camstamp shoot`: one watermarked photo from a camera (or the test camera, or a file).
public struct ShootJob {
    /// Where to take the photo from, what to stamp, and where to write it.
    public let options: ShootOptions
    /// Where the shipped presets, fonts and pipelines are; nil when they were not found.
    public let resources: Resources?

    /// A shoot of `options`, using the shipped files in `resources`.
    public init(options: ShootOptions, resources: Resources? = Resources.locate()) {
        self.options = options
        self.resources = resources
    }

    /// Takes the photo and returns where it was written (`/dev/stdout` for `-o -`); with
    /// `--count`, where the last one was written.
    public func run(interrupts: Interrupts? = nil) throws(CamStampError) -> URL {
        let files = try run(interrupts: interrupts, report: .silent)
        return files[files.count - 1]
    }

    /// Takes `options.count` photos, `options.interval` seconds apart (from one start to the
    /// next) after `options.delay`; each one's path is a result on `report` as soon as it is
    /// complete on disk (none for `-o -`, whose photo is stdout), the countdown its progress line.
    /// After Ctrl-C the photos written so far stay; the error then says how many.
    public func run(interrupts: Interrupts? = nil, report: JobOutput) throws(CamStampError) -> [URL] {
        // From here a first Ctrl-C or SIGTERM asks this job to finish its outputs.
        interrupts?.finishesOnRequest()
        // Everything that can be checked without a camera is checked first.
        let (preset, variables) = try MarkSetup.preset(
            names: options.presets, text: options.text,
            variables: options.variables, resources: resources)
        try ContentCredentials.checkProof(preset, signing: options.signing)
        let marker = FrameMarker(preset: preset, variables: variables)
        let credentials = try options.signing.map { (signing) throws(CamStampError) in try ContentCredentials(signing) }
        let destination = try StillDestination(
            output: options.output, format: options.format, overwrite: options.overwrite,
            toStandardOutput: options.toStandardOutput, count: options.count,
            variables: marker.variables)
        let stillTemplate = try Templates.load(
            nil, builtIn: options.format == .png ? "still-png" : "still-jpeg", resources: resources)
        let camera = try Capture(
            spec: options.source, size: options.size, fps: options.fps, pipeline: options.pipeline,
            resources: resources, controls: options.controls)
        let location = LocationFeed(option: options.location.gps, report: report)
        defer { location.stop() }
        marker.location = location
        try Verbosity.timed("camera start") { () throws(CamStampError) in try camera.start() }
        defer { camera.stop() }
        // gpsd sends its first report a moment after the connection: a photo taken at once waits for it.
        location.waitForFix()
        Verbosity.log("capture elements: \(camera.frames.pipeline.elementSummary().joined(separator: " "))")

        let progress = report.progress
        defer { progress.finish() }
        var files: [URL] = []
        let interrupted = { () -> CamStampError in
            if options.json { report.result(jsonSummary(written: files.count, interrupted: true)) }
            return files.isEmpty
                ? .interrupted
                : CamStampError(.interrupted, "interrupted: \(files.count) of \(options.count) photos written")
        }
        var remainingWarmup = options.effectiveWarmup
        // The delay counts from the moment the camera runs; each later photo is due `interval`
        // after the one before it was due, so a slow encode does not push the whole series back.
        var due = ContinuousClock.now + .milliseconds(Int64((options.delay * 1000).rounded(.up)))
        for number in 1...options.count {
            var frame: VideoFrame
            do {
                frame = try grabFrame(from: camera, interrupts: interrupts, warmup: &remainingWarmup, due: due) {
                    left in
                    let what = options.count == 1 ? "photo" : "photo \(number)/\(options.count)"
                    progress.update("\(what) in \(left) s", force: true)
                }
            } catch  where error.kind == .interrupted {
                throw interrupted()
            }
            progress.clear()
            // Turned, cropped and mirrored before the marks, so they sit where the preset says in the photo.
            frame = try options.geometry.apply(to: frame)
            // One context for the marks and the name: `{counter}` is the photo's number in both.
            var context = marker.context(width: frame.width, height: frame.height, captureDate: Date())
            context.counter = number
            // A new id per photo, the manifest's (and the invisible mark's), chosen before the
            // marks are drawn: `{proof}` is made from it.
            let outputID = InvisibleMarking.newInstanceID()
            credentials?.proof(&context, instanceID: outputID)
            try marker.mark(frame, context: context)
            // After the visible marks, so that it is in what they left.
            let instanceID = options.invisible ? outputID : nil
            if let instanceID { frame = try InvisibleMarking.marked(frame, instanceID: instanceID) }
            let file = try write(
                frame, context: context, to: destination, template: stillTemplate, marker: marker,
                credentials: credentials, invisible: instanceID, instanceID: outputID)
            files.append(file)
            if !options.toStandardOutput {
                report.result(
                    options.json
                        ? jsonLine(
                            file, number: number, width: frame.width, height: frame.height, invisible: instanceID)
                        : file.path)
            }
            due = due + .milliseconds(Int64((options.interval * 1000).rounded(.up)))
        }
        if options.json { report.result(jsonSummary(written: files.count, interrupted: false)) }
        return files
    }

    /// One marked photo written through `destination`: encoded, geotagged (unless --strip-gps),
    /// then signed (with `invisible`, the instance id of its invisible mark, and its soft binding),
    /// all before it is moved into place.
    private func write(
        _ frame: VideoFrame, context: TemplateContext, to destination: StillDestination, template: PipelineTemplate,
        marker: FrameMarker, credentials: ContentCredentials?, invisible: String?, instanceID: String
    ) throws(CamStampError) -> URL {
        let geotag = options.location.stripGPS ? nil : context.location
        // What a write failure names: the photo asked for, or the folder its name is made in.
        let target =
            options.toStandardOutput
            ? "stdout"
            : destination.fileName.map { destination.folder.appendingPathComponent($0).path }
                ?? destination.folder.path
        return try destination.write(context: context) { (temporary: URL) throws(CamStampError) in
            try encode(frame, to: temporary, template: template, target: target)
            if let geotag { try Geotag.write(geotag, into: temporary) }
            try credentials?.signCapture(
                temporary, format: options.format, date: context.captureDate,
                marks: ContentCredentials.marks(marker.drawnContents), invisible: invisible, instanceID: instanceID)
        }
    }

    /// Throws away what is left of the warm-up, waits (pulling, so the camera keeps running and
    /// the photo is a fresh frame) until `due`, and returns the next frame. `countdown` gets the
    /// whole seconds left each time that number changes.
    private func grabFrame(
        from camera: Capture, interrupts: Interrupts?, warmup remaining: inout Int,
        due: ContinuousClock.Instant, countdown: (Int) -> Void
    ) throws(CamStampError) -> VideoFrame {
        // A camera that gives nothing for this long is broken or stuck, not slow.
        let stall: Duration = .seconds(10)
        var lastFrame = ContinuousClock.now
        var shown: Int?
        while true {
            if interrupts?.isRequested == true { throw .interrupted }
            let now = ContinuousClock.now
            if now < due {
                let left = Int((due - now) / .seconds(1) + 0.999)
                if left != shown, left >= 1 {
                    shown = left
                    countdown(left)
                }
            }
            switch try camera.pull() {
            case .frame(let frame):
                lastFrame = ContinuousClock.now
                if remaining > 0 {
                    remaining -= 1
                    continue
                }
                if ContinuousClock.now >= due { return frame }
            case .endOfStream:
                throw .failure("capture: the source ended before a frame could be taken")
            case .timeout:
                if ContinuousClock.now - lastFrame > stall {
                    throw .failure("capture: no frame from the source within 10 s")
                }
            }
        }
    }

    private func encode(
        _ frame: VideoFrame, to file: URL, template: PipelineTemplate, target: String
    ) throws(CamStampError) {
        do {
            try StillDestination.encode(frame, template: template, quality: options.quality, to: file)
        } catch {
            throw CamStampError.unwritable(error, path: target, what: "the photo", option: "-o")
                ?? .failure("encode: \(error)")
        }
    }
}
