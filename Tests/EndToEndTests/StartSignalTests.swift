// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

// A stop signal that arrives while camstamp's libraries initialise, before main runs: the window
// in which a signal used to be lost. A preloaded library's constructor (it runs after the
// executable's .preinit_array and before main) sends it, so the moment is exact, not a race. The
// launcher gives camstamp what a shell gives a job: nothing blocked, and SIGINT either at its
// default or ignored (a background job of a non-interactive shell), where the kernel used to
// discard it and the job ran on.

@Suite struct StartSignalTests {
    /// The constructor that signals its own process once, and takes itself out of the
    /// environment first so no child (gst-plugin-scanner) signals itself too.
    static let preload = #"""
        #include <signal.h>
        #include <stdlib.h>
        #include <unistd.h>
        __attribute__((constructor)) static void signal_before_main(void) {
            const char *number = getenv("CAMSTAMP_TEST_EARLY_SIGNAL");
            if (!number) return;
            int signal_number = atoi(number);
            unsetenv("CAMSTAMP_TEST_EARLY_SIGNAL");
            unsetenv("LD_PRELOAD");
            kill(getpid(), signal_number);
        }
        """#

    /// Unblocks the stop signals (the test's threads have them blocked, and a child inherits
    /// that), sets SIGINT's disposition, then becomes camstamp with the library preloaded (not
    /// itself: the constructor would signal the launcher).
    static let launcher = #"""
        import os, signal, sys
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM, signal.SIGUSR1})
        signal.signal(signal.SIGINT, signal.SIG_IGN if sys.argv[1] == "ignored" else signal.SIG_DFL)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        env = dict(os.environ, LD_PRELOAD=sys.argv[2], CAMSTAMP_TEST_EARLY_SIGNAL=sys.argv[3])
        os.execve(sys.argv[4], sys.argv[4:], env)
        """#

    /// The preload library and the launcher, made once in `folder`.
    static func tools(in folder: URL) throws -> (library: URL, launcher: URL) {
        let source = folder.appendingPathComponent("early.c")
        let library = folder.appendingPathComponent("early.so")
        let launcher = folder.appendingPathComponent("launch.py")
        try Self.preload.write(to: source, atomically: true, encoding: .utf8)
        try Self.launcher.write(to: launcher, atomically: true, encoding: .utf8)
        try tool("clang", ["-shared", "-fPIC", "-O1", "-o", library.path, source.path])
        return (library, launcher)
    }

    /// Each job, with what it must not leave behind: (arguments, the output it names).
    static func jobs(in folder: URL) throws -> [(name: String, arguments: [String], output: URL)] {
        let photo = folder.appendingPathComponent("in/a.jpg")
        try FileManager.default.createDirectory(
            at: photo.deletingLastPathComponent(), withIntermediateDirectories: true)
        try makePicture(photo, ["-size", "320x240", "gradient:red-blue", "-quality", "90"])
        let out = folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        return [
            (
                "shoot", ["shoot", "--source", "test", "--text", "x", "--size", "320x240", "-o"],
                out.appendingPathComponent("shot.jpg")
            ),
            ("batch", ["batch", photo.path, "--text", "x", "-o"], out.appendingPathComponent("batch")),
            (
                "stream", ["stream", "--source", "test", "--text", "x", "--size", "320x240", "--to"],
                out.appendingPathComponent("rec.mp4")
            ),
            (
                "camera", ["camera", "--source", "test", "--size", "320x240", "--web", "127.0.0.1:0", "-o"],
                out.appendingPathComponent("camera")
            ),
            ("verify", ["verify", photo.path, "--json"], out.appendingPathComponent("none")),
        ].map { ($0.0, $0.0 == "verify" ? $0.1 : $0.1 + [$0.2.path], $0.2) }
    }

    @Test(arguments: [(SIGINT, "default"), (SIGINT, "ignored"), (SIGTERM, "default")])
    func aStopSignalBeforeMainEndsEveryJobWithItsStatus(signal: Int32, disposition: String) throws {
        let folder = try temporaryFolder("early\(signal)\(disposition)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (library, launcher) = try Self.tools(in: folder)
        for job in try Self.jobs(in: folder) {
            let result = try runProcess(
                "/usr/bin/python3",
                [launcher.path, disposition, library.path, "\(signal)", camstampBinary.path] + job.arguments,
                environment: .inherited(["G_DEBUG": "fatal-criticals", "CAMSTAMP_CONFIG": ""]),
                timeout: 30)
            let context = "\(job.name), signal \(signal) (SIGINT \(disposition)) before main"
            #expect(!result.timedOut, "\(context): the signal was lost, the job ran on")
            // camstamp's own exit, not the kernel's default action on a process not yet started.
            let how = result.reason == .exit ? "exit" : "killed by signal"
            #expect(
                result.reason == .exit && result.status == 128 + signal,
                "\(context): \(how) \(result.status), stderr: \(result.stderr)")
            expectNothingHalfWritten(job.output, context)
        }
    }

    /// Nothing at `output` but whole files: no photo, recording or temporary half written.
    func expectNothingHalfWritten(_ output: URL, _ context: String) {
        let folder =
            output.hasDirectoryPath || output.pathExtension.isEmpty ? output : output.deletingLastPathComponent()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        #expect(!names.contains { $0.hasSuffix(".part") }, "\(context): temporaries left: \(names)")
        if output.pathExtension == "mp4" { expectNoFramelessRecording(output, context) }
        if output.pathExtension == "jpg", FileManager.default.fileExists(atPath: output.path) {
            #expect(
                (try? decodeImage(output, format: .rgba)) != nil,
                "\(context): \(output.lastPathComponent) does not decode")
        }
    }
}
