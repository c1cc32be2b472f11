// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import Media
import Presets
internal import Viewfinder

/// `GET /api/presets` and `GET /api/presets/NAME/preview.jpg`: the presets the page offers, each
/// drawn on the latest live frame as a thumbnail to pick it by.
extension CameraAPI {
    /// The thumbnails' width; their height follows the photo's shape.
    static let thumbnailWidth = 320
    /// How long a thumbnail is served again before it is drawn on a newer frame.
    static let thumbnailLifetime: Duration = .seconds(2)

    struct PresetJSON: Encodable {
        var name: String
        var description: String
        var active: Bool
        /// `user` (the XDG preset folders) or `shipped`.
        var origin: String
        var preview: String
    }

    func presetsJSON() -> Data {
        let settings = session.settings
        let folders = PresetFolders.all(resources: resources)
        let entries = PresetLibrary(directories: folders.map(\.url)).entries().map { entry in
            PresetJSON(
                name: entry.name, description: entry.description, active: settings.presets.contains(entry.name),
                origin: (folders.first { $0.url == entry.directory }?.origin ?? .shipped).rawValue,
                preview: "/api/presets/" + Self.pathEscaped(entry.name) + "/preview.jpg")
        }
        return Self.encode(entries)
    }

    /// The name in `/api/presets/NAME/preview.jpg` when it is a preset of the folders; nil for
    /// anything else (a path, `..`, a file given with --preset): nothing is opened for it.
    func thumbnailName(_ path: String) -> String? {
        guard path.hasPrefix("/api/presets/"), path.hasSuffix("/preview.jpg") else { return nil }
        let name = String(path.dropFirst("/api/presets/".count).dropLast("/preview.jpg".count))
        guard !name.isEmpty, !PresetLibrary.isPath(name), !name.hasPrefix("."),
            library.list().contains(where: { $0.name == name })
        else { return nil }
        return name
    }

    /// Answers with preset `name` drawn on the latest live frame (off the server thread).
    func sendThumbnail(_ name: String, reply: WebReply, headers: [(String, String)]) {
        let settings = session.settings
        guard let live = session.liveFrame else {
            reply.send(.text("camstamp: no frame from the camera yet; try again in a moment", status: 503))
            return
        }
        let key = ThumbnailCache.Key(name: name, variables: settings.variables, square: settings.square)
        if let cached = Self.thumbnails.get(key, newerThan: .now - Self.thumbnailLifetime) {
            reply.send(WebResponse(contentType: "image/jpeg", body: cached, headers: headers))
            return
        }
        let resources = resources
        let library = library
        Self.pageWork.async {
            do throws(CamStampError) {
                let data = try Self.drawThumbnail(
                    name, on: live.frame, settings: settings, library: library, resources: resources)
                Self.thumbnails.put(key, data)
                reply.send(WebResponse(contentType: "image/jpeg", body: data, headers: headers))
            } catch {
                reply.send(.text(error.message, status: 500))
            }
        }
    }

    /// The page's slow work (thumbnails, uploads, marks' places), one at a time off the server thread.
    static let pageWork = DispatchQueue(label: "camstamp.camera.page")
    static let thumbnails = ThumbnailCache()

    private static func drawThumbnail(
        _ name: String, on live: VideoFrame, settings: CameraSession.Settings, library: PresetLibrary,
        resources: Resources?
    ) throws(CamStampError) -> Data {
        let preset: Preset
        do { preset = try library.load(name, knownVariables: Set(settings.variables.keys)) } catch {
            throw .usage("preset '\(name)': \(error.description)")
        }
        // The live view is the photo already (cropped, turned, mirrored): marked on a copy.
        let frame = live.copy()
        let marker = FrameMarker(preset: preset, variables: settings.variables)
        try marker.mark(frame, context: marker.context(width: frame.width, height: frame.height))
        let width = min(thumbnailWidth, frame.width) & ~1
        let height = max(2, Int((Double(frame.height) * Double(width) / Double(frame.width)).rounded()) & ~1)
        let template = try Templates.load(nil, builtIn: "preset-thumbnail", resources: resources)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            ".camstamp-thumbnail-\(UUID().uuidString).jpg")
        TemporaryFiles.shared.add(file)
        defer {
            try? FileManager.default.removeItem(at: file)
            TemporaryFiles.shared.remove(file)
        }
        do {
            let description = try template.render([
                "width": .integer(width), "height": .integer(height), "quality": .integer(80),
                "location": .quoted(file.path),
            ])
            let output = try FrameOutput(pipeline: Pipeline(description))
            try output.start()
            frame.setTimestamps(pts: 0, duration: nil)
            try output.push(frame)
            try output.finish()
            return try Data(contentsOf: file)
        } catch {
            throw .failure("thumbnail of '\(name)': \(error)")
        }
    }

    static func pathEscaped(_ name: String) -> String {
        name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? name
    }
}

/// Thumbnails drawn lately, by preset, variables and shape.
final class ThumbnailCache: @unchecked Sendable {
    struct Key: Hashable {
        var name: String
        var variables: [String: String]
        var square: Bool
    }
    private let lock = NSLock()
    private var entries: [Key: (data: Data, drawn: ContinuousClock.Instant)] = [:]

    func get(_ key: Key, newerThan oldest: ContinuousClock.Instant) -> Data? {
        lock.withLock { entries[key].flatMap { $0.drawn >= oldest ? $0.data : nil } }
    }

    func put(_ key: Key, _ data: Data) {
        lock.withLock {
            // A few per preset at most: old ones go as new ones come.
            if entries.count > 64 { entries = entries.filter { $0.value.drawn > .now - .seconds(10) } }
            entries[key] = (data, .now)
        }
    }

    /// Forgets preset `name`'s thumbnails (its file changed).
    func forget(_ name: String) { lock.withLock { entries = entries.filter { $0.key.name != name } } }
}
