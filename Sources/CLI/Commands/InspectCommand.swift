// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// `camstamp inspect`: its table, the options it builds, and how its results are printed.
import CamStamp
import Foundation
import Presets

extension Commands {
    /// `camstamp inspect FILE...`.
    enum Inspect {
        static let json = Flag(
            "json",
            help: "Print an array with one object per file read (size, orientation, variables, metadata, "
                + "path, reason), for scripts.")
        static let inspectPreset = Repeated<String>(
            "preset", value: "P",
            help: "The marks batch would draw (they decide which blocks a splice codes again); "
                + "default: \(InspectJob.defaultPreset).")

        static let spec = CommandSpec(
            "inspect",
            overview: "Show what camstamp sees in photos and clips and what batch would do with each.",
            arguments: [ArgumentSpec("FILE", arity: .oneOrMore, help: "Photos or video clips.")],
            keys: [
                inspectPreset, variable, Batch.format, Batch.quality, Batch.maxSize, Batch.reencode, Batch.invisible,
                json,
            ],
            discussion: "For each file: its format, size and orientation; the path batch would take "
                + "(spliced: only the MCUs under the marks coded again; coefficients: only the 8×8 blocks under "
                + "the marks changed; reencoded: decoded, marked and encoded again) and why; its metadata "
                + "blocks and whether a marked output carries each; and the template variables it fills. "
                + "Batch's --format, --quality, --max-size, --reencode and --invisible change the path as they "
                + "change batch's. Nothing is written. A file that cannot be read is one error line, after the "
                + "others; exit 1.")
    }

    static func inspectOptions(_ values: OptionValues) throws -> InspectOptions {
        var options = InspectOptions(files: values.positionals.map { URL(fileURLWithPath: $0) })
        options.json = values.get(Inspect.json)
        options.presets = try values.get(Inspect.inspectPreset)
        options.variables = try values.get(variable)
        options.format = try values.get(Batch.format) ?? .keep
        options.quality = try values.get(Batch.quality)
        options.maxSize = try values.get(Batch.maxSize)
        options.reencode = values.get(Batch.reencode)
        options.invisible = values.get(Batch.invisible)
        return options
    }
}

/// Runs `camstamp inspect`: a block per file (or one JSON array), then the files that could not
/// be read, each one error line; exit 1 when there was any.
enum InspectCommand {
    static func run(_ options: InspectOptions, output: JobOutput) throws(CamStampError) -> ExitCode {
        var inspections: [Inspection] = []
        var failures: [String] = []
        try InspectJob(options: options).run { url, result in
            switch result {
            case .success(let inspection):
                if options.json {
                    inspections.append(inspection)
                } else {
                    if !inspections.isEmpty { output.result("") }
                    output.result(inspection.text)
                    inspections.append(inspection)
                }
            case .failure(let error):
                failures.append("\(url.relativePath): \(error.message)")
            }
        }
        if options.json { output.result(jsonText(inspections)) }
        for failure in failures { output.error(failure) }
        return failures.isEmpty ? .success : .failure
    }
}
