// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Synchronization
import Testing
import TestSupport
@testable import CamStamp

/// Shoot, batch and stream say everything through one `JobOutput`: what a verbosity lets through
/// is decided there, once, so `.quiet` holds back progress, warnings, notes and results on every job.
@Suite struct JobOutputTests {
    /// An output that keeps what passes its filter.
    final class Recorder: Sendable {
        private let events = Mutex<[JobOutput.Event]>([])
        var all: [JobOutput.Event] { events.withLock { $0 } }
        func output(_ verbosity: Verbosity, keepsResults: Bool = false) -> JobOutput {
            JobOutput(verbosity: verbosity, keepsResults: keepsResults) { event in
                self.events.withLock { $0.append(event) }
            }
        }

        var results: [String] { all.compactMap { if case .result(let line) = $0 { line } else { nil } } }
        var progress: [String] { all.compactMap { if case .progress(let text) = $0 { text } else { nil } } }
        func diagnostics(_ severity: JobOutput.Severity) -> [String] {
            all.compactMap { if case .diagnostic(let line, severity) = $0 { line } else { nil } }
        }
    }

    /// A folder with a photo, a text file found in it (skipped) and a damaged JPEG (failed).
    static func batchInputs() throws -> (folder: URL, bad: URL) {
        let folder = try temporaryFolder("jobOutputBatch")
        let photos = folder.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        try makePicture(photos.appendingPathComponent("good.jpg"), ["-size", "320x240", "xc:#404040"])
        try Data("notes".utf8).write(to: photos.appendingPathComponent("notes.txt"))
        let bad = photos.appendingPathComponent("bad.jpg")
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00]).write(to: bad)
        return (folder, bad)
    }

    func shoot(_ output: JobOutput, in folder: URL) throws -> URL {
        var options = ShootOptions(source: .test, text: "hi", output: folder.appendingPathComponent("shot.jpg"))
        // A second of countdown: the progress line has something to say.
        options.delay = 1
        return try ShootJob(options: options).run(report: output)[0]
    }

    func batch(_ output: JobOutput, inputs: URL, into name: String) throws -> BatchJob.Summary {
        let options = BatchOptions(
            inputs: [inputs.appendingPathComponent("in")], outputFolder: inputs.appendingPathComponent(name),
            text: "x", jobs: 1)
        return try BatchJob(options: options).run(report: output)
    }

    func stream(_ output: JobOutput, to file: URL) throws -> StreamJob.Summary {
        let options = StreamOptions(source: .test, text: "x", target: .file(file, container: .mkv), duration: 1.5)
        return try StreamJob(options: options).run(report: output)
    }

    @Test(.runsGStreamerElements) func normalSaysResultsWarningsNotesAndProgressOnEveryJob() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let shot = Recorder()
        let file = try shoot(shot.output(.normal), in: folder)
        #expect(shot.results == [file.path])
        #expect(shot.progress == ["photo in 1 s"])

        let (inputs, bad) = try Self.batchInputs()
        defer { try? FileManager.default.removeItem(at: inputs) }
        let batched = Recorder()
        let summary = try batch(batched.output(.normal), inputs: inputs, into: "normal")
        #expect(summary.marked == 1 && summary.failed == 1 && summary.skipped == 1)
        #expect(
            batched.diagnostics(.error).count == 1
                && batched.diagnostics(.error)[0].hasPrefix("camstamp: \(bad.path): "))
        #expect(
            batched.diagnostics(.warning).contains { $0.hasSuffix("notes.txt: skipped: \(BatchReporter.notAPhoto)") })
        #expect(batched.diagnostics(.note) == ["1 marked, 1 failed, 1 skipped"])
        #expect(!batched.progress.isEmpty)

        let streamed = Recorder()
        _ = try stream(streamed.output(.normal), to: folder.appendingPathComponent("normal.mkv"))
        #expect(streamed.progress.contains { $0.hasPrefix("frame=") }, "\(streamed.all)")
    }

    @Test(.runsGStreamerElements) func quietKeepsOnlyErrorsOnEveryJob() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let shot = Recorder()
        let file = try shoot(shot.output(.quiet), in: folder)
        #expect(FileManager.default.fileExists(atPath: file.path))
        #expect(shot.all.isEmpty, "\(shot.all)")

        let (inputs, bad) = try Self.batchInputs()
        defer { try? FileManager.default.removeItem(at: inputs) }
        let batched = Recorder()
        let summary = try batch(batched.output(.quiet), inputs: inputs, into: "quiet")
        #expect(summary.failed == 1)
        #expect(
            batched.all.count == 1 && batched.diagnostics(.error).first?.hasPrefix("camstamp: \(bad.path): ") == true,
            "\(batched.all)")

        let streamed = Recorder()
        let streamSummary = try stream(streamed.output(.quiet), to: folder.appendingPathComponent("quiet.mkv"))
        #expect(streamSummary.framesWritten > 0)
        #expect(streamed.all.isEmpty, "\(streamed.all)")
    }

    @Test func resultsAskedForByNameAreKeptWhenQuiet() throws {
        let (inputs, _) = try Self.batchInputs()
        defer { try? FileManager.default.removeItem(at: inputs) }
        let recorder = Recorder()
        var options = BatchOptions(
            inputs: [inputs.appendingPathComponent("in")], outputFolder: inputs.appendingPathComponent("json"),
            text: "x", jobs: 1)
        options.json = true
        _ = try BatchJob(options: options).run(report: recorder.output(.quiet, keepsResults: true))
        // One line per file, then the summary object; of the diagnostics only the failure.
        #expect(recorder.results.count == 4, "\(recorder.results)")
        #expect(recorder.results.last?.hasPrefix("{\"summary\":") == true)
        #expect(
            recorder.diagnostics(.error).count == 1 && recorder.diagnostics(.warning).isEmpty
                && recorder.progress.isEmpty)
    }
}
