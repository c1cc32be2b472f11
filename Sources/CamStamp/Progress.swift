import Foundation
import Synchronization

/// A job's one status line (`frame=240 fps=30 dropped=0 time=00:00:08`), given to its
/// `JobOutput`; none under `-q`. Where it is drawn, and whether at all, is the output's business.
final class ProgressLine: Sendable {
    private let enabled: Bool
    private let write: @Sendable (JobOutput.Event) -> Void
    private let state = Mutex((lastDraw: ContinuousClock.now - .seconds(1), drawn: false))

    init(enabled: Bool, write: @escaping @Sendable (JobOutput.Event) -> Void) {
        self.enabled = enabled
        self.write = write
    }

    /// Redraws at most every 0.25 s unless `force`.
    func update(_ text: @autoclosure () -> String, force: Bool = false) {
        guard enabled else { return }
        let due = state.withLock { state in
            let now = ContinuousClock.now
            guard force || now - state.lastDraw >= .milliseconds(250) else { return false }
            state = (now, true)
            return true
        }
        if due { write(.progress(text())) }
    }

    /// Erases the line so a message can be printed in its place (it is redrawn on the next update).
    func clear() {
        guard enabled, takeDrawn() else { return }
        write(.progressCleared)
    }

    /// Ends the line so later output starts on a fresh one.
    func finish() {
        guard enabled, takeDrawn() else { return }
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
