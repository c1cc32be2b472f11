// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Media
import Testing
import TestSupport

/// `shoot --rotate/--square/--mirror`: the frame is turned, cropped and mirrored before the marks,
/// read back by pixels on still colour bars (left to right: grey, yellow, cyan, green, magenta,
/// red, blue).
@Suite struct ShootGeometryTests {
    func barsTemplate(in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("bars.pipeline")
        try """
        # Still colour bars (75 %), for pixel checks of the photo's geometry.
        videotestsrc is-live=true pattern=smpte75 ! videoconvert ! videoscale ! {caps} ! appsink name=frames
        """.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    func near(_ got: (r: Int, g: Int, b: Int), _ want: (Int, Int, Int)) -> Bool {
        abs(got.r - want.0) <= 24 && abs(got.g - want.1) <= 24 && abs(got.b - want.2) <= 24
    }

    @Test func aQuarterTurnPutsTheLeftEdgeOnTop() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = folder.appendingPathComponent("turned.png")
        let result = try camstamp([
            "shoot", "--source", "test", "--pipeline", barsTemplate(in: folder).path, "--size", "640x360",
            "--text", "X", "--rotate", "90", "-o", photo.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let frame = try decodeImage(photo, format: .rgba)
        #expect(frame.width == 360 && frame.height == 640)
        let top = rgb(frame, 180, 10), bottom = rgb(frame, 180, 630)
        #expect(near(top, (191, 191, 191)), "top \(top): the grey bar (left edge) turned clockwise to the top")
        #expect(near(bottom, (0, 0, 191)), "bottom \(bottom): the blue bar (right edge) at the bottom")
    }

    @Test func squareAndMirrorKeepTheCentreTurnedAround() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = folder.appendingPathComponent("square.png")
        let result = try camstamp([
            "shoot", "--source", "test", "--pipeline", barsTemplate(in: folder).path, "--size", "640x360",
            "--text", "X", "--square", "--mirror", "-o", photo.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let frame = try decodeImage(photo, format: .rgba)
        #expect(frame.width == 360 && frame.height == 360)
        // The centre square spans x 140…499: yellow on its left, red on its right; mirrored, swapped.
        let left = rgb(frame, 5, 180), right = rgb(frame, 354, 180)
        #expect(near(left, (191, 0, 0)), "left \(left): red, mirrored from the right")
        #expect(near(right, (191, 191, 0)), "right \(right): yellow, mirrored from the left")
    }

    @Test func aRotationOtherThanAQuarterTurnIsRefused() throws {
        let result = try camstamp(["shoot", "--source", "test", "--text", "x", "--rotate", "45"])
        #expect(result.status == 64)
        #expect(
            result.stderr
                == "camstamp: invalid value '45' for '--rotate': expected 90, 180 or 270 (degrees clockwise)\n")
    }
}
