// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// Options/: the validated options of each job, as plain values. The command line's text parsers
// that build them are the CLI's (Sources/CLI/Parsing/OptionValues.swift); only `SourceSpec`'s
// stays here, since the camera's HTTP API reads the same grammar. Whether a camera or a
// GStreamer element exists is the job's business, not the options'.
import Foundation

/// A bad option value; `message` is one line that names the option and the fix.
public struct OptionValueError: Error, Equatable, Sendable, CustomStringConvertible {
    /// One line that names the option and says what to do.
    public var message: String
    /// An error with `message`.
    public init(_ message: String) { self.message = message }
    public var description: String { message }

    /// The common "invalid value" wording: what was given, for which option, and what is expected.
    package static func invalid(_ value: String, for option: String, expected: String) -> OptionValueError {
        OptionValueError("invalid value '\(value)' for '\(option)': expected \(expected)")
    }
}
