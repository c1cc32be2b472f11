// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// What every job's options are assembled from: the marks, the source, files and folders.
import CamStamp
import Foundation
import Presets

extension Commands {
    /// `--preset`, `--text` and `--var`, which every job takes.
    static func applyMarks(_ values: OptionValues, to options: inout some MarkedOptions) throws {
        options.presets = try values.get(preset)
        options.text = try values.get(text)
        options.variables = try values.get(variable)
    }

    /// `--source` and the marks: the start of shoot's, stream's and camera's tables (`markedCapture`).
    static func applyMarkedCapture(_ values: OptionValues, to options: inout some CapturedOptions) throws {
        if let source = try values.get(source) { options.source = source }
        try applyMarks(values, to: &options)
    }

    /// Whether `url` names a folder: an existing one, or a path ending in `/`.
    static func isFolder(_ url: URL) -> Bool {
        url.hasDirectoryPath || PathKind(of: url) == .folder
    }

    /// A path that must name an existing file.
    static func existingFile(_ path: String, option: String) throws -> URL {
        guard PathKind(atPath: path) == .file else {
            throw OptionValueError("'\(option)' file '\(path)' does not exist")
        }
        return URL(fileURLWithPath: path)
    }
}

/// The options of a job that marks: what `applyMarks` sets.
protocol MarkedOptions {
    var presets: [String] { get set }
    var text: String? { get set }
    var variables: [VariableAssignment] { get set }
}

/// The options of a job that marks frames from a source: what `applyMarkedCapture` sets.
protocol CapturedOptions: MarkedOptions {
    var source: SourceSpec { get set }
}

extension BatchOptions: MarkedOptions {}
extension ShootOptions: CapturedOptions {}
extension StreamOptions: CapturedOptions {}
extension CameraOptions: CapturedOptions {}
