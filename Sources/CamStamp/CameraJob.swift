// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Dispatch
import Foundation
internal import Media
import Presets
internal import Viewfinder

/// `camstamp camera`: the watermark camera.
///
/// One capture pipeline; one thread pulls each frame, blends the marks into it once and pushes it
/// to the previews (the web page's MJPEG stream, a native window), which scale it to at most
/// 1280 px wide and draw the grid and the square's frame on their own copy. A photo takes the
/// frame before the preview touches it: cropped and mirrored as asked (StillGeometry), marked at
/// its own size, and written at full resolution through the `still-jpeg` template, atomically, on
/// a writer thread, so the preview never waits for an encoder.
public struct CameraJob {
    /// What the command line asked for.
    public let options: CameraOptions
    /// The shipped presets, page and pipelines; nil when they cannot be found.
    public let resources: Resources?
    /// Where the page's camera controls come from.
    public let controlLister: CameraControlLister

    /// A camera job; `controlLister` reads a V4L2 camera's controls unless a test passes its own.
    public init(
        options: CameraOptions, resources: Resources? = Resources.locate(),
        controlLister: CameraControlLister = V4L2ControlLister()
    ) {
        self.options = options
        self.resources = resources
        self.controlLister = controlLister
    }

    /// The preview's longest side: a phone screen or a laptop window needs no more, and JPEG encoding
    /// of each preview frame stays cheap whatever the camera's resolution.
    static let maxPreviewWidth = 1280
    /// X11 sinks in order of preference; each is tried at READY before the pipeline is built.
    static let windowSinks = ["xvimagesink", "glimagesink", "ximagesink"]
    static let timerChoices = [0, 3, 10]

    /// Runs until Ctrl-C or SIGTERM (throws `.interrupted` once every photo is written) or until
    /// the window is closed or Q pressed (returns). On `report`: the viewfinder's URL and each
    /// photo's path as results, what the window's keys did as notes.
    public func run(interrupts: Interrupts? = nil, report: JobOutput = .silent) throws(CamStampError) {
        // From here a first Ctrl-C or SIGTERM asks this job to finish its outputs.
        interrupts?.finishesOnRequest()
        // Everything that can be checked without a camera is checked first.
        let presets = startingPresets
        let (preset, variables) = try MarkSetup.preset(
            names: presets, text: options.text,
            variables: options.variables, resources: resources)
        try ContentCredentials.checkProof(preset, signing: nil, job: "the camera")
        let folder =
            options.output
            ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        let destination = try StillDestination(
            output: URL(fileURLWithPath: folder.path, isDirectory: true),
            format: .jpg)
        let stillTemplate = try Templates.load(nil, builtIn: "still-jpeg", resources: resources)
        let credentials = try options.signing.map { (signing) throws(CamStampError) in try ContentCredentials(signing) }
        let windowSink = options.window ? try Self.usableWindowSink() : nil
        var token = options.token
        if let web = options.web, !web.isLoopback, token == nil { token = Self.randomToken() }

        let session = CameraSession(
            settings: .init(
                presets: presets, text: options.text,
                variables: Dictionary(options.variables.map { ($0.key, $0.value) }) { _, b in b },
                source: options.source),
            location: LocationFeed(option: options.location.gps, report: report))
        defer { session.location?.stop() }
        let camera = try Capture(
            spec: options.source, size: options.size, fps: options.fps, pipeline: options.pipeline,
            resources: resources, exclusiveFrames: false)
        camera.deliverAtOnce()
        session.setCamera(
            name: Self.describe(camera.source),
            controls: SourceControls.list(for: camera.source, lister: controlLister))
        let decor = PreviewDecor()
        let ring = FrameRing()
        let webPreview = try options.web.map { _ throws(CamStampError) in try makeWebPreview(decor: decor, ring: ring) }
        let webRTC = try options.web.map { _ throws(CamStampError) in try makeWebRTCPreview(decor: decor, ring: ring) }
        let windowPreview = try windowSink.map { sink throws(CamStampError) in
            try makeWindowPreview(sink: sink, decor: decor)
        }
        let previews = [webPreview?.output, webRTC?.output, windowPreview].compactMap { $0 }
        for preview in previews {
            do { try preview.start() } catch { throw .failure("preview: \(error)") }
        }
        webRTC?.viewers.start()
        defer {
            webRTC?.viewers.stop()
            for preview in previews { preview.abort() }
        }
        try camera.start()

        let writer = StillWriter(
            destination: destination, template: stillTemplate, quality: options.quality,
            session: session, credentials: credentials, invisible: options.invisible)
        let recorder = CameraRecorder(
            folder: destination.folder, fps: options.fps, resources: resources, credentials: credentials)
        var server: WebServer?
        if let web = options.web, let webPreview {
            do {
                server = try startServer(
                    web, token: token, session: session, stream: webPreview.fanOut, viewers: webRTC?.viewers,
                    recorder: recorder, report: report)
            } catch {
                camera.stop()
                throw error
            }
        }
        if options.window {
            report.note("camstamp: window open: Space shoot, G grid, S square, M mirror, T timer, Q quit")
        }

        let loop = CameraLoop(
            job: self, camera: camera,
            marker: FrameMarker(preset: preset, variables: variables, location: session.location),
            session: session, writer: writer, decor: decor, previews: previews,
            windowPreview: windowPreview, webRTC: webRTC, report: report, ring: ring, recorder: recorder)
        defer {
            session.stop()
            recorder.finishAll()
            writer.waitUntilDone()
            server?.stop()
            loop.camera.stop()
        }
        try loop.run(interrupts: interrupts)
    }

