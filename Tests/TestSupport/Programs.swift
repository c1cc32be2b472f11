// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// The programs the tests run most, over `runProcess`: camstamp itself, and the peer tools that
// make fixtures or referee output (exiftool, ImageMagick, ffmpeg, gst-launch-1.0).
import Foundation
import Testing

/// What camstamp is run with besides the caller's variables: a GStreamer CRITICAL in the child
/// must fail the test, not scroll by; and no defaults file of the developer's own
/// (`~/.config/camstamp/config.json`) changes what a test sees, unless the test names one.
private func camstampEnvironment(_ extra: [String: String]) -> ChildEnvironment {
    // An empty CAMSTAMP_CONFIG is as if unset: the developer's own does not pass through.
    var variables = ["G_DEBUG": "fatal-criticals", "CAMSTAMP_CONFIG": ""]
    if extra["XDG_CONFIG_HOME"] == nil { variables["XDG_CONFIG_HOME"] = emptyConfigFolder.path }
    return .inherited(variables.merging(extra) { $1 })
}

/// An empty folder for XDG_CONFIG_HOME, one for the test process.
private let emptyConfigFolder: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
        "camstamp-test-config-\(getpid())", isDirectory: true)
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}()

/// camstamp's program and arguments, as another user (`setpriv`, nobody) when `asNobody`.
private func camstampCommand(_ arguments: [String], asNobody: Bool) -> (String, [String]) {
    guard asNobody else { return (camstampBinary.path, arguments) }
    return ("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", camstampBinary.path] + arguments)
}

/// Runs camstamp with `arguments` in `directory`, optionally as another user, and waits for it
/// (bounded: killed, and the test failed, after `timeout` seconds).
@discardableResult
package func camstamp(
    _ arguments: [String], in directory: URL? = nil, asNobody: Bool = false,
    timeout: TimeInterval = 60, environment: [String: String] = [:], stdin: Data? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> RunResult {
    let (program, all) = camstampCommand(arguments, asNobody: asNobody)
    return try runProcess(
        program, all, environment: camstampEnvironment(environment), in: directory, stdin: stdin,
        timeout: timeout, sourceLocation: sourceLocation)
}

/// A camstamp in the background, for tests that signal it while it runs.
package typealias RunningCamstamp = BackgroundProcess

extension BackgroundProcess {
    /// Starts camstamp with `arguments` in `directory`, optionally as another user.
    package convenience init(
        _ arguments: [String], in directory: URL? = nil, asNobody: Bool = false,
        environment: [String: String] = [:]
    ) throws {
        let (program, all) = camstampCommand(arguments, asNobody: asNobody)
        try self.init(program, all, environment: camstampEnvironment(environment), in: directory)
    }
}

/// A tool a test runs failed: what it was asked and what it said.
package struct ToolFailure: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

/// Runs a peer tool (ImageMagick, ffmpeg, ffprobe, gst-launch-1.0, exiftool…) to its end, to make
/// or read a fixture: its stdout, or a `ToolFailure` with its stderr (a failure is a broken test
/// machine).
@discardableResult
package func tool(
    _ name: String, _ arguments: [String], stdin: Data? = nil, timeout: TimeInterval = 300,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> Data {
    let result = try runProcess(name, arguments, stdin: stdin, timeout: timeout, sourceLocation: sourceLocation)
    guard result.status == 0, result.reason == .exit else {
        throw ToolFailure("\(name) \(arguments.joined(separator: " ")): \(result.stderr)")
    }
    return result.output
}

/// exiftool's standard output for `arguments` (the referee for metadata); what it says on
/// stderr, and its status (1 when a file has no such tag), are not failures.
@discardableResult
package func exiftool(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
    try runProcess(
        "/usr/bin/exiftool", arguments, stderr: .discard, timeout: 120,
        sourceLocation: sourceLocation
    ).stdout
}

/// exiftool's output for one file, without the file name it prints.
package func exiftool(
    _ arguments: [String], _ file: URL,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> String {
    try exiftool(arguments + [file.path], sourceLocation: sourceLocation)
}
