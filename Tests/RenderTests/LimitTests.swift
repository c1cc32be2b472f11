// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
@testable import Presets
import Testing
@testable import Render

/// Hostile sizes, counts and files: each is an error that says what to change, never a trap,
/// a blank mark reported as drawn, or minutes and gigabytes spent.
@Suite struct LimitTests {
    @Test func denseTileIsRefusedWithItsCountBeforeAnyOriginIsMade() throws {
        // "PROOF" at 0.1% of a 12 MP photo's short side, no gap: about 200,000 copies.
        var mark = textMark("PROOF", size: 3)
        mark.tileGap = 0
        do {
            let rendered = try makeRenderer().render(mark, frameWidth: 4000, frameHeight: 3000)
            Issue.record("expected an error, got \(rendered.origins.count) tiles")
        } catch let error as RenderError {
            guard case .tooManyTiles(let count, 4000, 3000) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(count > 100_000)
            #expect(
                error.description
                    == "a tiled mark would need \(Int(count)) copies on a 4000x3000 picture, more than 10000; make the mark larger or its tile gap wider"
            )
        }
        // Under the cap the grid is drawn, and never more than the cap.
        mark.fontSize = 40
        mark.tileGap = 10
        let rendered = try makeRenderer().render(mark, frameWidth: 4000, frameHeight: 3000)
        #expect(rendered.origins.count > 1000 && rendered.origins.count <= MarkRenderer.maxTiles)
        let grid = Layout.tileGrid(
            markWidth: Double(rendered.bitmap.width), markHeight: Double(rendered.bitmap.height),
            frameWidth: 4000, frameHeight: 3000, gap: 10)
        #expect(Double(rendered.origins.count) == grid.columns * grid.rows)
    }

    @Test func textPastTheCharacterCapIsAnErrorNotABlank() throws {
        // A 900,000-character line was reported "marked" with nothing drawn.
        let renderer = try makeRenderer()
        let long = textMark(String(repeating: "x", count: 900_000), size: 20)
        #expect(throws: RenderError.textTooLong(characters: 900_000)) {
            try renderer.render(long, frameWidth: 1920, frameHeight: 1080)
        }
        #expect(
            RenderError.textTooLong(characters: 900_000).description
                == "mark text has 900000 characters once its variables are filled in, more than the 4096 a mark can show; shorten the values that fill it ({exif:…}, {filename}, --var)"
        )
        // At the cap, a wrapped text is drawn.
        var full = textMark(String(repeating: "x", count: 4096), size: 8)
        full.maxWidth = 1200
        full.outline = .init(color: .black, width: 1)
        let bitmap = try renderer.render(full, frameWidth: 1920, frameHeight: 1080).bitmap
        #expect(bitmap.width > 1000 && bitmap.height > 100)
    }

    @Test func hugeTextSizeIsRefusedBeforePangoLaysItOut() throws {
        let renderer = try makeRenderer()
        // 4000 characters at 1000 px: Pango's 32-bit extents would wrap round.
        let mark = textMark(String(repeating: "x", count: 4000), size: 1000)
        #expect(throws: RenderError.textTooLarge(characters: 4000, fontSize: 1000)) {
            try renderer.render(mark, frameWidth: 6000, frameHeight: 4000)
        }
        #expect(
            RenderError.textTooLarge(characters: 4000, fontSize: 1000).description
                == "mark text of 4000 characters at 1000 pixels would cover more than 64 megapixels; make it shorter or its size smaller"
        )
        // A line wider than a surface may be is an error, not a blank.
        do {
            _ = try renderer.render(
                textMark(String(repeating: "x", count: 4000), size: 17), frameWidth: 6000, frameHeight: 4000)
            Issue.record("expected an error")
        } catch {
            guard case .tooLarge(let width, _) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(width > 32767)
        }
    }

    @Test func wildNumbersInACodeBuiltMarkDoNotTrap() throws {
        let renderer = try makeRenderer()
        var mark = textMark("a")
        mark.offsetX = 1e300
        mark.marginY = -1e300
        let rendered = try renderer.render(mark, frameWidth: 640, frameHeight: 360)
        #expect(rendered.origins.allSatisfy { abs($0.x) < 1e6 && abs($0.y) < 1e6 })
        mark = textMark("a")
        mark.shadow = .init(color: .black, dx: 0, dy: 0, blur: 1e300)
        #expect(throws: RenderError.self) { try renderer.render(mark, frameWidth: 640, frameHeight: 360) }
        mark = textMark("a", size: .infinity)
        #expect(throws: RenderError.self) { try renderer.render(mark, frameWidth: 640, frameHeight: 360) }
    }

    /// A PNG whose header says `width`×`height`, with no pixels: enough for the size check, which
    /// must come before Cairo tries to allocate the image.
    func pngHeader(width: UInt32, height: UInt32, in folder: URL) throws -> URL {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
        bytes += Array("IHDR".utf8)
        for value in [width, height] { bytes += withUnsafeBytes(of: value.bigEndian, Array.init) }
        bytes += [8, 6, 0, 0, 0, 0, 0, 0, 0]
        let url = folder.appendingPathComponent("huge.png")
        try Data(bytes).write(to: url)
        return url
    }

    @Test func hugePNGIsRefusedFromItsHeader() throws {
        let url = try pngHeader(width: 30000, height: 30000, in: temporaryFolder())
        do {
            _ = try makeRenderer().render(imageMark(url, width: 200), frameWidth: 1920, frameHeight: 1080)
            Issue.record("expected an error")
        } catch let error as RenderError {
            #expect(
                error.description
                    == "image \(url.path) is 30000x30000 pixels, more than a mark can use (at most 32767 a side and 64 megapixels); scale it down, e.g. to 2000 pixels wide"
            )
        }
    }

    @Test func folderAsImageSaysSo() throws {
        let folder = try temporaryFolder().appendingPathComponent("logo.png")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        #expect(
            throws: RenderError.imageUnreadable(
                folder, reason: "it is a folder, not a file; give the path of a PNG or SVG file")
        ) {
            try makeRenderer().render(imageMark(folder), frameWidth: 640, frameHeight: 360)
        }
    }

    @Test(arguments: [
        (#"width="1e30" height="10""#, nil as Double?, "1e+30x10"),
        (#"width="1e30" height="10""#, 200, "1e+30x10"),
        (#"viewBox="0 0 1 1e30""#, 200, "1x1e+30"),
        (#"viewBox="0 0 1e30 1""#, nil, "1e+30x1"),
    ])
    func svgOutOfProportionIsRefused(attributes: String, width: Double?, size: String) throws {
        let url = try temporaryFolder().appendingPathComponent("logo.svg")
        try Data(
            #"<svg xmlns="http://www.w3.org/2000/svg" \#(attributes)><rect width="10" height="10" fill="red"/></svg>"#
                .utf8
        ).write(to: url)
        #expect(
            throws: RenderError.imageUnreadable(
                url,
                reason:
                    "its size, \(size) (from its width, height or viewBox), is too far out of proportion to draw (at most 10000:1); fix the SVG's width, height and viewBox"
            )
        ) {
            try makeRenderer().render(imageMark(url, width: width), frameWidth: 1920, frameHeight: 1080)
        }
    }

    @Test func svgDrawnPastTheSurfaceLimitSaysHowLarge() throws {
        let url = try temporaryFolder().appendingPathComponent("logo.svg")
        try Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="40000" height="20000"/>"#.utf8).write(to: url)
        #expect(throws: RenderError.imageTooLarge(url, width: 40000, height: 20000)) {
            try makeRenderer().render(imageMark(url), frameWidth: 1920, frameHeight: 1080)
        }
        #expect(throws: RenderError.imageTooLarge(url, width: 10000, height: 10000)) {
            try makeRenderer().render(imageMark(url, width: 10000, height: 10000), frameWidth: 1920, frameHeight: 1080)
        }
        // Scaled to a mark's size it draws.
        #expect(
            try makeRenderer().render(imageMark(url, width: 400), frameWidth: 1920, frameHeight: 1080).bitmap.width
                == 400)
    }

    @Test func svgFilePastTheSizeCapIsRefusedUnparsed() throws {
        // A 50 MB SVG of a million rectangles took 2 GB and 14 s in librsvg.
        let url = try temporaryFolder().appendingPathComponent("big.svg")
        let rect = #"<rect width="2" height="2"/>"#
        try Data(
            (#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">"#
                + String(repeating: rect, count: (11 << 20) / rect.utf8.count) + "</svg>").utf8
        ).write(to: url)
        #expect(
            throws: RenderError.imageUnreadable(
                url,
                reason: "the SVG is 11 MB, more than the 10 MB a mark's image may be; simplify it or export it as a PNG"
            )
        ) {
            try makeRenderer().render(imageMark(url, width: 100), frameWidth: 640, frameHeight: 360)
        }
    }

    @Test func deeplyNestedSVGCannotTrap() throws {
        // Billion laughs with <use>: librsvg refuses past its own limits; either way no trap.
        var svg =
            ##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="100"><defs><rect id="l0" width="1" height="1"/>"##
        for level in 1...12 {
            svg +=
                ##"<g id="l\##(level)">"## + (0..<10).map { _ in ##"<use xlink:href="#l\##(level - 1)"/>"## }.joined()
                + "</g>"
        }
        svg += ##"</defs><use xlink:href="#l12"/></svg>"##
        let url = try temporaryFolder().appendingPathComponent("laughs.svg")
        try Data(svg.utf8).write(to: url)
        do {
            _ = try makeRenderer().render(imageMark(url, width: 100), frameWidth: 640, frameHeight: 360)
        } catch let error as RenderError {
            #expect(error.description.hasPrefix("cannot read image \(url.path): "))
        }
    }

    @Test func emojiRenderInColour() throws {
        let renderer = try makeRenderer()
        // Fontconfig's fallback finds Noto Color Emoji for what Noto Sans lacks.
        #expect(renderer.unknownGlyphCount("🎉 👍🏽 👨‍👩‍👧", family: nil) == 0)
        let bitmap = try renderer.render(textMark("🎉", size: 64), frameWidth: 640, frameHeight: 360).bitmap
        // A hex box or a monochrome glyph has only grey (or white) pixels; the party popper has
        // saturated reds, yellows and blues.
        var saturated = 0
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let p = bitmap[x, y]
                if p.alpha > 200, Int(max(p.red, p.green, p.blue)) - Int(min(p.red, p.green, p.blue)) > 100 {
                    saturated += 1
                }
            }
        }
        #expect(saturated > 200, "\(saturated) saturated pixels in \(bitmap.width)x\(bitmap.height)")
    }
}