    /// The first X11 sink that opens on `$DISPLAY`, or the reason `--window` cannot work.
    private static func usableWindowSink() throws(CamStampError) -> String {
        let display = ProcessInfo.processInfo.environment["DISPLAY"] ?? ""
        guard !display.isEmpty else {
            throw .failure("--window: no display (DISPLAY is not set); use --web to view the camera in a browser")
        }
        do { return try WindowSinks.firstUsable(windowSinks) } catch {
            throw .failure(
                "--window: cannot open a window on display \(display) (\(error)); "
                    + "use --web to view the camera in a browser")
        }
    }

    /// The page and its API on `web`; its address (and token) is reported even under -q: without
    /// it the viewfinder cannot be reached.
    private func startServer(
        _ web: WebAddress, token: String?, session: CameraSession, stream: MJPEGFanOut, viewers: WebRTCViewers?,
        recorder: CameraRecorder, report: JobOutput
    ) throws(CamStampError) -> WebServer {
        let resources = resources
        var api = CameraAPI(
            session: session, stream: stream, token: token, resources: resources,
            library: presetLibrary,
            checkMarks: { presets, text, variables throws(CamStampError) in
                _ = try MarkSetup.preset(
                    names: presets, text: text,
                    variables: variables.map { VariableAssignment(key: $0.key, value: $0.value) },
                    resources: resources)
            }, checkSource: { spec throws(CamStampError) in _ = try Capture.captureSource(for: spec) },
            givenPresets: Set(options.presets.filter(PresetLibrary.isPath)), givenSource: options.source,
            outputFolder: options.output)
        api.recorder = recorder
        api.viewers = viewers
        api.verifier = try? VerifyJob.Checker(
            VerifyOptions(files: [], manifests: [options.output ?? URL(fileURLWithPath: ".")]))
        let handler = api
        let server: WebServer
        let tlsFiles = options.tlsCertificate.flatMap { certificate in
            options.tlsKey.map { (certificate: certificate.path, key: $0.path) }
        }
        do {
            server = try WebServer(
                address: web.host, port: web.port,
                limits: WebLimits(uploads: [CameraAPI.uploadRoute(token: token), CameraAPI.verifyRoute(token: token)]),
                tls: tlsFiles
            ) { request, reply in
                handler.handle(request, reply)
            }
        } catch {
            // A certificate that does not load is the user's to fix; a missing TLS backend, the machine's.
            if error.message.hasPrefix("--tls") { throw .usage(error.message) }
            if error.message.contains("TLS backend") { throw .failure(error.message) }
            throw .failure("--web \(web.description): \(error.message); choose another port with --web")
        }
        let shownHost = web.host == "0.0.0.0" || web.host == "::" ? Self.hostName : web.host
        let host = shownHost.contains(":") ? "[\(shownHost)]" : shownHost
        let scheme = tlsFiles == nil ? "http" : "https"
        report.essential("\(scheme)://\(host):\(server.port)/" + (token.map { "?token=\($0)" } ?? ""))
        return server
    }

    /// A window key: returns true to quit.
    func handleKey(_ key: String, session: CameraSession, report: JobOutput) -> Bool {
        switch key.lowercased() {
        case "space", " ":
            let delay = session.settings.timer
            if delay > 0 { session.requestShot(after: .seconds(delay)) } else { session.requestShot { _ in } }
        case "g": session.update { $0.grid.toggle() }
        case "s": session.update { $0.square.toggle() }
        case "m": session.update { $0.mirror.toggle() }
        case "t":
            session.update { settings in
                let index = Self.timerChoices.firstIndex(of: settings.timer) ?? 0
                settings.timer = Self.timerChoices[(index + 1) % Self.timerChoices.count]
            }
            report.note("camstamp: timer \(session.settings.timer == 0 ? "off" : "\(session.settings.timer) s")")
        case "q", "escape": return true
        default: break
        }
        return false
    }

    /// The presets the camera starts with: those given, else `timestamp` (a watermark camera
    /// marks time from the start; the page changes it).
    var startingPresets: [String] {
        options.presets.isEmpty && options.text == nil ? ["timestamp"] : options.presets
    }

