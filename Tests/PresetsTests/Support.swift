// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
@testable import Presets

extension Color {
    /// Opaque black (the library has no use for it, the tests do).
    static let black = Color(red: 0, green: 0, blue: 0)
}

/// A fake preset location: errors name it, relative paths resolve against its folder.
let fakeSource = URL(fileURLWithPath: "/presets-test/studio.json")

/// Decodes `json` as if read from `fakeSource`.
func decode(_ json: String, source: URL = fakeSource, known: Set<String> = []) throws(PresetError) -> Preset {
    try Preset.decode(Data(json.utf8), source: source, knownVariables: known)
}

/// The description of the error decoding `json` throws, or a note that it did not throw.
func errorText(_ json: String, source: URL = fakeSource, known: Set<String> = []) -> String {
    do {
        _ = try decode(json, source: source, known: known)
        return "no error"
    } catch {
        return error.description
    }
}

/// A fresh empty folder under the system temporary folder.
func temporaryFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("presets-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// The repository's `presets/` folder, found from this file's path.
let shippedPresets = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("presets", isDirectory: true)
