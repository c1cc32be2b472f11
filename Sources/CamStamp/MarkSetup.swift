import Foundation
import Presets
import Render

/// Turns `--preset`, `--text` and `--var` into one stacked preset and the variables it sees,
/// with every template checked before any camera or file is touched.
public enum MarkSetup {
    public static func preset(names: [String], text: String?, variables: [VariableAssignment],
                              resources: Resources?) throws(CamStampError) -> (preset: Preset, variables: [String: String]) {
        let overrides = Dictionary(variables.map { ($0.key, $0.value) }, uniquingKeysWith: { _, later in later })
        let library = PresetLibrary(directories: resources.map { [$0.presets] } ?? [])
        var presets: [Preset] = []
        do {
            if !names.isEmpty {
                presets.append(try library.load(stacking: names, knownVariables: Set(overrides.keys)))
            }
            if let text {
                let known = Set(overrides.keys).union(presets.flatMap(\.variables.keys))
                _ = try Template(text, variables: known)
                presets.append(.quickText(text))
            }
        } catch {
            throw .usage(error.description)
        }
        if presets.isEmpty {
            throw .usage("nothing to stamp: give --preset NAME or --text TEXT (`camstamp presets list` shows the presets)")
        }
        try registerFonts(resources)
        return (Preset.stacking(presets), overrides)
    }

    /// Registers the bundled fonts with fontconfig before the first Pango call.
    static func registerFonts(_ resources: Resources?) throws(CamStampError) {
        let directory = ProcessInfo.processInfo.environment[Fonts.environmentVariable].map { URL(fileURLWithPath: $0) }
            ?? resources?.fonts
        guard let directory, FileManager.default.fileExists(atPath: directory.path) else { return }
        do {
            try Fonts.registerBundled(directory: directory)
        } catch {
            throw .failure("fonts: \(error)")
        }
    }
}
