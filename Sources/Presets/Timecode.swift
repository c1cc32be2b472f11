// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// A clip's own SMPTE timecode: the count its first frame carries and how the count runs, so that
/// `{timecode}` labels each frame as the camera or editor did. Built only from values that make
/// sense (a damaged file's timecode is left out, not shown wrong).
public struct Timecode: Hashable, Sendable {
    /// Frame numbers a second (30 for 29.97 footage), 1 to 254.
    public let framesPerSecond: Int
    /// Whether frame numbers are dropped to follow the clock at 29.97 and 59.94: the first
    /// `framesPerSecond / 15` of every minute but each tenth.
    public let dropFrame: Bool
    /// Whether the count goes back to 00:00:00:00 after 23:59:59 (QuickTime's "24 hour max").
    public let wrapsAt24Hours: Bool
    /// The first frame's count: frames from 00:00:00:00, dropped numbers not counted.
    public let start: Int
    /// Frames a second of the footage the count labels (29.97), when known.
    public let rate: Double?

    /// A timecode counting from `start` frames; nil when `framesPerSecond` is outside 1…254, a
    /// drop-frame count is not at a multiple of 30 a second, `start` is negative or a day or
    /// more, or `rate` is not within a frame of `framesPerSecond`.
    public init?(start: Int, framesPerSecond: Int, dropFrame: Bool, wrapsAt24Hours: Bool, rate: Double? = nil) {
        guard (1...254).contains(framesPerSecond), !dropFrame || framesPerSecond % 30 == 0 else { return nil }
        if let rate { guard rate.isFinite, abs(rate - Double(framesPerSecond)) < 1 else { return nil } }
        self.framesPerSecond = framesPerSecond
        self.dropFrame = dropFrame
        self.wrapsAt24Hours = wrapsAt24Hours
        self.rate = rate
        self.start = start
        guard (0..<framesPerDay).contains(start) else { return nil }
    }

    /// The timecode a `TIMECODE` tag writes (`01:02:03:04`; `;` or `.` before the frames for
    /// drop-frame, as ffmpeg reads it) for footage at `rate` frames a second; nil when it is
    /// not a timecode at that rate.
    public init?(parsing text: String, rate: Double) {
        guard rate.isFinite, rate > 0, rate < 255 else { return nil }
        let characters = Array(text)
        guard characters.count == 11, characters[2] == ":", characters[5] == ":",
            [":", ";", "."].contains(characters[8])
        else { return nil }
        func field(_ at: Int) -> Int? {
            characters[at...(at + 1)].allSatisfy { $0.isASCII && $0.isNumber }
                ? Int(String(characters[at...(at + 1)])) : nil
        }
        guard let hours = field(0), let minutes = field(3), let seconds = field(6), let frames = field(9),
            hours < 24, minutes < 60, seconds < 60
        else { return nil }
        let perSecond = Int(rate.rounded())
        let dropFrame = characters[8] != ":"
        guard frames < perSecond else { return nil }
        let dropped = dropFrame ? perSecond / 15 : 0
        // A dropped number (00:01:00;00 at 29.97) is no frame's label.
        if dropped > 0, seconds == 0, minutes % 10 != 0, frames < dropped { return nil }
        let allMinutes = hours * 60 + minutes
        let count = (allMinutes * 60 + seconds) * perSecond + frames - dropped * (allMinutes - allMinutes / 10)
        self.init(start: count, framesPerSecond: perSecond, dropFrame: dropFrame, wrapsAt24Hours: true, rate: rate)
    }

    /// Numbers dropped at each minute but the tenth.
    private var dropped: Int { dropFrame ? framesPerSecond / 15 : 0 }

    /// Frames from 00:00:00:00 to 24:00:00:00.
    private var framesPerDay: Int { 24 * 6 * (framesPerSecond * 600 - dropped * 9) }

    /// The label of the frame `count` frames from 00:00:00:00: `HH:MM:SS:FF`, `HH:MM:SS;FF` for
    /// drop-frame (SMPTE 12M: the frame numbers 0 and 1, or 0 to 3 at 60, are skipped at the
    /// start of each minute but every tenth).
    public func label(count: Int) -> String {
        Self.clock(number(count: count), framesPerSecond: framesPerSecond, dropFrame: dropFrame)
    }

    /// The hours, minutes, seconds and frame number of the frame `count` frames from 00:00:00:00,
    /// as `label(count:)` writes them (hours past 23 only for a count that does not wrap).
    public func fields(count: Int) -> (hours: Int, minutes: Int, seconds: Int, frames: Int) {
        let number = number(count: count), seconds = number / framesPerSecond
        return (seconds / 3600, seconds / 60 % 60, seconds % 60, number % framesPerSecond)
    }

    /// The frame number (dropped numbers counted) of the frame `count` frames from 00:00:00:00.
    private func number(count: Int) -> Int {
        var count = max(0, count)
        if wrapsAt24Hours { count %= framesPerDay }
        if dropFrame {
            let perTenMinutes = framesPerSecond * 600 - dropped * 9, perMinute = framesPerSecond * 60 - dropped
            let tens = count / perTenMinutes, rest = count % perTenMinutes
            count += dropped * 9 * tens + (rest > dropped ? dropped * ((rest - dropped) / perMinute) : 0)
        }
        return count
    }

    /// `HH:MM:SS:FF` (`;` before the frames for drop-frame) of frame number `count` (dropped
    /// numbers counted) at `framesPerSecond`.
    static func clock(_ count: Int, framesPerSecond: Int, dropFrame: Bool) -> String {
        let seconds = count / framesPerSecond
        return String(format: "%02d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60)
            + (dropFrame ? ";" : ":") + String(format: "%02d", count % framesPerSecond)
    }

    /// The label of video frame `index` (from 0) of footage at `videoRate` frames a second: the
    /// count advances a frame a frame, or by the time passed when the footage runs at another
    /// rate than the count (59.94 fps under a 29.97 timecode).
    public func label(videoFrame index: Int, videoRate: Double?) -> String {
        label(count: count(videoFrame: index, videoRate: videoRate))
    }

    /// The count (frames from 00:00:00:00) of video frame `index` (from 0) of footage at
    /// `videoRate` frames a second, which `label(videoFrame:videoRate:)` writes.
    public func count(videoFrame index: Int, videoRate: Double?) -> Int {
        guard let rate, let videoRate, videoRate > 0, abs(rate / videoRate - 1) >= 0.01 else {
            return start + max(0, index)
        }
        let passed = (Double(max(0, index)) * rate / videoRate + 1e-6).rounded(.down)
        return start + Int(min(passed, 1e15))
    }

    /// The count's rate as a fraction, as a timecode track states it: 30000/1001 for drop-frame
    /// and for a count that labels footage at 29.97 (23.976, 59.94), else whole frames a second.
    public var frameRate: (numerator: Int, denominator: Int) {
        let ntsc = Double(framesPerSecond) * 1000 / 1001
        if dropFrame || rate.map({ abs($0 - ntsc) < abs($0 - Double(framesPerSecond)) }) == true {
            return (framesPerSecond * 1000, 1001)
        }
        return (framesPerSecond, 1)
    }
}
