// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
@testable import Presets

/// The clip's own timecode (`Timecode`): SMPTE drop-frame counting, where it starts, and the
/// values of a damaged file that are left out rather than shown.
@Suite struct TimecodeTests {
    /// Frames from 00:00:00:00 to `text` (as `init(parsing:)` reads it).
    func count(_ text: String, rate: Double) -> Int? { Timecode(parsing: text, rate: rate)?.start }

    @Test func dropFrameSkipsTwoNumbersAMinuteButEachTenthAt2997() throws {
        let drop = try #require(
            Timecode(start: 0, framesPerSecond: 30, dropFrame: true, wrapsAt24Hours: true, rate: 30000.0 / 1001))
        // 00:00:59;29 is frame 1799; the next is 00:01:00;02 (;00 and ;01 are dropped).
        #expect(drop.label(count: 1799) == "00:00:59;29")
        #expect(drop.label(count: 1800) == "00:01:00;02")
        #expect(drop.label(count: 1801) == "00:01:00;03")
        // ... but not at each tenth minute: 00:09:59;29 is followed by 00:10:00;00.
        #expect(drop.label(count: 17981) == "00:09:59;29")
        #expect(drop.label(count: 17982) == "00:10:00;00")
        #expect(drop.label(count: 17983) == "00:10:00;01")
        #expect(drop.label(count: 17982 + 1799) == "00:10:59;29")
        #expect(drop.label(count: 17982 + 1800) == "00:11:00;02")
        // An hour of 29.97 footage is 107892 frames, and is labelled one hour.
        #expect(drop.label(count: 107_892) == "01:00:00;00")
        // Read back: the labels are the counts.
        #expect(count("00:01:00;02", rate: 30000.0 / 1001) == 1800)
        #expect(count("00:10:00;00", rate: 30000.0 / 1001) == 17982)
        #expect(count("01:02:03;04", rate: 30000.0 / 1001) == 111_582)
        #expect(drop.label(count: 111_582) == "01:02:03;04")
        // A dropped number is no frame's label.
        #expect(count("00:01:00;01", rate: 30000.0 / 1001) == nil)
    }

    @Test func dropFrameSkipsFourNumbersAt5994() throws {
        let drop = try #require(
            Timecode(start: 0, framesPerSecond: 60, dropFrame: true, wrapsAt24Hours: true, rate: 60000.0 / 1001))
        #expect(drop.label(count: 3599) == "00:00:59;59")
        #expect(drop.label(count: 3600) == "00:01:00;04")
        #expect(drop.label(count: 35964) == "00:10:00;00")
        #expect(count("00:01:00;04", rate: 60000.0 / 1001) == 3600)
    }

    @Test func nonDropFrameCountsEveryNumber() throws {
        #expect(count("01:02:03:04", rate: 25) == (3723 * 25 + 4))
        let code = try #require(Timecode(parsing: "01:02:03:04", rate: 25))
        #expect(code.label(videoFrame: 0, videoRate: 25) == "01:02:03:04")
        #expect(code.label(videoFrame: 21, videoRate: 25) == "01:02:04:00")
        // 29.97 without drop-frame counts 30 numbers a second.
        let ntsc = try #require(Timecode(parsing: "00:59:59:29", rate: 30000.0 / 1001))
        #expect(ntsc.label(videoFrame: 1, videoRate: 30000.0 / 1001) == "01:00:00:00")
    }

    @Test func theCountFollowsTheTimeWhenTheVideoRunsAtAnotherRate() throws {
        // 59.94 fps video under a 29.97 timecode: two frames a number.
        let code = try #require(
            Timecode(start: 0, framesPerSecond: 30, dropFrame: false, wrapsAt24Hours: true, rate: 30000.0 / 1001))
        #expect(
            (0..<6).map { code.label(videoFrame: $0, videoRate: 60000.0 / 1001) }
                == ["00:00:00:00", "00:00:00:00", "00:00:00:01", "00:00:00:01", "00:00:00:02", "00:00:00:02"])
        // Rates a rounding apart are the same rate: the count goes a frame a frame.
        #expect(code.label(videoFrame: 1000, videoRate: 29.97) == "00:00:33:10")
    }

    @Test func theDayWrapsOnlyWhenTheTimecodeSaysSo() throws {
        let last = 24 * 3600 * 25 - 1
        let wrapping = try #require(Timecode(start: last, framesPerSecond: 25, dropFrame: false, wrapsAt24Hours: true))
        #expect(wrapping.label(videoFrame: 0, videoRate: 25) == "23:59:59:24")
        #expect(wrapping.label(videoFrame: 1, videoRate: 25) == "00:00:00:00")
        let running = try #require(Timecode(start: last, framesPerSecond: 25, dropFrame: false, wrapsAt24Hours: false))
        #expect(running.label(videoFrame: 1, videoRate: 25) == "24:00:00:00")
    }

    @Test func hostileValuesAreLeftOut() {
        // A rate of 0 or 255 and more, a start of a day or more, drop-frame at 25, a rate that is not the count's.
        #expect(Timecode(start: 0, framesPerSecond: 0, dropFrame: false, wrapsAt24Hours: true) == nil)
        #expect(Timecode(start: 0, framesPerSecond: 255, dropFrame: false, wrapsAt24Hours: true) == nil)
        #expect(Timecode(start: 24 * 3600 * 25, framesPerSecond: 25, dropFrame: false, wrapsAt24Hours: true) == nil)
        #expect(Timecode(start: -1, framesPerSecond: 25, dropFrame: false, wrapsAt24Hours: true) == nil)
        #expect(Timecode(start: Int(UInt32.max), framesPerSecond: 30, dropFrame: true, wrapsAt24Hours: true) == nil)
        #expect(Timecode(start: 0, framesPerSecond: 25, dropFrame: true, wrapsAt24Hours: true) == nil)
        #expect(Timecode(start: 0, framesPerSecond: 25, dropFrame: false, wrapsAt24Hours: true, rate: 50) == nil)
        #expect(Timecode(start: 0, framesPerSecond: 25, dropFrame: false, wrapsAt24Hours: true, rate: .nan) == nil)
        // Tags that are no timecode at their clip's rate.
        for text in [
            "24:00:00:00", "01:60:00:00", "01:02:03:25", "1:02:03:04", "01:02:03:04:05", "+1:02:03:04",
            "01-02-03-04", "", "01:02:03;04",
        ] {
            #expect(Timecode(parsing: text, rate: 25) == nil, "\(text)")
        }
        #expect(Timecode(parsing: "01:02:03:04", rate: 0) == nil)
        #expect(Timecode(parsing: "01:02:03:04", rate: .infinity) == nil)
        #expect(Timecode(parsing: "01:02:03:04", rate: 300) == nil)
    }

    @Test func aClipsTimecodeIsWhereTheTemplateStarts() throws {
        var context = TemplateContext(hostname: "h", frame: 0, fps: 25)
        context.timecode = Timecode(parsing: "01:02:03:04", rate: 25)
        let template = try Template("[{timecode}]", variables: [])
        #expect(template.expand(context, escapingMarkup: false) == "[01:02:03:04]")
        context.frame = 46
        #expect(template.expand(context, escapingMarkup: false) == "[01:02:05:00]")
        context.timecode = nil
        #expect(template.expand(context, escapingMarkup: false) == "[00:00:01:21]")
        #expect(template.showsTimecode)
        #expect(try !Template("{time} {frame}", variables: []).showsTimecode)
    }
}
