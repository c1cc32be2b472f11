// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
@testable import Presets

@Suite struct DecodeTests {
    @Test func decodesEveryKey() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("logos"), withIntermediateDirectories: true)
        try Data("<svg xmlns='http://www.w3.org/2000/svg'/>".utf8).write(
            to: folder.appendingPathComponent("logos/studio.svg"))
        try Data("font".utf8).write(to: folder.appendingPathComponent("Brand.ttf"))
        let json = """
            {
              "name": "studio-credit",
              "description": "Credit line bottom-right, logo top-left",
              "variables": { "author": "Example Studio" },
              "marks": [
                {
                  "text": "© {author} {date:%Y}",
                  "font": "Noto Sans CJK SC", "font-file": "Brand.ttf", "weight": "bold", "size": "4%",
                  "color": "#FFFFFFE6",
                  "outline": { "color": "#000000B3", "width": "0.25%" },
                  "shadow": { "color": "#00000080", "offset": ["0.2%", "0.2%"], "blur": "0.3%" },
                  "box": { "color": "#00000059", "padding": "1%", "radius": "0.6%" },
                  "align": "right", "max-width": "60%", "markup": false,
                  "anchor": "bottom-right", "margin": "3%", "offset": [0, "-2px"],
                  "rotate": 0, "opacity": 1.0
                },
                { "image": "logos/studio.svg", "width": "18%", "height": 120, "anchor": "top-left", "margin": ["3%", 20], "opacity": 0.8 },
                { "text": "PROOF", "size": "6%", "color": "#FFFFFF40", "rotate": -30, "tile": { "gap": "12%" }, "weight": 600 }
              ]
            }
            """
        let source = folder.appendingPathComponent("studio.json")
        let preset = try decode(json, source: source)
        #expect(preset.name == "studio-credit")
        #expect(preset.description == "Credit line bottom-right, logo top-left")
        #expect(preset.variables == ["author": "Example Studio"])
        #expect(preset.source == source.standardizedFileURL)
        #expect(preset.marks.count == 3)

        let credit = preset.marks[0]
        #expect(credit.content == .text("© {author} {date:%Y}"))
        #expect(credit.font == "Noto Sans CJK SC")
        #expect(credit.fontFile == folder.appendingPathComponent("Brand.ttf").standardizedFileURL)
        #expect(credit.weight == FontWeight(700))
        #expect(credit.size == .percent(4))
        #expect(credit.color == Color(hex: "#FFFFFFE6"))
        #expect(credit.outline == Outline(color: Color(hex: "#000000B3")!, width: .percent(0.25)))
        #expect(
            credit.shadow
                == Shadow(color: Color(hex: "#00000080")!, offset: LengthPair(both: .percent(0.2)), blur: .percent(0.3))
        )
        #expect(credit.box == Box(color: Color(hex: "#00000059")!, padding: .percent(1), radius: .percent(0.6)))
        #expect(credit.align == .right)
        #expect(credit.maxWidth == .percent(60))
        #expect(credit.markup == false)
        #expect(credit.anchor == .bottomRight)
        #expect(credit.margin == LengthPair(both: .percent(3)))
        #expect(credit.offset == LengthPair(x: .px(0), y: .px(-2)))
        #expect(credit.rotate == 0 && credit.opacity == 1)
        #expect(credit.tile == nil)
        #expect(credit.template?.variableNames == ["author"])

        let logo = preset.marks[1]
        #expect(logo.content == .image(folder.appendingPathComponent("logos/studio.svg").standardizedFileURL))
        if case .image(let url) = logo.content { #expect(url.isFileURL && url.path.hasPrefix("/")) }
        #expect(logo.width == .percent(18))
        #expect(logo.height == .px(120))
        #expect(logo.anchor == .topLeft)
        #expect(logo.margin == LengthPair(x: .percent(3), y: .px(20)))
        #expect(logo.opacity == 0.8)

        let proof = preset.marks[2]
        #expect(proof.tile == Tile(gap: .percent(12)))
        #expect(proof.rotate == -30)
        #expect(proof.weight == FontWeight(600))
        #expect(proof.anchor == .bottomRight)
    }

    @Test func defaultsMatchTheQuickTextStyle() throws {
        let preset = try decode(#"{"marks": [{"text": "hello"}]}"#)
        #expect(preset.name == "studio")
        #expect(preset.description == "")
        #expect(preset.marks == [Mark(content: .text("hello"))])
        #expect(preset.marks == Preset.quickText("hello").marks)
    }

    @Test func subObjectDefaults() throws {
        let preset = try decode(
            """
            {"marks": [{"text": "a", "outline": {}, "shadow": {}, "box": {}, "tile": {}},
                       {"text": "b", "outline": {"width": 2}, "shadow": {"blur": 0}, "box": {"radius": "1%"}, "tile": true},
                       {"text": "c", "outline": false, "shadow": null, "box": false, "tile": false}]}
            """)
        let a = preset.marks[0], b = preset.marks[1], c = preset.marks[2]
        #expect(a.outline == Outline(color: Color(hex: "#000000B3")!, width: .percent(0.25)))
        #expect(
            a.shadow
                == Shadow(color: Color(hex: "#00000080")!, offset: LengthPair(both: .percent(0.2)), blur: .percent(0.3))
        )
        #expect(a.box == Box(color: Color(hex: "#00000059")!, padding: .percent(1), radius: .px(0)))
        #expect(a.tile == Tile(gap: .percent(10)))
        #expect(b.outline == Outline(color: Color(hex: "#000000B3")!, width: .px(2)))
        #expect(b.shadow?.blur == .px(0))
        #expect(b.shadow?.offset == LengthPair(both: .percent(0.2)))
        #expect(b.box?.radius == .percent(1))
        #expect(b.box?.padding == .percent(1))
        #expect(b.tile == Tile(gap: .percent(10)))
        #expect(c.outline == nil && c.shadow == nil && c.box == nil && c.tile == nil)
    }

    @Test(arguments: [
        ("thin", 100), ("light", 300), ("normal", 400), ("medium", 500), ("semibold", 600), ("bold", 700),
        ("heavy", 900), ("black", 900),
    ])
    func weightNames(name: String, value: Int) throws {
        #expect(try decode(#"{"marks": [{"text": "a", "weight": "\#(name)"}]}"#).marks[0].weight.value == value)
    }

    @Test func everyAnchorDecodes() throws {
        for anchor in Anchor.allCases {
            #expect(
                try decode(#"{"marks": [{"text": "a", "anchor": "\#(anchor.rawValue)"}]}"#).marks[0].anchor == anchor)
        }
    }
}
