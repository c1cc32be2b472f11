// Runs a parsed command: the only place that prints results and maps failures to exit codes.
import CamStamp
import Foundation
import Media
import Presets

/// Runs camstamp with `arguments` (without the program name) and returns the exit code.
public func runCommandLine(_ arguments: [String]) -> ExitCode {
    let command: ParsedCommand
    do {
        command = try parseCommandLine(arguments)
    } catch {
        Console.error(error.message)
        return .usage
    }
    do {
        try run(command)
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

private func run(_ command: ParsedCommand) throws(CamStampError) {
    switch command {
    case .help(let text):
        Console.output(text)
    case .version:
        Console.output("camstamp \(camstampVersion) (GStreamer \(GStreamer.version))")
    case .shoot(let options):
        let file = try ShootJob(options: options).run(interrupts: .shared)
        // With -o - stdout holds the photo and nothing else.
        if !options.toStandardOutput { Console.output(file.path) }
    case .camera(let options):
        try CameraJob(options: options).run(interrupts: .shared, report: { Console.output($0) })
    case .devices(let options):
        try DevicesCommand.run(json: options.json)
    case .presetsList, .presetsShow, .presetsCheck:
        try PresetsCommand.run(command)
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
                                                         diagnostic: { Console.note($0) })
        if summary.failed > 0 { throw .init(.failure, "") }
    }
}

/// stdout for results, stderr for diagnostics as `camstamp: WHAT: REASON`.
enum Console {
    static func output(_ text: String) {
        FileHandle.standardOutput.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }

    /// A line of information on stderr, not an error (a stream's summary).
    static func note(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    static func error(_ message: String) {
        FileHandle.standardError.write(Data("camstamp: \(message)\n".utf8))
    }
}
