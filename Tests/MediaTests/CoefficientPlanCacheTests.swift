// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

@testable import Media

/// The coefficient stamp works out its marks' plans once per size, sampling and orientation, and
/// shares them between threads: a photo stamped from a plan another photo (other tables, other
/// pixels) or another stamp (its own copy of the mark) left must come out as from a fresh one.
@Suite struct CoefficientPlanCacheTests {
    /// A 40×36 mark: opaque on its left (whole blocks that replace what is under them), a
    /// translucent gradient on its right, and clear pixels between.
    static func mark() throws -> OverlayImage {
        let width = 40, height = 36
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width where x < 18 || x > 22 {
                let a = x < 18 ? 255 : (x * 37 + y * 11) % 256
                let i = (y * width + x) * 4
                // Premultiplied BGRA: no colour byte above alpha.
                pixels[i] = UInt8(a * ((x * 7) % 256) / 255)
                pixels[i + 1] = UInt8(a * ((y * 9) % 256) / 255)
                pixels[i + 2] = UInt8(a * 200 / 255)
                pixels[i + 3] = UInt8(a)
            }
        }
        return try pixels.withUnsafeBytes {
            try OverlayImage(width: width, height: height, stride: width * 4, premultipliedBGRA: $0)
        }
    }

    static func composition(_ image: OverlayImage) -> OverlayComposition {
        OverlayComposition([.init(image: image, x: 3, y: 5), .init(image: image, x: 17, y: 9)])
    }

    /// What a stamp with a cache of its own writes.
    static func fresh(
        _ jpeg: Data, _ image: OverlayImage, _ orientation: Orientation, splice: Bool
    ) throws -> JPEGCoefficientStamp.Result {
        try JPEGCoefficientStamp(cache: .init()).stamp(
            jpeg, composition: composition(image), orientation: orientation, splice: splice)
    }

    @Test(arguments: [true, false])
    func aCachedPlanStampsAsAFreshOne(splice: Bool) throws {
        let first = try SpliceFuzzTests.cjpeg(width: 64, height: 64, options: [], seed: 7)
        // Other quantisation tables and other pixels, of the same size.
        let second = try tool(
            "cjpeg", ["-quality", "60"],
            stdin: try tool("djpeg", [], stdin: try SpliceFuzzTests.cjpeg(width: 64, height: 64, options: [], seed: 8)))
        let cache = JPEGCoefficientStamp.PlanCache()
        let image = try Self.mark()
        let stamper = JPEGCoefficientStamp(cache: cache)
        // Another thread's stamp, with its own rendering of the same mark.
        let other = JPEGCoefficientStamp(cache: cache)
        let copy = try Self.mark()
        let steps: [(Data, Orientation, JPEGCoefficientStamp, OverlayImage, entries: Int)] = [
            (first, .normal, stamper, image, 1), (second, .normal, stamper, image, 1),
            (second, .rotated90, stamper, image, 2), (first, .rotated90, other, copy, 2),
            (second, .normal, other, copy, 2), (first, .transverse, other, copy, 3),
            (second, .transverse, stamper, image, 3),
        ]
        for (index, step) in steps.enumerated() {
            let (jpeg, orientation, stamp, mark, entries) = step
            let result = try stamp.stamp(
                jpeg, composition: Self.composition(mark), orientation: orientation, splice: splice)
            let expected = try Self.fresh(jpeg, mark, orientation, splice: splice)
            #expect(result.spliced == splice && result.blocksChanged > 0, "step \(index)")
            #expect(result.blocksChanged == expected.blocksChanged, "step \(index)")
            #expect(result.data == expected.data, "step \(index): the cached plan wrote other bytes")
            #expect(cache.count == entries, "step \(index): \(cache.count) plans kept, \(entries) expected")
        }
    }

    /// A plan too large for the cache's budget is used, not kept: a mark over a whole large photo
    /// does not stay in memory for the rest of the process.
    @Test func aPlanPastTheBudgetIsNotKept() throws {
        let jpeg = try SpliceFuzzTests.cjpeg(width: 64, height: 64, options: [], seed: 7)
        let image = try Self.mark()
        let small = JPEGCoefficientStamp.PlanCache(budget: 4)
        let result = try JPEGCoefficientStamp(cache: small).stamp(
            jpeg, composition: Self.composition(image), orientation: .normal, splice: true)
        #expect(result.data == (try Self.fresh(jpeg, image, .normal, splice: true)).data)
        #expect(small.count == 0)
        let roomy = JPEGCoefficientStamp.PlanCache()
        _ = try JPEGCoefficientStamp(cache: roomy).stamp(
            jpeg, composition: Self.composition(image), orientation: .normal, splice: true)
        #expect(roomy.count == 1)
    }
}