/// `MarkRenderer.check`: what `presets check` and every job's load add to decoding.
@Suite struct PreflightTests {
    func preset(_ json: String, in folder: URL) throws -> Preset {
        try Preset.decode(Data(json.utf8), source: folder.appendingPathComponent("p.json"))
    }

    @Test func fontFileThatIsNoFontIsAPresetError() throws {
        let folder = try temporaryFolder()
        try Data("not a font".utf8).write(to: folder.appendingPathComponent("fake.ttf"))
        let loaded = try preset(#"{"marks": [{"text": "a"}, {"text": "b", "font-file": "fake.ttf"}]}"#, in: folder)
        do {
            _ = try makeRenderer().check(loaded)
            Issue.record("expected an error")
        } catch let error as PresetError {
            #expect(
                error.description
                    == "\(folder.path)/p.json: font file unusable: \(folder.path)/fake.ttf: not a font FreeType can read at $.marks[1].font-file; give a TrueType or OpenType font file (.ttf, .otf)"
            )
        }
    }

    @Test func renderLimitsAreCaughtAtCheckOnTheFramesTheyFailOn() throws {
        let folder = try temporaryFolder()
        let tiles = try preset(#"{"marks": [{"text": "PROOF", "size": "0.1%", "tile": {"gap": 0}}]}"#, in: folder)
        do {
            _ = try makeRenderer().check(tiles)
            Issue.record("expected an error")
        } catch let error as PresetError {
            #expect(error.kind == .outOfRange && error.path == "$.marks[0].tile")
            #expect(
                error.message.hasPrefix("a tiled mark would need ")
                    && error.message.hasSuffix(" copies on a 1920x1080 picture, more than 10000"))
            #expect(error.hint == "make the mark larger or its tile gap wider")
        }
        // Fine at 1080p, too large on a 24 MP photo: named with the picture it fails on.
        let big = try preset(#"{"marks": [{"text": "PROOF", "size": "100%", "rotate": 45}]}"#, in: folder)
        do {
            _ = try makeRenderer().check(big)
            Issue.record("expected an error")
        } catch let error as PresetError {
            #expect(
                error.path == "$.marks[0]" && error.message.hasSuffix("megapixels) on a 6000x4000 picture"), "\(error)")
        }
    }

