// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

// Ctrl-C at a spread of moments in the first tenths of a second of a stream that publishes and
// records, several rounds, several runs at once (the load makes the start's races likelier). What
// is asserted is how each run ends and what it leaves; the waits are hang guards only.

@Suite struct StreamSignalRaceTests {
    /// Milliseconds: after the spawn (camstamp may not take signals yet: the test's thread has them
    /// blocked, so they wait for it), and after it takes them (the pipeline starting).
    static let moments = Array(stride(from: 0, through: 100, by: 10))
    static let rounds = 3

    /// The brief's command: an RTMP target nobody listens on beside a local recording.
    static func arguments(_ folder: URL, _ name: String, port: Int) -> [String] {
        [
            "stream", "--source", "test", "--text", "x", "--size", "320x240",
            "--to", "rtmp://127.0.0.1:\(port)/live/key", "--to", folder.appendingPathComponent(name).path,
        ]
    }

    /// Runs `body` for every (round, moment), four at a time; what each found wrong, in order.
    /// The workers are threads of their own, outside the test's task, so they collect their
    /// findings and the test expects on them.
    static func spread(_ body: @escaping @Sendable (_ round: Int, _ milliseconds: Int) -> [String]) -> [String] {
        let cases = (0..<rounds).flatMap { round in moments.map { (round, $0) } }
        let found = Findings()
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for index in stride(from: worker, to: cases.count, by: 4) {
                found.set(index, body(cases[index].0, cases[index].1))
            }
        }
        return found.inOrder
    }

    /// What is wrong with what a run left at `file`: a file that does not play, or a temporary.
    static func leftovers(_ file: URL, _ context: String) -> [String] {
        var problems: [String] = []
        if let frames = framesLeft(file), frames == 0 {
            problems.append("\(context): \(file.lastPathComponent) has no frame")
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path)) ?? []
        if names.contains(where: { $0.hasSuffix(".part") && $0.contains(file.lastPathComponent) }) {
            problems.append("\(context): a temporary of \(file.lastPathComponent) is left")
        }
        return problems
    }

    /// One Ctrl-C, at 0 to 100 ms after the spawn: the run ends as a Ctrl-C ends it (130, or the
    /// kernel's default before camstamp takes signals), the recording playable or not there.
    @Test func aCtrlCAtAnyEarlyMomentEndsTheRun() throws {
        let folder = try temporaryFolder("early")
        defer { try? FileManager.default.removeItem(at: folder) }
        let port = try freePort()
        let problems = Self.spread { round, milliseconds in
            let name = "once-\(round)-\(milliseconds).mkv"
            guard let running = try? RunningCamstamp(Self.arguments(folder, name, port: port)) else {
                return ["camstamp did not start"]
            }
            if milliseconds > 0 { usleep(useconds_t(milliseconds * 1000)) }
            running.send(SIGINT)
            let result = running.finish(timeout: 30)
            let context = "Ctrl-C at \(milliseconds) ms, round \(round)"
            let ended =
                running.stopped(by: SIGINT, result)
                ? [] : ["\(context): status \(result.shellStatus), \(result.stderr)"]
            return ended + Self.leftovers(folder.appendingPathComponent(name), context)
        }
        #expect(
            problems.isEmpty,
            "\(problems.count) of \(Self.rounds * Self.moments.count) runs:\n\(problems.joined(separator: "\n"))")
    }

    /// Two Ctrl-C in a row, as `timeout` forwards one (to camstamp and to its process group), at
    /// 0 to 100 ms (and 120 to 320 ms) after camstamp takes signals: the second stops it at once
    /// with 130. exit(3) from the signal thread ran library destructors under the starting
    /// pipeline: about one run in fifty aborted in GObject ("cannot register existing fundamental
    /// type"), and one that hangs in exit has no thread left to take SIGTERM.
    @Test func aSecondCtrlCDuringTheStartExitsWith130() throws {
        let folder = try temporaryFolder("twice")
        defer { try? FileManager.default.removeItem(at: folder) }
        let port = try freePort()
        let problems = Self.spread { round, milliseconds in
            var problems: [String] = []
            for delay in [milliseconds, milliseconds * 2 + 120] {
                let name = "twice-\(round)-\(delay).mkv"
                guard let running = try? RunningCamstamp(Self.arguments(folder, name, port: port)) else {
                    return problems + ["camstamp did not start"]
                }
                let context = "twice at \(delay) ms, round \(round)"
                if !running.waitUntilSignalsAreTaken() { problems.append("\(context): signals never blocked") }
                if delay > 0 { usleep(useconds_t(delay * 1000)) }
                running.send(SIGINT)
                usleep(500)
                running.send(SIGINT)
                let result = running.finish(timeout: 30)
                if result.reason != .exit || result.status != 130 {
                    problems.append("\(context): status \(result.shellStatus), stderr: \(result.stderr.prefix(400))")
                }
                problems += Self.leftovers(folder.appendingPathComponent(name), context)
            }
            return problems
        }
        let runs = 2 * Self.rounds * Self.moments.count
        #expect(problems.isEmpty, "\(problems.count) of \(runs) runs:\n\(problems.joined(separator: "\n"))")
    }
}

/// Each case's problems, from the worker threads.
private final class Findings: @unchecked Sendable {
    private let lock = NSLock()
    private var byCase: [Int: [String]] = [:]

    func set(_ index: Int, _ problems: [String]) { lock.withLock { byCase[index] = problems } }

    var inOrder: [String] { lock.withLock { byCase.sorted { $0.key < $1.key }.flatMap(\.value) } }
}
