// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
/// The process exit status; the only values camstamp returns.
public enum ExitCode: Int32, Sendable, Equatable, CaseIterable {
    /// Everything was done.
    case success = 0
    /// Some inputs or the pipeline failed; the rest was still done.
    case failure = 1
    /// A bad command line or preset (sysexits' EX_USAGE).
    case usage = 64
    /// Stopped by SIGINT or SIGTERM, after outputs were finalized (128 + SIGINT).
    case interrupted = 130
    /// Stopped by SIGTERM, after outputs were finalized (128 + SIGTERM).
    case terminated = 143
}
