// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Synchronization

/// Ctrl-C, SIGTERM and SIGUSR1, taken by one thread that waits for them.
///
/// In a job that finishes on request (`finishesOnRequest()`: shoot, camera, stream, batch), the
/// first Ctrl-C or SIGTERM asks it to finish cleanly (end the stream, finalise files); the jobs
/// poll `isRequested`, and the command exits 130, or 143 after SIGTERM (`stopSignal`). In any
/// other command, and at the second signal, the process exits at once with 128 + the signal,
/// removing temporary files. SIGUSR1 asks a stream for a snapshot.
///
/// The signals are blocked in every thread and taken with `sigwait` on a thread of their own, so
/// none is lost however early it comes: the executable blocks them before any library's
/// initialiser runs (CStartSignals), `install()` blocks them again (for a host program of the
/// library) and starts the thread, which takes the ones already pending first. A signal handler
/// plus a dispatch source would leave a window at start-up in which a signal is lost.
public final class Interrupts: Sendable {
    /// The first stop signal's number, 0 until one came.
    private let requested = Atomic<Int32>(0)
    private let finishing = Atomic<Bool>(false)
    private let snapshot = Atomic<Bool>(false)
    private let installed = Atomic<Bool>(false)

    /// The process's one instance (signals are process-wide).
    public static let shared = Interrupts()

    private init() {}

    /// Blocks SIGINT, SIGTERM and SIGUSR1 and starts the thread that takes them. Idempotent.
    public func install() {
        guard !installed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var signals = Self.signalSet()
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        // Those that came before (while the libraries initialised) are answered here and now,
        // before the command line is read: a stop ends the process with its status.
        var now = timespec()
        while case let number = sigtimedwait(&signals, nil, &now), number > 0 { handle(number) }
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

    /// Says that the running job polls `isRequested` and finishes its outputs when asked: the
    /// first stop signal from now on asks, instead of ending the process. Returns `self`.
    @discardableResult
    public func finishesOnRequest() -> Interrupts {
        finishing.store(true, ordering: .releasing)
        // A signal taken before this (while the command line was read) has already ended the
        // process, so none is left unanswered.
        return self
    }

    /// Whether a stop was asked for.
    public var isRequested: Bool { requested.load(ordering: .acquiring) != 0 }

    /// The signal that asked for the stop (SIGINT or SIGTERM), if one did.
    public var stopSignal: Int32? {
        let number = requested.load(ordering: .acquiring)
        return number == 0 ? nil : number
    }

    /// True once per SIGUSR1 received since the last call.
    public func takeSnapshotRequest() -> Bool {
        snapshot.exchange(false, ordering: .acquiringAndReleasing)
    }

    private func handle(_ number: Int32) {
        if number == SIGUSR1 {
            snapshot.store(true, ordering: .releasing)
            return
        }
        let first = requested.compareExchange(
            expected: 0, desired: number, ordering: .acquiringAndReleasing
        ).exchanged
        if first && finishing.load(ordering: .acquiring) { return }
        if !first { FileHandle.standardError.write(Data("camstamp: interrupted again, stopping now\n".utf8)) }
        TemporaryFiles.shared.removeAll()
        // _exit, not exit: exit(3) runs atexit handlers and library destructors on this thread
        // while the job's threads still use them (an abort in GObject, or a hang in exit with
        // no thread left to take a signal). Results went to stdout unbuffered (JobOutput), and
        // the recording is abandoned anyway.
        _exit(128 + number)
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
    /// The process's one list.
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

    // A SIGKILL leaves a temporary file behind that nothing in that process can remove. Each
    // temporary is named after the process that writes it, so a later run into the same folder
    // can tell a stale one (its writer is gone) from a live one (a concurrent camstamp's).

    private static let prefix = ".camstamp-"
    private static let suffix = ".part"
    /// This machine's name, letters and digits only: a folder shared over the network may hold
    /// live temporaries of another machine's processes, whose pids mean nothing here.
    private static let host: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        gethostname(&buffer, buffer.count - 1)
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let kept = name.unicodeScalars.filter {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
        }
        return String(String.UnicodeScalarView(kept.prefix(32)))
    }()

    /// A hidden temporary path in `folder`, `.camstamp-HOST-PID-RANDOM.NAME.part`, for writing
    /// `name` (a file name or an extension) before renaming it into place.
    static func temporaryURL(in folder: URL, for name: String) -> URL {
        let random = String(UInt32.random(in: .min ... .max), radix: 16)
        return folder.appendingPathComponent("\(prefix)\(host)-\(getpid())-\(random).\(name)\(suffix)")
    }

    /// Deletes the temporaries in `folder` (not its subfolders) left by camstamp processes of
    /// this machine that no longer exist. Files of other names, and those of running processes
    /// or of other machines, are left alone. Returns the paths removed.
    @discardableResult
    static func removeStale(in folder: URL) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        var removed: [String] = []
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(suffix) {
            let fields = name.dropFirst(prefix.count).split(
                separator: "-", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3, fields[0] == host, let pid = pid_t(fields[1]), pid > 0 else { continue }
            // kill(pid, 0) probes without signalling: EPERM means it exists under another user.
            if kill(pid, 0) == 0 || errno == EPERM { continue }
            let path = folder.appendingPathComponent(name).path
            var info = stat()
            guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            if unlink(path) == 0 { removed.append(path) }
        }
        return removed
    }
}

extension TemporaryFiles {
    /// Moves a finished temporary file into place at `target`: the one way photos and clips reach
    /// their name. `replacing`: rename(2), which replaces atomically (a reader sees the old file or
    /// the new one, never half). Otherwise link(2), which fails if `target` exists, even one that
    /// appeared a moment ago; then `exists` is thrown (its advice depends on the command).
    /// `hardLink` is link(2), a parameter only so that a file system without hard links can be
    /// played in a test.
    static func moveIntoPlace(
        _ temporary: URL, at target: URL, replacing: Bool, exists: @autoclosure () -> CamStampError,
        hardLink: (UnsafePointer<CChar>, UnsafePointer<CChar>) -> Int32 = link
    ) throws(CamStampError) {
        if replacing {
            try move(temporary, to: target)
            return
        }
        if hardLink(temporary.path, target.path) == 0 {
            unlink(temporary.path)
            return
        }
        let linkError = errno
        if linkError == EEXIST { throw exists() }
        // A file system without hard links (FAT or exFAT on a camera card): check, then rename.
        guard linkError == EPERM || linkError == EOPNOTSUPP else { throw cannotWrite(target, linkError) }
        if FileManager.default.fileExists(atPath: target.path) { throw exists() }
        try move(temporary, to: target)
    }

