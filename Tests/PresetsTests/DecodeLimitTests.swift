// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
@testable import Presets

/// Preset values past what a mark can show are refused at load time, with their range.
extension DecodeTests {
    /// Lengths far past any picture (1e300, "9999…%") passed decoding, then trapped converting to
    /// Int while rendering: each key has a range, checked at load time.
    @Test func hugeLengthsAreRefusedWithTheirRange() {
        let nines = String(repeating: "9", count: 400)
        let cases: [(String, String)] = [
            (
                #""offset": [1e300, 0]"#,
                "offset must be between -32767 and 32767 pixels at $.marks[0].offset; use a percentage such as \"4%\" so the mark follows the picture's size"
            ),
            (
                #""offset": ["0%", "-\#(nines)%"]"#,
                "offset must be between -1000% and 1000% of the short side at $.marks[0].offset"
            ),
            (#""margin": "\#(nines)%""#, "margin must be at most 1000% of the short side at $.marks[0].margin"),
            (
                #""margin": [0, 1e19]"#,
                "margin must be at most 32767 pixels at $.marks[0].margin; use a percentage such as \"4%\" so the mark follows the picture's size"
            ),
            (
                #""shadow": {"blur": "1e300"}"#,
                #"blur must be a length like 24, "24px" or "4%" at $.marks[0].shadow.blur"#
            ),
            (
                #""shadow": {"blur": 1e300}"#,
                "blur must be at most 1024 pixels at $.marks[0].shadow.blur; use a percentage such as \"4%\" so the mark follows the picture's size"
            ),
            (
                #""shadow": {"offset": ["101%", 0]}"#,
                "offset must be between -10% and 10% of the short side at $.marks[0].shadow.offset"
            ),
            (
                #""outline": {"width": "\#(nines)"}"#,
                "width must be at most 1024 pixels at $.marks[0].outline.width; use a percentage such as \"4%\" so the mark follows the picture's size"
            ),
            (
                #""box": {"padding": "200%"}"#,
                "padding must be at most 100% of the short side at $.marks[0].box.padding"
            ),
            (
                #""box": {"radius": 1e20}"#,
                "radius must be at most 8192 pixels at $.marks[0].box.radius; use a percentage such as \"4%\" so the mark follows the picture's size"
            ),
            (#""tile": {"gap": "1e9px"}"#, #"gap must be a length like 24, "24px" or "4%" at $.marks[0].tile.gap"#),
            (
                #""tile": {"gap": 1e9}"#,
                "gap must be at most 32767 pixels at $.marks[0].tile.gap; use a percentage such as \"4%\" so the mark follows the picture's size"
            ),
            (#""max-width": "1001%""#, "max-width must be at most 1000% of the short side at $.marks[0].max-width"),
            (#""size": "\#(nines)%""#, "size must be at most 100% of the short side at $.marks[0].size"),
            (#""opacity": 1e300"#, "opacity must be between 0 and 1 at $.marks[0].opacity"),
            (#""rotate": -1e300"#, "rotate must be between -360 and 360 at $.marks[0].rotate"),
        ]
        for (key, message) in cases {
            #expect(
                errorText(#"{"marks": [{"text": "a", \#(key)}]}"#) == "/presets-test/studio.json:1: " + message,
                "\(key)")
        }
    }

    /// An outline or shadow reaching past 10% of the short side is refused: "100%" was accepted
    /// and made a `{frame}` mark on a clip ~55 times as costly (its image three times the frame's,
    /// drawn and converted each frame). 10% itself is accepted, and a pixel value is drawn at most
    /// that far on a small picture.
    @Test func anOutlineOrShadowReachesAtMostATenthOfTheShortSide() {
        let cases: [(String, String)] = [
            (
                #""outline": {"width": "100%"}"#,
                "width must be at most 10% of the short side at $.marks[0].outline.width"
            ),
            (
                #""outline": {"width": "10.5%"}"#,
                "width must be at most 10% of the short side at $.marks[0].outline.width"
            ),
            (#""shadow": {"blur": "100%"}"#, "blur must be at most 10% of the short side at $.marks[0].shadow.blur"),
            (
                #""shadow": {"offset": ["0%", "-11%"]}"#,
                "offset must be between -10% and 10% of the short side at $.marks[0].shadow.offset"
            ),
            (
                #""outline": {"width": 1025}"#,
                "width must be at most 1024 pixels at $.marks[0].outline.width; use a percentage such as \"4%\" so the mark follows the picture's size"
            ),
        ]
        for (key, message) in cases {
            #expect(
                errorText(#"{"marks": [{"text": "a", \#(key)}]}"#) == "/presets-test/studio.json:1: " + message,
                "\(key)")
        }
        #expect(
            errorText(
                #"{"marks": [{"text": "a", "outline": {"width": "10%"}, "shadow": {"offset": ["-10%", "10%"], "blur": "10%"}}]}"#
            ) == "no error")
        var mark = Mark(content: .text("a"))
        mark.outline = Outline(width: .px(1000))
        mark.shadow = Shadow(offset: LengthPair(x: .px(-500), y: .px(20)), blur: .px(1000))
        let resolved = mark.resolved(width: 640, height: 360, expandedText: "a")
        #expect(resolved.outline?.width == 36 && resolved.shadow?.blur == 36)
        #expect(resolved.shadow?.dx == -36 && resolved.shadow?.dy == 20)
    }

    @Test func hugeImageSizesAreRefused() throws {
        let folder = try temporaryFolder()
        let source = folder.appendingPathComponent("p.json")
        try Data().write(to: folder.appendingPathComponent("logo.png"))
        #expect(
            errorText(#"{"marks": [{"image": "logo.png", "width": 1e300}]}"#, source: source)
                == "\(source.path):1: width must be at most 32767 pixels at $.marks[0].width; use a percentage such as \"4%\" so the mark follows the picture's size"
        )
        #expect(
            errorText(#"{"marks": [{"image": "logo.png", "height": "-5%"}]}"#, source: source)
                == "\(source.path):1: height must be greater than 0 at $.marks[0].height")
        #expect(
            errorText(#"{"marks": [{"image": "logo.png", "height": "5000%"}]}"#, source: source)
                == "\(source.path):1: height must be at most 1000% of the short side at $.marks[0].height")
    }

    @Test func folderWhereAFileBelongsIsAnError() throws {
        let folder = try temporaryFolder()
        let source = folder.appendingPathComponent("p.json")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("logo.png"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("font.ttf"), withIntermediateDirectories: true)
        #expect(
            errorText(#"{"marks": [{"image": "logo.png"}]}"#, source: source)
                == "\(source.path):1: image is a folder, not a file: \(folder.path)/logo.png at $.marks[0].image; give the path of a PNG or SVG file"
        )
        #expect(
            errorText(#"{"marks": [{"text": "a", "font-file": "font.ttf"}]}"#, source: source)
                == "\(source.path):1: font-file is a folder, not a file: \(folder.path)/font.ttf at $.marks[0].font-file; give the path of a .ttf or .otf file"
        )
    }

    @Test func textLongerThanAMarkCanShowIsRefused() {
        let long = String(repeating: "x", count: 4097)
        #expect(
            errorText(#"{"marks": [{"text": "\#(long)"}]}"#)
                == "/presets-test/studio.json:1: text has 4097 characters, more than the 4096 a mark can show at $.marks[0].text; split it into several marks or shorten it"
        )
        #expect(
            errorText(#"{"variables": {"v": "\#(long)"}, "marks": [{"text": "{v}"}]}"#)
                == "/presets-test/studio.json:1: variable 'v' has 4097 characters, more than the 4096 a mark can show at $.marks[0].text"
                .replacingOccurrences(of: "$.marks[0].text", with: "$.variables.v"))
        #expect(errorText(#"{"marks": [{"text": "\#(String(repeating: "é", count: 4096))"}]}"#) == "no error")
    }
}
