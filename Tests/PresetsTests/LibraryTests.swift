// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
@testable import Presets

@Suite struct LibraryTests {
    func write(_ json: String, _ name: String, in folder: URL) throws {
        try Data(json.utf8).write(to: folder.appendingPathComponent(name))
    }

    @Test func listLoadAndStack() throws {
        let first = try temporaryFolder(), second = try temporaryFolder()
        defer { for url in [first, second] { try? FileManager.default.removeItem(at: url) } }
        try write(
            #"{"description": "By line", "variables": {"author": "A", "city": "Paris"}, "marks": [{"text": "© {author}"}]}"#,
            "by.json", in: first)
        try write(
            #"{"description": "Place", "variables": {"author": "B"}, "marks": [{"text": "{city} {job}", "anchor": "top"}]}"#,
            "place.json", in: first)
        try write(#"{"description": "Shadowed", "marks": [{"text": "x"}]}"#, "by.json", in: second)
        try write(#"{"description": "Other", "marks": [{"text": "y"}]}"#, "other.json", in: second)
        try write("{\n\"marks\": [,]}", "broken.json", in: second)
        try write("not a preset", "notes.txt", in: second)
        let library = PresetLibrary(directories: [first, second])

        let listed = library.list()
        #expect(listed.map(\.name) == ["broken", "by", "other", "place"])
        #expect(listed.map(\.description) == ["(invalid JSON, line 2)", "By line", "Other", "Place"])

        let by = try library.load("by")
        #expect(by.name == "by" && by.marks.count == 1)
        #expect(by.source == first.appendingPathComponent("by.json").standardizedFileURL)
        #expect(try library.load(second.appendingPathComponent("by.json").path).description == "Shadowed")

        // "place" uses {city} from "by" and {job} from --var: fine when stacked, an error alone.
        let stacked = try library.load(stacking: ["by", "place"], knownVariables: ["job"])
        #expect(stacked.name == "by+place")
        #expect(stacked.marks.map(\.content) == [.text("© {author}"), .text("{city} {job}")])
        #expect(stacked.marks.map(\.anchor) == [.bottomRight, .top])
        #expect(stacked.variables == ["author": "B", "city": "Paris"])
        let context = TemplateContext(variables: stacked.variables(overriddenBy: ["job": "J-7", "author": "Cli"]))
        #expect(stacked.marks.map { $0.expandedText(context) } == ["© Cli", "Paris J-7"])

        #expect(throws: PresetError.self) { try library.load("place") }
        do {
            _ = try library.load("place")
        } catch {
            #expect(
                error.description
                    == "\(first.path)/place.json:1: unknown variable '{city}' at $.marks[0].text; define it in the preset's \"variables\" or pass --var city=VALUE"
            )
        }
    }

    @Test func notFound() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try write(#"{"marks": [{"text": "x"}]}"#, "credit.json", in: folder)
        let library = PresetLibrary(directories: [folder])
        #expect(throws: PresetError(.notFound, "no preset named 'credti'", hint: "did you mean 'credit'?")) {
            try library.load("credti")
        }
        #expect(throws: PresetError(.notFound, "no preset named 'zzz'", hint: "available: credit")) {
            try library.load("zzz")
        }
        #expect(throws: PresetError(.notFound, "no such preset file", file: "\(folder.path)/missing.json")) {
            try library.load("\(folder.path)/missing.json")
        }
        #expect(throws: PresetError(.notFound, "no preset named 'x'", hint: "no presets found in /nonexistent")) {
            try PresetLibrary(directories: [URL(fileURLWithPath: "/nonexistent")]).load("x")
        }
        #expect(PresetLibrary.isPath("a/b") && PresetLibrary.isPath("mine.json") && !PresetLibrary.isPath("credit"))
    }

    @Test func stackingOneIsIdentity() {
        let preset = Preset.quickText("hi")
        #expect(Preset.stacking([preset]) == preset)
        #expect(Preset.stacking([preset, preset]).marks.count == 2)
    }
}

@Suite struct ShippedPresetsTests {
    static let expected = ["camera-info", "caption-cn", "credit", "logo", "proof", "timestamp"]

    var library: PresetLibrary { PresetLibrary(directories: [shippedPresets]) }

    @Test func allShippedPresetsArePresent() {
        let names = library.list().map(\.name)
        for name in Self.expected { #expect(names.contains(name), "presets/\(name).json is missing") }
    }

    @Test func everyFileLoadsAndValidates() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: shippedPresets.path).filter {
            $0.hasSuffix(".json")
        }
        #expect(files.count >= Self.expected.count)
        for file in files {
            let preset = try library.load(shippedPresets.appendingPathComponent(file).path)
            try preset.validate()
            #expect(preset.name + ".json" == file)
            #expect(
                !preset.description.isEmpty && !preset.description.contains("\n"),
                "\(file) needs a one-line description")
            #expect(!preset.marks.isEmpty)
            for mark in preset.marks {
                // Relative sizes only, so a preset fits any photo, portrait or landscape.
                let lengths: [Length?] = [
                    mark.size, mark.maxWidth, mark.width, mark.height, mark.margin.x, mark.margin.y,
                    mark.outline?.width, mark.box?.padding, mark.tile?.gap,
                ]
                for case .px(let value)? in lengths { #expect(value == 0, "\(file) has a pixel length") }
                if case .image(let url) = mark.content {
                    #expect(FileManager.default.fileExists(atPath: url.path))
                }
                let landscape = mark.resolved(width: 6000, height: 4000, expandedText: "x")
                let portrait = mark.resolved(width: 4000, height: 6000, expandedText: "x")
                #expect(landscape == portrait)
            }
        }
    }

    @Test func shippedTextsExpand() throws {
        let context = TemplateContext(
            captureDate: Date(timeIntervalSince1970: 1_772_892_309),
            timeZone: TimeZone(identifier: "UTC")!, hostname: "h")
        func text(_ name: String, exif: [String: String] = [:]) throws -> String {
            let preset = try library.load(name)
            var context = context
            context.exif = exif
            context.variables = preset.variables
            return preset.marks[0].expandedText(context)
        }
        #expect(try text("credit") == "© Your Name 2026")
        #expect(try text("timestamp") == "<span size=\"x-large\" weight=\"bold\">14:05</span>\n2026-03-07 Sat")
        #expect(try text("caption-cn") == "「2026年03月07日 14:05」\n工程：示例项目")
        #expect(try text("camera-info") == "Camera · f/? · ?s · ISO ?")
        #expect(
            try text(
                "camera-info",
                exif: ["Model": "X-T5", "FNumber": "5.6", "ExposureTime": "1/250", "ISOSpeedRatings": "200"])
                == "X-T5 · f/5.6 · 1/250s · ISO 200")
        #expect(try text("proof") == "PROOF")
        #expect(try library.load("proof").marks[0].rotate == -30)
        #expect(try library.load("proof").marks[0].tile != nil)
        #expect(try library.load("caption-cn").marks[0].font == "Noto Sans CJK SC")
        #expect(try library.load("timestamp").dependsOnTime)
        #expect(try !library.load("camera-info").dependsOnTime)
    }
}
