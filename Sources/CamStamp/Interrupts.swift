import Dispatch
import Foundation
import Synchronization

/// Ctrl-C and SIGTERM: the first asks the running job to finish cleanly (send EOS, finalise
/// files); the second exits at once with 130.
public final class Interrupts: Sendable {
    private let requested = Atomic<Bool>(false)
    private let onRequest: Mutex<(@Sendable () -> Void)?> = Mutex(nil)
    private let sources: Mutex<[DispatchSourceSignal]> = Mutex([])

    public static let shared = Interrupts()

    private init() {}

    /// Starts catching SIGINT and SIGTERM. Idempotent.
    public func install() {
        sources.withLock { sources in
            guard sources.isEmpty else { return }
            for number in [SIGINT, SIGTERM] {
                // The default action would kill the process before EOS reaches the muxer.
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { [self] in handle() }
                source.resume()
                sources.append(source)
            }
        }
    }

    /// Whether a stop was asked for.
    public var isRequested: Bool { requested.load(ordering: .acquiring) }

    /// Called (once, on a signal queue) when the first interrupt arrives.
    public func onInterrupt(_ action: (@Sendable () -> Void)?) {
        onRequest.withLock { $0 = action }
    }

    private func handle() {
        if requested.exchange(true, ordering: .acquiringAndReleasing) {
            FileHandle.standardError.write(Data("camstamp: interrupted again, stopping now\n".utf8))
            TemporaryFiles.shared.removeAll()
            exit(130)
        }
        onRequest.withLock { $0 }?()
    }
}
