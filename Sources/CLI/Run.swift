// Runs a parsed command: the only place that prints results and maps failures to exit codes.
import CamStamp
import Foundation
import Media
import Presets

/// Runs camstamp with `arguments` (without the program name) and returns the exit code.
public func runCommandLine(_ arguments: [String]) -> ExitCode {
    // Hidden: what `make install` writes into share/man and the completion folders.
    if let generated = Generated.output(for: arguments) {
        switch generated {
        case .success(let text): Console.output(text, always: true); return .success
        case .failure(let error): Console.error(error.message); return .usage
        }
    }
    let invocation: Invocation
    do {
        invocation = try parseInvocation(arguments)
    } catch {
        Console.error(error.message)
        return .usage
    }
    let command = invocation.command
    Verbosity.current = invocation.verbosity
    Console.keepsOutput = invocation.json
    do {
        try Verbosity.timed("total") { () throws(CamStampError) in try run(command, json: invocation.json) }
        return .success
    } catch {
        if error.kind != .interrupted && !error.message.isEmpty { Console.error(error.message) }
        return exitCode(for: error)
    }
}

func exitCode(for error: CamStampError) -> ExitCode {
    switch error.kind {
    case .usage: .usage
    case .failure: .failure
    case .interrupted: .interrupted
    }
}

private func run(_ command: ParsedCommand, json: Bool) throws(CamStampError) {
    switch command {
    case .help(let text):
        Console.output(text, always: true)
    case .version:
        Console.output("camstamp \(camstampVersion) (GStreamer \(GStreamer.version))", always: true)
    case .shoot(let options):
        do {
            // Each path as soon as its photo is complete, so a script can pick up a time-lapse
            // as it goes. With -o - stdout holds the photo and nothing else.
            _ = try ShootJob(options: options).run(interrupts: .shared) { file in
                if !options.toStandardOutput { Console.output(file.path) }
            }
        } catch where error.kind == .interrupted && error != .interrupted {
            // Photos were written before Ctrl-C: say how many were kept.
            Console.note(error.message)
            throw error
        }
    case .camera(let options):
        try CameraJob(options: options).run(interrupts: .shared, report: { Console.output($0) })
    case .devices(let options):
        try DevicesCommand.run(json: options.json)
    case .presetsList, .presetsShow, .presetsCheck:
        try PresetsCommand.run(command, json: json)
    case .stream(let options):
        let job = StreamJob(options: options)
        do {
            let summary = try job.run(interrupts: .shared, report: { Console.output($0) })
            Console.note(job.summaryLine(summary))
        } catch where error.kind == .interrupted {
            // Finalised before exiting: say what was kept.
            Console.note(error.message)
            throw error
        }
    case .batch(let options):
        let summary = try BatchJob(options: options).run(interrupts: .shared, output: { Console.output($0) },
                                                         diagnostic: { Console.diagnostic($0) })
        if summary.failed > 0 { throw .init(.failure, "") }
    }
}

/// stdout for results, stderr for diagnostics as `camstamp: WHAT: REASON`. With `-q` only errors
/// are printed, and results asked for with `--json`.
enum Console {
    /// `--json` was given: its output is what was asked for, `-q` or not.
    nonisolated(unsafe) static var keepsOutput = false

    /// A result line on stdout; `always` for what was asked for by name (help, version).
    static func output(_ text: String, always: Bool = false) {
        guard always || keepsOutput || !Verbosity.isQuiet else { return }
        FileHandle.standardOutput.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }

    /// A line of information on stderr, not an error (a stream's summary); none with `-q`.
    static func note(_ text: String) {
        guard !Verbosity.isQuiet else { return }
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// A line a job wrote for stderr (a failed photo): printed even with `-q`, since a job holds
    /// back its own warnings and summary when quiet.
    static func diagnostic(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    static func error(_ message: String) {
        FileHandle.standardError.write(Data("camstamp: \(message)\n".utf8))
    }
}
