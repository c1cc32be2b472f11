// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Testing
@testable import Media

/// A solid `width`×`height` BGRA (premultiplied) image of one colour.
func solidOverlay(width: Int, height: Int, b: UInt8, g: UInt8, r: UInt8, a: UInt8) throws -> OverlayImage {
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    for index in stride(from: 0, to: pixels.count, by: 4) {
        pixels[index] = b
        pixels[index + 1] = g
        pixels[index + 2] = r
        pixels[index + 3] = a
    }
    return try pixels.withUnsafeBytes {
        try OverlayImage(width: width, height: height, stride: width * 4, premultipliedBGRA: $0)
    }
}

/// A black frame: Y=16, U=V=128 for YUV formats, 0 for RGB ones.
func blackFrame(_ width: Int, _ height: Int, _ format: PixelFormat) throws -> VideoFrame {
    let frame = try VideoFrame(width: width, height: height, format: format)
    try frame.withMapped { mapped in
        switch format {
        case .i420:
            mapped.plane(0).initializeMemory(as: UInt8.self, repeating: 16)
            mapped.plane(1).initializeMemory(as: UInt8.self, repeating: 128)
            mapped.plane(2).initializeMemory(as: UInt8.self, repeating: 128)
        case .nv12:
            mapped.plane(0).initializeMemory(as: UInt8.self, repeating: 16)
            mapped.plane(1).initializeMemory(as: UInt8.self, repeating: 128)
        case .yuy2:
            // Y0 U Y1 V: luma 16, chroma 128.
            let plane = mapped.plane(0)
            for offset in stride(from: 0, to: plane.count, by: 2) {
                plane[offset] = 16
                plane[offset + 1] = 128
            }
        default:
            // Opaque black. GStreamer's blender reads the padding byte of BGRx as alpha, so a
            // zero there would make the frame "transparent"; real sources write 0xFF.
            let plane = mapped.plane(0)
            for offset in stride(from: 0, to: plane.count, by: 4) {
                plane[offset] = 0
                plane[offset + 1] = 0
                plane[offset + 2] = 0
                plane[offset + 3] = 255
            }
        }
    }
    return frame
}

/// Luma of (x, y): Y plane for planar YUV, computed from B,G,R for BGRx.
func luma(_ frame: VideoFrame, _ x: Int, _ y: Int) -> Int {
    try! frame.withMapped { mapped -> Int in
        switch frame.format {
        case .i420?, .nv12?: return Int(mapped.plane(0)[y * mapped.stride(0) + x])
        case .yuy2?: return Int(mapped.plane(0)[y * mapped.stride(0) + x * 2])
        default:
            let plane = mapped.plane(0), offset = y * mapped.stride(0) + x * 4
            // Full-range to video-range luma so RGB and YUV frames compare on one scale.
            let blue: Double = 0.114 * Double(plane[offset])
            let green: Double = 0.587 * Double(plane[offset + 1])
            let red: Double = 0.299 * Double(plane[offset + 2])
            let value: Double = blue + green + red
            return Int((16 + value * 219 / 255).rounded())
        }
    }
}

@Suite struct BlendTests {
    @Test(arguments: [PixelFormat.i420, .nv12, .yuy2, .bgrx, .bgra])
    func opaqueWhiteLandsExactlyOnItsRectangle(format: PixelFormat) throws {
        let frame = try blackFrame(64, 48, format)
        let white = try solidOverlay(width: 10, height: 8, b: 255, g: 255, r: 255, a: 255)
        let composition = OverlayComposition([.init(image: white, x: 20, y: 14)])
        try composition.blend(into: frame)
        for y in 0..<48 {
            for x in 0..<64 {
                let inside = (20..<30).contains(x) && (14..<22).contains(y)
                let value = luma(frame, x, y)
                if inside {
                    #expect(abs(value - 235) <= 2, "(\(x),\(y)) expected 235, got \(value)")
                } else {
                    #expect(value == 16, "(\(x),\(y)) expected 16 (untouched), got \(value)")
                }
            }
        }
    }

