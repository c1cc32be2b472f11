// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// The MP4/MOV muxer's video timescale: 90 kHz (the MPEG clock, what a camera's or a TS's clip
/// counts in) where a frame is a whole number of its ticks, so that frames 1/90000 s apart stay
/// apart. qtmux's own is ~100 ticks a frame (3000 Hz at 30 fps): x264 gives a variable-rate clip's
/// frames 11 µs apart DTSs 11 µs apart, they became the same tick, a sample of zero duration,
/// and the track and its edit list came out one frame short: players left out the last frame.
/// A rate 90 kHz cannot count exactly is either an NTSC one (24000/1001, 60000/1001), which gets
/// its own numerator (1001 ticks a frame), or no grid at all: a variable-rate clip's average
/// (81/4 for 80 frames in 3.95 s), whose frames come on a camera's clock (600, 1000, 90000 Hz)
/// that 90 kHz counts; qtmux's 2025 Hz for it merged two frames in one tick, as above.
///
/// qtmux (1.22) writes its `mvhd`, `tkhd`, `mdhd` and `elst` as version 0, 32-bit durations, in
/// the track's timescale (`mdhd`) and a movie timescale it takes from the video track's: at
/// 90 kHz those wrap past 2^32 ticks, 13 h 15 min, and the clip would say it lasts minutes. So a
/// clip longer than that, or of a length not known, keeps qtmux's (3000 Hz at 30 fps: 16 days).
package enum ClipTimescale {
    package static let mpegClock = 90_000

    /// The longest track 32 bits of ticks at `timescale` hold (ns): 13 h 15 min 21.9 s at 90 kHz.
    package static func longest(at timescale: Int) -> UInt64 {
        UInt64(UInt32.max) * 1_000_000_000 / UInt64(timescale)
    }

    /// How much longer than its probed duration a clip's track may come out (its last frame's
    /// length, a start moved to 0), so that a timescale is chosen only where it surely fits.
    package static let headroom: UInt64 = 60_000_000_000

    /// The timescale for frames at `numerator`/`denominator` per second (0/1: variable) of a clip
    /// lasting `duration` (ns, as probed; nil: not known); nil to leave qtmux's.
    package static func timescale(numerator: Int, denominator: Int, duration: UInt64?) -> Int? {
        guard let duration else { return nil }
        var chosen = mpegClock
        if numerator > 0, denominator == 1001, (mpegClock * denominator) % numerator != 0 {
            guard numerator <= 1_000_000 else { return nil }
            chosen = numerator
        }
        let limit = longest(at: chosen)
        guard limit > headroom, duration <= limit - headroom else { return nil }
        return chosen
    }
}
