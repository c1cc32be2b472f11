// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Presets

/// A JSON value as sent, its kind kept: `1` is a number and never true (JSONSerialization on
/// Linux hands both out as NSNumber).
enum SettingsValue: Decodable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([SettingsValue])
    case object([String: SettingsValue])

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([SettingsValue].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: SettingsValue].self))
        }
    }

    var integer: Int? {
        guard case .number(let number) = self, let whole = Int(exactly: number) else { return nil }
        return whole
    }

    /// As JSONSerialization would give it, for code that takes `Any` (`checkedControls`).
    var any: Any {
        switch self {
        case .null: NSNull()
        case .bool(let bool): bool
        case .number(let number): Int(exactly: number).map { $0 as Any } ?? number
        case .string(let string): string
        case .array(let array): array.map(\.any)
        case .object(let object): object.mapValues(\.any)
        }
    }
}

/// `POST /api/settings`, checked whole before anything changes: every error names its key.
extension CameraAPI {
    static let settingKeys: Set<String> = [
        "grid", "square", "mirror", "timer", "burst", "presets", "text",
        "variables", "camera", "controls", "location", "rotate",
    ]

    /// A JSON object with any of grid, square, mirror (booleans), timer (0, 3, 10), burst {count,
    /// interval}, presets (names from the preset folders), text, variables {name: value}, camera
    /// (one of the cameras offered), controls {name: number}, location {lat, lon, accuracy, alt},
    /// rotate (0, 90, 180, 270).
    func applySettings(_ body: Data) throws(CamStampError) {
        let object = try Self.settingsObject(body)
        if let unknown = object.keys.sorted().first(where: { !Self.settingKeys.contains($0) }) {
            let known = Self.settingKeys.sorted().joined(separator: ", ")
            throw .usage("settings: unknown key '\(unknown)'; known: \(known)")
        }
        var next = session.settings
        func flag(_ key: String) throws(CamStampError) -> Bool? {
            guard let value = object[key] else { return nil }
            guard case .bool(let bool) = value else { throw .usage("settings: '\(key)' must be true or false") }
            return bool
        }
        if let value = try flag("grid") { next.grid = value }
        if let value = try flag("square") { next.square = value }
        if let value = try flag("mirror") { next.mirror = value }
        if let value = object["timer"] {
            guard let seconds = value.integer, CameraJob.timerChoices.contains(seconds) else {
                throw .usage("settings: 'timer' must be 0, 3 or 10 (seconds)")
            }
            next.timer = seconds
        }
        if let value = object["rotate"] {
            guard let degrees = value.integer, [0, 90, 180, 270].contains(degrees) else {
                throw .usage("settings: 'rotate' must be 0, 90, 180 or 270 (degrees clockwise)")
            }
            next.rotate = degrees
        }
        if let value = object["burst"] {
            guard case .object(let burst) = value, let count = burst["count"]?.integer, (1...100).contains(count),
                case .number(let interval)? = burst["interval"], interval >= 0.2, interval <= 3600
            else {
                throw .usage("settings: 'burst' must be {\"count\": 1…100, \"interval\": 0.2…3600 seconds}")
            }
            next.burstCount = count
            next.burstInterval = interval
        }
        if let value = object["presets"] { next.presets = try checkedPresets(value) }
        if let value = object["text"] {
            switch value {
            case .null: next.text = nil
            case .string(let text): next.text = text.isEmpty ? nil : text
            default: throw .usage("settings: 'text' must be a string")
            }
        }
        if let value = object["variables"] {
            let wrong = CamStampError.usage("settings: 'variables' must be an object of strings")
            guard case .object(let entries) = value else { throw wrong }
            var variables: [String: String] = [:]
            for (name, entry) in entries {
                guard case .string(let text) = entry else { throw wrong }
                variables[name] = text
            }
            next.variables = variables
        }
        if let value = object["camera"] { next.source = try checkedCamera(value) }
        if let value = object["controls"] {
            guard case .object = value, let requested = value.any as? [String: Any] else {
                throw .usage("settings: 'controls' must be an object of control names and numbers")
            }
            next.controls.merge(try Self.checkedControls(requested, against: session.camera)) { _, new in new }
        }
        let current = session.settings
        if next.presets != current.presets || next.text != current.text || next.variables != current.variables {
            do { try checkMarks(next.presets, next.text, next.variables) } catch {
                // Named after what this request changed: the text, else the variables, else the presets.
                let key = ["text", "variables", "presets"].first { object[$0] != nil } ?? "presets"
                throw .usage("settings: '\(key)': \(Self.reason(error))")
            }
        }
        let location = try object["location"].map(Self.checkedLocation)
        let accepted = next
        session.update { $0 = accepted }
        if let location { session.location?.setBrowserFix(location) }
    }

