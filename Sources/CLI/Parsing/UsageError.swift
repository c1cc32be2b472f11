// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
/// A command line that cannot be run; `message` is one line, shown as `camstamp: MESSAGE`.
public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
    /// Always `.usage` (64).
    public var exitCode: ExitCode { .usage }
}
