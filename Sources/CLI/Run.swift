// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// Runs a parsed command: results and diagnostics go through one JobOutput, and failures map to exit codes here.
import CamStamp
internal import CMalloc
import Foundation
import Presets

/// Runs camstamp with `arguments` (without the program name) and returns the exit code.
public func runCommandLine(_ arguments: [String]) -> ExitCode {
    // Hidden: what `make install` writes into share/man and the completion folders.
    if let generated = Generated.output(for: arguments) {
        let output = JobOutput.standard(verbosity: .normal)
        switch generated {
        case .success(let text):
            // No candidates is no line: an empty one would be offered as a word.
            if !text.isEmpty { output.write(.result(text)) }
            return .success
        case .failure(let error):
            output.error(error.message)
            return .usage
        }
    }
    let invocation: Invocation
    do {
        invocation = try parseInvocation(arguments, defaults: DefaultsFile())
    } catch {
        JobOutput.standard(verbosity: .normal).error(error.message)
        return .usage
    }
    Verbosity.current = invocation.verbosity
    // --json output is what was asked for: printed under -q too.
    let output = JobOutput.standard(
        verbosity: invocation.verbosity, keepsResults: invocation.json,
        progressJSON: invocation.progressJSON)
    return Verbosity.timed("total") { execute(invocation, output: output) }
}

/// Runs the command, says on `output` why it failed if it did, and returns the exit code.
func execute(_ invocation: Invocation, output: JobOutput) -> ExitCode {
    do {
        return try run(invocation, output: output)
    } catch {
        switch error.kind {
        case .interrupted:
            // What was kept: the photos written, the stream's summary, the batch's counts.
            if error != .interrupted { output.note(error.message) }
        case .usage, .failure:
            output.error(error.message)
        }
        return exitCode(for: error)
    }
}

func exitCode(for error: CamStampError) -> ExitCode {
    switch error.kind {
    case .usage: .usage
    case .failure: .failure
    // The shell's status for a process a signal ended, so a script tells TERM (a scheduler's
    // stop) from Ctrl-C, as with any program that dies of either.
    case .interrupted: Interrupts.shared.stopSignal == SIGTERM ? .terminated : .interrupted
    }
}

/// Runs the command. A job that went on past failures it has said one by one (a batch's photos)
/// returns `.failure`; any other failure is thrown, for `execute` to say.
private func run(_ invocation: Invocation, output: JobOutput) throws(CamStampError) -> ExitCode {
    let command = invocation.command
    switch command {
    case .help(let text):
        output.write(.result(text))
    case .version:
        output.write(.result("camstamp \(camstampVersion) (GStreamer \(GStreamerInfo.version))"))
    case .shoot(let options):
        // Each path as soon as its photo is complete, so a script can pick up a time-lapse
        // as it goes. With -o - stdout holds the photo and nothing else.
        _ = try ShootJob(options: options).run(interrupts: .shared, report: output)
    case .camera(let options):
        try CameraJob(options: options).run(interrupts: .shared, report: output)
    case .devices(let options):
        for line in try CameraListing.lines(json: options.json) { output.result(line) }
    case .config(let request):
        try ConfigCommand.run(request, file: DefaultsFile(), output: output)
    case .presetsList, .presetsShow, .presetsCheck:
        try PresetsCommand.run(command, json: invocation.json, output: output)
    case .presetsRender(let options):
        if let written = try PresetRenderJob(options: options).run() { output.result(written.path) }
    case .presetsPictures(let options):
        return try PresetsPictures.run(options, output: output)
    case .inspect(let options):
        return try InspectCommand.run(options, output: output)
    case .stream(let options):
        shareMallocArenas()
        let job = StreamJob(options: options)
        output.note(job.summaryLine(try job.run(interrupts: .shared, report: output)))
    case .verify(let options):
        if options.serve != nil { Interrupts.shared.finishesOnRequest() }
        return try VerifyJob(options: options).run(report: output, interrupts: .shared) ? .success : .failure
    case .keysNew(let options):
        try KeysJob(options: options).run(report: output)
    case .batch(let options):
        keepPhotoBuffersMapped()
        let summary = try BatchJob(options: options).run(interrupts: .shared, report: output)
        // Outputs left as they were are not done: exit 1 tells a script so.
        return summary.succeeded ? .success : .failure
    }
    return .success
}

/// A batch allocates and frees a photo's worth of buffers (the file, its pixels or coefficients,
/// the output: megabytes each) for every photo. glibc's defaults hand allocations that size to
/// mmap and give them back on free, so every photo faulted its pages in zeroed again: a third of
/// a spliced photo's CPU was the kernel's. Buffers up to 64 MiB now come from the heap, which
/// keeps 64 MiB spare when it grows: the pages are reused photo after photo (`make bench`, part 5).
/// The process's own choice, set by the command line: a program embedding the library keeps its own.
private func keepPhotoBuffersMapped() {
    let size: Int32 = 64 << 20
    _ = mallopt(M_MMAP_THRESHOLD, size)
    _ = mallopt(M_TOP_PAD, size)
}

/// A stream's threads (capture, encoder queue, x264's slice threads, muxer, GLib's pool) each
/// got a malloc arena of their own, and each kept freed memory of its own: with two, shared,
/// the peak of a 1080p stream is ~3 MiB lower for the same CPU (`make bench`, part 3). Set
/// before the pipeline starts its threads: an arena is picked at a thread's first allocation.
private func shareMallocArenas() {
    _ = mallopt(M_ARENA_MAX, 2)
}