    /// Writes `data` to `temporary`, a new file (it must not exist), with open(2), write(2) and
    /// close(2) and nothing more: no fsync, as docs/scale.md says. Foundation's `Data.write(to:)`
    /// fsyncs every file, which held each batch worker about 4 ms a 12 MP photo waiting for the
    /// disk. Throws the errno of the call that failed (ENOSPC from write or close included).
    static func write(_ data: Data, to temporary: URL) throws(POSIXError) {
        try write([data], to: temporary)
    }

    /// `write(_:to:)` of `parts` one after the other: a photo's header and scan need not be
    /// joined (its megabytes copied) to be written.
    static func write(_ parts: [Data], to temporary: URL) throws(POSIXError) {
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var failure: Int32 = 0
        for part in parts where failure == 0 {
            part.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        failure = errno
                        return
                    }
                    offset += written
                }
            }
        }
        // A network file system may report a failed write only at close.
        if close(descriptor) != 0, failure == 0, errno != EINTR { failure = errno }
        if failure != 0 { throw POSIXError(POSIXErrorCode(rawValue: failure) ?? .EIO) }
    }

    private static func move(_ temporary: URL, to target: URL) throws(CamStampError) {
        guard rename(temporary.path, target.path) == 0 else { throw cannotWrite(target, errno) }
    }

    private static func cannotWrite(_ target: URL, _ code: Int32) -> CamStampError {
        .failure("cannot write \(target.path): \(String(cString: strerror(code)))")
    }
}
