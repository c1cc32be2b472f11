// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
@testable import ISOBMFF

@Suite struct ClipTimescaleTests {
    static let second: UInt64 = 1_000_000_000

    /// 90 kHz where a frame is whole ticks of it (29.97 fps: 3003), variable rates and their
    /// averages too (81/4: 80 frames in 3.95 s); an NTSC rate it cannot count (23.976, 59.94 fps)
    /// its own numerator, 1001 ticks a frame.
    @Test func ninetyKilohertzWhereAFrameIsWholeTicks() {
        #expect(ClipTimescale.timescale(numerator: 30, denominator: 1, duration: 10 * Self.second) == 90_000)
        #expect(ClipTimescale.timescale(numerator: 30_000, denominator: 1001, duration: 10 * Self.second) == 90_000)
        #expect(ClipTimescale.timescale(numerator: 0, denominator: 1, duration: 2 * Self.second) == 90_000)
        #expect(ClipTimescale.timescale(numerator: 81, denominator: 4, duration: 4 * Self.second) == 90_000)
        #expect(ClipTimescale.timescale(numerator: 24_000, denominator: 1001, duration: 10 * Self.second) == 24_000)
        #expect(ClipTimescale.timescale(numerator: 60_000, denominator: 1001, duration: 10 * Self.second) == 60_000)
        #expect(ClipTimescale.timescale(numerator: 1_000_000_000, denominator: 1001, duration: 10 * Self.second) == nil)
    }

    /// qtmux writes its durations in 32 bits (version-0 `mvhd`, `tkhd`, `mdhd`, `elst`), in the
    /// 90 kHz of the track and the movie: a clip that would not fit, with room for its last frames
    /// (13 h 15 min and more), or whose length is not known, keeps qtmux's timescale.
    @Test func ninetyKilohertzOnlyWhereTheClipFitsIn32BitsOfIt() {
        let longest = ClipTimescale.longest(at: 90_000)
        #expect(longest * 90_000 / Self.second <= UInt64(UInt32.max))
        #expect((longest + Self.second) * 90_000 / Self.second > UInt64(UInt32.max))
        let fits = longest - ClipTimescale.headroom
        #expect(ClipTimescale.timescale(numerator: 30, denominator: 1, duration: 13 * 3600 * Self.second) == 90_000)
        #expect(ClipTimescale.timescale(numerator: 30, denominator: 1, duration: fits) == 90_000)
        #expect(ClipTimescale.timescale(numerator: 30, denominator: 1, duration: fits + 1) == nil)
        #expect(
            ClipTimescale.timescale(numerator: 0, denominator: 1, duration: (13 * 3600 + 15 * 60) * Self.second) == nil)
        #expect(ClipTimescale.timescale(numerator: 30, denominator: 1, duration: 24 * 3600 * Self.second) == nil)
        #expect(ClipTimescale.timescale(numerator: 30, denominator: 1, duration: .max) == nil)
        #expect(ClipTimescale.timescale(numerator: 30, denominator: 1, duration: nil) == nil)
        // 60000 Hz for 59.94 fps holds 19 h 53 min.
        #expect(
            ClipTimescale.timescale(numerator: 60_000, denominator: 1001, duration: 19 * 3600 * Self.second) == 60_000)
        #expect(ClipTimescale.timescale(numerator: 60_000, denominator: 1001, duration: 20 * 3600 * Self.second) == nil)
    }
}
