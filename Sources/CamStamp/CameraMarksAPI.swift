// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import Media
import Presets
internal import Render
internal import Viewfinder

/// `GET /api/marks` (where each mark in force sits in the photo) and `POST /api/marks/move`
/// (a mark dragged on the preview: its new place kept in the user's copy of its preset).
extension CameraAPI {
    struct MarkPlace: Encodable {
        /// The preset the mark is in; nil for the quick `--text` mark (not movable).
        var preset: String?
        var index: Int
        var x: Int
        var y: Int
        var width: Int
        var height: Int
    }

    struct MarkPlaces: Encodable {
        /// The photo's size, which the places are in.
        var width: Int
        var height: Int
        var marks: [MarkPlace]
    }

    /// The photo's size now: the live view is the photo (cropped, turned, mirrored).
    func photoSize() -> (width: Int, height: Int)? {
        session.liveFrame.map { ($0.frame.width, $0.frame.height) }
    }

    func sendMarkPlaces(reply: WebReply, headers: [(String, String)]) {
        guard let size = photoSize() else {
            reply.send(.text("camstamp: no frame from the camera yet; try again in a moment", status: 503))
            return
        }
        let settings = session.settings
        let library = library
        Self.pageWork.async {
            do throws(CamStampError) {
                let places = try Self.markPlaces(settings: settings, size: size, library: library)
                reply.send(.json(Self.encode(places), headers: headers))
            } catch {
                reply.send(.json(Self.encode(["error": error.message]), status: 500, headers: headers))
            }
        }
    }

    private static func markPlaces(
        settings: CameraSession.Settings, size: (width: Int, height: Int), library: PresetLibrary
    ) throws(CamStampError) -> MarkPlaces {
        var marks: [(preset: String?, index: Int, mark: Mark)] = []
        var presets: [Preset] = []
        do {
            presets = try library.loadEach(stacking: settings.presets, knownVariables: Set(settings.variables.keys))
            for (name, preset) in zip(settings.presets, presets) {
                marks += preset.marks.enumerated().map {
                    (PresetLibrary.isPath(name) ? nil : name, $0.offset, $0.element)
                }
            }
        } catch {
            throw .usage(error.description)
        }
        if let text = settings.text { marks.append((nil, 0, Preset.quickText(text).marks[0])) }
        // The variables as the photo's marks see them: the presets' own, then the page's.
        let marker = FrameMarker(preset: Preset.stacking(presets), variables: settings.variables)
        let context = marker.context(width: size.width, height: size.height)
        let renderer = MarkRenderer()
        var places: [MarkPlace] = []
        for entry in marks where entry.mark.tile == nil {
            let resolved = entry.mark.resolved(width: size.width, height: size.height, context: context)
            guard let rendered = try? renderer.render(resolved, frameWidth: size.width, frameHeight: size.height),
                let origin = rendered.origins.first, !rendered.bitmap.isEmpty
            else { continue }
            places.append(
                MarkPlace(
                    preset: entry.preset, index: entry.index, x: Int(origin.x), y: Int(origin.y),
                    width: rendered.bitmap.width, height: rendered.bitmap.height))
        }
        return MarkPlaces(width: size.width, height: size.height, marks: places)
    }

    /// `{"preset": NAME, "mark": INDEX, "dx": …, "dy": …}`, the move in fractions of the photo's
    /// width and height: the mark's offset grows by it (in % of the short side, as presets
    /// measure), and the preset is written to the user's preset folder.
    func moveMark(_ body: Data, reply: WebReply, headers: [(String, String)]) {
        let request: MoveRequest
        do { request = try JSONDecoder().decode(MoveRequest.self, from: body) } catch {
            reply.send(
                .json(
                    Self.encode(["error": "marks: send {\"preset\": NAME, \"mark\": 0, \"dx\": 0.1, \"dy\": -0.05}"]),
                    status: 400, headers: headers))
            return
        }
        let settings = session.settings
        guard settings.presets.contains(request.preset), !PresetLibrary.isPath(request.preset),
            library.list().contains(where: { $0.name == request.preset })
        else {
            reply.send(
                .json(
                    Self.encode(["error": "marks: '\(request.preset)' is not a preset in force from the preset folders"]
                    ),
                    status: 400, headers: headers))
            return
        }
        guard let size = photoSize(), request.dx.isFinite, request.dy.isFinite, abs(request.dx) <= 2,
            abs(request.dy) <= 2
        else {
            reply.send(
                .json(
                    Self.encode(["error": "marks: dx and dy are fractions of the photo, -2…2"]), status: 400,
                    headers: headers))
            return
        }
        let (library, resources, session) = (library, resources, session)
        Self.pageWork.async {
            do throws(CamStampError) {
                let file = try Self.keepMove(
                    request, size: size, known: Set(settings.variables.keys), library: library, resources: resources)
                Self.thumbnails.forget(request.preset)
                session.update { $0.marksRevision += 1 }
                reply.send(.json(Self.encode(["preset": request.preset, "file": file.path]), headers: headers))
            } catch {
                reply.send(.json(Self.encode(["error": error.message]), status: 400, headers: headers))
            }
        }
    }

    struct MoveRequest: Decodable {
        var preset: String
        var mark: Int
        var dx: Double
        var dy: Double
    }

    private static func keepMove(
        _ request: MoveRequest, size: (width: Int, height: Int), known: Set<String>, library: PresetLibrary,
        resources: Resources?
    ) throws(CamStampError) -> URL {
        var preset: Preset
        do { preset = try library.load(request.preset, knownVariables: known) } catch {
            throw .usage(error.description)
        }
        guard preset.marks.indices.contains(request.mark) else {
            throw .usage("marks: preset '\(request.preset)' has \(preset.marks.count) marks; no mark \(request.mark)")
        }
        let short = Double(min(size.width, size.height))
        func percent(_ length: Length) -> Double { length.pixels(shortSide: short) / short * 100 }
        let offset = preset.marks[request.mark].offset
        // Two decimals: a hundredth of a percent is under a pixel on any photo.
        func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }
        preset.marks[request.mark].offset = LengthPair(
            x: .percent(rounded(percent(offset.x) + request.dx * Double(size.width) / short * 100)),
            y: .percent(rounded(percent(offset.y) + request.dy * Double(size.height) / short * 100)))
        return try PresetFolders.saveUserPreset(preset, resources: resources)
    }
}
