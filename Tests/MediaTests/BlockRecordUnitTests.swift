// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Testing

@testable import Media

/// The block record's changed set: the blocks a stamp rewrote, as rectangles and back, and capped.
struct BlockRecordUnitTests {
    /// A 6×4 map with an L of changed blocks and a lone one.
    static let map: [UInt8] = [
        0, 1, 1, 0, 0, 0,
        0, 1, 1, 0, 0, 1,
        0, 1, 1, 1, 0, 0,
        0, 0, 0, 0, 0, 0,
    ]

    @Test func rectanglesHoldExactlyTheChangedBlocks() {
        let rectangles = JPEGBlockRecord.rectangles(Self.map[...], width: 6, height: 4)
        #expect(
            Set(rectangles.map { [$0.x, $0.y, $0.width, $0.height] })
                == [[1, 0, 2, 2], [5, 1, 1, 1], [1, 2, 3, 1]])
        let record = JPEGBlockRecord(
            components: [.init(width: 6, height: 4, h: 1, v: 1, changed: rectangles)], digest: [])
        #expect(record.skipMap() == Self.map)
        #expect(record.blocksChanged == 8)
        #expect(record.blocksTotal == 24)
    }

    @Test func tooManyRectanglesBecomeEachComponentsBoundingBox() {
        // Every other block of every other row: one rectangle each.
        var map = [UInt8](repeating: 0, count: 100 * 100)
        for row in stride(from: 0, to: 100, by: 2) {
            for column in stride(from: 1, to: 99, by: 2) { map[row * 100 + column] = 1 }
        }
        let rectangles = JPEGBlockRecord.rectangles(map[...], width: 100, height: 100)
        #expect(rectangles.count > JPEGBlockRecord.maxRectangles)
        let capped = JPEGBlockRecord.capped([.init(width: 100, height: 100, h: 2, v: 2, changed: rectangles)])
        #expect(capped[0].changed == [.init(x: 1, y: 0, width: 97, height: 99)])
        // A superset: every changed block is still inside it.
        let record = JPEGBlockRecord(components: capped, digest: [])
        #expect(zip(record.skipMap(), map).allSatisfy { $0.0 >= $0.1 })
    }
}
