// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Media
import Testing
import TestSupport

// `stream` stopped at any moment of its start: Ctrl-C, SIGTERM, twice, SIGKILL, SIGUSR1. The
// signals are sent at several points (right after the spawn, once camstamp takes signals, while the
// pipeline starts, around the first frame); what is asserted is the exit and what is left on disk,
// never how long anything took (the hang guards are generous).

/// What a recording left at `file`: nil when there is no file, else the frames that decode.
func framesLeft(_ file: URL) -> Int? {
    guard FileManager.default.fileExists(atPath: file.path) else { return nil }
    return (try? decodeVideo(file: file))?.frames ?? 0
}

/// No frameless file at `file` (none, or one that plays), and no temporary left in its folder.
func expectNoFramelessRecording(_ file: URL, _ context: String, sourceLocation: SourceLocation = #_sourceLocation) {
    if let frames = framesLeft(file) {
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? -1
        #expect(
            frames > 0, "\(context): \(file.lastPathComponent) left with no frame (\(size) bytes)",
            sourceLocation: sourceLocation)
    }
    let names = (try? FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path)) ?? []
    #expect(
        !names.contains { $0.hasSuffix(".part") }, "\(context): temporaries left: \(names)",
        sourceLocation: sourceLocation)
}

extension RunningCamstamp {
    /// The status a shell would give: 128 + the signal for a process that a signal ended.
    func shellStatus(_ result: RunResult) -> Int32 {
        result.shellStatus
    }

    /// Whether `signal` (SIGINT or SIGTERM) stopped it as it should: camstamp's own 130 or 143
    /// (docs/stream.md: "Ctrl-C or SIGTERM finishes the file properly (exit 130, 143 for SIGTERM)"),
    /// or, while the dynamic loader maps its libraries, the kernel's default action, death by that
    /// signal: a shell says 128 + the signal either way.
    func stopped(by signal: Int32, _ result: RunResult) -> Bool {
        result.shellStatus == 128 + signal
    }

    /// Waits (bounded) until camstamp blocks SIGINT, SIGTERM and SIGUSR1 to take them on a thread
    /// of its own (`Interrupts.install`, first thing in main); before that, while the dynamic
    /// loader maps its libraries, the kernel's default actions apply. False if it never did.
    func waitUntilSignalsAreTaken() -> Bool {
        let wanted: UInt64 = [SIGINT, SIGTERM, SIGUSR1].reduce(0) { $0 | (1 << UInt64($1 - 1)) }
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline && isRunning {
            if let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigBlk:") }),
                let mask = UInt64(line.dropFirst("SigBlk:".count).trimmingCharacters(in: .whitespaces), radix: 16),
                mask & wanted == wanted
            {
                return true
            }
            usleep(500)
        }
        return false
    }
}

@Suite struct StreamSignalTests {
    /// Where the signal goes in: right after the spawn (camstamp may not have started yet, and a
    /// signal then ends it as the kernel's default does), then at points after it takes signals.
    static let moments: [Double?] = [nil, 0, 0.005, 0.02, 0.04, 0.07, 0.12, 0.25]

    /// Starts `arguments`, waits for `moment` (nil: not at all; else that many seconds after
    /// camstamp takes signals).
    func start(_ arguments: [String], at moment: Double?) throws -> RunningCamstamp {
        let running = try RunningCamstamp(arguments)
        if let moment {
            #expect(running.waitUntilSignalsAreTaken(), "camstamp never blocked its signals")
            if moment > 0 { Thread.sleep(forTimeInterval: moment) }
        }
        return running
    }

