// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Presets

/// A preset the user changed (a mark moved on the camera page), kept in their own preset folder
/// so that `--preset NAME` finds it there first, in every command.
extension PresetFolders {
    /// Writes `preset` as `NAME.json` into the user folder it came from, else the first user folder
    /// (created if missing), atomically; never into the shipped folder. Returns the file written.
    public static func saveUserPreset(
        _ preset: Preset, resources: Resources?,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(CamStampError) -> URL {
        let userFolders = user(environment: environment).map(\.standardizedFileURL)
        guard let first = userFolders.first else {
            throw .failure("cannot keep preset '\(preset.name)': HOME is not set, so there is no user preset folder")
        }
        let from = preset.source?.deletingLastPathComponent().standardizedFileURL
        let folder = userFolders.first { $0.path == from?.path } ?? first
        if let shipped = resources?.presets.standardizedFileURL, shipped.path == folder.path {
            throw .failure("cannot keep preset '\(preset.name)': \(folder.path) is the shipped preset folder")
        }
        guard !preset.name.isEmpty, !PresetLibrary.isPath(preset.name), !preset.name.hasPrefix(".") else {
            throw .failure("cannot keep preset '\(preset.name)': not a name a preset file can have")
        }
        let file = folder.appendingPathComponent(preset.name + ".json")
        var kept = preset
        // Images and fonts are written relative to the new file's folder, else as absolute paths.
        kept.source = file
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            // Written beside it and renamed into place: a reader sees the old file or the new one.
            try Data(kept.resolvedJSON().utf8).write(to: file, options: .atomic)
        } catch {
            throw .failure("cannot write \(file.path): \(error.localizedDescription)")
        }
        return file
    }
}
