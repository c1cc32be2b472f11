// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import Media

/// The stream watched to its end, and ended: the loop, then the finish.
extension StreamJob {
    /// Watches the stream until its end, `--duration`, an interrupt or a failure, printing the SDP
    /// and the progress line. A broken output is thrown at once (abandoned); any other failure
    /// ends the loop in `Ending.failure`, so what was recorded is still finalised.
    func loop(_ session: Session, interrupts: Interrupts?, report: JobOutput) throws(CamStampError) -> Ending {
        var ending = Ending()
        // --duration is also a hard stop in wall time: a source slower than real time (or frames
        // too large to make in time) would otherwise stretch a 10-second stream to minutes.
        let wallLimit = options.duration.map { Duration.nanoseconds(Int64($0 * 1e9)) }
        var sdpPrinted = false
        while true {
            if interrupts?.isRequested == true {
                ending.interrupted = true
                return ending
            }
            let state = session.counts.withLock { $0 }
            if state.ended { return ending }
            if let wallLimit {
                let now = ContinuousClock.now
                if let firstFrameAt = state.firstFrameAt, now - firstFrameAt >= wallLimit { return ending }
                if state.firstFrameAt == nil, now - session.started >= wallLimit + Self.startupAllowance {
                    ending.failure = .failure("capture: no frame from the source within \(Self.startupAllowance)")
                    return ending
                }
            }
            if let failure = session.stream.failure {
                ending.failure = markFailure(failure)
                return ending
            }
            switch session.stream.poll(timeout: .milliseconds(100)) {
            case .endOfStream?:
                ending.finished = true
                return ending
            case .error(let error)?:
                if try endsLoop(on: error, session, &ending) { return ending }
                continue
            case nil:
                break
            }
            // A recording takes its name once a frame of it is on disk: a hard kill from then on
            // leaves a playable file there, one before leaves no frameless file in its place. Only
            // once a picture was written: the sound's first buffer alone (a publishing stream has
            // sound) is no recording.
            if session.counts.withLock({ $0.written }) > 0 {
                try session.recordings.placeThoseWithAFrame(stream: session.stream)
            }
            if !sdpPrinted, rtpTarget != nil, let sdp = sessionDescription(session) {
                sdpPrinted = true
                do { try publish(sdp: sdp, report: report) } catch {
                    ending.failure = error
                    return ending
                }
            }
            showProgress(session, state)
        }
    }

    /// What a pipeline error does to the loop: false to go on (one target of several isolated
    /// while others remain), true to end it with `ending`; a broken output is thrown.
    private func endsLoop(
        on error: MediaError, _ session: Session, _ ending: inout Ending
    ) throws(CamStampError) -> Bool {
        // A frame refused by the marks explains what the encoder said of it.
        if let failure = session.stream.failure {
            ending.failure = markFailure(failure)
            return true
        }
        if session.stream.isCapture(error) {
            ending.failure = session.capture.failure(error)
            return true
        }
        // One target of several that cannot be written (a full disk) is isolated (its
        // branch drops what comes, `isolateFailedBranches`) and the others go on, until every one
        // is gone.
        if options.targets.count > 1, let target = failedTarget(error, session.output),
            session.stream.hasIsolated(branchWith: session.output.sink(of: target))
        {
            if !ending.isolated.contains(where: { $0.target == target }) {
                ending.isolated.append((target, error))
            }
            if ending.isolated.count < options.targets.count { return false }
        }
        // Otherwise its error went up through the tee and stopped the encode for every
        // target, and the end follows the error down to the others: they are
        // finalised, and it alone is named.
        if options.targets.count > 1,
            let target = failedTarget(error, session.output) ?? ending.isolated.first?.target
        {
            ending.failure =
                lostFailure(ending.isolated, session.output) ?? outputFailure(error, session.output)
            ending.lostTarget = target
            return true
        }
        throw outputFailure(error, session.output)
    }

