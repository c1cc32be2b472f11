// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// The times of one encode's pictures and sound, moved into a pipeline that publishes them and
/// started later (an RTSP viewer's media, a WHIP connection): it starts on a keyframe, where its
/// clock was when that keyframe went in, and keeps the encoder's spacing.
///
/// Stamped as they came out of the tap instead (appsrc's do-timestamp), pictures 33 ms apart
/// reached viewers 0 to 170 ms apart on a loaded machine, the sound likewise: a viewer played
/// them unevenly, and recorded them so.
public struct FeedTimeline: Sendable {
    /// The running time of the first keyframe in the encoding pipeline, and the publishing
    /// pipeline's running time when it went in.
    private var origin: (encoder: UInt64, media: UInt64)?
    /// Until a keyframe has gone in, the pictures wait (nobody can start on a delta) and so does
    /// the sound.
    public private(set) var waitingForKeyframe = true

    public init() {}

    /// Pushes `sample` (`isVideo`: a picture, else sound) into `feed` with its time moved, or
    /// leaves it out (a delta before the first keyframe, sound from before it). Returns false
    /// when the feed no longer takes data.
    public mutating func push(_ sample: EncodedSample, into feed: SampleFeed, isVideo: Bool) -> Bool {
        if waitingForKeyframe {
            guard isVideo, sample.isKeyframe else { return true }
            waitingForKeyframe = false
        }
        guard let time = sample.time, let running = sample.runningTime else { return true }
        let origin = self.origin ?? (encoder: running, media: feed.runningTime ?? 0)
        self.origin = origin
        // Sound from before the first picture has no place in this media.
        guard running >= origin.encoder else { return true }
        // Out goes running - origin.encoder + origin.media, from times whose segments differ
        // (x264enc's run 1000 hours ahead of the sound's): time - from + to, both kept at zero or more.
        let from = Int64(time) - Int64(running) + Int64(origin.encoder)
        return feed.push(sample, timeOrigin: UInt64(max(from, 0)), start: origin.media + UInt64(max(-from, 0)))
    }

    /// Starts again: the next media begins on the next keyframe.
    public mutating func reset() {
        origin = nil
        waitingForKeyframe = true
    }
}