    @Test(arguments: [PixelFormat.i420, .nv12, .yuy2, .bgrx, .bgra])
    func premultipliedHalfWhiteBlendsToTheMidpoint(format: PixelFormat) throws {
        let frame = try blackFrame(32, 32, format)
        // 50% white, premultiplied: every channel 128.
        let half = try solidOverlay(width: 8, height: 8, b: 128, g: 128, r: 128, a: 128)
        try OverlayComposition([.init(image: half, x: 8, y: 8)]).blend(into: frame)
        let expected = 16 + (235 - 16) * 128 / 255
        let value = luma(frame, 12, 12)
        #expect(abs(value - expected) <= 3, "(12,12) expected \(expected), got \(value)")
        #expect(luma(frame, 2, 2) == 16)
    }

    /// Red at full opacity has a different luma in each YUV matrix; the overlay must follow the
    /// frame's own colorimetry (GStreamer's blender alone would use BT.601 for every frame).
    @Test(arguments: [("bt709", 63), ("bt601", 81), ("1:4:0:0", 76)])
    func colourFollowsTheFramesMatrixAndRange(colorimetry: String, expectedLuma: Int) throws {
        let frame = try VideoFrame(width: 32, height: 32, format: .i420, colorimetry: colorimetry)
        let red = try solidOverlay(width: 8, height: 8, b: 0, g: 0, r: 255, a: 255)
        try OverlayComposition([.init(image: red, x: 8, y: 8)]).blend(into: frame)
        let value = luma(frame, 12, 12)
        #expect(abs(value - expectedLuma) <= 1, "\(colorimetry): expected Y \(expectedLuma), got \(value)")
    }

    @Test func placementsPartlyOutsideTheFrameAreClipped() throws {
        let frame = try blackFrame(32, 32, .i420)
        let white = try solidOverlay(width: 10, height: 10, b: 255, g: 255, r: 255, a: 255)
        try OverlayComposition([.init(image: white, x: -4, y: -4), .init(image: white, x: 28, y: 28)]).blend(
            into: frame)
        #expect(abs(luma(frame, 0, 0) - 235) <= 2)
        #expect(abs(luma(frame, 5, 5) - 235) <= 2)
        #expect(luma(frame, 6, 6) == 16)
        #expect(abs(luma(frame, 31, 31) - 235) <= 2)
        #expect(luma(frame, 27, 27) == 16)
    }

    @Test func anEmptyCompositionLeavesTheFrameAlone() throws {
        let frame = try blackFrame(16, 16, .i420)
        #expect(OverlayComposition([]).isEmpty)
        try OverlayComposition([]).blend(into: frame)
        #expect(luma(frame, 8, 8) == 16)
    }
}

@Suite struct ColumnBlendTests {
    /// A `width`×`height` frame of `format` filled with varied bytes (a fixed sequence), the
    /// padding byte of BGRx/RGBx opaque as real sources write it.
    static func busyFrame(_ width: Int, _ height: Int, _ format: PixelFormat) throws -> VideoFrame {
        let frame = try VideoFrame(width: width, height: height, format: format)
        var state: UInt32 = 12345
        try frame.withMapped { mapped in
            for index in 0..<mapped.planeCount {
                let plane = mapped.plane(index)
                for offset in 0..<plane.count {
                    state = state &* 1_103_515_245 &+ 12345
                    plane[offset] = UInt8(truncatingIfNeeded: state >> 16)
                }
                if format == .bgrx || format == .rgbx {
                    for offset in stride(from: 3, to: plane.count, by: 4) { plane[offset] = 255 }
                }
            }
        }
        return frame
    }

    static func bytes(_ frame: VideoFrame) throws -> [[UInt8]] {
        try frame.withMapped { mapped in (0..<mapped.planeCount).map { [UInt8](mapped.plane($0)) } }
    }

