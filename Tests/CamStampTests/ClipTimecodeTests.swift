// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
@testable import CamStamp
import Media
import Presets

/// What a clip's recorded timecode becomes for `{timecode}`: its track's fields taken as they
/// say, and hostile ones (a rate of 0 or 255, no timescale, past a day, a counter) left out.
@Suite struct ClipTimecodeTemplateTests {
    func track(
        frame: UInt32 = 93079, flags: UInt32 = 0, timescale: UInt32 = 12800, duration: UInt32 = 512, count: UInt8 = 25
    ) -> ClipTimecode {
        .track(frame: frame, flags: flags, timescale: timescale, frameDuration: duration, framesPerSecond: count)
    }

    @Test func aTrackIsTakenAsItSays() throws {
        let code = try #require(Timecode(track(), videoRate: 25))
        #expect(code.label(videoFrame: 0, videoRate: 25) == "01:02:03:04")
        #expect(code.dropFrame == false && code.wrapsAt24Hours == false)
        let drop = try #require(
            Timecode(
                track(frame: 1798, flags: 3, timescale: 30000, duration: 1001, count: 30), videoRate: 30000.0 / 1001))
        #expect(drop.dropFrame && drop.wrapsAt24Hours)
        #expect(
            (0..<3).map { drop.label(videoFrame: $0, videoRate: 30000.0 / 1001) } == [
                "00:00:59;28", "00:00:59;29", "00:01:00;02",
            ])
        // A tag's rate is the video's.
        #expect(Timecode(.tag("01:02:03:04"), videoRate: 25)?.start == 93079)
        #expect(Timecode(.tag("01:02:03:04"), videoRate: nil) == nil)
    }

    @Test func hostileTracksAreLeftOut() {
        #expect(Timecode(track(count: 0), videoRate: 25) == nil)
        #expect(Timecode(track(count: 255), videoRate: 25) == nil)
        #expect(Timecode(track(timescale: 0), videoRate: 25) == nil)
        #expect(Timecode(track(duration: 0), videoRate: 25) == nil)
        #expect(Timecode(track(frame: UInt32(24 * 3600 * 25)), videoRate: 25) == nil)
        #expect(Timecode(track(frame: .max), videoRate: 25) == nil)
        #expect(Timecode(track(flags: 1), videoRate: 25) == nil)
        #expect(Timecode(track(flags: 8), videoRate: 25) == nil)
        #expect(Timecode(track(timescale: 1, duration: .max), videoRate: 25) == nil)
    }

    /// The timecode a frame carries into the marked MOV is the one `{timecode}` shows on it, at
    /// the rate its track states (30000/1001 for 29.97, drop-frame or not).
    @Test func aFramesTimecodeFieldsAreItsLabel() throws {
        let drop = try #require(
            Timecode(
                track(frame: 1798, flags: 3, timescale: 30000, duration: 1001, count: 30), videoRate: 30000.0 / 1001))
        for index in 0..<40 {
            let fields = drop.fields(count: drop.count(videoFrame: index, videoRate: 30000.0 / 1001))
            #expect(
                String(format: "%02d:%02d:%02d;%02d", fields.hours, fields.minutes, fields.seconds, fields.frames)
                    == drop.label(videoFrame: index, videoRate: 30000.0 / 1001))
        }
        #expect(drop.frameRate == (30000, 1001))
        #expect(try #require(Timecode(track(), videoRate: 25)).frameRate == (25, 1))
        #expect(
            try #require(Timecode(track(timescale: 24000, duration: 1001, count: 24), videoRate: 24000.0 / 1001))
                .frameRate == (24000, 1001))
        #expect(
            try #require(Timecode(track(timescale: 2997, duration: 100, count: 30), videoRate: 29.97)).frameRate == (
                30000, 1001
            ))
        #expect(
            try #require(Timecode(track(timescale: 30, duration: 1, count: 30), videoRate: 30)).frameRate == (30, 1))
    }
}
