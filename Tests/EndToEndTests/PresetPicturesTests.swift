// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

/// docs/presets.md shows every shipped preset as a picture made by `make preset-pictures`: a
/// preset added without its picture, or a picture the page does not show, fails here.
@Suite struct PresetPicturesTests {
    static let pictures = packageRoot.appendingPathComponent("docs/images/presets")

    /// The shipped presets, by their files' names.
    static func shipped() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent("presets").path)
            .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }

    /// A `NAME = value` line of the Makefile: the size and quality the pictures are made with.
    static func makeVariable(_ name: String) throws -> String {
        let makefile = try String(contentsOf: packageRoot.appendingPathComponent("Makefile"), encoding: .utf8)
        let line = try #require(makefile.split(separator: "\n").first { $0.hasPrefix(name + " ") }, "no \(name)")
        return line.split(separator: "=", maxSplits: 1)[1].trimmingCharacters(in: .whitespaces)
    }

    @Test func everyShippedPresetHasItsPictureAndThePageShowsIt() throws {
        let page = try String(contentsOf: packageRoot.appendingPathComponent("docs/presets.md"), encoding: .utf8)
        let presets = try Self.shipped()
        #expect(presets.count >= 6)
        for name in presets {
            let picture = Self.pictures.appendingPathComponent("\(name).jpg")
            #expect(
                FileManager.default.fileExists(atPath: picture.path),
                "docs/images/presets/\(name).jpg is missing: run make preset-pictures and commit it")
            #expect(page.contains("](images/presets/\(name).jpg)"), "docs/presets.md does not show \(name)")
        }
        let extra = try FileManager.default.contentsOfDirectory(atPath: Self.pictures.path)
            .filter { !presets.contains(String($0.dropLast(4))) }
        #expect(extra.isEmpty, "pictures of no shipped preset: \(extra)")
    }

    @Test func aFreshPictureHasTheCheckedInOnesSize() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let size = try Self.makeVariable("PRESET_PICTURE_SIZE")
        let quality = try Self.makeVariable("PRESET_PICTURE_QUALITY")
        for name in try Self.shipped() {
            let fresh = folder.appendingPathComponent("\(name).jpg")
            let preset = packageRoot.appendingPathComponent("presets/\(name).json").path
            let result = try camstamp(
                ["presets", "render", preset, "--size", size, "--quality", quality, "-o", fresh.path])
            #expect(result.status == 0, "\(name): \(result.stderr)")
            let made = try djpeg(fresh), shipped = try djpeg(Self.pictures.appendingPathComponent("\(name).jpg"))
            #expect((made.width, made.height) == (shipped.width, shipped.height), "\(name)")
            // About 640 pixels wide, small enough to check in.
            #expect((600...700).contains(shipped.width), "\(name) is \(shipped.width) px wide")
            let bytes = try Data(contentsOf: Self.pictures.appendingPathComponent("\(name).jpg")).count
            #expect(bytes < 60_000, "\(name).jpg is \(bytes) bytes")
        }
    }
}
