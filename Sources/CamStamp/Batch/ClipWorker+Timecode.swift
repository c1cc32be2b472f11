// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import Media
import Presets

/// `{timecode}` on a clip: where it starts, and the label each frame carries into a MOV.
extension ClipWorker {
    /// Labels `frame` (number `index`) with the count `{timecode}` shows on it, for qtmux to write
    /// the marked MOV's timecode track from (qtmux takes the first frame's); false, with a note,
    /// when GStreamer cannot take it (a rate it has no timecode for, 48 at 47.952), after which no
    /// frame is labelled.
    static func label(
        _ frame: VideoFrame, index: Int, fps: Double?, with timecode: Timecode, notes: inout [String]
    ) -> Bool {
        let fields = timecode.fields(count: timecode.count(videoFrame: index, videoRate: fps))
        // A count that does not wrap runs on past 23:59:59, where GStreamer's timecodes stop: those
        // frames go unlabelled, and the track keeps the first frame's.
        guard fields.hours < 24 else { return true }
        do {
            try frame.setTimecode(
                hours: fields.hours, minutes: fields.minutes, seconds: fields.seconds, frames: fields.frames,
                rate: timecode.frameRate, dropFrame: timecode.dropFrame)
            return true
        } catch {
            notes.append(
                index == 0
                    ? "its timecode is not carried into the marked file: \(error)"
                    : "its frames from \(index) on carry no timecode of their own (the timecode track is kept): \(error)"
            )
            return false
        }
    }

    /// Why `{timecode}` does not start at `recorded` (a timecode that makes no sense) on video
    /// at `videoRate` frames a second.
    static func unusable(_ recorded: ClipTimecode, videoRate: Double?) -> String {
        switch recorded {
        case .track(let frame, let flags, let timescale, let frameDuration, let framesPerSecond):
            return
                "its timecode track makes no sense (frame \(frame), \(framesPerSecond) frames a second, \(timescale)/\(frameDuration), "
                + "flags \(flags)); {timecode} counts from 00:00:00:00"
        case .tag(let text):
            let rate = videoRate.map { String(format: " at %.2f frames a second", $0) } ?? " at an unknown frame rate"
            return "its TIMECODE tag '\(text)' is no timecode\(rate); {timecode} counts from 00:00:00:00"
        }
    }
}

extension Timecode {
    /// The timecode `clip` records, for video at `videoRate` frames a second; nil when its values
    /// make no sense (a damaged or hostile file: `{timecode}` then counts from 00:00:00:00).
    init?(_ clip: ClipTimecode, videoRate: Double?) {
        switch clip {
        case .track(let frame, let flags, let timescale, let frameDuration, let framesPerSecond):
            // 0x8: a counter track, whose samples count something else than frames.
            guard timescale > 0, frameDuration > 0, flags & 0x8 == 0 else { return nil }
            self.init(
                start: Int(frame), framesPerSecond: Int(framesPerSecond), dropFrame: flags & 0x1 != 0,
                wrapsAt24Hours: flags & 0x2 != 0, rate: Double(timescale) / Double(frameDuration))
        case .tag(let text):
            guard let videoRate else { return nil }
            self.init(parsing: text, rate: videoRate)
        }
    }
}
