// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
@testable import Presets

@Suite struct ResolvedJSONTests {
    static let presetsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("presets")

    @Test(arguments: ["credit", "timestamp", "logo", "proof", "caption-cn", "camera-info"])
    func everyShippedPresetRoundTripsThroughItsResolvedJSON(name: String) throws {
        let file = Self.presetsFolder.appendingPathComponent(name + ".json")
        let preset = try Preset.load(contentsOf: file)
        let json = preset.resolvedJSON()
        // Read back from the same folder, so relative image paths resolve the same way.
        let again = try Preset.decode(Data(json.utf8), source: file)
        #expect(again.marks == preset.marks)
        #expect(
            again.variables == preset.variables && again.name == preset.name && again.description == preset.description)
    }

    /// `presets show` writes every default out; reading that back must give the same marks. The
    /// default outline, shadow and box colours were 0.7, 0.5 and 0.35 opaque: written as #…B3,
    /// #…80 and #…59 they came back 179/255, 128/255 and 89/255, a different preset.
    @Test func defaultsRoundTrip() throws {
        let defaults = try Preset.decode(
            Data(#"{"marks": [{"text": "a", "shadow": true, "box": true, "tile": true}]}"#.utf8))
        for preset in [Preset.quickText("Hi"), defaults] {
            let again = try Preset.decode(Data(preset.resolvedJSON().utf8))
            #expect(again.marks == preset.marks, "\(preset.resolvedJSON())")
        }
    }

    /// A length too small for a plain decimal came out as "1e-05%", which no preset may say.
    @Test func smallLengthsAreWrittenAsPresetsSayThem() throws {
        let preset = try Preset.decode(
            Data(#"{"marks": [{"text": "a", "size": "0.00001%", "margin": ["0.000125px", 0]}]}"#.utf8))
        let json = preset.resolvedJSON()
        #expect(json.contains(#""size": "0.00001%""#) && json.contains(#""margin": ["0.000125px", "0px"]"#), "\(json)")
        #expect(try Preset.decode(Data(json.utf8)).marks == preset.marks)
    }

    @Test func defaultsAreSpelledOut() throws {
        let json = Preset.quickText("Hi \"there\"").resolvedJSON()
        #expect(json.contains(#""text": "Hi \"there\"""#))
        #expect(json.contains(#""size": "4%""#))
        #expect(json.contains(#""anchor": "bottom-right""#))
        #expect(json.contains(##""outline": { "color": "#000000B3", "width": "0.25%" }"##), "\(json)")
        #expect(json.contains(#""shadow": null"#))
    }
}

@Suite struct TextLimitTests {
    @Test func hugeSizesAndNULsAreRefusedWithTheirPath() {
        func check(_ json: String) -> String? {
            do {
                _ = try Preset.decode(Data(json.utf8))
                return nil
            } catch { return error.description }
        }
        #expect(
            check(#"{"marks":[{"text":"a","size":1000000}]}"#)?.contains(
                "size must be at most 8192 pixels at $.marks[0].size") == true)
        #expect(
            check(#"{"marks":[{"text":"a","size":"150%"}]}"#)?.contains("size must be at most 100% of the short side")
                == true)
        #expect(check(#"{"marks":[{"text":"a\u0000b"}]}"#)?.contains("must not contain a NUL") == true)
        #expect(check(#"{"marks":[{"text":"a","size":"100%"}]}"#) == nil)
    }
}

/// Every key of the tables `Mark.keys`, `Outline.keys`, `Shadow.keys`, `Box.keys` and `Tile.keys`,
/// set alone to a value other than its default: it decodes to a different mark, `presets show`
/// writes it, and reading that back gives the same mark. A key added to a table without a sample
/// here fails.
@Suite struct KeyTableTests {
    static let samples: [String: String] = [
        "font": #""Noto Serif""#, "font-file": #""Brand.ttf""#, "weight": "450", "size": #""5.5%""#,
        "color": ##""#12345678""##, "align": #""center""#, "max-width": #""60%""#, "markup": "true",
        "anchor": #""top""#, "margin": #"["1%", 4]"#, "offset": #"[-3, "2.5%"]"#, "rotate": "-30.5",
        "opacity": "0.25", "width": #""18%""#, "height": "120",
        "outline.color": ##""#FF0000""##, "outline.width": #""2px""#,
        "shadow.color": ##""#0000FF80""##, "shadow.offset": #"["1%", "-1%"]"#, "shadow.blur": "0",
        "box.color": ##""#FFF""##, "box.padding": #""2%""#, "box.radius": "3",
        "tile.gap": #""12%""#,
    ]
    static let parts: [String: [String]] = [
        "outline": Outline.keys.map(\.name), "shadow": Shadow.keys.map(\.name),
        "box": Box.keys.map(\.name), "tile": Tile.keys.map(\.name),
    ]

    @Test func everyKeyRoundTrips() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("<svg xmlns='http://www.w3.org/2000/svg' width='4' height='4'/>".utf8).write(
            to: folder.appendingPathComponent("logo.svg"))
        try Data("font".utf8).write(to: folder.appendingPathComponent("Brand.ttf"))
        let source = folder.appendingPathComponent("p.json")
        func preset(_ members: String) throws -> Preset {
            try Preset.decode(Data(#"{"marks": [{\#(members)}]}"#.utf8), source: source)
        }
        var all: [PresetKey<Mark>.Marks: [String]] = [:]
        for key in Mark.keys {
            let content = key.marks == .image ? #""image": "logo.svg""# : #""text": "a""#
            let plain = try preset(content)
            var values: [String] = []
            if let subKeys = Self.parts[key.name] {
                #expect(!subKeys.isEmpty)
                for sub in subKeys {
                    let sample = try #require(Self.samples["\(key.name).\(sub)"], "no sample for \(key.name).\(sub)")
                    values.append(#"{"\#(sub)": \#(sample)}"#)
                }
            } else {
                values.append(try #require(Self.samples[key.name], "no sample for \(key.name)"))
            }
            all[key.marks, default: []].append(#""\#(key.name)": \#(values.last!)"#)
            for value in values {
                let set = try preset(#"\#(content), "\#(key.name)": \#(value)"#)
                #expect(set.marks != plain.marks, "\(key.name): \(value) changed nothing")
                let shown = set.resolvedJSON()
                #expect(shown.contains(#""\#(key.name)": "#), "\(shown)")
                #expect(
                    try Preset.decode(Data(shown.utf8), source: source).marks == set.marks,
                    "\(key.name): \(value)\n\(shown)")
            }
            for value in ["true", "false", "null"] where Self.parts[key.name] != nil {
                let set = try preset(#"\#(content), "\#(key.name)": \#(value)"#)
                #expect(
                    try Preset.decode(Data(set.resolvedJSON().utf8), source: source).marks == set.marks,
                    "\(key.name): \(value)")
            }
        }
        // Every key of a kind at once.
        for (kind, content) in [(PresetKey<Mark>.Marks.text, #""text": "a""#), (.image, #""image": "logo.svg""#)] {
            let set = try preset(([content] + all[kind, default: []] + all[.all, default: []]).joined(separator: ", "))
            #expect(try Preset.decode(Data(set.resolvedJSON().utf8), source: source).marks == set.marks, "\(kind)")
        }
    }
}
