// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import Media
import Presets
internal import Viewfinder

/// The camera's HTTP API (docs/camera.md, "HTTP API"): `GET /` the page, `GET /stream.mjpg`, `GET /api/state`,
/// `POST /api/shoot`, `POST /api/settings`, `GET /shots/NAME`. Runs on the web server's thread.
struct CameraAPI: Sendable {
    let session: CameraSession
    let stream: MJPEGFanOut
    /// Required on every request when set: `?token=` (answered with a cookie), the cookie, or
    /// `Authorization: Bearer`.
    let token: String?
    let resources: Resources?
    let library: PresetLibrary
    let checkMarks: @Sendable ([String], String?, [String: String]) throws(CamStampError) -> Void
    let checkSource: @Sendable (SourceSpec) throws(CamStampError) -> Void
    /// What the command line gave: the only preset files and video source the page may pick.
    let givenPresets: Set<String>
    let givenSource: SourceSpec
    /// Where album photos stamped on the page are kept (`-o`; nil: the current folder).
    var outputFolder: URL? = nil
    /// The page's video (`POST /api/record`); nil: this camera cannot record.
    var recorder: CameraRecorder? = nil
    /// The WebRTC preview's viewers (`POST /api/webrtc`); nil: there is none.
    var viewers: WebRTCViewers? = nil
    /// `/verify`: the verify page, as `verify --serve` serves it; a stripped copy of a photo this
    /// camera signed is found by its invisible mark among the photos in its folder.
    var verifier: VerifyJob.Checker? = nil
    /// The camera picker's list: the test camera and the cameras found at start (the device
    /// monitor takes tens of milliseconds, too long for every poll of the page).
    let cameras: [StateJSON.Camera] =
        [StateJSON.Camera(source: "test", name: "Test camera")]
        + ((try? Devices.cameras()) ?? []).compactMap { device in
            device.path.map { .init(source: $0, name: device.name) }
        }

    static let cookieName = "camstamp_token"

    func handle(_ request: WebRequest, _ reply: WebReply) {
        var extraHeaders: [(String, String)] = []
        if let token {
            let cookie = request.header("cookie").flatMap { Self.cookie(Self.cookieName, in: $0) }
            let bearer = request.header("authorization").flatMap(Self.bearerToken)
            if let given = request.query["token"], Self.same(given, token) {
                // Every later request (the stream, the API, the photos) carries it as a cookie.
                extraHeaders.append(("Set-Cookie", "\(Self.cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict"))
            } else if !([cookie, bearer].contains { $0.map { Self.same($0, token) } ?? false }) {
                reply.send(
                    .text(
                        "camstamp: a token is required: open the URL camstamp printed (…/?token=…)", status: 401,
                        headers: [("WWW-Authenticate", "Bearer")]))
                return
            }
        }
        if handleRecording(request, reply, headers: extraHeaders) { return }
        if handleWebRTC(request, reply, headers: extraHeaders) { return }
        if let verifier,
            VerifyJob.answerPage(request, reply, checker: verifier, web: resources?.web, headers: extraHeaders)
        {
            return
        }
        switch (request.method, request.path) {
        case ("GET", "/"), ("GET", "/index.html"):
            reply.send(page("index.html", headers: extraHeaders))
        case ("GET", "/stream.mjpg"):
            reply.stream(stream, headers: extraHeaders)
        case ("GET", "/api/state"):
            reply.send(.json(stateJSON(), headers: extraHeaders))
        case ("POST", "/api/shoot"):
            let extraHeaders = extraHeaders
            session.requestShot { result in
                switch result {
                case .success(let shot):
                    reply.send(.json(Self.encode(ShotJSON(shot)), headers: extraHeaders))
                case .failure(let error):
                    reply.send(.json(Self.encode(["error": error.message]), status: 500, headers: extraHeaders))
                }
            }
        case ("POST", "/api/settings"):
            do {
                try applySettings(request.body)
                reply.send(.json(stateJSON(), headers: extraHeaders))
            } catch {
                reply.send(.json(Self.encode(["error": error.message]), status: 400, headers: extraHeaders))
            }
        case ("GET", let path) where path.hasPrefix("/shots/"):
            let name = String(path.dropFirst("/shots/".count))
            // Only a name this camera wrote: no folders, no `..`, nothing else in the folder.
            guard let shot = session.shot(named: name), let file = Self.file(of: shot) else {
                reply.send(.text("camstamp: no photo named '\(name)' from this camera", status: 404))
                return
            }
            var headers = extraHeaders
            if request.query["download"] != nil {
                headers.append(("Content-Disposition", "attachment; filename=\"\(shot.name)\""))
            }
            reply.send(.file(file, contentType: Self.imageType(shot.name), headers: headers))
        case ("GET", let path) where Self.isAsset(path):
            reply.send(page(String(path.dropFirst()), headers: extraHeaders))
        case (_, "/"), (_, "/stream.mjpg"), (_, "/api/state"), (_, "/api/shoot"), (_, "/api/settings"):
            reply.send(.text("camstamp: \(request.method) is not allowed on \(request.path)", status: 405))
        default:
            handlePage(request, reply, headers: extraHeaders)
        }
    }

