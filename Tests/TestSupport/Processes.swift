// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// The one way the tests run a program: camstamp, a peer tool (ffmpeg, exiftool, ImageMagick…),
// a shell, a server. Output is read while the program runs, so a chatty one never blocks on a
// full pipe, and every wait is bounded: a program that outlives its timeout is killed and the
// test fails, instead of hanging the suite.
import Foundation
import Testing

/// What a finished program did.
package struct RunResult: Sendable {
    /// The exit status, or the signal's number when a signal ended it (`reason`).
    package var status: Int32
    package var reason: Process.TerminationReason
    /// Its standard output as bytes (a photo written to `-o -`) and as text.
    package var output: Data
    package var errors: Data
    /// Whether it outlived its timeout and was killed.
    package var timedOut: Bool

    package var stdout: String { String(decoding: output, as: UTF8.self) }
    package var stderr: String { String(decoding: errors, as: UTF8.self) }
    /// The status a shell would give: 128 + the signal for a program that a signal ended.
    package var shellStatus: Int32 { reason == .uncaughtSignal ? 128 + status : status }
}

/// Where a program's standard output or error goes.
package enum OutputSink: Sendable {
    /// Kept in memory: `RunResult.output`/`errors`, or `BackgroundProcess.stdout` while it runs.
    case capture
    case discard
    /// Written to this file (a server's log the test reads later).
    case file(URL)
}

/// Which environment a program gets.
package enum ChildEnvironment: Sendable {
    /// The test process's own, with these variables set over it.
    case inherited([String: String] = [:])
    /// Exactly these variables (a clean login).
    case only([String: String])

    var resolved: [String: String] {
        switch self {
        case .inherited(let extra): ProcessInfo.processInfo.environment.merging(extra) { $1 }
        case .only(let variables): variables
        }
    }
}

/// A program a test could not start, or one that outlived its timeout.
package struct ProcessFailure: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}

