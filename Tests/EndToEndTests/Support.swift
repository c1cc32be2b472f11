import Foundation
import Media
import Testing
import TestSupport

struct RunResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs camstamp with `arguments` in `directory`, optionally as another user (`setpriv`), and
/// waits for it (bounded).
func camstamp(_ arguments: [String], in directory: URL? = nil, asNobody: Bool = false,
              timeout: TimeInterval = 60, environment: [String: String] = [:]) throws -> RunResult {
    try RunningCamstamp(arguments, in: directory, asNobody: asNobody, environment: environment).finish(timeout: timeout)
}

/// A camstamp process in the background, for tests that signal it while it runs.
final class RunningCamstamp {
    let process = Process()
    let arguments: [String]
    private let outData = LockedData(), errData = LockedData()
    private let group = DispatchGroup()

    init(_ arguments: [String], in directory: URL? = nil, asNobody: Bool = false,
         environment extra: [String: String] = [:]) throws {
        self.arguments = arguments
        if asNobody {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", camstampBinary.path] + arguments
        } else {
            process.executableURL = camstampBinary
            process.arguments = arguments
        }
        if let directory { process.currentDirectoryURL = directory }
        var environment = ProcessInfo.processInfo.environment
        // A GStreamer CRITICAL in the child must fail the test, not scroll by.
        environment["G_DEBUG"] = "fatal-criticals"
        environment.merge(extra) { $1 }
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes while it runs so a chatty child never blocks on a full pipe.
        for (pipe, sink) in [(out, outData), (err, errData)] {
            group.enter()
            DispatchQueue.global().async { [group] in
                sink.set(pipe.fileHandleForReading.readDataToEndOfFile())
                group.leave()
            }
        }
    }

    /// Sends `signal` (SIGINT, SIGTERM, SIGKILL, SIGUSR1) to the process.
    func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// Waits (bounded) for the process to end and returns what it printed.
    func finish(timeout: TimeInterval = 60) -> RunResult {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning {
            process.terminate()
            Issue.record("camstamp \(arguments.joined(separator: " ")) did not finish within \(timeout) s")
            // SIGTERM only asks: a process blocked in open(2) on a FIFO never gets to act on it.
            let grace = Date().addingTimeInterval(5)
            while process.isRunning && Date() < grace { Thread.sleep(forTimeInterval: 0.05) }
            if process.isRunning { send(SIGKILL) }
        }
        process.waitUntilExit()
        group.wait()
        return RunResult(status: process.terminationStatus,
                         stdout: String(decoding: outData.get(), as: UTF8.self),
                         stderr: String(decoding: errData.get(), as: UTF8.self))
    }
}

final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ value: Data) { lock.withLock { data = value } }
    func get() -> Data { lock.withLock { data } }
}

/// exiftool's standard output for `arguments` (the referee for metadata).
@discardableResult
func exiftool(_ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/exiftool")
    process.arguments = arguments
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
}

/// exiftool's output for one file, without the file name it prints.
func exiftool(_ arguments: [String], _ file: URL) throws -> String {
    try exiftool(arguments + [file.path])
}

/// A tool a test runs failed: what it was asked and what it said.
struct ToolFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Runs a peer tool (ImageMagick, ffmpeg, ffprobe, gst-launch-1.0, exiftool…) to its end, to make
/// or read a fixture: its stdout, or a `ToolFailure` with its stderr (a failure is a broken test
/// machine). stderr is read while stdout is, so a chatty tool cannot fill its pipe and stall.
@discardableResult
func tool(_ name: String, _ arguments: [String], stdin: Data? = nil) throws -> Data {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [name] + arguments
    let out = Pipe(), err = Pipe(), input = Pipe()
    process.standardOutput = out
    process.standardError = err
    if stdin != nil { process.standardInput = input }
    try process.run()
    let errors = LockedData()
    let reading = DispatchGroup()
    reading.enter()
    DispatchQueue.global().async {
        errors.set(err.fileHandleForReading.readDataToEndOfFile())
        reading.leave()
    }
    if let stdin {
        input.fileHandleForWriting.write(stdin)
        try input.fileHandleForWriting.close()
    }
    let output = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    reading.wait()
    guard process.terminationStatus == 0 else {
        throw ToolFailure("\(name) \(arguments.joined(separator: " ")): \(String(decoding: errors.get(), as: UTF8.self))")
    }
    return output
}

/// A disk of 1 MiB with about 100 kB left (a few seconds of the test pattern and its tone),
/// mounted as `small` in `folder`; nil where a tmpfs cannot be mounted (not root), and the
/// caller then checks nothing. The caller unmounts it (`umount`).
func nearlyFullDisk(in folder: URL) throws -> URL? {
    let small = folder.appendingPathComponent("small")
    try FileManager.default.createDirectory(at: small, withIntermediateDirectories: true)
    guard (try? tool("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", small.path])) != nil else { return nil }
    do {
        try Data(count: 1_048_576 - 100_000).write(to: small.appendingPathComponent("filler"))
    } catch {
        _ = try? tool("umount", [small.path])
        throw error
    }
    return small
}
