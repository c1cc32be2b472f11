import Foundation

/// A failure a user sees as one line, `camstamp: WHAT: REASON`, and the exit code it maps to.
public struct CamStampError: Error, Equatable, CustomStringConvertible, Sendable {
    public enum Kind: Sendable, Equatable {
        /// A bad option, value, preset or template: exit 64.
        case usage
        /// The work failed (camera, pipeline, file system): exit 1.
        case failure
        /// Stopped by Ctrl-C or SIGTERM, outputs finalised: exit 130.
        case interrupted
    }

    public var kind: Kind
    /// `WHAT: REASON`, with a hint after `; ` where one helps.
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public static func usage(_ message: String) -> CamStampError { .init(.usage, message) }
    public static func failure(_ message: String) -> CamStampError { .init(.failure, message) }
    public static let interrupted = CamStampError(.interrupted, "interrupted")

    public var description: String { message }
}