/// `name` as a path: itself when it holds a slash, else the first match on `PATH`.
package func executable(_ name: String) throws -> URL {
    if name.contains("/") { return URL(fileURLWithPath: name) }
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    for folder in path.split(separator: ":") {
        let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    throw ProcessFailure("\(name): no such program on PATH (\(path)); run make deps")
}

/// Runs `program` (a path, or a name found on `PATH`) to its end and returns what it did. A
/// program still running after `timeout` seconds is killed and a failure is recorded against
/// the caller's test; the result then says `timedOut`.
@discardableResult
package func runProcess(
    _ program: String, _ arguments: [String], environment: ChildEnvironment = .inherited(),
    in directory: URL? = nil, stdin: Data? = nil,
    stdout: OutputSink = .capture, stderr: OutputSink = .capture,
    timeout: TimeInterval = 60,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> RunResult {
    let running = try BackgroundProcess(
        program, arguments, environment: environment, in: directory, stdin: stdin,
        stdout: stdout, stderr: stderr)
    return running.finish(timeout: timeout, sourceLocation: sourceLocation)
}

/// A program running in the background (a server, a receiver, a camstamp the test signals):
/// its output is read as it comes, and `finish` or `stop` waits for it, bounded.
package final class BackgroundProcess: @unchecked Sendable {
    /// The program's process, for what the handle does not say (its termination reason…).
    package let process = Process()
    /// How the program was called, for failure messages.
    package let commandLine: String
    private let output = LockedData(), errors = LockedData()
    private var outputFile: URL?, errorFile: URL?
    private let readers = DispatchGroup()
    private let ended = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var result: RunResult?

    package init(
        _ program: String, _ arguments: [String], environment: ChildEnvironment = .inherited(),
        in directory: URL? = nil, stdin: Data? = nil,
        stdout: OutputSink = .capture, stderr: OutputSink = .capture
    ) throws {
        commandLine = ([program] + arguments).joined(separator: " ")
        process.executableURL = try executable(program)
        process.arguments = arguments
        process.environment = environment.resolved
        if let directory { process.currentDirectoryURL = directory }
        if case .file(let url) = stdout { outputFile = url }
        if case .file(let url) = stderr { errorFile = url }
        let outPipe = try connect(stdout) { process.standardOutput = $0 }
        let errPipe = try connect(stderr) { process.standardError = $0 }
        let input = stdin.map { _ in Pipe() }
        // Without input of its own the child shares the test's stdin.
        if let input { process.standardInput = input }
        process.terminationHandler = { [ended] _ in ended.signal() }
        // The child inherits the signal mask of the test's thread (a dispatch worker's: SIGTERM,
        // SIGINT and most others blocked), hence the SIGKILL after a SIGTERM below. Spawning with
        // none blocked makes LiveTargetTests' UDP RTSP viewer see pictures twice: not yet.
        try process.run()
        // Only now: a pipe whose writing end the parent still held would never report its end.
        for (pipe, sink) in [(outPipe, output), (errPipe, errors)] {
            if let pipe { read(pipe, into: sink) }
        }
        if let input, let stdin {
            // Written from a thread of its own: a program that prints before it reads could
            // otherwise fill its stdout pipe while the test is still writing to it.
            Thread.detachNewThread {
                input.fileHandleForWriting.write(stdin)
                try? input.fileHandleForWriting.close()
            }
        }
    }

    private func connect(_ sink: OutputSink, _ set: (Any) -> Void) throws -> Pipe? {
        switch sink {
        case .capture:
            let pipe = Pipe()
            set(pipe)
            return pipe
        case .discard:
            set(FileHandle.nullDevice)
        case .file(let url):
            // Emptied, then appended to: stdout and stderr may share the file without writing over
            // each other (both are opened before the program starts).
            let fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0o644)
            guard fd >= 0 else { throw ProcessFailure("\(url.path): cannot open (errno \(errno))") }
            set(FileHandle(fileDescriptor: fd, closeOnDealloc: true))
        }
        return nil
    }

    private func read(_ pipe: Pipe, into sink: LockedData) {
        readers.enter()
        let handle = pipe.fileHandleForReading
        Thread.detachNewThread { [readers] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                sink.append(chunk)
            }
            readers.leave()
        }
    }

    package var pid: Int32 { process.processIdentifier }
    package var isRunning: Bool { process.isRunning }
    /// What it has printed so far (read from its file when its output goes to one).
    package var stdout: String { text(output, outputFile) }
    package var stderr: String { text(errors, errorFile) }

    private func text(_ captured: LockedData, _ file: URL?) -> String {
        guard let file else { return String(decoding: captured.get(), as: UTF8.self) }
        return (try? String(contentsOf: file, encoding: .utf8)) ?? ""
    }

    /// Sends `signal` (SIGINT, SIGTERM, SIGKILL, SIGUSR1) to the program.
    package func send(_ signal: Int32) {
        if process.isRunning { kill(process.processIdentifier, signal) }
    }

    /// Waits (bounded) for the program to end by itself and returns what it did. One still
    /// running after `timeout` seconds is killed, and a failure is recorded against the test.
    @discardableResult
    package func finish(timeout: TimeInterval = 60, sourceLocation: SourceLocation = #_sourceLocation) -> RunResult {
        let result = wait(timeout: timeout)
        if result.timedOut {
            Issue.record(
                "\(commandLine) did not finish within \(timeout) s; killed. stderr: \(result.stderr)",
                sourceLocation: sourceLocation)
        }
        return result
    }

    /// Stops the program: `signal`, then SIGKILL if it is still there after `grace` seconds. A
    /// program that needs SIGKILL is not a failure here (a server the test is done with).
    @discardableResult
    package func stop(_ signal: Int32 = SIGTERM, grace: TimeInterval = 5) -> RunResult {
        send(signal)
        return wait(timeout: grace)
    }

    /// Waits up to `timeout` seconds; then SIGTERM, and SIGKILL a second later for one that
    /// ignores it (ffprobe on a network read). The result is kept: a second call returns it.
    private func wait(timeout: TimeInterval) -> RunResult {
        lock.lock()
        defer { lock.unlock() }
        if let result { return result }
        var timedOut = false
        if ended.wait(timeout: .now() + timeout) == .timedOut {
            timedOut = true
            kill(process.processIdentifier, SIGTERM)
            if ended.wait(timeout: .now() + 1) == .timedOut {
                kill(process.processIdentifier, SIGKILL)
                ended.wait()
            }
        }
        process.waitUntilExit()
        // A child it left behind may hold the pipes open: its output is not waited for forever.
        _ = readers.wait(timeout: .now() + 5)
        let finished = RunResult(
            status: process.terminationStatus, reason: process.terminationReason,
            output: output.get(), errors: errors.get(), timedOut: timedOut)
        result = finished
        return finished
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}

/// Bytes that reader threads append to and the test reads.
package final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    package init() {}
    package func append(_ more: Data) { lock.withLock { data.append(more) } }
    package func set(_ value: Data) { lock.withLock { data = value } }
    package func get() -> Data { lock.withLock { data } }
}
