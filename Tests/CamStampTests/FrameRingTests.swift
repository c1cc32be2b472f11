// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Media
import Testing
@testable import CamStamp

/// Which kept frame a press gets (zero shutter lag), and how many frames are kept.
@Suite struct FrameRingTests {
    let start = ContinuousClock.now

    /// Frames 1…`count`, one every 33 ms from `start`, made with settings `version(number)`.
    func ring(_ count: Int, version: (Int) -> Int = { _ in 0 }) throws -> FrameRing {
        let ring = FrameRing()
        for number in 1...count {
            let frame = try VideoFrame(width: 16, height: 16, format: .i420)
            frame.setTimestamps(pts: UInt64(number) * 33_000_000, duration: nil)
            ring.keep(
                frame, number: number, version: version(number), captured: start + .milliseconds(33 * number),
                wall: Date())
        }
        return ring
    }

    @Test func aPressGetsTheFrameOnScreenThenNotTheNextOne() throws {
        let ring = try ring(6)
        // Shown 40 ms after capture: at 180 ms frame 4 (shown at 172) is on screen, frame 5 not yet.
        for number in 1...6 { ring.markShown(number: number, at: start + .milliseconds(33 * number + 40)) }
        #expect(ring.frame(at: start + .milliseconds(180), version: 0)?.number == 4)
        #expect(ring.frame(at: start + .milliseconds(173), version: 0)?.number == 4)
        #expect(ring.frame(at: start + .milliseconds(171), version: 0)?.number == 3)
    }

    @Test func withNothingShownThePressGetsTheLastFrameCapturedBeforeIt() throws {
        let ring = try ring(6)
        #expect(ring.frame(at: start + .milliseconds(100), version: 0)?.number == 3)
        // Older than every frame kept: the oldest.
        #expect(ring.frame(at: start, version: 0)?.number == 1)
    }

    @Test func aPressAfterAChangeGetsAFrameMadeWithIt() throws {
        // Square was turned on before frame 5 was made, and pressed for at frame 3's time.
        let ring = try ring(6) { $0 >= 5 ? 1 : 0 }
        #expect(ring.frame(at: start + .milliseconds(100), version: 1)?.number == 5)
        #expect(ring.frame(at: start + .milliseconds(100), version: 0)?.number == 3)
    }

    @Test func theRingIsBoundedInFramesAndBytes() throws {
        let ring = try ring(20)
        #expect(ring.count == FrameRing.maxFrames)
        #expect(ring.frame(at: start, version: 0)?.number == 20 - FrameRing.maxFrames + 1)
        // 1080p I420 keeps 8 (24.9 MB); 4K keeps 5 (62 MB of 64).
        #expect(FrameRing.capacity(frameBytes: 1920 * 1080 * 3 / 2) == 8)
        #expect(FrameRing.capacity(frameBytes: 3840 * 2160 * 3 / 2) == 5)
        #expect(FrameRing.capacity(frameBytes: 100 << 20) == 2)
    }

    @Test func aPartFindsItsFrameByItsTime() throws {
        let ring = try ring(4)
        #expect(ring.entry(pts: 66_000_000)?.number == 2)
        #expect(ring.entry(pts: 1) == nil)
    }
}
