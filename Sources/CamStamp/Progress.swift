// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Synchronization

/// A job's one status line (`frame=240 fps=30 dropped=0 time=00:00:08`), given to its
/// `JobOutput`; none under `-q`. Where it is drawn, and whether at all, is the output's business.
/// With `json` (`--progress json`) the jobs' records are written instead, one JSON object a line
/// on stderr, whatever stderr is and under `-q` too: they were asked for by name.
final class ProgressLine: Sendable {
    private let enabled: Bool
    private let json: Bool
    private let write: @Sendable (JobOutput.Event) -> Void
    private let state = Mutex((lastDraw: ContinuousClock.now - .seconds(1), drawn: false))

    init(enabled: Bool, json: Bool = false, write: @escaping @Sendable (JobOutput.Event) -> Void) {
        self.enabled = enabled || json
        self.json = json
        self.write = write
    }

    /// Redraws at most every 0.25 s (a record every 0.5 s, as ffmpeg's -progress) unless `force`.
    func update(
        _ text: @autoclosure () -> String, record: @autoclosure () -> ProgressRecord? = nil,
        force: Bool = false
    ) {
        guard enabled else { return }
        let period: Duration = json ? .milliseconds(500) : .milliseconds(250)
        let due = state.withLock { state in
            let now = ContinuousClock.now
            guard force || now - state.lastDraw >= period else { return false }
            (state.lastDraw, state.drawn) = (now, true)
            return true
        }
        guard due else { return }
        guard json else { return write(.progress(text())) }
        guard let record = record() else { return }
        write(.diagnostic(record.line, .note))
    }

    /// The last record, with what the job ended with (`"progress": "end"`); nothing for the bar.
    func end(_ record: ProgressRecord) {
        guard json else { return }
        var last = record
        last.progress = "end"
        write(.diagnostic(last.line, .note))
    }

    /// Erases the line so a message can be printed in its place (it is redrawn on the next update).
    func clear() {
        guard enabled, !json, takeDrawn() else { return }
        write(.progressCleared)
    }

    /// Ends the line so later output starts on a fresh one (records end with `end`).
    func finish() {
        guard enabled, !json, takeDrawn() else { return }
        write(.progressEnded)
    }

    /// Whether the line is drawn now; it is not once the caller has erased or ended it.
    private func takeDrawn() -> Bool {
        state.withLock { state in
            defer { state.drawn = false }
            return state.drawn
        }
    }
}

/// `00:01:05.25` style durations.
func clockText(seconds: Double, fraction: Bool = false) -> String {
    // Whole hundredths first, so 2.9999 s shows as 00:00:03.00, not 00:00:02.99.
    let hundredths = Int((max(seconds, 0) * 100).rounded())
    let whole = hundredths / 100
    var text = String(format: "%02d:%02d:%02d", whole / 3600, whole / 60 % 60, whole % 60)
    if fraction { text += String(format: ".%02d", hundredths % 100) }
    return text
}

/// One `--progress json` line: `{"progress":"continue","done":12,"total":400,"rate":9.8,…}` for
/// a batch, `{"progress":"continue","frame":240,"fps":30,"dropped":0,"time":8,…}` for a stream.
/// The last one says `"end"`. Seconds are numbers, not clock text, for scripts.
package struct ProgressRecord: Encodable, Sendable, Equatable {
    /// `continue`, then `end` on the last line (ffmpeg's -progress words).
    var progress = "continue"
    /// Seconds since the job started.
    var elapsed: Double
    /// Batch: files done (marked, failed, skipped or existing) of `total`, files per second, and
    /// the seconds still to go at that rate.
    var done: Int?, total: Int?, rate: Double?, eta: Double?
    /// Stream: frames written and dropped, frames per second as achieved, seconds of video.
    var frame: Int?, fps: Double?, dropped: Int?, time: Double?

    var line: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// Hundredths: a rate of 9.833333 says no more than 9.83.
    static func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }
}