    /// The progress line for `state`.
    private func showProgress(_ session: Session, _ state: Counts.State) {
        // fps as achieved (frames written over wall time), as ffmpeg reports it.
        let elapsed = (ContinuousClock.now - session.started) / .seconds(1)
        let achieved = elapsed > 0.5 ? Double(state.written) / elapsed : 1e9 / Double(state.frameDuration)
        session.progress.update(
            "frame=\(state.written) fps=\(String(format: "%.1f", achieved)) dropped=\(state.dropped) "
                + "time=\(clockText(seconds: Double(state.lastTime) / 1e9, fraction: true))",
            record: ProgressRecord(
                elapsed: ProgressRecord.rounded(elapsed), frame: state.written,
                fps: ProgressRecord.rounded(min(achieved, 1000)), dropped: state.dropped,
                time: ProgressRecord.rounded(Double(state.lastTime) / 1e9)))
    }

    /// A failure of the marks (or of a format they refused), as the job says it.
    func markFailure(_ error: Error) -> CamStampError {
        error as? CamStampError ?? .failure("mark: \(error)")
    }

    /// A failure of the pipeline, worded for the side it came from.
    func failure(_ error: MediaError, _ session: Session) -> CamStampError {
        session.stream.isCapture(error) ? session.capture.failure(error) : outputFailure(error, session.output)
    }

    /// Ends the stream: EOS through the encoder and muxers (MP4 gets its index, MKV its cues), the
    /// snapshots written, then the summary, or the failure that ended the loop.
    func finish(_ session: Session, _ ending: Ending, report: JobOutput) throws(CamStampError) -> Summary {
        session.progress.finish()
        if !ending.finished {
            // Idle taps first: a sound that ends before its encoder made anything leaves the
            // muxers' sound pads without caps, and its end must not reach an idle tap's muxer.
            session.publishing?.endIdleTaps()
            session.publishing?.endSound()
            // What the lost target set off (its muxer's and the queues' "Internal data stream
            // error") is ignored; another target failing is not.
            if let lost = ending.lostTarget {
                session.stream.endBranches(of: StreamOutput.videoTee, afterLosing: session.output.sink(of: lost))
            }
            // The targets isolated get no end from upstream: their sinks are ended by hand.
            for lost in ending.isolated where lost.target != ending.lostTarget {
                // A file's sink ends (its muxer's error left it as it was); hlssink2 takes no end
                // after a write error, and is taken out.
                let sink = session.output.sink(of: lost.target)
                if case .hls = lost.target {
                    session.stream.removeSink(named: sink)
                } else {
                    session.stream.endSink(named: sink)
                }
            }
            let isKnown = { [self] (error: MediaError) in
                let target = failedTarget(error, session.output)
                if let target, ending.isolated.contains(where: { $0.target == target }) { return true }
                return ending.lostTarget != nil && (target.map { $0 == ending.lostTarget } ?? true)
            }
            do { try session.stream.finish(timeout: Self.finishGrace, ignoringErrors: isKnown) } catch {
                throw ending.failure ?? lostFailure(ending.isolated, session.output)
                    ?? outputFailure(error, session.output)
            }
        }
        session.publishing?.finish()
        session.snapshotWriter?.waitUntilDone()
        let state = session.counts.withLock { $0 }
        let elapsed = (ContinuousClock.now - session.started) / .seconds(1)
        session.progress.end(
            ProgressRecord(
                elapsed: ProgressRecord.rounded(elapsed), frame: state.written,
                fps: ProgressRecord.rounded(elapsed > 0 ? Double(state.written) / elapsed : 0), dropped: state.dropped,
                time: ProgressRecord.rounded(Double(state.lastTime) / 1e9)))
        if let failure = ending.failure { throw failure }
        // A file finalised after its frames takes its name now (one that never got a picture, as
        // on a Ctrl-C before the first, is removed, whatever sound it holds).
        try session.recordings.settle(
            stream: state.written > 0 ? session.stream : nil, finishedWithFrames: state.written > 0)
        if state.written > 0 { try keepSoundEdit(session.soundEdit) }
        let summary = Summary(
            framesWritten: state.written, framesDropped: state.dropped, duration: Double(state.lastTime) / 1e9,
            snapshots: session.snapshotWriter?.written ?? [], outages: session.publishing?.outages ?? [])
        if options.json { report.result(jsonSummary(summary, interrupted: ending.interrupted)) }
        // The others are recorded and placed; the target isolated is the news (exit 1).
        if let lost = lostFailure(ending.isolated, session.output) { throw lost }
        if ending.interrupted { throw .init(.interrupted, summaryLine(summary)) }
        if let unreached = nothingDelivered(summary) { throw .failure(unreached) }
        return summary
    }
}
