// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Presets
internal import Render

/// Turns `--preset`, `--text` and `--var` into one stacked preset and the variables it sees,
/// with every template checked before any camera or file is touched.
public enum MarkSetup {
    /// The stacked preset of `names` (shipped names or JSON paths) then `text`, and the `--var`
    /// values the marks see; a usage error names the preset, JSON path and fix.
    public static func preset(
        names: [String], text: String?, variables: [VariableAssignment],
        resources: Resources?
    ) throws(CamStampError) -> (preset: Preset, variables: [String: String]) {
        try preset(sources: names.map(PresetSource.named), text: text, variables: variables, resources: resources)
    }

    /// `preset(names:text:variables:resources:)` for presets given by name, JSON or value, in order.
    public static func preset(
        sources: [PresetSource], text: String?, variables: [VariableAssignment],
        resources: Resources?
    ) throws(CamStampError) -> (preset: Preset, variables: [String: String]) {
        let overrides = Dictionary(variables.map { ($0.key, $0.value) }, uniquingKeysWith: { _, later in later })
        let library = PresetFolders.library(resources: resources)
        var presets: [Preset] = []
        do throws(PresetError) {
            if !sources.isEmpty {
                presets += try library.loadEach(sources, knownVariables: Set(overrides.keys))
                for preset in presets { Verbosity.log("preset \(preset.name): \(preset.source?.path ?? "built in")") }
            }
            if let text {
                let known = Set(overrides.keys).union(presets.flatMap(\.variables.keys))
                _ = try Template(text, variables: known)
                let quick = Preset.quickText(text)
                do throws(PresetError) {
                    try quick.validate(knownVariables: known)
                } catch {
                    // The same rules as a preset's text (length, NUL), said of the option.
                    throw PresetError(error.kind, "--text: \(error.message)", hint: error.hint)
                }
                presets.append(quick)
            }
        } catch {
            // A shipped name is not found because the shipped files are not: say where they were looked for.
            if error.kind == .notFound && resources == nil {
                throw .usage("\(error.message); \(Resources.notFound().message)")
            }
            throw .usage(error.description)
        }
        if presets.isEmpty {
            throw .usage(
                "nothing to stamp: give --preset NAME or --text TEXT (`camstamp presets list` shows the presets)")
        }
        for (name, value) in overrides.sorted(by: { $0.key < $1.key }) where value.count > Mark.maxTextCharacters {
            throw .usage(
                "--var \(name): the value has \(value.count) characters, more than the \(Mark.maxTextCharacters) a mark can show"
            )
        }
        try registerFonts(resources)
        // What only rendering tells (a font-file that is no font, a logo too large to decode, a
        // mark too large or too densely tiled), once, at load time: exit 64 before any work.
        let renderer = MarkRenderer()
        for preset in presets {
            do {
                _ = try renderer.check(preset, variables: overrides, frames: [(1920, 1080)])
            } catch {
                throw .usage(
                    preset.source == nil
                        ? "--text: \(error.message)" + (error.hint.map { "; \($0)" } ?? "") : error.description)
            }
        }
        return (Preset.stacking(presets), overrides)
    }

    /// `camstamp presets check FILE`: loads and validates the preset, then draws every mark on
    /// `MarkRenderer.checkFrames`. Returns the warnings (characters no font has); throws a usage
    /// error naming the file and JSON path for anything that would fail later.
    public static func check(_ nameOrPath: String, resources: Resources?) throws(CamStampError) -> [String] {
        let library = PresetFolders.library(resources: resources)
        let preset: Preset
        do { preset = try library.load(nameOrPath) } catch { throw .usage(error.description) }
        try registerFonts(resources)
        do {
            return try MarkRenderer().check(preset).map(\.description)
        } catch {
            throw .usage(error.description)
        }
    }

    /// Registers the bundled fonts with fontconfig before the first Pango call.
    static func registerFonts(_ resources: Resources?) throws(CamStampError) {
        let directory = Resources.fontFolder(resources)
        guard let directory, FileManager.default.fileExists(atPath: directory.path) else { return }
        Verbosity.log("fonts: \(directory.path)")
        do {
            try Fonts.registerBundled(directory: directory)
        } catch {
            throw .failure("fonts: \(error)")
        }
    }
}
