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
    public init(options: CameraOptions, resources: Resources? = Resources.locate(),
                controlLister: CameraControlLister = V4L2ControlLister()) {
        self.options = options
        self.resources = resources
        self.controlLister = controlLister
    }

    /// The widest preview: a phone screen or a laptop window needs no more, and JPEG encoding
    /// of each preview frame stays cheap whatever the camera's resolution.
    static let maxPreviewWidth = 1280
    /// X11 sinks in order of preference; each is tried at READY before the pipeline is built.
    static let windowSinks = ["xvimagesink", "glimagesink", "ximagesink"]
    static let timerChoices = [0, 3, 10]

    /// Runs until Ctrl-C or SIGTERM (throws `.interrupted` once every photo is written) or until
    /// the window is closed or Q pressed (returns). On `report`: the viewfinder's URL and each
    /// photo's path as results, what the window's keys did as notes.
    public func run(interrupts: Interrupts? = nil, report: JobOutput = .silent) throws(CamStampError) {
        // Everything that can be checked without a camera is checked first.
        let (preset, variables) = try MarkSetup.preset(names: options.presets, text: options.text,
                                                       variables: options.variables, resources: resources)
        let folder = options.output ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        let destination = try StillDestination(output: URL(fileURLWithPath: folder.path, isDirectory: true), format: .jpg)
        let stillTemplate = try Templates.load(nil, builtIn: "still-jpeg", resources: resources)
        var windowSink: String?
        if options.window {
            let display = ProcessInfo.processInfo.environment["DISPLAY"] ?? ""
            guard !display.isEmpty else {
                throw .failure("--window: no display (DISPLAY is not set); use --web to view the camera in a browser")
            }
            do { windowSink = try WindowSinks.firstUsable(Self.windowSinks) } catch {
                throw .failure("--window: cannot open a window on display \(display) (\(error)); use --web to view the camera in a browser")
            }
        }
        var token = options.token
        if let web = options.web, !web.isLoopback, token == nil { token = Self.randomToken() }

        let session = CameraSession(settings: .init(presets: options.presets, text: options.text,
                                                    variables: Dictionary(options.variables.map { ($0.key, $0.value) }) { _, b in b },
                                                    source: options.source))
        var camera = try Camera(spec: options.source, size: options.size, fps: options.fps, pipeline: options.pipeline,
                                resources: resources)
        session.setCamera(name: Self.describe(camera.source), controls: SourceControls.list(for: camera.source, lister: controlLister))
        let decor = PreviewDecor()
        let webPreview = try options.web.map { _ throws(CamStampError) in try makeWebPreview(decor: decor) }
        let windowPreview = try windowSink.map { sink throws(CamStampError) in try makeWindowPreview(sink: sink, decor: decor) }
        let previews = [webPreview?.output, windowPreview].compactMap { $0 }
        let windowKeys = windowPreview.map { WindowKeys(pipeline: $0.pipeline) }
        for preview in previews {
            do { try preview.start() } catch { throw .failure("preview: \(error)") }
        }
        defer { for preview in previews { preview.abort() } }
        try camera.start()

        let writer = StillWriter(destination: destination, template: stillTemplate, quality: options.quality, session: session)
        var server: WebServer?
        if let web = options.web, let webPreview {
            let resources = resources
            let api = CameraAPI(session: session, stream: webPreview.fanOut, token: token, resources: resources,
                                library: presetLibrary, checkMarks: { presets, text, variables throws(CamStampError) in
                                    _ = try MarkSetup.preset(names: presets, text: text,
                                                             variables: variables.map { VariableAssignment(key: $0.key, value: $0.value) },
                                                             resources: resources)
                                }, checkSource: { spec throws(CamStampError) in _ = try Camera.captureSource(for: spec) },
                                givenPresets: Set(options.presets.filter(PresetLibrary.isPath)), givenSource: options.source)
            do {
                server = try WebServer(address: web.host, port: web.port) { request, reply in api.handle(request, reply) }
            } catch {
                camera.stop()
                throw .failure("--web \(web.description): \(error.message); choose another port with --web")
            }
            let shownHost = web.host == "0.0.0.0" || web.host == "::" ? Self.hostName : web.host
            let host = shownHost.contains(":") ? "[\(shownHost)]" : shownHost
            // The address (and its token) even under -q: without it the viewfinder cannot be reached.
            report.essential("http://\(host):\(server!.port)/" + (token.map { "?token=\($0)" } ?? ""))
        }
        if options.window { report.note("camstamp: window open: Space shoot, G grid, S square, M mirror, T timer, Q quit") }

        var marker = Marker(preset: preset, variables: variables)
        var seenVersion = session.version
        var applied = session.settings
        var frameNumber = 0
        var lastPreviewSize: FrameSize?
        let timedDone: @Sendable (Result<CameraSession.Shot, CamStampError>) -> Void = { _ in }
        var failure: CamStampError?
        var quit = false
        defer {
            session.stop()
            writer.waitUntilDone()
            server?.stop()
            camera.stop()
        }

        loop: while !quit {
            if interrupts?.isRequested == true { break }
            // What the page changed: marks and camera are rebuilt here, on the loop's thread.
            if session.version != seenVersion {
                seenVersion = session.version
                let wanted = session.settings
                if wanted.presets != applied.presets || wanted.text != applied.text || wanted.variables != applied.variables {
                    do {
                        let setup = try MarkSetup.preset(names: wanted.presets, text: wanted.text,
                                                         variables: wanted.variables.sorted { $0.key < $1.key }.map { VariableAssignment(key: $0.key, value: $0.value) },
                                                         resources: resources)
                        marker = Marker(preset: setup.preset, variables: setup.variables)
                        session.lastError = nil
                    } catch {
                        session.lastError = error.message
                    }
                }
                if wanted.source != applied.source {
                    do {
                        let next = try Camera(spec: wanted.source, size: options.size, fps: options.fps,
                                              pipeline: options.pipeline, resources: resources)
                        camera.stop()
                        try next.start()
                        camera = next
                        session.setCamera(name: Self.describe(next.source), controls: SourceControls.list(for: next.source, lister: controlLister))
                        session.lastError = nil
                    } catch {
                        session.lastError = error.message
                        session.update { $0.source = applied.source }
                        seenVersion = session.version
                        try? camera.start()
                    }
                }
                if wanted.controls != applied.controls {
                    let types = Dictionary(session.camera.controls.map { ($0.name, $0.type) }) { first, _ in first }
                    do {
                        try camera.setControls(wanted.controls.sorted { $0.key < $1.key }.map { name, value in
                            ExtraControl(name: name, value: types[name] == "boolean" ? .boolean(value != 0) : .integer(value))
                        })
                        session.lastError = nil
                    } catch {
                        session.lastError = error.message
                    }
                }
                decor.set(grid: wanted.grid, square: wanted.square)
                applied = session.settings
            }
            for key in windowKeys?.take() ?? [] { quit = handleKey(key, session: session, report: report) || quit }
            let pulled: FrameSource.Pull
            do { pulled = try camera.pull() } catch {
                failure = error
                break
            }
            switch pulled {
            case .timeout:
                continue
            case .endOfStream:
                // A video file plays as a camera: from the start again.
                camera.stop()
                do { try camera.start() } catch { failure = error; break loop }
                continue
            case .frame(let frame):
                frameNumber += 1
                let settings = applied
                // A photo asked for after a change the loop has not applied yet waits a frame for
                // it: the page's "square, then shoot" is a square photo, whatever the timing.
                let requests = session.version == seenVersion ? session.takeShotRequests(timedDone: timedDone) : []
                if !requests.isEmpty {
                    let geometry = StillGeometry(square: settings.square, mirror: settings.mirror && options.mirrorPhotos)
                    for request in requests {
                        do {
                            let still = geometry.isIdentity ? frame.copy() : try geometry.apply(to: frame)
                            try marker.mark(still, context: marker.context(width: still.width, height: still.height))
                            writer.write(still) { result in
                                if case .success(let shot) = result { report.result(shot.path) }
                                if case .failure(let error) = result { session.lastError = error.message }
                                request.done(result)
                            }
                        } catch {
                            session.lastError = error.message
                            request.done(.failure(error))
                        }
                    }
                }
                let size = FrameSize(width: frame.width, height: frame.height)
                let preview = Self.previewSize(for: size)
                if preview != lastPreviewSize {
                    lastPreviewSize = preview
                    session.setSizes(frame: size, preview: preview)
                    for output in previews {
                        try? output.pipeline.element(named: "size").set("caps", "video/x-raw,width=\(preview.width),height=\(preview.height),pixel-aspect-ratio=1/1")
                    }
                }
                do {
                    if settings.mirror { try frame.mirror() }
                } catch {
                    session.lastError = "mirror: \(error)"
                }
                do {
                    try marker.mark(frame, context: marker.context(width: frame.width, height: frame.height, frame: frameNumber,
                                                                   fps: frame.framesPerSecond))
                } catch {
                    session.lastError = error.message
                }
                for output in previews {
                    do { try output.push(frame) } catch {
                        // Closing the window is the user's way to quit, not a failure.
                        if output === windowPreview, error.isWindowClosed { quit = true; continue }
                        failure = .failure("preview: \(error)")
                        break loop
                    }
                }
            }
        }
        if let failure { throw failure }
        if !quit { throw .interrupted }
    }

    /// A window key: returns true to quit.
    private func handleKey(_ key: String, session: CameraSession, report: JobOutput) -> Bool {
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

    /// The folders `--preset NAME` searches: the page picks among the same presets.
    private var presetLibrary: PresetLibrary { PresetFolders.library(resources: resources) }

    /// The preview's size for a frame: the frame's own up to 1280 px wide, scaled down (aspect
    /// kept, even sides) beyond.
    static func previewSize(for frame: FrameSize) -> FrameSize {
        guard frame.width > maxPreviewWidth else { return frame }
        let height = max(2, Int((Double(frame.height) * Double(maxPreviewWidth) / Double(frame.width)).rounded()) & ~1)
        return FrameSize(width: maxPreviewWidth, height: height)
    }

    private func makeWebPreview(decor: PreviewDecor) throws(CamStampError) -> (output: FrameOutput, fanOut: MJPEGFanOut) {
        let template = try Templates.load(nil, builtIn: "preview-web", resources: resources)
        let boundary = "camstampframe"
        do {
            let pipeline = try Pipeline(template.render(["quality": .integer(80), "boundary": .word(boundary)]))
            // Non-blocking, two frames deep: a slow encoder costs preview frames, never the camera's.
            let output = try FrameOutput(pipeline: pipeline, maxBuffers: 2, block: false)
            try pipeline.element(named: "overlay").onEachFrame { decor.draw(on: $0) }
            return (output, try MJPEGFanOut(sink: pipeline.element(named: "out"), boundary: boundary))
        } catch {
            throw .failure("preview: \(error)")
        }
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

/// Encodes photos off the camera's thread, one at a time, each written atomically.
final class StillWriter: @unchecked Sendable {
    private let destination: StillDestination
    private let template: PipelineTemplate
    private let quality: Int
    private let session: CameraSession
    private let queue = DispatchQueue(label: "camstamp.camera.stills")

    init(destination: StillDestination, template: PipelineTemplate, quality: Int, session: CameraSession) {
        self.destination = destination
        self.template = template
        self.quality = quality
        self.session = session
    }

    func write(_ frame: VideoFrame, done: @escaping @Sendable (Result<CameraSession.Shot, CamStampError>) -> Void) {
        queue.async { [self] in
            do throws(CamStampError) {
                let file = try destination.write { (temporary: URL) throws(CamStampError) in
                    do {
                        try StillDestination.encode(frame, template: template, quality: quality, to: temporary)
                    } catch {
                        throw .failure("photo: \(error)")
                    }
                }
                var written = stat()
                guard lstat(file.path, &written) == 0 else { throw CamStampError.failure("photo: \(file.path) vanished") }
                let shot = CameraSession.Shot(name: file.lastPathComponent, path: file.path, width: frame.width,
                                              height: frame.height, taken: Date(), device: UInt64(written.st_dev),
                                              inode: UInt64(written.st_ino))
                session.addShot(shot)
                done(.success(shot))
            } catch {
                done(.failure(error))
            }
        }
    }

    /// Returns once every photo asked for so far is on disk.
    func waitUntilDone() { queue.sync {} }
}
