// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
@testable import Media

@Suite struct PhotoPipelineTests {
    /// A small JPEG of a black I420 frame, encoded here.
    func jpeg(width: Int, height: Int) throws -> Data {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("photo-\(UUID().uuidString).jpg")
        defer { try? FileManager.default.removeItem(at: file) }
        let output = try FrameOutput(
            pipeline: Pipeline(
                PipelineTemplate("appsrc name=stamped ! jpegenc ! filesink location={location}")
                    .render(["location": .quoted(file.path)])))
        try output.start()
        let frame = try blackFrame(width, height, .i420)
        frame.setTimestamps(pts: 0, duration: 1_000_000_000)
        try output.push(frame)
        try output.finish()
        return try Data(contentsOf: file)
    }

    /// The shipped photo template, as batch runs it.
    var template: PipelineTemplate { get throws { try shippedTemplate("photo-jpeg") } }

    @Test func photosAreMarkedInPlaceUprightAndNeverCopied() throws {
        let pipeline = PhotoPipeline(template: try template, input: .jpeg, values: ["quality": .integer(90)])
        let white = try solidOverlay(width: 8, height: 8, b: 255, g: 255, r: 255, a: 255)
        var seen: [(Int, Int, Bool)] = []
        for orientation in [Orientation.normal, .rotated90, .rotated180] {
            let photo = try jpeg(width: 64, height: 48)
            let output = try pipeline.process(photo, orientation: orientation, size: nil) { frame in
                seen.append((frame.width, frame.height, frame.isWritable))
                do { try OverlayComposition([.init(image: white, x: 0, y: 0)]).blend(into: frame) } catch {
                    return error
                }
                return nil
            }
            #expect(output.prefix(2) == Data([0xFF, 0xD8]))
        }
        #expect(seen.map(\.0) == [64, 48, 64] && seen.map(\.1) == [48, 64, 48], "\(seen)")
        #expect(seen.allSatisfy { $0.2 })
        #expect(pipeline.framesCopied == 0)
    }

    /// Each photo's settings are its own: a size, a turn or a quality set for one photo and
    /// changed back for the next is changed back, and repeating a setting changes nothing.
    @Test func settingsChangedBackAreAppliedAgain() throws {
        let pipeline = PhotoPipeline(template: try template, input: .jpeg, values: ["quality": .integer(90)])
        let photo = try jpeg(width: 64, height: 48)
        var seen: [String] = []
        var outputs: [Data] = []
        let steps: [(Orientation, (width: Int, height: Int)?, Int)] = [
            (.normal, nil, 90), (.normal, nil, 90), (.rotated90, (24, 32), 90), (.normal, nil, 30), (.normal, nil, 90),
        ]
        for (orientation, size, quality) in steps {
            var request = PhotoRequest(orientation: orientation, size: size)
            request.quality = quality
            outputs.append(
                try pipeline.process(photo, request: request) { frame in
                    seen.append("\(frame.width)x\(frame.height)")
                    return nil
                })
        }
        #expect(seen == ["64x48", "64x48", "24x32", "64x48", "64x48"], "\(seen)")
        #expect(outputs[0] == outputs[1] && outputs[0] == outputs[4])
        #expect(outputs[3] != outputs[0], "quality 30 made the same file as 90")
    }

    @Test func aFailureInTheMarkFailsThatPhotoOnly() throws {
        struct Broken: Error {}
        let pipeline = PhotoPipeline(template: try template, input: .jpeg, values: ["quality": .integer(90)])
        let photo = try jpeg(width: 32, height: 32)
        #expect(throws: Broken.self) {
            try pipeline.process(photo, orientation: .normal, size: nil) { _ in Broken() }
        }
        let next = try pipeline.process(photo, orientation: .normal, size: (16, 16)) { _ in nil }
        #expect(next.prefix(2) == Data([0xFF, 0xD8]))
    }

    @Test func undecodableBytesAreAnErrorNotAHang() throws {
        let pipeline = PhotoPipeline(template: try template, input: .jpeg, values: ["quality": .integer(90)])
        var garbage = Data([0xFF, 0xD8, 0xFF, 0xDB, 0x00, 0x04, 0x00, 0x00])
        garbage.append(Data(repeating: 0x42, count: 2000))
        garbage.append(Data([0xFF, 0xD9]))
        #expect(throws: (any Error).self) {
            try pipeline.process(garbage, orientation: .normal, size: nil) { _ in nil }
        }
    }
}