    /// Ctrl-C or SIGTERM at any moment of the start ends the run and leaves no
    /// frameless file: one stopped before its first frame used to leave its 663-byte header.
    @Test(arguments: [(SIGINT, "mp4"), (SIGTERM, "mkv")])
    func aStopAtAnyMomentOfTheStartEndsTheRunWithoutAFramelessFile(signal: Int32, container: String) throws {
        let folder = try temporaryFolder("stop\(signal)")
        defer { try? FileManager.default.removeItem(at: folder) }
        for (index, moment) in Self.moments.enumerated() {
            let file = folder.appendingPathComponent("early\(index).\(container)")
            let running = try start(
                ["stream", "--source", "test", "--text", "x", "--size", "320x240", "--to", file.path], at: moment)
            running.send(signal)
            let result = running.finish(timeout: 20)
            let context = "signal \(signal) at \(moment.map { "\($0) s" } ?? "spawn")"
            #expect(
                running.stopped(by: signal, result),
                "\(context): status \(running.shellStatus(result)), stderr: \(result.stderr)")
            #expect(!result.stderr.contains("camstamp: "), "\(context): \(result.stderr)")
            expectNoFramelessRecording(file, context)
        }
    }

    /// A second Ctrl-C exits at once: the recording is removed unless a frame of it is on disk
    /// (it kept its header alone: exit 130, and a file no player opens).
    @Test func aSecondCtrlCAtAnyMomentOfTheStartLeavesNoFramelessFile() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (index, moment) in [0, 0.03, 0.1, 0.3, 0.6].enumerated() {
            let file = folder.appendingPathComponent("twice\(index).mp4")
            let running = try start(
                ["stream", "--source", "test", "--text", "x", "--size", "320x240", "--to", file.path], at: moment)
            running.send(SIGINT)
            // Apart, or the kernel merges them into one.
            Thread.sleep(forTimeInterval: 0.02)
            running.send(SIGINT)
            let result = running.finish(timeout: 20)
            #expect(running.shellStatus(result) == 130, "at \(moment) s: stderr: \(result.stderr)")
            expectNoFramelessRecording(file, "twice at \(moment) s")
        }
    }

    /// A hard kill before the first frame is on disk leaves nothing under the recording's name
    /// (the hidden temporary is removed by the next run into the folder); one after a frame is,
    /// leaves a file that plays.
    @Test(arguments: ["mp4", "mkv"])
    func aHardKillLeavesEitherNothingOrAPlayableFileUnderTheName(container: String) throws {
        let folder = try temporaryFolder("kill\(container)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let early = folder.appendingPathComponent("early.\(container)")
        var running = try start(
            ["stream", "--source", "test", "--text", "x", "--size", "320x240", "--to", early.path], at: 0.1)
        running.send(SIGKILL)
        _ = running.finish(timeout: 10)
        if let frames = framesLeft(early) {
            #expect(frames > 0, "killed at 0.1 s: \(early.lastPathComponent) left with no frame")
        }

        let late = folder.appendingPathComponent("late.\(container)")
        running = try start(
            ["stream", "--source", "test", "--text", "x", "--size", "320x240", "--to", late.path], at: 1.5)
        running.send(SIGKILL)
        _ = running.finish(timeout: 10)
        #expect((framesLeft(late) ?? 0) > 0, "killed at 1.5 s: \(late.lastPathComponent) does not play")

        // The next run into the folder clears what the killed ones left behind.
        let next = folder.appendingPathComponent("next.\(container)")
        let result = try camstamp(
            [
                "stream", "--source", "test", "--text", "x", "--size", "320x240", "--duration", "0.5",
                "--to", next.path,
            ], timeout: 30)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        expectNoFramelessRecording(next, "the next run")
        #expect((framesLeft(next) ?? 0) > 0)
    }

    /// With --overwrite, the file replaced stays as it was until the new recording has a frame:
    /// a stream stopped before that leaves it untouched.
    @Test func anOverwrittenFileStaysUntilTheNewRecordingHasAFrame() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("kept.mkv")
        let old = Data("an older recording".utf8)
        try old.write(to: file)
        let running = try start(
            ["stream", "--source", "test", "--text", "x", "--size", "320x240", "--overwrite", "--to", file.path], at: 0)
        running.send(SIGINT)
        let result = running.finish(timeout: 20)
        #expect(running.shellStatus(result) == 130, "stderr: \(result.stderr)")
        let now = try Data(contentsOf: file)
        #expect(
            now == old || (framesLeft(file) ?? 0) > 0, "\(now.count) bytes, neither the old file nor a playable one")
    }

    /// A file that appears under the recording's name while it starts (another program's) is
    /// never replaced without --overwrite: the stream stops saying so, and leaves it as it was.
    @Test func aFileThatAppearsUnderTheNameMeanwhileIsNeverReplaced() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("taken.mp4")
        // Once the pipeline runs, before its first fragment is on disk (or, on a slow machine,
        // before the start's own check: the same refusal).
        let running = try start(
            ["stream", "--source", "test", "--text", "x", "--size", "320x240", "--to", file.path], at: 0.15)
        let theirs = Data("another program's file".utf8)
        try theirs.write(to: file)
        for _ in 0..<100 where running.isRunning { Thread.sleep(forTimeInterval: 0.05) }
        running.send(SIGINT)
        let result = running.finish(timeout: 20)
        #expect(result.status == 1, "stderr: \(result.stderr)")
        #expect(result.stderr == "camstamp: \(file.path) already exists; use --overwrite to replace it\n")
        #expect(try Data(contentsOf: file) == theirs)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["taken.mp4"])
    }

    /// A target that is no regular file (a named pipe another program reads) is written straight
    /// to, not replaced by a file renamed over it.
    @Test func aNamedPipeTargetIsWrittenStraightTo() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pipe = folder.appendingPathComponent("pipe.mkv"), copy = folder.appendingPathComponent("copy.mkv")
        #expect(mkfifo(pipe.path, 0o600) == 0)
        let reader = try BackgroundProcess("/bin/sh", ["-c", "cat \"$0\" > \"$1\"", pipe.path, copy.path])
        let result = try camstamp(
            [
                "stream", "--source", "test", "--text", "x", "--size", "320x240", "--duration", "1",
                "--overwrite", "--to", pipe.path,
            ], timeout: 30)
        reader.finish(timeout: 30)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        var info = stat()
        #expect(lstat(pipe.path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO, "the pipe was replaced")
        #expect((framesLeft(copy) ?? 0) >= 20)
    }

    /// Ctrl-C just after the start, with an RTMP or SRT target where nobody listens beside the
    /// file: the network branch has carried nothing yet, and its muxer never passed the end on
    /// (flvmux), or failed on it (mpegtsmux), so the stream "did not finish" after 10 s, exit 1.
    @Test(arguments: ["rtmp", "srt"])
    func aCtrlCRightAfterTheStartWithNobodyListeningStillFinishesTheRecording(scheme: String) throws {
        let folder = try temporaryFolder(scheme)
        defer { try? FileManager.default.removeItem(at: folder) }
        let port = try freePort(udp: scheme == "srt")
        let target = scheme == "rtmp" ? "rtmp://127.0.0.1:\(port)/live/key" : "srt://127.0.0.1:\(port)"
        for (index, moment) in [0.03, 0.06, 0.1, 0.15, 0.25].enumerated() {
            let file = folder.appendingPathComponent("local\(index).mkv")
            let running = try start(
                ["stream", "--source", "test", "--text", "x", "--size", "320x240", "--to", target, "--to", file.path],
                at: moment)
            running.send(SIGINT)
            let result = running.finish(timeout: 30)
            #expect(running.shellStatus(result) == 130, "at \(moment) s: stderr: \(result.stderr)")
            #expect(!result.stderr.contains("camstamp: "), "at \(moment) s: \(result.stderr)")
            expectNoFramelessRecording(file, "\(scheme) at \(moment) s")
        }
    }

    /// SIGUSR1 at any moment once camstamp takes signals asks for a snapshot and never ends the
    /// stream (its default action would, exit 138); the Ctrl-C after it still finalises.
    @Test func aSnapshotRequestAtAnyMomentNeverEndsTheStream() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (index, moment) in [0, 0.005, 0.02, 0.05, 0.1].enumerated() {
            let file = folder.appendingPathComponent("shots\(index).mkv")
            let running = try start(
                [
                    "stream", "--source", "test", "--text", "x", "--size", "320x240", "--to", file.path,
                    "--snapshot-dir", folder.appendingPathComponent("shots\(index)").path,
                ], at: moment)
            running.send(SIGUSR1)
            Thread.sleep(forTimeInterval: 0.5)
            #expect(running.isRunning, "SIGUSR1 at \(moment) s ended the stream")
            running.send(SIGINT)
            let result = running.finish(timeout: 20)
            #expect(running.shellStatus(result) == 130, "SIGUSR1 at \(moment) s: stderr: \(result.stderr)")
            expectNoFramelessRecording(file, "SIGUSR1 at \(moment) s")
        }
    }
}