    private static func settingsObject(_ body: Data) throws(CamStampError) -> [String: SettingsValue] {
        let value: SettingsValue
        do { value = try JSONDecoder().decode(SettingsValue.self, from: body.isEmpty ? Data("{}".utf8) : body) } catch {
            throw .usage("settings: the body is not valid JSON; send an object such as {\"grid\": true}")
        }
        guard case .object(let object) = value else {
            throw .usage("settings: expected a JSON object such as {\"grid\": true}")
        }
        return object
    }

    /// Preset names from the preset folders; a preset file only when the command line gave it.
    /// Nothing is opened for a name that is neither, so the answer says nothing about any file.
    private func checkedPresets(_ value: SettingsValue) throws(CamStampError) -> [String] {
        let wrong = CamStampError.usage("settings: 'presets' must be a list of preset names")
        guard case .array(let entries) = value else { throw wrong }
        let available = library.list().map(\.name)
        var names: [String] = []
        for entry in entries {
            guard case .string(let name) = entry else { throw wrong }
            // Each at most once: the list stays as short as the presets offered (10,000 copies of
            // one took the server thread 5 s, and every frame drew them all).
            guard !names.contains(name) else {
                throw .usage("settings: 'presets': '\(name)' is given twice; each preset is stacked once")
            }
            if givenPresets.contains(name) || (!PresetLibrary.isPath(name) && available.contains(name)) {
                names.append(name)
            } else if PresetLibrary.isPath(name) {
                throw .usage(
                    "settings: 'presets': the page takes preset names, not files; "
                        + "give a preset file with --preset when starting the camera")
            } else {
                let hint = didYouMean(name, in: available) ?? "available: \(available.joined(separator: ", "))"
                throw .usage("settings: 'presets': no preset named '\(name)'; \(hint)")
            }
        }
        return names
    }

    /// One of the cameras the page offers, or the command line's `--source`; never any other
    /// path (a file or a device the page could probe).
    private func checkedCamera(_ value: SettingsValue) throws(CamStampError) -> SourceSpec {
        guard case .string(let text) = value else {
            throw .usage("settings: 'camera' must be one of the cameras offered")
        }
        let offered = cameras.map(\.source) + [Self.sourceText(givenSource)]
        guard offered.contains(text) else {
            let choices = offered.joined(separator: ", ")
            throw .usage(
                "settings: 'camera': '\(text)' is not one of this camera's sources (\(choices)); "
                    + "a video file or device only with --source")
        }
        let spec: SourceSpec
        do { spec = try SourceSpec(parsing: text, option: "camera") } catch {
            throw .usage("settings: 'camera': \(error)")
        }
        do { try checkSource(spec) } catch { throw .usage("settings: 'camera': \(Self.reason(error))") }
        return spec
    }

    /// An error's words without the `camstamp: ` a message on the terminal starts with.
    private static func reason(_ error: CamStampError) -> String {
        error.message.hasPrefix("camstamp: ") ? String(error.message.dropFirst(10)) : error.message
    }
}
