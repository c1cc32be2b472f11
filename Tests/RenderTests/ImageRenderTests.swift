// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
@testable import Presets
import Testing
@testable import Render

@Suite struct ImageRenderTests {
    /// A 40×20 PNG written with Cairo: left half opaque red, right half half-transparent blue.
    func writeTestPNG(in folder: URL) throws -> URL {
        var bitmap = Bitmap(width: 40, height: 20, stride: 160, pixels: [UInt8](repeating: 0, count: 160 * 20))
        for y in 0..<20 {
            for x in 0..<40 {
                bitmap[x, y] =
                    x < 20
                    ? .init(red: 255, green: 0, blue: 0, alpha: 255)
                    : .init(red: 0, green: 0, blue: 128, alpha: 128)
            }
        }
        let url = folder.appendingPathComponent("logo test.png")
        try bitmap.writePNG(to: url)
        return url
    }

    @Test func pngRendersAtTheRequestedWidthWithItsAspect() throws {
        let renderer = try makeRenderer()
        let url = try writeTestPNG(in: temporaryFolder())
        let natural = try renderer.render(imageMark(url), frameWidth: 640, frameHeight: 360).bitmap
        #expect(natural.width == 40 && natural.height == 20)
        #expect(natural[5, 5] == .init(red: 255, green: 0, blue: 0, alpha: 255))
        #expect(natural[35, 5] == .init(red: 0, green: 0, blue: 128, alpha: 128))

        let wide = try renderer.render(imageMark(url, width: 120), frameWidth: 640, frameHeight: 360)
        #expect(wide.bitmap.width == 120 && wide.bitmap.height == 60)
        #expect(wide.bitmap[10, 30] == .init(red: 255, green: 0, blue: 0, alpha: 255))
        #expect(wide.bitmap[110, 30] == .init(red: 0, green: 0, blue: 128, alpha: 128))
        #expect(wide.bitmap[0, 0].alpha == 255 && wide.bitmap[119, 59].alpha == 128, "edges stay solid")
        #expect(wide.origins == [Point(x: 10, y: 10)])

        let short = try renderer.render(imageMark(url, height: 30), frameWidth: 640, frameHeight: 360).bitmap
        #expect(short.width == 60 && short.height == 30)
        let stretched = try renderer.render(imageMark(url, width: 50, height: 50), frameWidth: 640, frameHeight: 360)
            .bitmap
        #expect(stretched.width == 50 && stretched.height == 50)
        #expect(stretched.premultipliedViolation() == nil)
    }

