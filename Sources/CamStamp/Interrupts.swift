import Foundation
import Synchronization

/// Ctrl-C, SIGTERM and SIGUSR1, taken by one thread that waits for them.
///
/// The first Ctrl-C or SIGTERM asks the running job to finish cleanly (end the stream, finalise
/// files); the jobs poll `isRequested`. The second exits at once with 130, removing temporary
/// files. SIGUSR1 asks a stream for a snapshot.
///
/// The signals are blocked in every thread and taken with `sigwait` on a thread of their own, so
/// none is lost however early it comes: `install()` must run first thing in `main`, before any
/// other thread exists (threads inherit the blocked set). A signal handler plus a dispatch source
/// would leave a window at start-up in which a signal is ignored and lost.
public final class Interrupts: Sendable {
    private let requested = Atomic<Bool>(false)
    private let snapshot = Atomic<Bool>(false)
    private let installed = Atomic<Bool>(false)

    public static let shared = Interrupts()

    private init() {}

    /// Blocks SIGINT, SIGTERM and SIGUSR1 and starts the thread that takes them. Idempotent.
    public func install() {
        guard !installed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var signals = Self.signalSet()
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        let thread = Thread { [self] in
            var signals = Self.signalSet()
            while true {
                var number: Int32 = 0
                guard sigwait(&signals, &number) == 0 else { continue }
                handle(number)
            }
        }
        thread.name = "camstamp signals"
        thread.start()
    }

    /// Whether a stop was asked for.
    public var isRequested: Bool { requested.load(ordering: .acquiring) }

    /// True once per SIGUSR1 received since the last call.
    public func takeSnapshotRequest() -> Bool {
        snapshot.exchange(false, ordering: .acquiringAndReleasing)
    }

    private func handle(_ number: Int32) {
        if number == SIGUSR1 {
            snapshot.store(true, ordering: .releasing)
            return
        }
        if requested.exchange(true, ordering: .acquiringAndReleasing) {
            FileHandle.standardError.write(Data("camstamp: interrupted again, stopping now\n".utf8))
            TemporaryFiles.shared.removeAll()
            exit(130)
        }
    }

    private static func signalSet() -> sigset_t {
        var signals = sigset_t()
        sigemptyset(&signals)
        for number in [SIGINT, SIGTERM, SIGUSR1] { sigaddset(&signals, number) }
        return signals
    }
}

/// Temporary files being written right now, removed if the process is stopped hard.
public final class TemporaryFiles: @unchecked Sendable {
    public static let shared = TemporaryFiles()
    private let lock = NSLock()
    private var paths: Set<String> = []

    func add(_ url: URL) { _ = lock.withLock { paths.insert(url.path) } }

    /// Forgets `url` and deletes it if it is still there (after a rename it is not).
    func remove(_ url: URL) {
        lock.withLock { _ = paths.remove(url.path) }
        unlink(url.path)
    }

    /// Deletes every file still listed (on the way out after a second Ctrl-C).
    func removeAll() {
        lock.withLock {
            for path in paths { unlink(path) }
            paths.removeAll()
        }
    }
}
