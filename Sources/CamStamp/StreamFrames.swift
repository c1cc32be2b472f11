// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import Media

/// What the stream does with each frame: takes it or leaves it out, marks it, checks its format.
extension StreamJob {
    /// Which frames go to the encoder (on the capture's thread): none past `--duration`, and none
    /// while it is behind (counted as dropped). Each frame taken gets its number among all the
    /// frames seen, for `{frame}`.
    func admission(_ session: Session) -> LiveStream.Admit {
        let limit = options.duration.map { UInt64($0 * 1e9) }
        let counts = session.counts, sound = session.sound
        return { pts, encoderIsBehind in
            counts.withLock { state in
                // Until the microphone's first sound (or `soundWait`), pictures are not taken:
                // a recording starts with both, not with seconds of pictures and no sound.
                if state.firstFrameAt == nil, let sound, !sound.hasSent {
                    let since = state.soundAwaitedSince ?? .now
                    state.soundAwaitedSince = since
                    if ContinuousClock.now - since < StreamJob.soundWait { return false }
                }
                state.firstFrameAt = state.firstFrameAt ?? ContinuousClock.now
                let capturedAt = pts ?? 0
                let start = state.firstTime ?? capturedAt
                state.firstTime = start
                let time = capturedAt - min(start, capturedAt)
                if state.ended { return false }
                if let limit, time >= limit {
                    state.ended = true
                    return false
                }
                if encoderIsBehind {
                    state.dropped += 1
                    return false
                }
                state.numbers.append(state.taken + state.dropped)
                state.taken += 1
                // What is taken is encoded (the queue never drops), so the end of the video is
                // known here, before the frame waits for the encoder: `ending` cuts a file's
                // sound there.
                state.lastTime = time + state.frameDuration
                return true
            }
        }
    }

    /// What the marks do with each frame taken (on the encoder's thread): mark it, copy it for a
    /// snapshot asked for, count it written.
    func marking(_ session: Session, interrupts: Interrupts?) -> LiveStream.Mark {
        let counts = session.counts, marker = session.marker, snapshots = session.snapshotWriter
        return { frame, _, _ in
            let number = counts.withLock { state in state.numbers.isEmpty ? state.written : state.numbers.removeFirst()
            }
            let context = marker.context(
                width: frame.width, height: frame.height, captureDate: Date(), frame: number,
                fps: frame.framesPerSecond)
            do { try marker.mark(frame, context: context) } catch { return .fail(error) }
            if interrupts?.takeSnapshotRequest() == true, let snapshots { snapshots.write(frame.copy()) }
            counts.withLock { $0.written += 1 }
            return .pass
        }
    }

    /// Without --size the source picks the size (a video file's own): x264 would refuse an odd
    /// one with "Can not initialize x264 encoder". Asked of every format the capture settles on.
    func acceptsFrames(width: Int, height: Int) -> Error? {
        guard options.size == nil else { return nil }
        let size = FrameSize(width: width, height: height)
        do { try H264Limits.check(size: size, subject: "the source's \(size) frames", mp4: options.recordsMP4) } catch {
            return CamStampError.failure("capture: \(error.message); ask for that with --size")
        }
        return nil
    }
}
