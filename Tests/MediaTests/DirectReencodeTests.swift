// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import TestSupport
import Testing
@testable import Media

/// A 4:2:0 JPEG re-encoded by `JPEGDirectReencode` (libjpeg-turbo alone) comes out byte for byte as
/// the photo pipeline (jpegdec, videoflip, jpegenc) writes it, marks included, in every orientation.
@Suite struct DirectReencodeTests {
    let photos = UprightDecodeTests()

    /// A white 6×4 block drawn into the luma at (2, 2) of the upright frame, as a mark would be.
    func mark(_ frame: VideoFrame) -> Error? {
        do {
            try frame.withMapped { mapped in
                let luma = mapped.plane(0)
                for y in 2..<6 { for x in 2..<8 { luma[y * mapped.stride(0) + x] = 255 } }
            }
        } catch { return error }
        return nil
    }

    // 40×24 and 24×40: chroma planes that are not whole blocks wide or high.
    @Test(arguments: [(40, 24), (24, 40), (64, 48), (48, 32)])
    func everyOrientationMatchesThePipeline(_ width: Int, _ height: Int) throws {
        let photo = try photos.noiseJPEG(width: width, height: height, format: "I420", seed: UInt64(width + height))
        let pipeline = PhotoPipeline(
            template: try shippedTemplate("photo-jpeg"), input: .jpeg, values: ["quality": .integer(90)])
        for orientation in Orientation.allCases {
            let expected = try pipeline.process(
                photo, request: PhotoRequest(orientation: orientation, encodingFormat: "I420", quality: 87), mark: mark)
            var marked: (Int, Int, String)?
            let got = try #require(
                try JPEGDirectReencode.reencode(photo, orientation: orientation, quality: 87) { frame in
                    marked = (frame.width, frame.height, frame.formatName)
                    return mark(frame)
                })
            let upright = orientation.swapsAxes ? (height, width) : (width, height)
            let frame = try #require(marked, "the mark was not called")
            #expect(frame.0 == upright.0 && frame.1 == upright.1 && frame.2 == "I420")
            #expect(got == expected, "\(width)x\(height), orientation \(orientation)")
            // The block is where the mark put it in the upright picture, and white.
            let luma = try decodeLuma(got)
            #expect((luma.first?.count ?? 0, luma.count) == upright)
            let block = luma[2..<6].flatMap { $0[2..<8] }.map(Int.init)
            #expect(block.reduce(0, +) / block.count > 220, "orientation \(orientation): \(block)")
        }
    }

    @Test func otherPicturesAreLeftToThePipelineBeforeAnyMark() throws {
        let full = try photos.noiseJPEG(width: 32, height: 16, format: "Y444", seed: 3)
        let odd = try photos.noiseJPEG(width: 33, height: 16, format: "I420", seed: 3)
        let good = try photos.noiseJPEG(width: 32, height: 16, format: "I420", seed: 3)
        for photo in [full, odd, good.prefix(good.count / 2)] {
            let got = try JPEGDirectReencode.reencode(photo, orientation: .rotated90, quality: 90) { _ in
                Issue.record("marked a picture the direct path does not take")
                return nil
            }
            #expect(got == nil)
        }
    }

    @Test func aMarkFailureFailsThePhoto() throws {
        struct Refused: Error {}
        let photo = try photos.noiseJPEG(width: 32, height: 16, format: "I420", seed: 5)
        #expect(throws: JPEGDirectReencode.Failure.self) {
            _ = try JPEGDirectReencode.reencode(photo, orientation: .normal, quality: 90) { _ in Refused() }
        }
    }

    /// The luma rows of a JPEG, as GStreamer decodes it.
    func decodeLuma(_ jpeg: Data) throws -> [[UInt8]] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("direct-\(UUID().uuidString).jpg")
        defer { try? FileManager.default.removeItem(at: file) }
        try jpeg.write(to: file)
        return try lumaPlane(try decodeImage(file))
    }
}
