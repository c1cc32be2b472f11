// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// Fixtures the suites make rather than ship: one seeded generator for everything random, so a
// failure replays, and the small clips several suites build with ffmpeg.
import Foundation
import Testing

/// SplitMix64: a small generator with a fixed seed, so a failure replays.
package struct SeededGenerator: RandomNumberGenerator {
    package var state: UInt64
    package init(state: UInt64) { self.state = state }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A one-second H.264 clip of ffmpeg's `testsrc2` at `size` and `rate` (libx264 ultrafast), with
/// `arguments` (metadata, a timecode, container flags) before the output `url`.
package func makeTestClip(_ url: URL, size: String = "64x48", rate: String, _ arguments: [String] = []) throws {
    try tool(
        "ffmpeg",
        [
            "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=\(size):r=\(rate):d=1", "-c:v", "libx264",
            "-preset", "ultrafast",
        ] + arguments + [url.path])
}
