// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import CamStamp
import Foundation
import Presets

/// `camstamp presets list | show NAME | check FILE...`.
enum PresetsCommand {
    static func run(_ command: ParsedCommand, json: Bool = false, output: JobOutput) throws(CamStampError) {
        let resources = Resources.locate()
        if let resources { Verbosity.log("resources: \(resources.root.path)") }
        let folders = PresetFolders.all(resources: resources)
        let library = PresetLibrary(directories: folders.map(\.url))
        switch command {
        case .presetsList:
            guard resources != nil else { throw Resources.notFound() }
            let presets = library.entries()
            let origin = { (directory: URL) in folders.first { $0.url == directory }?.origin ?? .shipped }
            if json {
                let objects = presets.map { preset in
                    [
                        "name": preset.name, "description": preset.description,
                        "origin": origin(preset.directory).rawValue,
                        "file": preset.file.path,
                    ]
                }
                output.result(jsonText(objects))
                return
            }
            let width = presets.map(\.name.count).max() ?? 0
            for preset in presets {
                output.result(
                    preset.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + preset.description
                        + "  [\(origin(preset.directory).rawValue): \(preset.directory.path)]")
            }
        case .presetsShow(let name):
            do {
                output.result(try library.load(name).resolvedJSON())
            } catch {
                throw .usage(error.description)
            }
        case .presetsCheck(let files):
            var failures: [String] = []
            for file in files {
                do {
                    for warning in try MarkSetup.check(file, resources: resources) { output.error(warning) }
                    output.result("\(file): ok")
                } catch {
                    failures.append(error.message)
                }
            }
            if !failures.isEmpty {
                for failure in failures.dropLast() { output.error(failure) }
                throw .usage(failures.last!)
            }
        default:
            return
        }
    }
}

extension PresetsCommand {
    /// The names `--preset` takes, the user's and the shipped, for the shells' completions.
    static func names() -> [String] {
        let folders = PresetFolders.all(resources: Resources.locate())
        return PresetLibrary(directories: folders.map(\.url)).entries().map(\.name)
    }
}

/// Sorted keys, slashes unescaped: stable output a script (or a test) can compare.
func jsonText(_ value: some Encodable) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
    return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
}

extension PresetFolders {
    /// The search order, for `presets list --help` and the man page.
    static let discussion =
        "--preset NAME looks in $XDG_CONFIG_HOME/camstamp/presets, then ~/.config/camstamp/presets "
        + "(your own presets, which take the place of a shipped one of the same name), then the shipped presets/ "
        + "folder of $CAMSTAMP_HOME or the install (PREFIX/share/camstamp)."
}