    /// A `width`×`height` mark whose every pixel differs, as a text's antialiased edge does:
    /// premultiplied, alpha running through 0 (clear), 255 (opaque) and all between, with clear
    /// rows and clear columns at both ends.
    static func speckledOverlay(width: Int, height: Int) throws -> OverlayImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        var state: UInt32 = 777
        for row in 1..<height - 1 {
            for column in 2..<width - 1 {
                state = state &* 1_103_515_245 &+ 12345
                let alpha = [0, 255, Int(state >> 24)][Int(state >> 8) % 3]
                let offset = (row * width + column) * 4
                for channel in 0..<3 {
                    pixels[offset + channel] = UInt8(alpha * Int((state >> (channel * 5)) & 255) / 255)
                }
                pixels[offset + 3] = UInt8(alpha)
            }
        }
        return try pixels.withUnsafeBytes {
            try OverlayImage(width: width, height: height, stride: width * 4, premultipliedBGRA: $0)
        }
    }

    /// Blending into the columns a mark covers (and into 4:2:0 planes directly) gives the bytes
    /// GStreamer's whole-row blend gives, in every format, for marks at odd and even columns and
    /// rows, half outside the frame on any side, and translucent (straight and premultiplied
    /// edges alike, every pixel its own alpha).
    @Test(arguments: PixelFormat.allCases)
    func theColumnsBlendGivesTheWholeRowBlendsBytes(format: PixelFormat) throws {
        let translucent = try solidOverlay(width: 13, height: 9, b: 40, g: 90, r: 120, a: 160)
        let opaque = try solidOverlay(width: 10, height: 6, b: 255, g: 255, r: 255, a: 255)
        let speckled = try Self.speckledOverlay(width: 23, height: 17)
        let placements: [[OverlayComposition.Placement]] = [
            [.init(image: translucent, x: 7, y: 3)], [.init(image: translucent, x: 8, y: 4)],
            [.init(image: opaque, x: -5, y: -2), .init(image: translucent, x: 57, y: 43)],
            [
                .init(image: translucent, x: 60, y: 10), .init(image: opaque, x: 63, y: 0),
                .init(image: opaque, x: 64, y: 5),
            ],
            [.init(image: opaque, x: 0, y: 0), .init(image: translucent, x: 1, y: 1)],
            [.init(image: speckled, x: 5, y: 7)],
            [.init(image: speckled, x: 10, y: 20), .init(image: speckled, x: 20, y: 25)],
            [
                .init(image: speckled, x: -7, y: -3), .init(image: speckled, x: 51, y: 38),
                .init(image: speckled, x: 48, y: -16),
            ],
        ]
        // An odd size too: the last chroma sample of a row and the last chroma row cover one
        // pixel and one row.
        for (width, height) in [(64, 48), (63, 47)] {
            for marks in placements {
                let composition = OverlayComposition(marks)
                let columns = try Self.busyFrame(width, height, format),
                    rows = try Self.busyFrame(width, height, format)
                try composition.blend(into: columns)
                try composition.blendWholeRows(into: rows)
                let blended = try Self.bytes(columns), reference = try Self.bytes(rows)
                let untouched = try Self.bytes(Self.busyFrame(width, height, format))
                func differing(_ a: [[UInt8]], _ b: [[UInt8]]) -> Int {
                    zip(a.joined(), b.joined()).filter { $0 != $1 }.count
                }
                #expect(
                    blended.map(\.count) == reference.map(\.count) && differing(blended, reference) == 0,
                    "\(format) \(width)x\(height) \(marks.map { ($0.x, $0.y) }): \(differing(blended, reference)) bytes differ from the whole-row blend"
                )
                #expect(differing(blended, untouched) > 0, "\(format) \(width)x\(height): nothing blended")
            }
        }
    }
}