    @Test func changedImageFileIsDecodedAgain() throws {
        let renderer = try makeRenderer()
        let url = try writeTestPNG(in: temporaryFolder())
        #expect(try renderer.render(imageMark(url), frameWidth: 640, frameHeight: 360).bitmap.width == 40)
        #expect(try renderer.render(imageMark(url, width: 80), frameWidth: 640, frameHeight: 360).bitmap.width == 80)
        try Bitmap(width: 10, height: 10, stride: 40, pixels: [UInt8](repeating: 255, count: 400)).writePNG(to: url)
        #expect(try renderer.render(imageMark(url), frameWidth: 640, frameHeight: 360).bitmap.width == 10)
        try FileManager.default.removeItem(at: url)
        #expect(throws: RenderError.imageNotFound(url)) {
            try renderer.render(imageMark(url), frameWidth: 640, frameHeight: 360)
        }
    }

    @Test func opaquePNGComesOutOpaque() throws {
        // Cairo loads PNGs without alpha as RGB24; the overlay must still be ARGB with alpha 255.
        let folder = try temporaryFolder()
        let url = folder.appendingPathComponent("opaque.png")
        let bytes: [UInt8] = Array(repeating: [0x40, 0x80, 0xC0, 0xFF], count: 8 * 8).flatMap { $0 }
        try Bitmap(width: 8, height: 8, stride: 32, pixels: bytes).writePNG(to: url)
        let bitmap = try makeRenderer().render(imageMark(url), frameWidth: 64, frameHeight: 64).bitmap
        #expect(bitmap[3, 3] == .init(red: 0xC0, green: 0x80, blue: 0x40, alpha: 0xFF))
    }

    static let svg = """
        <svg xmlns="http://www.w3.org/2000/svg" width="100" height="50" viewBox="0 0 100 50">
          <rect x="0" y="0" width="50" height="50" fill="#000000"/>
          <rect x="60" y="10" width="30" height="30" fill="#00FF00" fill-opacity="0.5"/>
        </svg>
        """

    @Test(arguments: [200, 400]) func svgRendersCrispAtItsFinalSize(width: Int) throws {
        let url = try temporaryFolder().appendingPathComponent("logo.svg")
        try Self.svg.write(to: url, atomically: true, encoding: .utf8)
        let bitmap = try makeRenderer().render(
            imageMark(url, width: Double(width)), frameWidth: 1920, frameHeight: 1080
        ).bitmap
        #expect(bitmap.width == width && bitmap.height == width / 2)
        let scale = width / 100, row = bitmap.height / 2
        // The black square's right edge falls on a pixel boundary: fully opaque, then fully clear.
        #expect(bitmap[50 * scale - 1, row] == .init(red: 0, green: 0, blue: 0, alpha: 255))
        #expect(bitmap[50 * scale, row].alpha == 0)
        #expect(bitmap[60 * scale - 1, row].alpha == 0)
        #expect(bitmap[60 * scale, row] == .init(red: 0, green: 128, blue: 0, alpha: 128))
        #expect(bitmap[75 * scale, 10 * scale - 1].alpha == 0 && bitmap[75 * scale, 10 * scale].alpha == 128)
    }

    @Test func svgWithoutWidthOrHeightUsesNaturalSize() throws {
        let url = try temporaryFolder().appendingPathComponent("logo.svg")
        try Self.svg.write(to: url, atomically: true, encoding: .utf8)
        let bitmap = try makeRenderer().render(imageMark(url), frameWidth: 640, frameHeight: 360).bitmap
        #expect(bitmap.width == 100 && bitmap.height == 50)
    }

    @Test func missingImageSaysSo() throws {
        let url = URL(fileURLWithPath: "/nonexistent/camstamp/logo.png")
        #expect(throws: RenderError.imageNotFound(url)) {
            try makeRenderer().render(imageMark(url), frameWidth: 640, frameHeight: 360)
        }
        #expect(RenderError.imageNotFound(url).description == "image not found: /nonexistent/camstamp/logo.png")
    }

    @Test func otherFilesAreNotImages() throws {
        let folder = try temporaryFolder()
        let gif = folder.appendingPathComponent("logo.gif")
        try Data("GIF89a not really".utf8).write(to: gif)
        #expect(throws: RenderError.imageNotPNGOrSVG(gif)) {
            try makeRenderer().render(imageMark(gif), frameWidth: 640, frameHeight: 360)
        }
        #expect(RenderError.imageNotPNGOrSVG(gif).description == "image is not PNG or SVG: \(gif.path)")

        // Looks like a PNG, isn't one: Cairo's reason comes through on one line.
        let broken = folder.appendingPathComponent("broken.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]).write(to: broken)
        let renderer = try makeRenderer()
        do {
            _ = try renderer.render(imageMark(broken), frameWidth: 640, frameHeight: 360)
            Issue.record("expected an error")
        } catch {
            #expect(error.description.hasPrefix("cannot read image \(broken.path): "))
            #expect(!error.description.contains("\n"))
        }

        let badSVG = folder.appendingPathComponent("bad.svg")
        try Data("<svg xmlns=\"http://www.w3.org/2000/svg\"><rect".utf8).write(to: badSVG)
        #expect(throws: RenderError.self) {
            try makeRenderer().render(imageMark(badSVG), frameWidth: 64, frameHeight: 64)
        }
        // librsvg's message ends in a newline: it split `presets check`'s one-line error in two.
        do {
            _ = try renderer.render(imageMark(badSVG), frameWidth: 64, frameHeight: 64)
            Issue.record("expected an error")
        } catch {
            #expect(error.description.hasPrefix("cannot read image \(badSVG.path): "))
            #expect(!error.description.contains("\n"), "\(error.description)")
        }
    }
}

@Suite struct GeometryRenderTests {
    @Test func quarterTurnSwapsWidthAndHeight() throws {
        let renderer = try makeRenderer()
        var mark = textMark("Rotate me", size: 40)
        mark.box = .init(color: Color(red: 0, green: 0, blue: 1, alpha: 0.5), padding: 5, radius: 0)
        let upright = try renderer.render(mark, frameWidth: 1280, frameHeight: 720).bitmap
        for degrees in [90.0, -90, 270] {
            mark.rotate = degrees
            let turned = try renderer.render(mark, frameWidth: 1280, frameHeight: 720).bitmap
            #expect(turned.width == upright.height && turned.height == upright.width, "\(degrees)°")
            // The box fills the whole bitmap before and after: a pure transpose keeps every pixel.
            #expect(turned[0, 0] == upright[0, 0] && turned[turned.width - 1, turned.height - 1] == upright[0, 0])
        }
        mark.rotate = 90
        let clockwise = try renderer.render(mark, frameWidth: 1280, frameHeight: 720).bitmap
        // Clockwise: the text's first letter (left) ends up at the top.
        let topHalf = (0..<clockwise.height / 2).reduce(0) { sum, y in
            sum + (0..<clockwise.width).reduce(0) { $0 + Int(clockwise[$1, y].alpha == 255 ? 1 : 0) }
        }
        #expect(topHalf > 0)
        mark.rotate = 180
        let half = try renderer.render(mark, frameWidth: 1280, frameHeight: 720).bitmap
        #expect(half.width == upright.width && half.height == upright.height)
        mark.rotate = 360
        #expect(try renderer.render(mark, frameWidth: 1280, frameHeight: 720).bitmap == upright)
    }

