// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
@testable import Media
import Presets
import Testing
@testable import CamStamp

/// The overlay cache: render once, re-render only when what a mark shows (or where) changes.
@Suite struct MarkerTests {
    func frame(_ width: Int, _ height: Int) throws -> VideoFrame {
        try VideoFrame(width: width, height: height, format: .i420)
    }

    func marker(_ text: String) -> FrameMarker {
        FrameMarker(preset: .quickText(text), variables: [:])
    }

    @Test func aFixedTextRendersOnceForEveryFrame() throws {
        let marker = marker("© 2026 Studio")
        let frame = try frame(320, 240)
        for _ in 0..<30 { try marker.mark(frame, context: marker.context(width: 320, height: 240)) }
        #expect(marker.renderCount == 1)
    }

    @Test func aClockRendersOnceASecond() throws {
        let marker = marker("{time}")
        let frame = try frame(320, 240)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        // 90 frames at 30 fps: three distinct seconds.
        for index in 0..<90 {
            let date = start.addingTimeInterval(Double(index) / 30)
            try marker.mark(
                frame, context: marker.context(width: 320, height: 240, captureDate: date, frame: index, fps: 30))
        }
        #expect(marker.renderCount == 3)
    }

    @Test func aLongRunningClockKeepsItsOtherMarksRendered() throws {
        let preset = Preset(name: "p", marks: [Mark(content: .text("{time}")), Mark(content: .text("LOGO"))])
        let marker = FrameMarker(preset: preset, variables: [:])
        let frame = try frame(320, 240)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        for second in 0..<100 {
            try marker.mark(
                frame,
                context: marker.context(width: 320, height: 240, captureDate: start.addingTimeInterval(Double(second))))
        }
        // 100 clock renders, and the fixed mark once: the cache bound never drops what is on screen.
        #expect(marker.renderCount == 101)
    }

    @Test func aFrameCounterRendersEveryFrame() throws {
        let marker = marker("{frame}")
        let frame = try frame(320, 240)
        for index in 0..<10 { try marker.mark(frame, context: marker.context(width: 320, height: 240, frame: index)) }
        #expect(marker.renderCount == 10)
    }

    @Test func aNewFrameShapeIsANewRenderEvenWithTheSameShortSide() throws {
        let marker = marker("x")
        try marker.mark(frame(320, 240), context: marker.context(width: 320, height: 240))
        try marker.mark(frame(240, 320), context: marker.context(width: 240, height: 320))
        try marker.mark(frame(320, 240), context: marker.context(width: 320, height: 240))
        #expect(marker.renderCount == 2)
    }

    /// A mark reaching far past the frame (a wide outline round a big text) is cut to what the
    /// frame shows before it is converted and blended: its image was the whole mark, three times
    /// the frame here, converted again for each new text. The frame still gets the mark.
    @Test func aMarkLargerThanTheFrameIsCutToTheFrame() throws {
        var mark = Mark(content: .text("BIG {frame}"))
        mark.size = .percent(60)
        mark.outline = Outline(color: Color(hex: "#000000")!, width: .percent(10))
        mark.anchor = .center
        let marker = FrameMarker(preset: Preset(name: "p", marks: [mark]), variables: [:])
        let frame = try frame(320, 240)
        try frame.withMapped { mapped in
            let luma = mapped.plane(0)
            for index in 0..<(mapped.stride(0) * 240) { luma[index] = 128 }
        }
        let composition = try marker.composition(
            width: 320, height: 240, context: marker.context(width: 320, height: 240, frame: 7))
        #expect(!composition.placements.isEmpty)
        for placement in composition.placements {
            #expect(placement.x >= 0 && placement.y >= 0, "at (\(placement.x), \(placement.y))")
            #expect(
                placement.x + placement.image.width <= 320 && placement.y + placement.image.height <= 240,
                "\(placement.image.width)x\(placement.image.height) at (\(placement.x), \(placement.y)) on 320x240")
        }
        try marker.mark(frame, context: marker.context(width: 320, height: 240, frame: 7))
        // The outline covers the frame's middle (black), the text's fill is white: both are drawn.
        let rows = try frame.withMapped { mapped in
            (0..<240).map { y in Array(mapped.plane(0)[(y * mapped.stride(0))..<(y * mapped.stride(0) + 320)]) }
        }
        let values = rows.joined()
        #expect(values.contains { $0 < 40 } && values.contains { $0 > 200 })
    }

    @Test func varsOverridePresetVariables() {
        let preset = Preset(name: "p", variables: ["author": "Preset"], marks: [Mark(content: .text("{author}"))])
        let marker = FrameMarker(preset: preset, variables: ["author": "Command line"])
        #expect(marker.preset.marks[0].expandedText(marker.context(width: 10, height: 10)) == "Command line")
    }
}
