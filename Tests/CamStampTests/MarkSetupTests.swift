// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Presets
import Testing
import TestSupport
@testable import CamStamp

/// Loading marks for a job: the checks `presets check` makes, made again before any photo.
@Suite struct MarkSetupTests {
    let resources = Resources(
        root: URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent())

    func setupError(names: [String] = [], text: String? = nil, variables: [String: String] = [:]) -> String {
        do {
            _ = try MarkSetup.preset(
                names: names, text: text,
                variables: variables.map { VariableAssignment(key: $0.key, value: $0.value) },
                resources: resources)
            return "no error"
        } catch {
            return "\(error.kind): \(error.message)"
        }
    }

    @Test func textAndVariablesPastTheCapAreUsageErrors() {
        #expect(
            setupError(text: String(repeating: "x", count: 5000))
                == "usage: --text: text has 5000 characters, more than the 4096 a mark can show; split it into several marks or shorten it"
        )
        #expect(setupError(text: "a\u{0}b") == "usage: --text: text must not contain a NUL character (\\u0000)")
        #expect(
            setupError(text: "{v}", variables: ["v": String(repeating: "y", count: 4097)])
                == "usage: --var v: the value has 4097 characters, more than the 4096 a mark can show")
        // Under the caps but wider than a mark may be on a 1080p frame: caught at load, not per photo.
        let wide = setupError(text: String(repeating: "x", count: 4000))
        #expect(
            wide.hasPrefix("usage: --text: mark too large to render: ")
                && wide.hasSuffix(" on a 1920x1080 picture; make it smaller"), "\(wide)")
    }

    @Test func aFontFileThatIsNoFontStopsTheJobAtLoad() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("not a font".utf8).write(to: folder.appendingPathComponent("fake.otf"))
        let preset = folder.appendingPathComponent("p.json")
        try Data(#"{"marks": [{"text": "a", "font-file": "fake.otf"}]}"#.utf8).write(to: preset)
        #expect(
            setupError(names: ["credit", preset.path])
                == "usage: \(preset.path): font file unusable: \(folder.path)/fake.otf: not a font FreeType can read at $.marks[0].font-file; give a TrueType or OpenType font file (.ttf, .otf)"
        )
        #expect(setupError(names: ["credit", "proof", "logo"]) == "no error")
    }
}
