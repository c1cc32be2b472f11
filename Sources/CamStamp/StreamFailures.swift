// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import Media

/// How a stream's failures are told apart and said, and its summary line.
extension StreamJob {
    /// When every target is a server camstamp calls (RTMP, an SRT caller, WHIP) and none ever answered,
    /// the stream reached nobody: that is a failure (exit 1), said as one, not a summary line.
    func nothingDelivered(_ summary: Summary) -> String? {
        let called = options.targets.allSatisfy { target in
            switch target {
            case .rtmp, .srt(_, _, listener: false), .whip: true
            default: false
            }
        }
        let unreached = summary.outages.filter { !$0.everConnected }
        guard called, unreached.count == options.targets.count else { return nil }
        let seconds = unreached.map(\.seconds).max() ?? 0
        return
            "\(unreached.map(\.target).joined(separator: ", ")): never connected in \(String(format: "%.1f", seconds)) s "
            + "(\(summary.framesWritten) frames encoded, none delivered); check that the server is running and the address is right"
    }

    /// A failure of the output, worded for a file that cannot be written (a full disk, a folder
    /// made read-only meanwhile); anything else as GStreamer said it.
    func outputFailure(_ error: Error, _ output: StreamOutput) -> CamStampError {
        // A sound source that cannot be opened is the --audio value's fault, said in its words.
        if case .device(let device)? = options.audio, let media = error as? MediaError,
            let reason = media.reason(ofElement: StreamOutput.soundSource)
        {
            return .failure(
                "--audio \(device): the sound source cannot be opened: \(reason) "
                    + "(PulseAudio sources: `pactl list short sources`; ALSA devices: `arecord -L`)")
        }
        let target = failedTarget(error, output) ?? (options.targets.count == 1 ? options.target : nil)
        switch target {
        case .file?:
            if let unwritable = CamStampError.unwritable(
                error, path: target!.description, what: "the recording", option: "--to")
            {
                return unwritable
            }
        case .hls?:
            if let unwritable = CamStampError.unwritable(
                error, path: target!.description, what: "the segments", option: "--to")
            {
                return unwritable
            }
        default:
            break
        }
        return .failure("\(target?.description ?? options.targetDescription): \(error)")
    }

    /// The targets isolated after they failed, said in one line: `x.mp4: cannot write the recording (the disk is
    /// full); …`, or for several `x.mp4, y.mkv: …` as the first said it; nil for none.
    func lostFailure(_ isolated: [(target: StreamTarget, error: Error)], _ output: StreamOutput) -> CamStampError? {
        guard let first = isolated.first else { return nil }
        var failure = outputFailure(first.error, output)
        let named = first.target.description + ": "
        if isolated.count > 1, failure.message.hasPrefix(named) {
            failure.message =
                isolated.map(\.target.description).joined(separator: ", ") + ": "
                + failure.message.dropFirst(named.count)
        }
        return failure
    }

    /// The target whose branch of `output` `error` came from, when it has one.
    func failedTarget(_ error: Error, _ output: StreamOutput) -> StreamTarget? {
        guard let error = error as? MediaError else { return nil }
        // An element taken out of the pipeline (`removeSink`) has no parents left in its path.
        let branch = output.branches.first { branch in
            branch.parts.contains { error.isInside(part: $0) || error.reason(ofElement: $0) != nil }
        }
        return branch?.target
    }

    /// `out.mp4: 90 frames, 0 dropped, 00:00:03.00`; a network target that was down says for how
    /// long: `; rtmp://h/live/key down 4.2 s, reconnected 1 time`.
    public func summaryLine(_ summary: Summary) -> String {
        var line =
            "\(options.targetDescription): \(summary.framesWritten) frames written, \(summary.framesDropped) dropped, \(clockText(seconds: summary.duration, fraction: true))"
        for outage in summary.outages {
            line +=
                "; \(outage.target) down \(String(format: "%.1f", outage.seconds)) s, "
                + (outage.everConnected
                    ? "reconnected \(outage.reconnections) time\(outage.reconnections == 1 ? "" : "s")"
                    : "never connected")
        }
        return line
    }
}
