// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Media
import Testing
@testable import CamStamp

/// The square crop and the mirror of a photo, checked pixel by pixel on a frame whose every
/// luma value says where it came from.
@Suite struct StillGeometryTests {
    /// A `width`×`height` I420 frame: luma = (x + 3y) mod 256, U = x/2 mod 256, V = y/2 mod 256.
    func numbered(_ width: Int, _ height: Int) throws -> VideoFrame {
        let frame = try VideoFrame(width: width, height: height, format: .i420)
        try frame.withMapped { mapped in
            for y in 0..<height {
                for x in 0..<width { mapped.plane(0)[y * mapped.stride(0) + x] = UInt8((x + 3 * y) % 256) }
            }
            for y in 0..<(height / 2) {
                for x in 0..<(width / 2) {
                    mapped.plane(1)[y * mapped.stride(1) + x] = UInt8(x % 256)
                    mapped.plane(2)[y * mapped.stride(2) + x] = UInt8(y % 256)
                }
            }
        }
        return frame
    }

    func pixel(_ frame: VideoFrame, _ x: Int, _ y: Int) -> (luma: UInt8, u: UInt8, v: UInt8) {
        try! frame.withMapped { mapped in
            (
                mapped.plane(0)[y * mapped.stride(0) + x], mapped.plane(1)[(y / 2) * mapped.stride(1) + x / 2],
                mapped.plane(2)[(y / 2) * mapped.stride(2) + x / 2]
            )
        }
    }

    @Test func theSquareIsTheCentreOfALandscapeFrame() throws {
        let frame = try numbered(64, 36)
        let square = try StillGeometry(square: true).apply(to: frame)
        #expect(square.width == 36 && square.height == 36)
        // (14, 0) of the frame is the square's (0, 0).
        for (x, y) in [(0, 0), (35, 35), (17, 9), (1, 30)] {
            let got = pixel(square, x, y), expected = pixel(frame, x + 14, y)
            #expect(got == expected, "(\(x),\(y)) expected \(expected), got \(got)")
        }
    }

    @Test func theSquareIsTheCentreOfAPortraitFrame() throws {
        let frame = try numbered(30, 50)
        let square = try StillGeometry(square: true).apply(to: frame)
        #expect(square.width == 30 && square.height == 30)
        #expect(pixel(square, 3, 5) == pixel(frame, 3, 15))
        #expect(StillGeometry.centreSquare(width: 30, height: 50) == (0, 10, 30))
        #expect(StillGeometry.centreSquare(width: 1280, height: 720) == (280, 0, 720))
    }

    /// Every luma pixel of a 40×20 frame turned by 90°, 180° and 270° comes from where a
    /// clockwise turn takes it.
    @Test(arguments: [90, 180, 270])
    func aTurnMovesEveryPixelWhereAClockwiseTurnTakesIt(degrees: Int) throws {
        let (width, height) = (40, 20)
        let frame = try numbered(width, height)
        let turned = try StillGeometry(rotate: degrees).apply(to: frame)
        #expect(degrees == 180 ? turned.width == width : turned.width == height)
        /// The source pixel that lands on (x, y) of the turned frame.
        func source(_ x: Int, _ y: Int) -> (Int, Int) {
            switch degrees {
            case 90: (y, height - 1 - x)
            case 180: (width - 1 - x, height - 1 - y)
            default: (width - 1 - y, x)
            }
        }
        let luma = try lumaOf(turned)
        let original = try lumaOf(frame)
        var wrong = 0
        for y in 0..<turned.height {
            for x in 0..<turned.width {
                let (sx, sy) = source(x, y)
                if luma[y][x] != original[sy][sx] { wrong += 1 }
            }
        }
        #expect(wrong == 0, "\(wrong) luma pixels out of place after \(degrees)°")
    }

    func lumaOf(_ frame: VideoFrame) throws -> [[UInt8]] {
        try frame.withMapped { mapped in
            (0..<frame.height).map { y in (0..<frame.width).map { mapped.plane(0)[y * mapped.stride(0) + $0] } }
        }
    }

    @Test func theMirrorSwapsLeftAndRightInEveryPlane() throws {
        let frame = try numbered(40, 20)
        let mirrored = try StillGeometry(mirror: true).apply(to: frame)
        #expect(mirrored.width == 40 && mirrored.height == 20)
        for (x, y) in [(0, 0), (39, 19), (10, 4), (21, 13)] {
            let got = pixel(mirrored, x, y), expected = pixel(frame, 39 - x, y)
            #expect(got == expected, "(\(x),\(y)) expected \(expected), got \(got)")
        }
        // In place (the preview's mirror) gives the same pixels.
        try frame.mirror()
        #expect(pixel(frame, 3, 7) == pixel(mirrored, 3, 7))
    }

    @Test func squareAndMirrorTogether() throws {
        let frame = try numbered(64, 36)
        let both = try StillGeometry(square: true, mirror: true).apply(to: frame)
        #expect(both.width == 36)
        #expect(pixel(both, 0, 0) == pixel(frame, 14 + 35, 0))
        #expect(pixel(both, 35, 10) == pixel(frame, 14, 10))
    }

    @Test func nothingAskedReturnsTheSameFrame() throws {
        let frame = try numbered(8, 8)
        #expect(try StillGeometry().apply(to: frame) === frame)
    }

    @Test func previewSizeKeepsSmallFramesAndScalesWideOnesTo1280() {
        #expect(CameraJob.previewSize(for: FrameSize(width: 640, height: 480)) == FrameSize(width: 640, height: 480))
        #expect(CameraJob.previewSize(for: FrameSize(width: 1920, height: 1080)) == FrameSize(width: 1280, height: 720))
        #expect(CameraJob.previewSize(for: FrameSize(width: 3840, height: 2160)) == FrameSize(width: 1280, height: 720))
        #expect(CameraJob.previewSize(for: FrameSize(width: 2592, height: 1944)) == FrameSize(width: 1280, height: 960))
        // A turned camera: the long side is the one held to 1280.
        #expect(CameraJob.previewSize(for: FrameSize(width: 1080, height: 1920)) == FrameSize(width: 720, height: 1280))
        #expect(
            CameraJob.previewSize(for: FrameSize(width: 1080, height: 1080)) == FrameSize(width: 1080, height: 1080))
    }

    @Test func tokensAreComparedWhole() {
        #expect(CameraAPI.same("abcdefgh", "abcdefgh"))
        #expect(!CameraAPI.same("abcdefgh", "abcdefgi") && !CameraAPI.same("abc", "abcdefgh"))
        #expect(CameraAPI.cookie("camstamp_token", in: "a=1; camstamp_token=xyz; b=2") == "xyz")
        #expect(CameraAPI.cookie("camstamp_token", in: "camstamp_tokenx=1") == nil)
    }
}
