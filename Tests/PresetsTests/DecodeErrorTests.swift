// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
@testable import Presets

/// Preset errors, with their exact text: what a user reads when a preset is wrong.
extension DecodeTests {
    @Test func invalidJSONHasLine() {
        let json = "{\n  \"marks\": [\n    {\"text\": \"a\",}\n  ]\n}"
        #expect(errorText(json) == "/presets-test/studio.json:3: invalid JSON: trailing comma before '}' (column 18)")
    }

    @Test func unknownKeyWithSuggestion() {
        let json = """
            {
              "marks": [
                { "text": "a",
                  "colour": "#FFF" }
              ]
            }
            """
        #expect(
            errorText(json) == "/presets-test/studio.json:4: unknown key 'colour' at $.marks[0]; did you mean 'color'?")
        #expect(
            errorText(#"{"marks": [], "nmae": "x"}"#)
                == "/presets-test/studio.json:1: unknown key 'nmae' at $; did you mean 'name'?")
        #expect(
            errorText(##"{"marks": [{"text": "a", "outline": {"colour": "#000"}}]}"##)
                == "/presets-test/studio.json:1: unknown key 'colour' at $.marks[0].outline; did you mean 'color'?")
        #expect(
            errorText(#"{"marks": [{"text": "a", "zzz": 1}]}"#)
                == "/presets-test/studio.json:1: unknown key 'zzz' at $.marks[0]; valid keys are text, image, qr, font, font-file, weight, size, color, outline, shadow, box, align, max-width, markup, anchor, margin, offset, rotate, opacity, tile, width, height"
        )
    }

    @Test func wrongTypes() {
        let json = """
            {
              "marks": [
                { "text": "a",
                  "size": true }
              ]
            }
            """
        #expect(
            errorText(json)
                == #"/presets-test/studio.json:4: size must be a length like 24, "24px" or "4%" at $.marks[0].size"#)
        #expect(
            errorText(#"{"marks": [{"text": "a", "size": "24pt"}]}"#)
                == #"/presets-test/studio.json:1: size must be a length like 24, "24px" or "4%" at $.marks[0].size"#)
        #expect(
            errorText(#"{"marks": [{"text": 5}]}"#)
                == "/presets-test/studio.json:1: text must be a string, not a number at $.marks[0].text")
        #expect(
            errorText(#"{"marks": [{"text": "a", "offset": 5}]}"#)
                == #"/presets-test/studio.json:1: offset must be [x, y] with lengths like 24, "24px" or "4%" at $.marks[0].offset"#
        )
        #expect(
            errorText(#"{"marks": [{"text": "a", "margin": [1, 2, 3]}]}"#)
                == "/presets-test/studio.json:1: margin must be [x, y], two lengths, not 3 at $.marks[0].margin")
        #expect(
            errorText(#"{"marks": [{"text": "a", "margin": [1, "x"]}]}"#)
                == #"/presets-test/studio.json:1: margin must be a length like 24, "24px" or "4%" at $.marks[0].margin[1]"#
        )
        #expect(
            errorText(#"{"marks": [{"text": "a", "markup": "yes"}]}"#)
                == "/presets-test/studio.json:1: markup must be true or false, not a string at $.marks[0].markup")
        #expect(
            errorText(#"{"marks": [{"text": "a", "opacity": "50%"}]}"#)
                == "/presets-test/studio.json:1: opacity must be a number between 0 and 1 at $.marks[0].opacity")
        #expect(
            errorText(#"{"marks": [{"text": "a", "box": "dark"}]}"#)
                == ##"/presets-test/studio.json:1: box must be an object like {"color": "#00000059", "padding": "1%", "radius": 0}, or false at $.marks[0].box"##
        )
        #expect(
            errorText(#"{"marks": {"text": "a"}}"#)
                == "/presets-test/studio.json:1: marks must be an array of marks, not an object at $.marks")
        #expect(
            errorText(#"{"marks": ["a"]}"#)
                == "/presets-test/studio.json:1: a mark must be an object, not a string at $.marks[0]")
        #expect(errorText(#"[]"#) == "/presets-test/studio.json:1: a preset must be an object, not an array at $")
        #expect(
            errorText(#"{"variables": {"n": true}, "marks": []}"#)
                == "/presets-test/studio.json:1: variable 'n' must be a string, not a boolean at $.variables.n")
        #expect(
            errorText(#"{"name": "x"}"#)
                == #"/presets-test/studio.json:1: missing key 'marks' at $; a preset needs a list of marks, like "marks": [{"text": "© {author}"}]"#
        )
        #expect(
            errorText(#"{"marks": [{"text": "a", "weight": "extrabold"}]}"#)
                == "/presets-test/studio.json:1: weight must be thin, light, normal, medium, semibold, bold, heavy, black or a number from 100 to 900, not 'extrabold' at $.marks[0].weight"
        )
        #expect(
            errorText(#"{"marks": [{"text": "a", "weight": 950}]}"#)
                == "/presets-test/studio.json:1: weight must be between 100 and 900 at $.marks[0].weight")
        #expect(
            errorText(#"{"marks": [{"text": "a", "align": "middle"}]}"#)
                == "/presets-test/studio.json:1: align must be left, center or right, not 'middle' at $.marks[0].align")
    }

    @Test func outOfRange() {
        let json = """
            {
              "marks": [
                { "text": "a" },
                { "text": "b",
                  "opacity": 1.5 }
              ]
            }
            """
        #expect(errorText(json) == "/presets-test/studio.json:5: opacity must be between 0 and 1 at $.marks[1].opacity")
        #expect(
            errorText(#"{"marks": [{"text": "a", "size": 0}]}"#)
                == "/presets-test/studio.json:1: size must be greater than 0 at $.marks[0].size")
        #expect(
            errorText(#"{"marks": [{"text": "a", "size": "-2%"}]}"#)
                == "/presets-test/studio.json:1: size must be greater than 0 at $.marks[0].size")
        #expect(
            errorText(#"{"marks": [{"text": "a",\#n "outline": {"width": -1}}]}"#)
                == "/presets-test/studio.json:2: width must be 0 or more at $.marks[0].outline.width")
        #expect(
            errorText(#"{"marks": [{"text": "a", "tile": {"gap": "-1%"}}]}"#)
                == "/presets-test/studio.json:1: gap must be 0 or more at $.marks[0].tile.gap")
        #expect(
            errorText(#"{"marks": [{"text": "a", "margin": -3}]}"#)
                == "/presets-test/studio.json:1: margin must be 0 or more at $.marks[0].margin; use 'offset' to move a mark past the edge"
        )
        #expect(
            errorText(#"{"marks": [{"text": "a", "rotate": 400}]}"#)
                == "/presets-test/studio.json:1: rotate must be between -360 and 360 at $.marks[0].rotate")
        #expect(
            errorText(#"{"marks": [{"text": "a", "max-width": 0}]}"#)
                == "/presets-test/studio.json:1: max-width must be greater than 0 at $.marks[0].max-width")
    }

    /// A mark with several bad values is refused for the first in the order `Mark.keys` lists
    /// (the order of "valid keys are …"), a part's keys in their own order.
    @Test func severalFaultsReportTheFirstKey() {
        #expect(
            errorText(#"{"marks": [{"text": "a", "opacity": 2, "rotate": 400}]}"#)
                == "/presets-test/studio.json:1: rotate must be between -360 and 360 at $.marks[0].rotate")
        #expect(
            errorText(#"{"marks": [{"text": "a", "tile": {"gap": -1}, "margin": -1}]}"#)
                == "/presets-test/studio.json:1: margin must be 0 or more at $.marks[0].margin; use 'offset' to move a mark past the edge"
        )
        #expect(
            errorText(#"{"marks": [{"text": "a", "box": {"radius": -1, "padding": -1}}]}"#)
                == "/presets-test/studio.json:1: padding must be 0 or more at $.marks[0].box.padding")
    }

    @Test func textOrImage() {
        let both = """
            {
              "marks": [
                { "text": "a", "image": "logo.png" }
              ]
            }
            """
        #expect(
            errorText(both)
                == "/presets-test/studio.json:3: a mark has one of 'text', 'image' or 'qr', not 2 at $.marks[0]; split it into several marks"
        )
        let neither = """
            {
              "marks": [
                { "text": "a" },
                { "anchor": "top" }
              ]
            }
            """
        #expect(errorText(neither) == "/presets-test/studio.json:4: a mark needs 'text', 'image' or 'qr' at $.marks[1]")
        #expect(
            errorText(#"{"marks": [{"text": ""}]}"#)
                == "/presets-test/studio.json:1: text must not be empty at $.marks[0].text")
        #expect(
            errorText(#"{"marks": [{"text": "a", "width": "10%"}]}"#)
                == "/presets-test/studio.json:1: 'width' applies to image and QR marks only at $.marks[0].width; use 'size' for text, and 'max-width' to wrap it"
        )
        #expect(
            errorText(#"{"marks": [{"image": "a.png", "size": "10%"}]}"#)
                == "/presets-test/studio.json:1: 'size' applies to text marks only at $.marks[0].size")
    }

    @Test func badColour() {
        let json = """
            {
              "marks": [
                { "text": "a",
                  "color": "red" }
              ]
            }
            """
        #expect(
            errorText(json)
                == ##"/presets-test/studio.json:4: color must be #RGB, #RRGGBB or #RRGGBBAA, not 'red' at $.marks[0].color; write e.g. "#FFFFFF" for white"##
        )
        #expect(
            errorText(##"{"marks": [{"text": "a", "box": {"color": "#12345"}}]}"##)
                == "/presets-test/studio.json:1: color must be #RGB, #RRGGBB or #RRGGBBAA, not '#12345' at $.marks[0].box.color"
        )
        #expect(
            errorText(#"{"marks": [{"text": "a", "color": 255}]}"#)
                == "/presets-test/studio.json:1: color must be a colour in quotes: #RGB, #RRGGBB or #RRGGBBAA, not a number at $.marks[0].color"
        )
    }

    @Test func badAnchor() {
        let json = """
            {
              "marks": [
                { "text": "a",
                  "anchor": "bottom-rigth" }
              ]
            }
            """
        #expect(
            errorText(json)
                == "/presets-test/studio.json:4: anchor must be one of top-left, top, top-right, left, center, right, bottom-left, bottom, bottom-right, not 'bottom-rigth' at $.marks[0].anchor; did you mean 'bottom-right'?"
        )
        #expect(
            errorText(#"{"marks": [{"text": "a", "anchor": "middle"}]}"#)
                == "/presets-test/studio.json:1: anchor must be one of top-left, top, top-right, left, center, right, bottom-left, bottom, bottom-right, not 'middle' at $.marks[0].anchor"
        )
    }

    @Test func missingFiles() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("p.json")
        let json = """
            {
              "marks": [
                { "image": "logos/missing.svg" }
              ]
            }
            """
        #expect(
            errorText(json, source: source)
                == "\(source.path):3: image file not found: \(folder.path)/logos/missing.svg at $.marks[0].image; image paths are relative to the preset file's folder"
        )
        #expect(
            errorText(#"{"marks": [{"text": "a", "font-file": "f.ttf"}]}"#, source: source)
                == "\(source.path):1: font file not found: \(folder.path)/f.ttf at $.marks[0].font-file; font paths are relative to the preset file's folder"
        )
        try Data().write(to: folder.appendingPathComponent("photo.jpg"))
        #expect(
            errorText(#"{"marks": [{"image": "photo.jpg"}]}"#, source: source)
                == "\(source.path):1: image must be a PNG or SVG file, not 'photo.jpg' at $.marks[0].image")
    }

    @Test func unknownTemplateVariable() {
        let json = """
            {
              "variables": { "author": "Ann" },
              "marks": [
                { "text": "a" },
                { "text": "© {autor} {date:%Y}" }
              ]
            }
            """
        #expect(
            errorText(json)
                == "/presets-test/studio.json:5: unknown variable '{autor}' at $.marks[1].text; did you mean 'author'?")
        #expect(
            errorText(#"{"marks": [{"text": "{job}"}]}"#)
                == #"/presets-test/studio.json:1: unknown variable '{job}' at $.marks[0].text; define it in the preset's "variables" or pass --var job=VALUE"#
        )
        #expect(errorText(#"{"marks": [{"text": "{job}"}]}"#, known: ["job"]) == "no error")
        #expect(
            errorText(#"{"marks": [{"text": "{date:%q}"}]}"#)
                == "/presets-test/studio.json:1: unknown date field '%q' in '%q' at $.marks[0].text; use strftime fields such as %Y %m %d %H %M %S"
        )
        #expect(
            errorText(#"{"variables": {"date": "x"}, "marks": [{"text": "a"}]}"#)
                == "/presets-test/studio.json:1: variable 'date' is built in at $.variables.date; pick another name")
    }

    @Test func errorWithoutFileOrLine() {
        let error = PresetError(.unknownKey, "unknown key 'colour'", path: "$.marks[0]", hint: "did you mean 'color'?")
        #expect(error.description == "unknown key 'colour' at $.marks[0]; did you mean 'color'?")
        var withFile = error
        withFile.file = "a.json"
        #expect(withFile.description == "a.json: unknown key 'colour' at $.marks[0]; did you mean 'color'?")
    }

    @Test func validateCodeBuiltPresets() {
        var mark = Mark(content: .text("{nope}"))
        #expect(
            throws: PresetError(
                .unknownVariable, "unknown variable '{nope}'", path: "$.marks[0].text",
                hint: #"define it in the preset's "variables" or pass --var nope=VALUE"#)
        ) {
            try Preset(name: "t", marks: [mark]).validate()
        }
        mark.content = .text("ok")
        mark.opacity = -0.1
        #expect(throws: PresetError(.outOfRange, "opacity must be between 0 and 1", path: "$.marks[0].opacity")) {
            try Preset(name: "t", marks: [mark]).validate()
        }
        #expect(throws: Never.self) { try Preset.quickText("{stem} {date:%H:%M}").validate() }
    }

    @Test func variablePrecedence() {
        let preset = Preset(name: "p", variables: ["author": "Preset", "job": "1"], marks: [])
        #expect(preset.variables(overriddenBy: ["author": "Cli"]) == ["author": "Cli", "job": "1"])
    }
}
