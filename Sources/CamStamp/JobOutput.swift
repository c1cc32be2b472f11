// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Synchronization

/// Where a job's words go. Shoot, batch, stream and camera all report through one: results
/// (stdout), diagnostics (stderr) and one progress line, with the verbosity applied here, once,
/// for every job.
public struct JobOutput: Sendable {
    /// What a job says, once the verbosity has let it through.
    public enum Event: Sendable, Equatable {
        /// A result: a path written, the viewfinder's address, an SDP, a JSON line (stdout).
        case result(String)
        /// A line for stderr as it is printed: an error, a warning, a note or a summary.
        case diagnostic(String, Severity)
        /// The progress line's new text (`12/400 photos · 9.8/s · ETA 0:40`), drawn in place.
        case progress(String)
        /// The progress line erased, so that a line can be printed where it was.
        case progressCleared
        /// The progress line is done: what follows starts on a fresh line.
        case progressEnded
    }

    /// How much a diagnostic matters, and so whether `.quiet` keeps it.
    public enum Severity: Sendable, Equatable {
        /// A failure: always said.
        case error
        /// Done, but not quite as asked (a damaged photo stamped as far as it decodes, a file skipped).
        case warning
        /// Information: a summary, what a key did, what was kept after Ctrl-C.
        case note
    }

    /// How much is said: `.quiet` keeps errors only (and results, when `keepsResults`).
    public let verbosity: Verbosity
    /// The results were asked for by name (`--json`): they are printed even under `.quiet`.
    public let keepsResults: Bool
    /// Where what passes goes, unfiltered.
    public let write: @Sendable (Event) -> Void
    /// The one progress line of this output, drawn at most four times a second.
    let progress: ProgressLine

    /// An output that gives what `verbosity` lets through to `write`. With `progressJSON`
    /// (`--progress json`) the progress is JSON lines, as `.note` diagnostics, even when quiet.
    public init(
        verbosity: Verbosity = .current, keepsResults: Bool = false, progressJSON: Bool = false,
        write: @escaping @Sendable (Event) -> Void
    ) {
        self.verbosity = verbosity
        self.keepsResults = keepsResults
        self.write = write
        progress = ProgressLine(enabled: verbosity != .quiet, json: progressJSON, write: write)
    }

    /// stdout and stderr; the progress line only when stderr is a terminal, erased before any
    /// other line is printed on the terminal; `--progress json` lines whatever stderr is.
    public static func standard(
        verbosity: Verbosity = .current, keepsResults: Bool = false,
        progressJSON: Bool = false
    ) -> JobOutput {
        let streams = StandardStreams()
        return JobOutput(
            verbosity: verbosity, keepsResults: keepsResults, progressJSON: progressJSON,
            write: { streams.write($0) })
    }

    /// Says nothing: for a caller that wants only what `run` returns.
    public static var silent: JobOutput { JobOutput(verbosity: .quiet, write: { _ in }) }

    /// A result line, unless quiet and not asked for by name.
    public func result(_ line: String) {
        guard verbosity != .quiet || keepsResults else { return }
        write(.result(line))
    }

    /// A result printed whatever the verbosity: what the job cannot be used without (the
    /// viewfinder's address, with its token), which `--quiet` must not hide.
    public func essential(_ line: String) {
        write(.result(line))
    }

    /// `camstamp: MESSAGE` on stderr, whatever the verbosity.
    public func error(_ message: String) {
        write(.diagnostic("camstamp: \(message)", .error))
    }

    /// `camstamp: MESSAGE` on stderr, unless quiet.
    public func warning(_ message: String) {
        guard verbosity != .quiet else { return }
        write(.diagnostic("camstamp: \(message)", .warning))
    }

    /// `line` on stderr as it is (a summary), unless quiet.
    public func note(_ line: String) {
        guard verbosity != .quiet else { return }
        write(.diagnostic(line, .note))
    }
}

/// The process's stdout and stderr, one line at a time from any thread.
private final class StandardStreams: Sendable {
    private let progressShown = isatty(STDERR_FILENO) != 0
    private let resultsShown = isatty(STDOUT_FILENO) != 0
    /// Whether the progress line is on the terminal now; the lock also keeps lines whole.
    private let drawn = Mutex(false)

    func write(_ event: JobOutput.Event) {
        drawn.withLock { drawn in
            switch event {
            case .result(let line):
                // stdout on the same terminal would otherwise continue the progress line.
                if resultsShown { erase(&drawn) }
                FileHandle.standardOutput.write(Data((line.hasSuffix("\n") ? line : line + "\n").utf8))
            case .diagnostic(let line, _):
                erase(&drawn)
                FileHandle.standardError.write(Data((line + "\n").utf8))
            case .progress(let text):
                guard progressShown else { return }
                FileHandle.standardError.write(Data("\r\u{1B}[K\(text)".utf8))
                drawn = true
            case .progressCleared:
                erase(&drawn)
            case .progressEnded:
                guard drawn else { return }
                FileHandle.standardError.write(Data("\n".utf8))
                drawn = false
            }
        }
    }

    private func erase(_ drawn: inout Bool) {
        guard drawn else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        drawn = false
    }
}
