// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
@testable import Presets

@Suite struct LayoutTests {
    static let frames: [(width: Int, height: Int)] = [(1920, 1080), (1080, 1920), (1000, 1000)]

    @Test(arguments: frames)
    func everyAnchor(frame: (width: Int, height: Int)) {
        let (width, height) = frame
        let short = Double(min(width, height))
        let markWidth = 200.0, markHeight = 80.0
        for anchor in Anchor.allCases {
            var mark = Mark(content: .text("x"))
            mark.anchor = anchor
            mark.margin = LengthPair(x: .percent(3), y: .px(10))
            let resolved = mark.resolved(width: width, height: height, expandedText: "x")
            #expect(resolved.marginX == 0.03 * short)
            #expect(resolved.marginY == 10)
            #expect(resolved.fontSize == 0.04 * short)
            let origin = Layout.origin(
                of: resolved, markWidth: markWidth, markHeight: markHeight,
                frameWidth: Double(width), frameHeight: Double(height))
            let expectedX: Double =
                switch anchor {
                case .topLeft, .left, .bottomLeft: resolved.marginX
                case .top, .center, .bottom: (Double(width) - markWidth) / 2
                case .topRight, .right, .bottomRight: Double(width) - resolved.marginX - markWidth
                }
            let expectedY: Double =
                switch anchor {
                case .topLeft, .top, .topRight: 10
                case .left, .center, .right: (Double(height) - markHeight) / 2
                case .bottomLeft, .bottom, .bottomRight: Double(height) - 10 - markHeight
                }
            #expect(origin == Point(x: expectedX, y: expectedY), "\(anchor.rawValue) on \(width)x\(height)")
            // Inside the frame, and as far from each anchored edge as the margin says.
            #expect(origin.x >= 0 && origin.x + markWidth <= Double(width), "\(anchor.rawValue) on \(width)x\(height)")
            #expect(
                origin.y >= 0 && origin.y + markHeight <= Double(height), "\(anchor.rawValue) on \(width)x\(height)")
        }
    }

    @Test(arguments: frames)
    func offsetIsAddedAfterAnchoring(frame: (width: Int, height: Int)) {
        var mark = Mark(content: .text("x"))
        mark.offset = LengthPair(x: .percent(1), y: .px(-5))
        let resolved = mark.resolved(width: frame.width, height: frame.height, expandedText: "x")
        let origin = Layout.origin(
            of: resolved, markWidth: 100, markHeight: 40,
            frameWidth: Double(frame.width), frameHeight: Double(frame.height))
        let short = Double(min(frame.width, frame.height))
        #expect(origin.x == Double(frame.width) - 0.03 * short - 100 + 0.01 * short)
        #expect(origin.y == Double(frame.height) - 0.03 * short - 40 - 5)
    }

    @Test func resolvedUsesTheShortSideInBothOrientations() {
        var mark = Mark(content: .text("x"))
        mark.outline = Outline(color: .black, width: .percent(0.25))
        mark.shadow = Shadow(color: .black, offset: LengthPair(x: .percent(0.2), y: .px(3)), blur: .percent(0.3))
        mark.box = Box(color: .black, padding: .percent(1), radius: .px(4))
        mark.maxWidth = .percent(60)
        mark.tile = Tile(gap: .percent(12))
        let landscape = mark.resolved(width: 1920, height: 1080, expandedText: "x")
        let portrait = mark.resolved(width: 1080, height: 1920, expandedText: "x")
        #expect(landscape == portrait)
        #expect(landscape.outline?.width == 2.7)
        #expect(landscape.shadow?.dx == 2.16 && landscape.shadow?.dy == 3)
        #expect(abs((landscape.shadow?.blur ?? 0) - 3.24) < 1e-9)
        #expect(landscape.box?.padding == 10.8 && landscape.box?.radius == 4)
        #expect(landscape.maxWidth == 648)
        #expect(abs((landscape.tileGap ?? 0) - 129.6) < 1e-9)
        #expect(landscape.content == .text("x", markup: false))

        var logo = Mark(content: .image(URL(fileURLWithPath: "/logo.svg")))
        logo.width = .percent(18)
        let resolvedLogo = logo.resolved(width: 4000, height: 6000, expandedText: "ignored")
        #expect(resolvedLogo.imageWidth == 720 && resolvedLogo.imageHeight == nil)
        #expect(resolvedLogo.content == .image(URL(fileURLWithPath: "/logo.svg")))
    }

    @Test(arguments: [
        (1920, 1080, 300.0, 90.0, 130.0), (1080, 1920, 300.0, 90.0, 130.0), (1000, 1000, 250.0, 250.0, 0.0),
        (640, 480, 1000.0, 1000.0, 10.0), (1920, 1080, 17.0, 9.0, 3.0),
    ])
    func tilesCoverTheFrame(width: Int, height: Int, tileWidth: Double, tileHeight: Double, gap: Double) {
        let origins = Layout.tileOrigins(
            markWidth: tileWidth, markHeight: tileHeight,
            frameWidth: Double(width), frameHeight: Double(height), gap: gap)
        // One tile sits on the centre of the frame.
        #expect(origins.contains(Point(x: (Double(width) - tileWidth) / 2, y: (Double(height) - tileHeight) / 2)))
        // Exactly the tiles of the infinite centred grid that overlap the frame, each once.
        let stepX = tileWidth + gap, stepY = tileHeight + gap
        let x0 = (Double(width) - tileWidth) / 2, y0 = (Double(height) - tileHeight) / 2
        var expected: [Point] = []
        for row in -200...200 {
            for column in -200...200 {
                let point = Point(x: x0 + Double(column) * stepX, y: y0 + Double(row) * stepY)
                if point.x < Double(width), point.x + tileWidth > 0, point.y < Double(height), point.y + tileHeight > 0
                {
                    expected.append(point)
                }
            }
        }
        #expect(Set(origins) == Set(expected))
        #expect(origins.count == expected.count)
        // Every point of the frame lies in some tile's cell (the tile and the gap around it).
        var uncovered: [Point] = []
        for y in stride(from: 0.0, through: Double(height) - 0.5, by: Double(height) / 37) {
            for x in stride(from: 0.0, through: Double(width) - 0.5, by: Double(width) / 41) {
                let point = Point(x: x, y: y)
                if !origins.contains(where: {
                    point.x >= $0.x - gap && point.x < $0.x + stepX && point.y >= $0.y - gap && point.y < $0.y + stepY
                }) {
                    uncovered.append(point)
                }
            }
        }
        #expect(uncovered.isEmpty, "uncovered: \(uncovered.prefix(3))")
    }
}