    @Test func fortyFiveDegreesGivesTheRotatedBoundingBox() throws {
        let renderer = try makeRenderer()
        var mark = textMark("Diagonal", size: 50)
        mark.box = .init(color: .white, padding: 4, radius: 0)
        let upright = try renderer.render(mark, frameWidth: 1280, frameHeight: 720).bitmap
        for degrees in [45.0, -45, 30] {
            mark.rotate = degrees
            let turned = try renderer.render(mark, frameWidth: 1280, frameHeight: 720).bitmap
            let radians = degrees * .pi / 180
            let w = Double(upright.width), h = Double(upright.height)
            let expectedW = w * abs(cos(radians)) + h * abs(sin(radians))
            let expectedH = w * abs(sin(radians)) + h * abs(cos(radians))
            #expect(
                turned.width == Int(expectedW.rounded(.up)) && turned.height == Int(expectedH.rounded(.up)),
                "\(degrees)°: \(turned.width)x\(turned.height), expected \(expectedW)x\(expectedH)")
            // The middle is covered, the corners of the bounding box are not.
            #expect(turned[turned.width / 2, turned.height / 2].alpha == 255)
            #expect(turned[0, 0].alpha == 0 && turned[turned.width - 1, turned.height - 1].alpha == 0)
            #expect(turned.premultipliedViolation() == nil)
        }
    }

    @Test func tilesCoverTheFrame() throws {
        var mark = textMark("PROOF", size: 43, color: Color(red: 1, green: 1, blue: 1, alpha: 0.25))
        mark.rotate = -30
        mark.tileGap = 86.4
        for (frameWidth, frameHeight) in [(1920, 1080), (1080, 1920), (333, 200)] {
            let rendered = try makeRenderer().render(mark, frameWidth: frameWidth, frameHeight: frameHeight)
            let w = Double(rendered.bitmap.width), h = Double(rendered.bitmap.height)
            #expect(rendered.origins.count > 1)
            #expect(rendered.origins.allSatisfy { $0.x == $0.x.rounded() && $0.y == $0.y.rounded() })
            // Every frame pixel is on a tile or in a gap next to one: no gap wider than `gap`.
            let gap = 86.4
            for y in Swift.stride(from: 0, to: frameHeight, by: 7) {
                for x in Swift.stride(from: 0, to: frameWidth, by: 7) {
                    let covered = rendered.origins.contains {
                        Double(x) >= $0.x - gap - 1 && Double(x) < $0.x + w + gap + 1
                            && Double(y) >= $0.y - gap - 1 && Double(y) < $0.y + h + gap + 1
                    }
                    if !covered {
                        Issue.record("(\(x),\(y)) not covered on \(frameWidth)x\(frameHeight)")
                        return
                    }
                }
            }
            // And every tile overlaps the frame.
            #expect(
                rendered.origins.allSatisfy {
                    $0.x < Double(frameWidth) && $0.x + w > 0 && $0.y < Double(frameHeight) && $0.y + h > 0
                })
            let alpha = frameAlpha(rendered, width: frameWidth, height: frameHeight)
            #expect(alpha.contains { $0 > 0 })
        }
    }

    @Test func plainMarkOriginIsTheRoundedAnchorPosition() throws {
        var mark = textMark("Anchored", size: 30)
        mark.anchor = .center
        mark.offsetX = 3.4
        mark.offsetY = -2.6
        let rendered = try makeRenderer().render(mark, frameWidth: 1001, frameHeight: 501)
        let exact = Layout.origin(
            of: mark, markWidth: Double(rendered.bitmap.width),
            markHeight: Double(rendered.bitmap.height), frameWidth: 1001, frameHeight: 501)
        #expect(rendered.origins == [Point(x: exact.x.rounded(), y: exact.y.rounded())])
    }
}
