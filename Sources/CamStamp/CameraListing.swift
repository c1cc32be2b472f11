// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import Media

/// `camstamp devices`: the cameras GStreamer's device monitor finds, with their modes and the
/// V4L2 controls each one has. Here rather than in the CLI, which reaches Media only through CamStamp.
package enum CameraListing {
    /// What `camstamp devices` prints: one JSON document, or a few lines per camera.
    package static func lines(json: Bool) throws(CamStampError) -> [String] {
        let cameras: [CameraDevice]
        do { cameras = try Devices.cameras() } catch { throw .failure("devices: \(error)") }
        // A camera whose controls cannot be read (busy, no permission) is still listed, with why.
        let controls: [Result<[CameraControl], CamStampError>] = cameras.map { camera in
            guard let path = camera.path, path.hasPrefix("/dev/") else { return .success([]) }
            do throws(MediaError) { return .success(try CameraControls.list(device: path)) } catch {
                return .failure(CameraErrors.worded(error, device: path))
            }
        }
        if json {
            struct Mode: Encodable {
                var format: String
                var width: Int?
                var height: Int?
                var framerates: [String]
            }
            struct Camera: Encodable {
                var name: String
                var path: String?
                var modes: [Mode]
                var controls: [CameraControl]
                /// Why `controls` is empty when they could not be read.
                var controlsError: String?
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let list = zip(cameras, controls).map { camera, controls in
                Camera(
                    name: camera.name, path: camera.path,
                    modes: camera.modes.map {
                        Mode(format: $0.format, width: $0.width, height: $0.height, framerates: $0.framerates)
                    }, controls: (try? controls.get()) ?? [], controlsError: controls.failureMessage)
            }
            // JSONEncoder pretty-prints an empty array as `[`, a blank line, `]`.
            guard !list.isEmpty else { return ["[]"] }
            let data = (try? encoder.encode(list)) ?? Data("[]".utf8)
            return [String(decoding: data, as: UTF8.self)]
        }
        guard !cameras.isEmpty else {
            return ["no cameras found (`--source test` uses the built-in test camera)"]
        }
        var lines: [String] = []
        for (camera, controls) in zip(cameras, controls) {
            lines.append("\(camera.path ?? "(no device path)")  \(camera.name)")
            for mode in camera.modes { lines.append("    \(mode)") }
            switch controls {
            case .success(let list) where !list.isEmpty:
                lines.append("    controls (--control NAME=VALUE):")
                for control in list { lines.append("      " + controlLine(control)) }
            case .success:
                break
            case .failure(let error):
                lines.append("    controls: cannot be read: \(error.message)")
            }
        }
        return lines
    }

    /// What `--source` can name, for the shells' completions: each camera's device path and name.
    /// Cheap, and empty when the device monitor finds nothing or fails: a completion never errs.
    package static func sourceWords() -> [String] {
        guard let cameras = try? Devices.cameras() else { return [] }
        return cameras.flatMap { camera in (camera.path.map { [$0] } ?? []) + [camera.name] }
    }

    /// One control as `devices` prints it: `brightness  integer -64…64 (step 1), default 0, now 0`,
    /// `power_line_frequency  menu 0 Disabled | 1 50 Hz | 2 60 Hz, default 1, now 2 (inactive)`.
    static func controlLine(_ control: CameraControl) -> String {
        var parts: [String] = []
        switch control.type {
        case .integer, .integer64:
            parts.append(
                "\(control.type.rawValue) \(control.minimum)…\(control.maximum)"
                    + (control.step > 1 ? " (step \(control.step))" : ""))
        case .boolean:
            parts.append("boolean")
        case .menu, .integerMenu:
            parts.append(
                "\(control.type.rawValue) " + control.menu.map { "\($0.index) \($0.name)" }.joined(separator: " | "))
        default:
            parts.append(control.type.rawValue)
        }
        let show: (Int64) -> String = { value in
            control.type == .boolean ? (value != 0 ? "true" : "false") : String(value)
        }
        if control.type != .button { parts.append("default \(show(control.defaultValue))") }
        if let value = control.value { parts.append("now \(show(value))") }
        var line = "\(control.name)  " + parts.joined(separator: ", ")
        let notes = control.flags.filter { [.inactive, .readOnly, .writeOnly, .grabbed].contains($0) }.map(\.rawValue)
        if !notes.isEmpty { line += " (\(notes.joined(separator: ", ")))" }
        return line
    }
}

extension Result where Failure == CamStampError {
    fileprivate var failureMessage: String? {
        if case .failure(let error) = self { return error.message }
        return nil
    }
}

/// The GStreamer camstamp runs on, for `camstamp --version`.
package enum GStreamerInfo {
    /// `1.22.0`.
    package static var version: String { GStreamer.version }
}
