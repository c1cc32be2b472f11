// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Media
import PhotoMetadata
import Testing
import TestSupport

@Suite struct BatchOrientationTests {
    /// --reencode turns the pixels upright and sets Orientation 1; the default (the JPEG stamped
    /// in its coefficients) keeps the stored pixels and the tag, and draws the mark turned so that
    /// a viewer shows the same picture.
    @Test(arguments: 1...8)
    func everyOrientationComesOutUprightWithTheMarkBottomRight(orientation: Int) throws {
        let folder = try temporaryFolder("orient\(orientation)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try put(
            PhotoFixtures.jpeg(
                width: 320, height: 240, orientation: orientation,
                exif: PhotoFixtures.exif(orientation: orientation)), "in/photo.jpg", in: folder)
        for reencode in [true, false] {
            let out = folder.appendingPathComponent(reencode ? "re" : "out")
            let result = try camstamp(
                ["batch", input.path, "-o", out.path, "--text", "MARK"] + (reencode ? ["--reencode"] : []))
            #expect(result.status == 0, "stderr: \(result.stderr)")
            let output = out.appendingPathComponent("photo.jpg")
            let luma: [[UInt8]]
            if reencode {
                let frame = try decodeImage(output)
                #expect(frame.width == 320 && frame.height == 240, "\(frame.width)x\(frame.height)")
                luma = try lumaPlane(frame)
            } else {
                // As a viewer shows it (ImageMagick applies the orientation).
                let shown = try upright(output).luma()
                #expect(shown.width == 320 && shown.height == 240, "\(shown.width)x\(shown.height)")
                luma = (0..<shown.height).map { Array(shown.pixels[$0 * shown.width..<($0 + 1) * shown.width]) }
            }
            guard luma.count == 240, luma[0].count == 320 else { continue }
            // The white block is at the top-left of the upright picture, and only there.
            #expect(luma[30][40] > 200, "top-left is \(luma[30][40])")
            #expect(abs(Int(luma[30][280]) - 64) < 12 && abs(Int(luma[210][40]) - 64) < 12)
            // The mark: changed pixels in the bottom-right corner only (the block aside).
            var markPixels = 0
            scan: for y in 120..<240 {
                for x in 0..<320 where abs(Int(luma[y][x]) - 64) > 40 {
                    markPixels += 1
                    #expect(x > 160 && y > 180, "mark pixel at (\(x),\(y))")
                    if x <= 160 || y <= 180 { break scan }
                }
            }
            #expect(markPixels > 20)
            // Upright pixels say Orientation 1 (no viewer turns them again); stored ones keep theirs.
            let exif = try #require(try readEXIF(output))
            #expect(exif.orientation == (reencode ? 1 : orientation))
            #expect(exif.values["Model"] == "Fixture Cam 1")
        }
    }

    @Test func aBrokenThumbnailPointerDoesNotCostTheOrientation() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var exif = PhotoFixtures.exif(orientation: 6)
        // IFD0 (5 entries at TIFF offset 8) ends with its next-IFD pointer: aim it far past the end,
        // as some cameras' damaged files do. "Exif\0\0" is 6 bytes before the TIFF header.
        let next = 6 + 8 + 2 + 5 * 12
        exif.replaceSubrange(next..<next + 4, with: [0x00, 0xFF, 0xFF, 0x7F])
        let input = try put(
            PhotoFixtures.jpeg(width: 320, height: 240, orientation: 6, exif: exif), "in/d.jpg", in: folder)
        let out = folder.appendingPathComponent("out")
        // --reencode: this is about the orientation tag the full path turns the pixels by.
        let result = try camstamp(["batch", input.path, "-o", out.path, "--text", "{exif:Model}", "--reencode"])
        #expect(result.status == 0, "\(result.stderr)")
        let frame = try decodeImage(out.appendingPathComponent("d.jpg"))
        #expect(frame.width == 320 && frame.height == 240, "\(frame.width)x\(frame.height): not turned upright")
        let written = try #require(try readEXIF(out.appendingPathComponent("d.jpg")))
        #expect(written.orientation == 1 && written.values["Model"] == "Fixture Cam 1")
    }
}
