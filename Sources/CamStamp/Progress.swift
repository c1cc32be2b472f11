import Foundation

/// One `\r`-redrawn status line on stderr when stderr is a terminal (and not `-q`); nothing otherwise.
final class ProgressLine {
    private let enabled = isatty(STDERR_FILENO) != 0 && !Verbosity.isQuiet
    private var lastDraw = ContinuousClock.now - .seconds(1)
    private var drawn = false

    /// Redraws at most every 0.25 s unless `force`.
    func update(_ text: @autoclosure () -> String, force: Bool = false) {
        guard enabled else { return }
        let now = ContinuousClock.now
        guard force || now - lastDraw >= .milliseconds(250) else { return }
        lastDraw = now
        drawn = true
        FileHandle.standardError.write(Data("\r\u{1B}[K\(text())".utf8))
    }

    /// Erases the line so a message can be printed in its place (it is redrawn on the next update).
    func clear() {
        guard enabled, drawn else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        drawn = false
    }

    /// Ends the line so later output starts on a fresh one.
    func finish() {
        guard enabled, drawn else { return }
        FileHandle.standardError.write(Data("\n".utf8))
        drawn = false
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
