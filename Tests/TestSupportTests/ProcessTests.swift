// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

/// The one runner the suites share: what a program prints is all there however much it prints,
/// stdin goes in while stdout comes out, and a program that hangs is killed, not waited for.
@Suite struct ProcessTests {
    @Test func outputAndErrorsAreReadWhileTheProgramRuns() throws {
        // 1 MiB on each: far more than a pipe holds, so a runner that read one after the other
        // (or only after the exit) would stall.
        let script = "head -c 1048576 /dev/zero; head -c 1048576 /dev/zero >&2; exit 3"
        let result = try runProcess("/bin/sh", ["-c", script])
        #expect(result.status == 3 && result.reason == .exit && !result.timedOut)
        #expect(result.output.count == 1_048_576 && result.errors.count == 1_048_576)
    }

    @Test func stdinIsWrittenWhileStdoutIsRead() throws {
        var generator = SeededGenerator(state: 7)
        let input = Data((0..<2_000_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let result = try runProcess("cat", [], stdin: input)
        #expect(result.status == 0 && result.output == input)
    }

    @Test func theEnvironmentAndFolderAreTheCallers() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try runProcess(
            "/bin/sh", ["-c", "echo \"$CAMSTAMP_PROBE:$HOME\"; pwd"],
            environment: .only(["CAMSTAMP_PROBE": "set", "PATH": "/usr/bin:/bin"]), in: folder)
        #expect(result.stdout == "set:\n\(folder.resolvingSymlinksInPath().path)\n")
    }

    /// A program that outlives its timeout is killed, and the test is told (the known issue).
    @Test func aProgramThatHangsIsKilledAndFailsTheTest() throws {
        var result: RunResult?
        withKnownIssue {
            result = try runProcess("sleep", ["600"], timeout: 0.5)
        }
        #expect(result?.timedOut == true)
        #expect(result?.reason == .uncaughtSignal, "\(String(describing: result))")
    }

    @Test func aBackgroundProgramIsSignalledAndStopped() throws {
        let script = "echo ready; trap 'echo bye; exit 5' TERM; while :; do sleep 0.05; done"
        let server = try BackgroundProcess("/bin/sh", ["-c", script])
        var deadline = 200
        while !server.stdout.contains("ready") && deadline > 0 {
            Thread.sleep(forTimeInterval: 0.05)
            deadline -= 1
        }
        #expect(server.isRunning)
        let result = server.stop(SIGTERM)
        #expect(result.status == 5 && result.stdout == "ready\nbye\n" && !server.isRunning)
        #expect(server.finish().status == 5, "a second wait returns the same result")
    }

    @Test func aMissingProgramIsSaidByName() {
        #expect(throws: ProcessFailure.self) { try runProcess("camstamp-no-such-program", []) }
    }
}
