// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
@testable import Presets
import Testing
@testable import Render

@Suite struct TextRenderTests {
    @Test func boxFillsItsRectangleAndNothingElseOnTheFrame() throws {
        let renderer = try makeRenderer()
        var mark = textMark("Box mark", color: Color(red: 1, green: 1, blue: 1, alpha: 0))
        mark.box = .init(color: Color(red: 1, green: 0, blue: 0), padding: 12, radius: 0)
        let geometry = try renderer.measure("Box mark", markup: false, style: mark)
        let rendered = try renderer.render(mark, frameWidth: 640, frameHeight: 360)
        let bitmap = rendered.bitmap

        // The box is the logical text block plus the padding, on whole pixels.
        let box = try #require(geometry.box)
        #expect(box.width == geometry.logical.width + 24 && box.height == geometry.logical.height + 24)
        #expect(Double(bitmap.width) == box.width && Double(bitmap.height) == box.height)
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width where bitmap[x, y] != Bitmap.Pixel(red: 255, green: 0, blue: 0, alpha: 255) {
                Issue.record("(\(x),\(y)) expected opaque red, got \(bitmap[x, y])")
                return
            }
        }

        // On the frame: opaque inside the anchored rectangle, untouched outside it.
        let expected = Layout.origin(
            of: mark, markWidth: box.width, markHeight: box.height,
            frameWidth: 640, frameHeight: 360)
        #expect(rendered.origins == [Point(x: expected.x.rounded(), y: expected.y.rounded())])
        #expect(rendered.origins[0].x + box.width == 630 && rendered.origins[0].y + box.height == 350)
        let frame = frameAlpha(rendered, width: 640, height: 360)
        let inside = { (x: Int, y: Int) in
            Double(x) >= rendered.origins[0].x && Double(x) < rendered.origins[0].x + box.width
                && Double(y) >= rendered.origins[0].y && Double(y) < rendered.origins[0].y + box.height
        }
        var wrong: [String] = []
        for y in 0..<360 {
            for x in 0..<640 where (frame[y * 640 + x] == 255) != inside(x, y) { wrong.append("(\(x),\(y))") }
        }
        #expect(wrong.isEmpty, "\(wrong.count) pixels wrong, first \(wrong.prefix(5))")
    }

    @Test func roundedBoxHasTransparentCorners() throws {
        var mark = textMark("Rounded")
        mark.box = .init(color: Color(red: 0, green: 0, blue: 0, alpha: 0.5), padding: 10, radius: 12)
        let bitmap = try makeRenderer().render(mark, frameWidth: 640, frameHeight: 360).bitmap
        #expect(bitmap[0, 0].alpha == 0)
        #expect(bitmap[bitmap.width - 1, bitmap.height - 1].alpha == 0)
        #expect(bitmap[bitmap.width / 2, 0].alpha == 128)
        #expect(bitmap[0, bitmap.height / 2].alpha == 128)
    }

    @Test func solidTextBitmapIsTheInkRectangle() throws {
        let renderer = try makeRenderer()
        let mark = textMark("Hello, camstamp")
        let geometry = try renderer.measure("Hello, camstamp", markup: false, style: mark)
        let bitmap = try renderer.render(mark, frameWidth: 1920, frameHeight: 1080).bitmap
        #expect(Double(bitmap.width) == geometry.ink.width && Double(bitmap.height) == geometry.ink.height)
        // Tight: ink reaches (or nearly reaches: Pango rounds the ink box outwards) every edge.
        let ink = try #require(bitmap.inkBox())
        #expect(
            ink.minX <= 1 && ink.minY <= 1 && ink.maxX >= bitmap.width - 1 && ink.maxY >= bitmap.height - 1,
            "ink \(ink) in \(bitmap.width)x\(bitmap.height)")
    }

    @Test func everyOutputIsPremultiplied() throws {
        let renderer = try makeRenderer()
        var full = textMark("© 2026 Studio 水印 ✓", size: 40, color: Color(red: 1, green: 0.9, blue: 0.2, alpha: 0.9))
        full.outline = .init(color: Color(red: 0.1, green: 0.2, blue: 0.9, alpha: 0.7), width: 3)
        full.shadow = .init(color: Color(red: 0.9, green: 0, blue: 0.5, alpha: 0.5), dx: 4, dy: 3, blur: 5)
        full.box = .init(color: Color(red: 0, green: 1, blue: 0.3, alpha: 0.35), padding: 8, radius: 6)
        var rotated = full
        rotated.rotate = -30
        rotated.opacity = 0.6
        var markup = textMark("<span foreground=\"#FF000080\">red</span> <i>and</i> <b>bold</b>", markup: true)
        markup.opacity = 0.3
        for mark in [full, rotated, markup] {
            let bitmap = try renderer.render(mark, frameWidth: 1280, frameHeight: 720).bitmap
            #expect(!bitmap.isEmpty)
            #expect(bitmap.premultipliedViolation() == nil)
        }
    }

    @Test func halfOpacityHalvesAlpha() throws {
        let renderer = try makeRenderer()
        var mark = textMark("Opacity", size: 60, color: Color(red: 0.9, green: 0.5, blue: 0.1, alpha: 1))
        mark.outline = .init(color: .black, width: 2)
        mark.box = .init(color: Color(red: 0, green: 0, blue: 0, alpha: 0.4), padding: 6, radius: 4)
        let opaque = try renderer.render(mark, frameWidth: 1280, frameHeight: 720).bitmap
        mark.opacity = 0.5
        let half = try renderer.render(mark, frameWidth: 1280, frameHeight: 720).bitmap
        #expect(half.width == opaque.width && half.height == opaque.height)
        var worst = 0
        for y in 0..<opaque.height {
            for x in 0..<opaque.width {
                worst = max(worst, abs(2 * Int(half[x, y].alpha) - Int(opaque[x, y].alpha)))
            }
        }
        #expect(worst <= 2, "alpha off by \(worst) / 2")
        #expect(half.premultipliedViolation() == nil)
    }

    /// The most opaque pixels of a big heavy glyph are its interior: unpremultiplied, they must be
    /// the requested colour.
    static func interiorColour(_ bitmap: Bitmap) -> (red: Double, green: Double, blue: Double, alpha: Int, count: Int) {
        var top: UInt8 = 0
        for y in 0..<bitmap.height { for x in 0..<bitmap.width { top = max(top, bitmap[x, y].alpha) } }
        var sum = (0.0, 0.0, 0.0), count = 0
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width where bitmap[x, y].alpha == top {
                let p = bitmap[x, y], a = Double(p.alpha)
                sum.0 += Double(p.red) * 255 / a
                sum.1 += Double(p.green) * 255 / a
                sum.2 += Double(p.blue) * 255 / a
                count += 1
            }
        }
        return (sum.0 / Double(count), sum.1 / Double(count), sum.2 / Double(count), Int(top), count)
    }

    @Test func glyphInteriorHasTheRequestedColour() throws {
        let colour = Color(red: 0.2, green: 0.6, blue: 0.8, alpha: 0.8)
        let mark = textMark("H", size: 240, color: colour, weight: 900)
        let bitmap = try makeRenderer().render(mark, frameWidth: 1920, frameHeight: 1080).bitmap
        let interior = Self.interiorColour(bitmap)
        #expect(interior.count > 1000, "only \(interior.count) interior pixels")
        #expect(abs(interior.alpha - 204) <= 1)
        #expect(
            abs(interior.red - 51) <= 2 && abs(interior.green - 153) <= 2 && abs(interior.blue - 204) <= 2,
            "got \(interior)")
    }

    @Test func translucentFillOverOutlineKeepsItsColour() throws {
        // The fill replaces the outline's inner half rather than blending over it.
        var mark = textMark("H", size: 240, color: Color(red: 1, green: 1, blue: 1, alpha: 0.6), weight: 900)
        mark.outline = .init(color: .black, width: 8)
        let bitmap = try makeRenderer().render(mark, frameWidth: 1920, frameHeight: 1080).bitmap
        let centre = bitmap[bitmap.width / 2, bitmap.height / 2]
        #expect(abs(Int(centre.alpha) - 153) <= 1 && abs(Int(centre.red) - 153) <= 1, "centre \(centre)")
        // Near the glyph's edge, inside it: still the fill, not a dark blend of fill over stroke.
        let row = bitmap.height / 2
        let firstOpaque = try #require((0..<bitmap.width).first { bitmap[$0, row].alpha == 255 })
        let firstFill = try #require((firstOpaque..<bitmap.width).first { bitmap[$0, row].alpha < 200 })
        let inside = bitmap[firstFill + 3, row]
        #expect(abs(Int(inside.alpha) - 153) <= 1 && abs(Int(inside.red) - 153) <= 1, "inside edge \(inside)")
    }

    @Test func outlineWidensTheInkByItsWidthOnEachSide() throws {
        let renderer = try makeRenderer()
        var mark = textMark("Outline", size: 64)
        let plain = try renderer.render(mark, frameWidth: 1280, frameHeight: 720).bitmap
        mark.outline = .init(color: .black, width: 6)
        let outlined = try renderer.render(mark, frameWidth: 1280, frameHeight: 720).bitmap
        #expect(abs(outlined.width - plain.width - 12) <= 2, "\(plain.width) → \(outlined.width)")
        #expect(abs(outlined.height - plain.height - 12) <= 2, "\(plain.height) → \(outlined.height)")
        let ink = try #require(outlined.inkBox(threshold: 16))
        #expect(abs(ink.width - plain.width - 12) <= 3 && abs(ink.height - plain.height - 12) <= 3, "ink \(ink)")
    }

    @Test func shadowIsTheShapeOffset() throws {
        let renderer = try makeRenderer()
        let clear = Color(red: 1, green: 1, blue: 1, alpha: 0)
        let plain = try renderer.render(textMark("Shadow", size: 64), frameWidth: 1280, frameHeight: 720).bitmap
        // Invisible text, hard shadow: the bitmap's ink is the text's ink moved by (15, 9).
        var mark = textMark("Shadow", size: 64, color: clear)
        mark.shadow = .init(color: .black, dx: 15, dy: 9, blur: 0)
        let shadowed = try renderer.render(mark, frameWidth: 1280, frameHeight: 720).bitmap
        #expect(shadowed.width == plain.width + 15 && shadowed.height == plain.height + 9)
        let ink = try #require(shadowed.inkBox())
        let plainInk = try #require(plain.inkBox())
        // ±1: the shadow is the filled outline path, the text Cairo's glyph rasterizer.
        #expect(
            abs(ink.minX - plainInk.minX - 15) <= 1 && abs(ink.minY - plainInk.minY - 9) <= 1
                && abs(ink.maxX - plainInk.maxX - 15) <= 1 && abs(ink.maxY - plainInk.maxY - 9) <= 1,
            "ink \(ink), plain \(plainInk)")
        // A blurred shadow spreads about `blur` pixels further on every side of the offset shape.
        mark.shadow = .init(color: .black, dx: 15, dy: 9, blur: 6)
        let blurred = try renderer.render(mark, frameWidth: 1280, frameHeight: 720).bitmap
        #expect(blurred.width == plain.width + 15 + 6 && blurred.height == plain.height + 9 + 6)
        let soft = try #require(blurred.inkBox())
        #expect((15 - 6..<15).contains(soft.minX) && (9 - 6..<9).contains(soft.minY), "blurred ink \(soft)")
        #expect(blurred.premultipliedViolation() == nil)
    }

    @Test func plainTextIsNeverParsedAsMarkup() throws {
        let renderer = try makeRenderer()
        let rendered = try renderer.render(textMark("a & b < c"), frameWidth: 640, frameHeight: 360)
        #expect(!rendered.bitmap.isEmpty && rendered.bitmap.inkBox() != nil)
        #expect(
            try renderer.measure("<b>x</b>", markup: false, style: textMark("")).ink.width
                > renderer.measure("x", markup: false, style: textMark("")).ink.width * 4)
    }

    @Test func invalidMarkupCarriesPangosMessage() throws {
        let renderer = try makeRenderer()
        #expect(throws: RenderError.self) {
            try renderer.render(textMark("a & b", markup: true), frameWidth: 640, frameHeight: 360)
        }
        do {
            _ = try renderer.render(textMark("<b>open", markup: true), frameWidth: 640, frameHeight: 360)
            Issue.record("expected an error")
        } catch {
            #expect(error.description.hasPrefix("invalid Pango markup: "))
            #expect(error.description.count > "invalid Pango markup: ".count + 5)
            #expect(!error.description.contains("\n"))
        }
        let valid = try renderer.render(
            textMark("<b>bold</b> &amp; <i>it</i>", markup: true), frameWidth: 640, frameHeight: 360)
        #expect(!valid.bitmap.isEmpty)
    }

    @Test func wrapsAtMaxWidthAndAligns() throws {
        let renderer = try makeRenderer()
        var mark = textMark("one two three four five six seven eight nine ten", size: 40)
        let single = try renderer.measure(
            "one two three four five six seven eight nine ten", markup: false, style: mark)
        mark.maxWidth = 300
        mark.align = .right
        let wrapped = try renderer.measure(
            "one two three four five six seven eight nine ten", markup: false, style: mark)
        #expect(wrapped.logical.width <= 300 && wrapped.logical.height >= 3 * single.logical.height)
        let bitmap = try renderer.render(mark, frameWidth: 1280, frameHeight: 720).bitmap
        #expect(bitmap.width <= 300)
    }

    @Test(arguments: ["", "   ", "\n"]) func blankTextRendersNothingEvenWithABox(text: String) throws {
        var mark = textMark(text)
        mark.box = .init(color: .black, padding: 10, radius: 4)
        mark.tileGap = 20
        let rendered = try makeRenderer().render(mark, frameWidth: 640, frameHeight: 360)
        #expect(rendered.bitmap.isEmpty && rendered.origins.isEmpty)
    }
}
