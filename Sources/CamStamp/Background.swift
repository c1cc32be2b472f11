// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// Work begun on a thread of its own and its result taken later, so that a job's slow setup runs
/// beside another: a batch's signer (the C2PA library opened, the key read, a probe signed, about
/// 5 ms) is made while its presets and fonts load (about 15 ms), on the core the workers have not
/// taken yet. Its error comes out where the result is taken, so the order of errors is the same.
final class Background<Value: Sendable>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    /// Written once by the thread before `done` is signalled, read only after waiting on it.
    private var result: Result<Value, CamStampError>?

    init(_ work: @escaping @Sendable () throws(CamStampError) -> Value) {
        let thread = Thread { [self] in
            do throws(CamStampError) { result = .success(try work()) } catch { result = .failure(error) }
            done.signal()
        }
        // The C2PA SDK is Rust: the main thread's stack size, not a secondary thread's 512 KB.
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// The result, waited for (every call gives the same one).
    func value() throws(CamStampError) -> Value {
        done.wait()
        defer { done.signal() }
        guard let result else { preconditionFailure("the background work signalled without a result") }
        return try result.get()
    }
}
