// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import TestSupport
import Testing
@testable import Media

/// A turned JPEG decoded and turned by `JPEGDecoder.decodeUpright` comes out of the photo pipeline
/// byte for byte as the same JPEG turned by videoflip does.
@Suite struct UprightDecodeTests {
    /// A JPEG of seeded noise, `width`×`height`, encoded by jpegenc from `format` (its sampling).
    func noiseJPEG(width: Int, height: Int, format: String, seed: UInt64) throws -> Data {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("upright-\(UUID().uuidString).jpg")
        defer { try? FileManager.default.removeItem(at: file) }
        let output = try FrameOutput(
            pipeline: Pipeline(
                PipelineTemplate(
                    "appsrc name=stamped ! videoconvert ! video/x-raw,format=\(format) ! jpegenc"
                        + " ! filesink location={location}"
                )
                .render(["location": .quoted(file.path)])))
        try output.start()
        let frame = try VideoFrame(width: width, height: height, format: .rgbx)
        var random = SeededGenerator(state: seed)
        try frame.withMapped { mapped in
            let plane = mapped.plane(0)
            for index in 0..<plane.count { plane[index] = UInt8.random(in: 0...255, using: &random) }
        }
        frame.setTimestamps(pts: 0, duration: 1_000_000_000)
        try output.push(frame)
        try output.finish()
        return try Data(contentsOf: file)
    }

    @Test(arguments: [(37, 23), (70, 51), (64, 64), (8, 9)])
    func everyOrientationMatchesVideoflip(_ width: Int, _ height: Int) throws {
        let photo = try noiseJPEG(width: width, height: height, format: "I420", seed: UInt64(width * height))
        let template = try shippedTemplate("photo-jpeg")
        let flipped = PhotoPipeline(template: template, input: .jpeg, values: ["quality": .integer(90)])
        let turned = PhotoPipeline(template: template, input: .raw, values: ["quality": .integer(90)])
        for orientation in Orientation.allCases {
            let expected = try flipped.process(
                photo, request: PhotoRequest(orientation: orientation, encodingFormat: "I420")
            ) { _ in nil }
            let upright = try #require(JPEGDecoder.decodeUpright(photo, orientation: orientation))
            let upsideDown = orientation.swapsAxes
            #expect((upright.width, upright.height) == (upsideDown ? (height, width) : (width, height)))
            let got = try turned.process(
                upright, request: PhotoRequest(orientation: .normal, encodingFormat: "I420")
            ) { _ in nil }
            #expect(got == expected, "\(width)x\(height), orientation \(orientation)")
        }
    }

    @Test func otherSamplingsAndDamagedDataAreLeftToTheUsualPath() throws {
        let photo = try noiseJPEG(width: 32, height: 16, format: "Y444", seed: 7)
        #expect(JPEGDecoder.decodeUpright(photo, orientation: .rotated90) == nil)
        let good = try noiseJPEG(width: 32, height: 16, format: "I420", seed: 7)
        #expect(JPEGDecoder.decodeUpright(good.prefix(good.count / 2), orientation: .rotated90) == nil)
    }
}
