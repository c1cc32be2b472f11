// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Synchronization

/// How much camstamp says on stderr, set once from `-q`/`-v` before a job starts.
/// `quiet`: errors only (no progress line, countdown, warning or summary); `verbose`: also what
/// was chosen (resource folder, preset files, pipeline templates and launch lines, the camera)
/// and how long each stage took.
public enum Verbosity: Int, Sendable {
    /// `-q`: errors only.
    case quiet = 0
    /// Results, warnings, progress on a terminal, summaries.
    case normal = 1
    /// `-v`: also what was chosen and how long each stage took.
    case verbose = 2

    /// The process-wide level: a command line sets it once; library users may too.
    public static var current: Verbosity {
        get { Verbosity(rawValue: level.load(ordering: .relaxed)) ?? .normal }
        set { level.store(newValue.rawValue, ordering: .relaxed) }
    }

    private static let level = Atomic<Int>(Verbosity.normal.rawValue)

    /// True under `-q`.
    public static var isQuiet: Bool { current == .quiet }
    /// True under `-v`.
    public static var isVerbose: Bool { current == .verbose }

    /// `camstamp: verbose: TEXT` on stderr with `-v`; the text is not built otherwise.
    public static func log(_ text: @autoclosure () -> String) {
        guard isVerbose else { return }
        FileHandle.standardError.write(Data("camstamp: verbose: \(text())\n".utf8))
    }

    /// Runs `body` and, with `-v`, logs how long the stage `name` took.
    public static func timed<T, E: Error>(_ name: String, _ body: () throws(E) -> T) throws(E) -> T {
        guard isVerbose else { return try body() }
        let start = ContinuousClock.now
        defer { log("\(name): \(milliseconds(since: start)) ms") }
        return try body()
    }

    /// Whole milliseconds from `start` to now.
    static func milliseconds(since start: ContinuousClock.Instant) -> Int {
        let elapsed = (ContinuousClock.now - start).components
        return Int(elapsed.seconds) * 1000 + Int(elapsed.attoseconds / 1_000_000_000_000_000)
    }
}
