// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// A failure a user sees as one line, `camstamp: WHAT: REASON`, and the exit code it maps to.
public struct CamStampError: Error, Equatable, CustomStringConvertible, Sendable {
    /// What kind of failure it is, and so the exit code.
    public enum Kind: Sendable, Equatable {
        /// A bad option, value, preset or template: exit 64.
        case usage
        /// The work failed (camera, pipeline, file system): exit 1.
        case failure
        /// Stopped by Ctrl-C or SIGTERM, outputs finalised: exit 130.
        case interrupted
    }

    /// What kind of failure it is.
    public var kind: Kind
    /// `WHAT: REASON`, with a hint after `; ` where one helps.
    public var message: String

    /// An error of `kind` saying `message` (`WHAT: REASON`).
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// A usage error (exit 64) saying `message`.
    public static func usage(_ message: String) -> CamStampError { .init(.usage, message) }
    /// A failure of the work (exit 1) saying `message`.
    public static func failure(_ message: String) -> CamStampError { .init(.failure, message) }
    /// Stopped by Ctrl-C or SIGTERM (exit 130).
    public static let interrupted = CamStampError(.interrupted, "interrupted")

    public var description: String { message }
}
