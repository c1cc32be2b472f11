// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Synchronization

/// A request to stop, handed by a caller to long work and honoured between photos and frames.
///
/// Unlike `Interrupts` (the process's Ctrl-C, one per process), a token belongs to one piece of
/// work: cancel it from any thread, and the `Stamper` calls that were given it stop at the next
/// photo or frame with a `CamStampError` of kind `.interrupted`. A photo already being stamped is
/// finished first, so nothing is left half-done.
public final class CancellationToken: Sendable {
    private let cancelled = Atomic<Bool>(false)

    /// A token that is not cancelled.
    public init() {}

    /// Asks the work holding this token to stop at its next check. Safe from any thread; idempotent.
    public func cancel() {
        cancelled.store(true, ordering: .releasing)
    }

    /// Whether `cancel()` has been called.
    public var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Throws `CamStampError.cancelled(_:)` with `done` when the token is cancelled.
    func check(_ done: @autoclosure () -> String) throws(CamStampError) {
        if isCancelled { throw .cancelled(done()) }
    }
}

extension CamStampError {
    /// Work stopped through a `CancellationToken`: kind `.interrupted`, message `cancelled: DONE`.
    public static func cancelled(_ done: String) -> CamStampError {
        CamStampError(.interrupted, "cancelled: \(done)")
    }
}