    @Test func charactersNoFontHasAreWarnedOfAndEmojiAreNot() throws {
        let folder = try temporaryFolder()
        let loaded = try preset(#"{"marks": [{"text": "🎉 👍🏽 👨‍👩‍👧 水印"}, {"text": "x\u0378y\ue000\u0378"}]}"#, in: folder)
        let warnings = try makeRenderer().check(loaded)
        #expect(
            warnings.map(\.description) == [
                "\(folder.path)/p.json: warning: no font has a glyph for '\u{378}' (U+378), it will show as a box at $.marks[1].text; install a font that has it (fonts-noto-color-emoji for emoji) or name one with \"font\" or \"font-file\"",
                "\(folder.path)/p.json: warning: no font has a glyph for '\u{E000}' (U+E000), it will show as a box at $.marks[1].text; install a font that has it (fonts-noto-color-emoji for emoji) or name one with \"font\" or \"font-file\"",
            ])
    }

    @Test func shippedPresetsPassTheCheck() throws {
        let shipped = bundledFonts.deletingLastPathComponent().appendingPathComponent("presets")
        let library = PresetLibrary(directories: [shipped])
        for (name, _) in library.list() {
            #expect(try makeRenderer().check(library.load(name)).isEmpty, "\(name)")
        }
    }
}