    // MARK: The page

    /// `app.js`, `style.css`: plain names of the page's own files.
    private static func isAsset(_ path: String) -> Bool {
        path.range(of: #"^/[a-z0-9-]+\.(js|css|svg|png)$"#, options: .regularExpression) != nil
    }

    private func page(_ name: String, headers: [(String, String)]) -> WebResponse {
        guard let resources,
            let data = FileManager.default.contents(atPath: resources.web.appendingPathComponent(name).path)
        else {
            return .text(
                "camstamp: the page's file \(name) is missing; set CAMSTAMP_HOME to the folder with web/", status: 404)
        }
        let type = Resources.webContentType(name)
        return WebResponse(contentType: type, body: data, headers: headers)
    }

    // MARK: State and settings

    struct ShotJSON: Encodable {
        var path: String
        var url: String
        var name: String
        var width: Int
        var height: Int
        var taken: String
        /// The camera loop's number of the frame the photo is (`{frame}` in its marks).
        var frame: Int?
        /// `--invisible`: the photo's invisible mark, as `batch --json` and `shoot --json` say it.
        var invisible: PhotoWorker.InvisibleMarkInfo?
        init(_ shot: CameraSession.Shot) {
            path = shot.path
            url = "/shots/" + (shot.name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? shot.name)
            name = shot.name
            width = shot.width
            height = shot.height
            taken = ISO8601DateFormatter().string(from: shot.taken)
            frame = shot.frame
            invisible = shot.invisible.map { .init(instanceID: $0) }
        }
    }

    struct StateJSON: Encodable {
        struct Size: Encodable {
            var width: Int
            var height: Int
        }
        struct Camera: Encodable {
            var source: String
            var name: String
        }
        struct PresetEntry: Encodable {
            var name: String
            var description: String
            var active: Bool
        }
        var camera: Camera
        var cameras: [Camera]
        var size: Size?
        var preview: Size?
        var presets: [PresetEntry]
        var active: [String]
        var text: String?
        var variables: [String: String]
        var grid: Bool
        var square: Bool
        var mirror: Bool
        var timer: Int
        var burst: [String: Double]
        var controls: [ViewfinderControl]
        var controlsReason: String?
        var shots: [ShotJSON]
        var viewers: Int
        /// Viewers of the WebRTC preview (`viewers` counts the MJPEG one's).
        var webrtcViewers: Int
        var error: String?
        var rotate: Int
        var recording: RecordingJSON
    }

    func stateJSON() -> Data {
        let settings = session.settings
        let (frame, preview) = session.sizes
        let camera = session.camera
        var presets = library.list().map {
            StateJSON.PresetEntry(
                name: $0.name, description: $0.description, active: settings.presets.contains($0.name))
        }
        // The user's own preset files given with --preset are offered too.
        for path in settings.presets where PresetLibrary.isPath(path) && !presets.contains(where: { $0.name == path }) {
            presets.append(.init(name: path, description: "your preset file", active: true))
        }
        var variables = settings.variables
        // Fields for every variable the active marks use, with the preset's value as a start.
        if let loaded = try? library.load(stacking: settings.presets, knownVariables: Set(settings.variables.keys)) {
            for name in loaded.marks.compactMap(\.template).flatMap(\.variableNames) where variables[name] == nil {
                variables[name] = loaded.variables[name] ?? ""
            }
        }
        let state = StateJSON(
            camera: .init(source: Self.sourceText(settings.source), name: camera.name), cameras: cameras,
            size: frame.map { .init(width: $0.width, height: $0.height) },
            preview: preview.map { .init(width: $0.width, height: $0.height) },
            presets: presets, active: settings.presets, text: settings.text, variables: variables,
            grid: settings.grid, square: settings.square, mirror: settings.mirror, timer: settings.timer,
            burst: ["count": Double(settings.burstCount), "interval": settings.burstInterval],
            controls: camera.controls, controlsReason: camera.reason,
            shots: session.shots.map(ShotJSON.init), viewers: stream.clientCount,
            webrtcViewers: viewers?.count ?? 0, error: session.lastError,
            rotate: settings.rotate, recording: recordingJSON)
        return Self.encode(state)
    }

    static func sourceText(_ source: SourceSpec) -> String {
        switch source {
        case .auto: "auto"
        case .test: "test"
        case .v4l2(let device): device
        case .file(let url): "file:" + url.path
        case .named(let name): name
        }
    }

    // MARK: Helpers

    /// The page's `controls` object checked against what the camera offers: each name one of its
    /// controls, available now, and the value a number (or true/false) within its range or menu.
    static func checkedControls(
        _ requested: [String: Any],
        against camera: (name: String, controls: [ViewfinderControl], reason: String?)
    ) throws(CamStampError) -> [String: Int] {
        var checked: [String: Int] = [:]
        for (name, raw) in requested.sorted(by: { $0.key < $1.key }) {
            guard let control = camera.controls.first(where: { $0.name == name }) else {
                let reason = camera.reason ?? "\(camera.name) has no control '\(name)'"
                throw .usage("settings: cannot set control '\(name)': \(reason)")
            }
            guard control.available else {
                throw .usage("settings: cannot set control '\(name)': \(control.reason ?? "not available now")")
            }
            let value: Int
            if control.type == "boolean", let flag = raw as? Bool {
                value = flag ? 1 : 0
            } else if let integer = raw as? Int {
                value = integer
            } else if let number = raw as? Double, let integer = Int(exactly: number) {
                value = integer
            } else {
                throw .usage(
                    "settings: control '\(name)' takes a whole number\(control.type == "boolean" ? " or true/false" : "")"
                )
            }
            if let menu = control.menu {
                guard menu.contains(where: { $0.value == value }) else {
                    throw .usage(
                        "settings: control '\(name)': \(value) is not one of its items (\(menu.map { "\($0.value) \($0.label)" }.joined(separator: ", ")))"
                    )
                }
            } else if let min = control.min, let max = control.max, !(min...max).contains(value) {
                throw .usage("settings: control '\(name)': \(value) is outside \(min)…\(max)")
            }
            checked[name] = value
        }
        return checked
    }

    static func encode<T: Encodable>(_ value: T) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)) ?? Data("{}".utf8)
    }

    /// The credentials of `Authorization: Bearer TOKEN`, the scheme in any case (RFC 9110).
    static func bearerToken(_ header: String) -> String? {
        let parts = header.trimmingCharacters(in: .whitespaces).split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return parts[1].trimmingCharacters(in: .whitespaces)
    }

    /// The photo or recording, mapped, if the file at its path is still the regular file this
    /// camera wrote: no symbolic link followed, no other file swapped in under its name.
    static func file(of shot: CameraSession.Shot) -> WebFile? {
        let fd = open(shot.path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG,
            UInt64(status.st_dev) == shot.device, UInt64(status.st_ino) == shot.inode
        else { return nil }
        return try? WebFile(descriptor: fd)
    }

    /// The value of cookie `name` in a Cookie header.
    static func cookie(_ name: String, in header: String) -> String? {
        for part in header.split(separator: ";") {
            let pair = part.trimmingCharacters(in: .whitespaces)
            if pair.hasPrefix(name + "=") { return String(pair.dropFirst(name.count + 1)) }
        }
        return nil
    }

    /// Compares without stopping at the first difference, so timing does not leak the token.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
