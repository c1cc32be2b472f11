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
    /// The camera picker's list: the test camera and the cameras found at start (the device
    /// monitor takes tens of milliseconds, too long for every poll of the page).
    let cameras: [StateJSON.Camera] = [StateJSON.Camera(source: "test", name: "Test camera")]
        + ((try? Devices.cameras()) ?? []).compactMap { device in device.path.map { .init(source: $0, name: device.name) } }

    static let cookieName = "camstamp_token"

    func handle(_ request: WebRequest, _ reply: WebReply) {
        var extraHeaders: [(String, String)] = []
        if let token {
            let cookie = request.header("cookie").flatMap { Self.cookie(Self.cookieName, in: $0) }
            let bearer = request.header("authorization").flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
            if let given = request.query["token"], Self.same(given, token) {
                // Every later request (the stream, the API, the photos) carries it as a cookie.
                extraHeaders.append(("Set-Cookie", "\(Self.cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict"))
            } else if !([cookie, bearer].contains { $0.map { Self.same($0, token) } ?? false }) {
                reply.send(.text("camstamp: a token is required: open the URL camstamp printed (…/?token=…)", status: 401,
                                 headers: [("WWW-Authenticate", "Bearer")]))
                return
            }
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
            guard let shot = session.shot(named: name), let data = FileManager.default.contents(atPath: shot.path) else {
                reply.send(.text("camstamp: no photo named '\(name)' from this camera", status: 404))
                return
            }
            var headers = extraHeaders
            if request.query["download"] != nil { headers.append(("Content-Disposition", "attachment; filename=\"\(shot.name)\"")) }
            reply.send(WebResponse(contentType: "image/jpeg", body: data, headers: headers))
        case ("GET", let path) where Self.isAsset(path):
            reply.send(page(String(path.dropFirst()), headers: extraHeaders))
        case (_, "/"), (_, "/stream.mjpg"), (_, "/api/state"), (_, "/api/shoot"), (_, "/api/settings"):
            reply.send(.text("camstamp: \(request.method) is not allowed on \(request.path)", status: 405))
        default:
            reply.send(.text("camstamp: nothing at \(request.path)", status: 404))
        }
    }

    // MARK: The page

    /// `app.js`, `style.css`: plain names of the page's own files.
    private static func isAsset(_ path: String) -> Bool {
        path.range(of: #"^/[a-z0-9-]+\.(js|css|svg|png)$"#, options: .regularExpression) != nil
    }

    private func page(_ name: String, headers: [(String, String)]) -> WebResponse {
        guard let resources, let data = FileManager.default.contents(atPath: resources.web.appendingPathComponent(name).path) else {
            return .text("camstamp: the page's file \(name) is missing; set CAMSTAMP_HOME to the folder with web/", status: 404)
        }
        let type = switch (name as NSString).pathExtension {
        case "html": "text/html; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "svg": "image/svg+xml"
        default: "image/png"
        }
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
        init(_ shot: CameraSession.Shot) {
            path = shot.path
            url = "/shots/" + (shot.name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? shot.name)
            name = shot.name
            width = shot.width
            height = shot.height
            taken = ISO8601DateFormatter().string(from: shot.taken)
        }
    }

    struct StateJSON: Encodable {
        struct Size: Encodable { var width: Int; var height: Int }
        struct Camera: Encodable { var source: String; var name: String }
        struct PresetEntry: Encodable { var name: String; var description: String; var active: Bool }
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
        var error: String?
    }

    func stateJSON() -> Data {
        let settings = session.settings
        let (frame, preview) = session.sizes
        let camera = session.camera
        var presets = library.list().map { StateJSON.PresetEntry(name: $0.name, description: $0.description, active: settings.presets.contains($0.name)) }
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
            shots: session.shots.map(ShotJSON.init), viewers: stream.clientCount, error: session.lastError)
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

    /// `POST /api/settings`: a JSON object with any of grid, square, mirror (booleans), timer
    /// (0, 3, 10), burst {count, interval}, presets (names), text, variables {name: value},
    /// camera (a --source spec). Everything is checked before anything changes.
    private func applySettings(_ body: Data) throws(CamStampError) {
        let object: [String: Any]
        do {
            guard let parsed = try JSONSerialization.jsonObject(with: body.isEmpty ? Data("{}".utf8) : body) as? [String: Any] else {
                throw CamStampError.usage("settings: expected a JSON object")
            }
            object = parsed
        } catch let error as CamStampError {
            throw error
        } catch {
            throw .usage("settings: not JSON (\(error.localizedDescription))")
        }
        var next = session.settings
        let known: Set<String> = ["grid", "square", "mirror", "timer", "burst", "presets", "text", "variables", "camera", "controls"]
        if let unknown = object.keys.first(where: { !known.contains($0) }) {
            throw .usage("settings: unknown key '\(unknown)'; known: \(known.sorted().joined(separator: ", "))")
        }
        func flag(_ key: String) throws(CamStampError) -> Bool? {
            guard let value = object[key] else { return nil }
            guard let bool = value as? Bool else { throw .usage("settings: '\(key)' must be true or false") }
            return bool
        }
        if let value = try flag("grid") { next.grid = value }
        if let value = try flag("square") { next.square = value }
        if let value = try flag("mirror") { next.mirror = value }
        if let value = object["timer"] {
            guard let seconds = value as? Int, CameraJob.timerChoices.contains(seconds) else {
                throw .usage("settings: 'timer' must be 0, 3 or 10 (seconds)")
            }
            next.timer = seconds
        }
        if let value = object["burst"] {
            guard let burst = value as? [String: Any], let count = burst["count"] as? Int, (1...100).contains(count),
                  let interval = (burst["interval"] as? Double) ?? (burst["interval"] as? Int).map(Double.init),
                  interval >= 0.2, interval <= 3600 else {
                throw .usage("settings: 'burst' must be {\"count\": 1…100, \"interval\": 0.2…3600 seconds}")
            }
            next.burstCount = count
            next.burstInterval = interval
        }
        if let value = object["presets"] {
            guard let names = value as? [String] else { throw .usage("settings: 'presets' must be a list of preset names") }
            next.presets = names
        }
        if let value = object["text"] {
            if value is NSNull { next.text = nil } else if let text = value as? String { next.text = text.isEmpty ? nil : text } else {
                throw .usage("settings: 'text' must be a string")
            }
        }
        if let value = object["variables"] {
            guard let variables = value as? [String: String] else {
                throw .usage("settings: 'variables' must be an object of strings")
            }
            next.variables = variables
        }
        if let value = object["camera"] {
            guard let text = value as? String else { throw .usage("settings: 'camera' must be a --source value such as test") }
            let spec: SourceSpec
            do { spec = try SourceSpec(parsing: text, option: "camera") } catch { throw .usage("settings: \(error)") }
            try checkSource(spec)
            next.source = spec
        }
        if let value = object["controls"] {
            guard let requested = value as? [String: Any] else {
                throw .usage("settings: 'controls' must be an object of control names and numbers")
            }
            next.controls.merge(try Self.checkedControls(requested, against: session.camera)) { _, new in new }
        }
        if next.presets != session.settings.presets || next.text != session.settings.text || next.variables != session.settings.variables {
            try checkMarks(next.presets, next.text, next.variables)
        }
        let accepted = next
        session.update { $0 = accepted }
    }

    // MARK: Helpers

    /// The page's `controls` object checked against what the camera offers: each name one of its
    /// controls, available now, and the value a number (or true/false) within its range or menu.
    static func checkedControls(_ requested: [String: Any],
                                against camera: (name: String, controls: [ViewfinderControl], reason: String?)) throws(CamStampError) -> [String: Int] {
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
                throw .usage("settings: control '\(name)' takes a whole number\(control.type == "boolean" ? " or true/false" : "")")
            }
            if let menu = control.menu {
                guard menu.contains(where: { $0.value == value }) else {
                    throw .usage("settings: control '\(name)': \(value) is not one of its items (\(menu.map { "\($0.value) \($0.label)" }.joined(separator: ", ")))")
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
