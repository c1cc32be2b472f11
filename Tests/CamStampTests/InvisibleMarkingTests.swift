// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Media
import Testing
import Watermark

@testable import CamStamp

/// The seam `--invisible` and `verify` go through: a frame marked from an instance id reads back.
@Suite struct InvisibleMarkingTests {
    /// A frame of `format` with smooth colour ramps in every plane (what a photo's chroma is like).
    func rampFrame(_ format: PixelFormat, width: Int = 512, height: Int = 512) throws -> VideoFrame {
        let frame = try VideoFrame(width: width, height: height, format: format)
        try frame.withMapped { mapped in
            for index in 0..<mapped.planeCount {
                let plane = mapped.plane(index), stride = mapped.stride(index)
                for row in 0..<plane.count / stride {
                    for column in 0..<stride { plane[row * stride + column] = UInt8((row / 3 + column / 5 + 60) % 200) }
                }
            }
        }
        return frame
    }

    @Test(arguments: [PixelFormat.i420, .rgba, .bgrx])
    func aMarkedFrameReadsItsInstanceIDsPayload(format: PixelFormat) throws {
        let frame = try rampFrame(format)
        let id = InvisibleMarking.newInstanceID()
        #expect(try !InvisibleMarking.read(frame).matches(MarkPayload(instanceID: id)))
        let payload = try InvisibleMarking.embed(instanceID: id, into: frame)
        #expect(payload == MarkPayload(instanceID: id))
        let reading = try InvisibleMarking.read(frame)
        #expect(reading.payload == payload)
        #expect(reading.strength > 0.5)
    }

    @Test func aSmallOrUnsupportedFrameIsRefusedInOneLine() throws {
        let small = try rampFrame(.i420, width: 200, height: 200)
        #expect(
            throws: CamStampError.failure(
                "cannot write the invisible mark: the picture is 200×200; an invisible mark needs at least 256×256 pixels"
            )
        ) {
            try InvisibleMarking.embed(instanceID: "xmp:iid:x", into: small)
        }
        let packed = try rampFrame(.yuy2)
        #expect(
            throws: CamStampError.failure(
                "cannot write an invisible mark into YUY2 frames; it needs I420, Y444 or 8-bit RGB")
        ) {
            try InvisibleMarking.embed(instanceID: "xmp:iid:x", into: packed)
        }
    }
}