    /// The folders `--preset NAME` searches: the page picks among the same presets.
    private var presetLibrary: PresetLibrary { PresetFolders.library(resources: resources) }

    /// The preview's size for a frame: the frame's own up to 1280 px on its long side, scaled
    /// down (aspect kept, even sides) beyond; a turned camera's portrait frame costs the preview
    /// no more than a landscape one.
    static func previewSize(for frame: FrameSize) -> FrameSize {
        let long = max(frame.width, frame.height)
        guard long > maxPreviewWidth else { return frame }
        let scale = Double(maxPreviewWidth) / Double(long)
        func side(_ length: Int) -> Int {
            length == long ? maxPreviewWidth : max(2, Int((Double(length) * scale).rounded()) & ~1)
        }
        return FrameSize(width: side(frame.width), height: side(frame.height))
    }

    private func makeWebPreview(
        decor: PreviewDecor, ring: FrameRing
    ) throws(CamStampError) -> (output: FrameOutput, fanOut: MJPEGFanOut) {
        let template = try Templates.load(nil, builtIn: "preview-web", resources: resources)
        let boundary = "camstampframe"
        do {
            let pipeline = try Pipeline(template.render(["quality": .integer(80), "boundary": .word(boundary)]))
            // Non-blocking, two frames deep: a slow encoder costs preview frames, never the camera's.
            let output = try FrameOutput(pipeline: pipeline, maxBuffers: 2, block: false)
            try pipeline.element(named: "overlay").onEachFrame { decor.draw(on: $0) }
            try pipeline.element(named: "mux").addPartHeaders { pts in Self.partHeaders(pts: pts, ring: ring) }
            return (output, try MJPEGFanOut(sink: pipeline.element(named: "out"), boundary: boundary))
        } catch {
            throw .failure("preview: \(error)")
        }
    }

    /// The WebRTC preview: the same frames, scaled and with the grid, encoded once for every
    /// viewer; a picture sent to a connected viewer is on screen from then (as an MJPEG part).
    private func makeWebRTCPreview(
        decor: PreviewDecor, ring: FrameRing
    ) throws(CamStampError) -> (output: FrameOutput, viewers: WebRTCViewers) {
        let template = try Templates.load(nil, builtIn: "preview-webrtc", resources: resources)
        do {
            let pipeline = try Pipeline(template.render(["bitrate": .integer(Self.webRTCBitrate)]))
            let output = try FrameOutput(pipeline: pipeline, maxBuffers: 2, block: false)
            try pipeline.element(named: "overlay").onEachFrame { decor.draw(on: $0) }
            let viewers = try WebRTCViewers(pipeline: pipeline, tap: "out") { pts in
                if let entry = ring.entry(pts: pts) { ring.markShown(number: entry.number, at: .now) }
            }
            return (output, viewers)
        } catch {
            throw .failure("preview: \(error)")
        }
    }

    /// The WebRTC preview's bitrate, kbit/s: a sharp 720p preview on a phone's Wi-Fi.
    static let webRTCBitrate = 2500

    /// Each part of the page's stream says which frame it is and when that frame was captured
    /// (`X-Frame`, `X-Timestamp` in seconds since 1970), and the ring notes that it is on screen
    /// from now: a shot is the frame shown when the shutter was pressed.
    private static func partHeaders(pts: UInt64?, ring: FrameRing) -> [(String, String)] {
        guard let pts, let entry = ring.entry(pts: pts) else { return [] }
        ring.markShown(number: entry.number, at: .now)
        return [
            ("X-Frame", String(entry.number)),
            ("X-Timestamp", String(format: "%.6f", entry.capturedWall.timeIntervalSince1970)),
        ]
    }

    private func makeWindowPreview(sink: String, decor: PreviewDecor) throws(CamStampError) -> FrameOutput {
        let template = try Templates.load(nil, builtIn: "preview-window", resources: resources)
        do {
            let pipeline = try Pipeline(template.render(["sink": .word(sink)]))
            let output = try FrameOutput(pipeline: pipeline, maxBuffers: 2, block: false)
            try pipeline.element(named: "overlay").onEachFrame { decor.draw(on: $0) }
            let out = try pipeline.element(named: "out")
            // Frames are shown as they come: their timestamps belong to the capture's clock.
            try out.set("sync", false)
            try out.set("force-aspect-ratio", true)
            return output
        } catch {
            throw .failure("window: \(error)")
        }
    }

    static func describe(_ source: CaptureSource) -> String {
        switch source {
        case .test: "Test camera"
        case .v4l2(let device): (try? Devices.cameras())?.first { $0.path == device }?.name ?? device
        case .file(let url): url.lastPathComponent
        }
    }

    /// 128 random bits, URL-safe.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(format: "%08x", UInt32.random(in: .min ... .max, using: &generator)) }.joined()
    }

    static var hostName: String {
        var buffer = [CChar](repeating: 0, count: 256)
        gethostname(&buffer, buffer.count - 1)
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}
