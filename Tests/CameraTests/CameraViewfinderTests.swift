// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Media
import Testing
import TestSupport

/// The viewfinder is the photo: what a viewer of `/stream.mjpg` sees (crop, mirror, turn, the
/// marks and where they sit) is what the shot holds, and the shot is the frame it saw when the
/// shutter was pressed.
extension CameraTests {
    @Suite struct Viewfinder {
        /// A geometry the page can set, and the photo's size from a 640×360 camera.
        static var geometries: [(name: String, settings: [String: Any], width: Int, height: Int)] {
            [
                ("plain", [:], 640, 360),
                ("square", ["square": true], 360, 360),
                ("mirror", ["mirror": true], 640, 360),
                ("rotate", ["rotate": 90], 360, 640),
                ("all", ["square": true, "mirror": true, "rotate": 270], 360, 360),
            ]
        }

        /// On a flat camera every changed pixel is the mark's: its box in the preview part
        /// showing the shot's frame and in the shot agree within 3 px (both at the photo's size).
        @Test(arguments: ["plain", "square", "mirror", "rotate", "all"])
        func theMarkSitsInThePreviewWhereThePhotoPutsIt(geometry: String) throws {
            let folder = try temporaryFolder("mark\(geometry)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let camera = try CameraProcess.flatMarked(in: folder)
            let (preview, shot) = try previewAndShot(camera, geometry: geometry, folder: folder)
            #expect(camera.stop().status == 130)
            #expect(preview.count == shot.count && preview.first?.count == shot.first?.count, "sizes differ")
            let inPreview = try #require(changedBounds(preview, background: preview[0][0], tolerance: 12))
            let inShot = try #require(changedBounds(shot, background: shot[0][0], tolerance: 12))
            for (a, b, side) in [
                (inPreview.minX, inShot.minX, "left"), (inPreview.maxX, inShot.maxX, "right"),
                (inPreview.minY, inShot.minY, "top"), (inPreview.maxY, inShot.maxY, "bottom"),
            ] {
                #expect(
                    abs(a - b) <= 3, "\(geometry): the mark's \(side) edge at \(a) in the preview, \(b) in the photo")
            }
        }

        /// On the moving test camera, the whole preview part of the shot's frame is the photo,
        /// pixel for pixel up to JPEG's loss, and not its mirror image (or upside down).
        @Test(arguments: ["plain", "square", "mirror", "rotate", "all"])
        func thePreviewPartOfTheShotsFrameIsThePhoto(geometry: String) throws {
            let folder = try temporaryFolder("whole\(geometry)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let camera = try CameraProcess(
                ["--source", "test", "--size", "640x360", "--text", "MARK", "-o", "shots"], in: folder)
            let (preview, shot) = try previewAndShot(camera, geometry: geometry, folder: folder)
            #expect(camera.stop().status == 130)
            let same = try #require(meanDifference(preview, shot), "\(geometry): the preview and photo sizes differ")
            // The test camera's bars run across a turned picture: turned over, it shows.
            let flip: Flip = ["rotate", "all"].contains(geometry) ? .upsideDown : .leftRight
            let flipped = try #require(meanDifference(preview, shot, flip: flip))
            #expect(same < 4, "\(geometry): the preview differs from the photo by \(same) on average")
            #expect(flipped > 4 * same, "\(geometry): the mirror image is as close (\(flipped) against \(same))")
        }

        /// Sets `geometry`, shoots, and returns the luma of the preview part showing the shot's
        /// frame (`X-Frame` is the shot's `frame`) and of the shot, checked for the photo's size.
        private func previewAndShot(
            _ camera: CameraProcess, geometry: String, folder: URL
        ) throws -> (preview: [[UInt8]], shot: [[UInt8]]) {
            let wanted = try #require(Self.geometries.first { $0.name == geometry })
            if !wanted.settings.isEmpty {
                let set = try http("POST", camera.base + "/api/settings", json: wanted.settings)
                #expect(set.status == 200, "\(set.text)")
            }
            let viewer = MJPEGParts(camera.base + "/stream.mjpg")
            defer { viewer.stop() }
            try viewer.waitFor(5)
            let answer = try http("POST", camera.base + "/api/shoot")
            let path = try #require(answer.json["path"] as? String, "\(answer.text)")
            let frame = try #require(answer.json["frame"] as? Int, "the shot says no frame: \(answer.text)")
            #expect(answer.json["width"] as? Int == wanted.width && answer.json["height"] as? Int == wanted.height)
            let part = try #require(
                viewer.parts.first { $0.frame == frame }, "no preview part of frame \(frame) was received")
            return (
                try lumaOfJPEG(part.jpeg, in: folder), try lumaPlane(decodeImage(URL(fileURLWithPath: path)))
            )
        }
    }
}
