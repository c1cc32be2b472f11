// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import Media
import Presets

/// The camera's last few frames as the viewfinder showed them (cropped, turned, mirrored and
/// marked: each is the photo it would make), so that a shot is the frame on screen when the
/// shutter was pressed, not the next one (zero shutter lag). Bounded in frames and in bytes.
final class FrameRing: @unchecked Sendable {
    struct Entry {
        let frame: VideoFrame
        /// The camera loop's frame number (`{frame}` in the marks).
        let number: Int
        /// Its presentation time, which the viewfinder's JPEG parts carry through the encoder.
        let pts: UInt64?
        /// When the frame reached camstamp from the camera.
        let captured: ContinuousClock.Instant
        /// Its wall-clock time, as the viewfinder's `X-Timestamp` says it.
        let capturedWall: Date
        /// The settings' version it was made with (`CameraSession.version`).
        let version: Int
        /// Where the camera was (the marks' `{lat}`…), for the photo's EXIF.
        let geotag: GeoFix?
        /// When its part left for the page's viewers (nil until then, or with no page).
        var shown: ContinuousClock.Instant?
    }

    /// At most this many frames: at 30 fps, 267 ms of them, three times the viewfinder's delay.
    static let maxFrames = 8
    /// And at most this many bytes (8 frames of 1080p I420 are 24.9 MB; at 4K fewer are kept).
    static let maxBytes = 64 << 20

    private let lock = NSLock()
    private var entries: [Entry] = []

    /// How many frames of `bytes` each the ring keeps: at least two.
    static func capacity(frameBytes: Int) -> Int {
        max(2, min(maxFrames, maxBytes / max(frameBytes, 1)))
    }

    /// Keeps `frame` (already marked, not to be written to again) as the newest.
    func keep(
        _ frame: VideoFrame, number: Int, version: Int, captured: ContinuousClock.Instant, wall: Date,
        geotag: GeoFix? = nil
    ) {
        let capacity = Self.capacity(frameBytes: frame.byteCount)
        lock.withLock {
            entries.append(
                Entry(
                    frame: frame, number: number, pts: frame.presentationTime, captured: captured,
                    capturedWall: wall, version: version, geotag: geotag))
            if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
        }
    }

    /// Frame `number`'s part left for the viewers at `time`.
    func markShown(number: Int, at time: ContinuousClock.Instant) {
        lock.withLock {
            guard let index = entries.lastIndex(where: { $0.number == number }) else { return }
            if entries[index].shown == nil { entries[index].shown = time }
        }
    }

    /// The frame on screen at `time`, made with settings of at least `version`: the newest one
    /// shown by then; with nothing shown (no page, only a window, which shows a frame as it is
    /// pushed), the newest one captured by then. A press older than every frame kept (or than
    /// its settings' first frame) gets the oldest that qualifies. Nil only when empty.
    func frame(at time: ContinuousClock.Instant, version: Int) -> Entry? {
        lock.withLock {
            let usable = entries.filter { $0.version >= version }
            guard !usable.isEmpty else { return entries.last }
            if usable.contains(where: { $0.shown != nil }),
                let shown = usable.last(where: { ($0.shown.map { $0 <= time }) ?? false })
            {
                return shown
            }
            return usable.last { $0.captured <= time } ?? usable.first
        }
    }

    /// The frame with presentation time `pts`, while it is kept (for the viewfinder's headers).
    func entry(pts: UInt64) -> Entry? { lock.withLock { entries.last { $0.pts == pts } } }

    var count: Int { lock.withLock { entries.count } }

    func removeAll() { lock.withLock { entries.removeAll() } }
}
