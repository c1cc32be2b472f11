// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// Where a preset comes from when a program, not a command line, names it: the library's own
/// names and files, JSON it holds in memory, or a `Preset` value it built.
public enum PresetSource: Hashable, Sendable {
    /// A shipped or user preset by name (`credit`), or a path to a JSON file, as `--preset` takes.
    case named(String)
    /// Preset JSON held in memory. `base` is the folder relative `image` and `font-file` paths
    /// start from (the current directory when nil).
    case json(Data, base: URL? = nil)
    /// A preset value, validated again when loaded.
    case preset(Preset)

    /// Preset JSON given as text (see `json(_:base:)`).
    public static func json(_ text: String, base: URL? = nil) -> PresetSource {
        .json(Data(text.utf8), base: base)
    }
}

extension PresetLibrary {
    /// Loads and validates `sources` in order, each kept apart (see `loadEach(stacking:knownVariables:)`):
    /// a text in one may use a variable another declares; `knownVariables` are set from elsewhere.
    public func loadEach(_ sources: [PresetSource], knownVariables: Set<String> = []) throws(PresetError) -> [Preset] {
        enum Loaded { case data(Data, source: URL?, base: URL?), value(Preset) }
        var loaded: [Loaded] = []
        var names = knownVariables
        for source in sources {
            switch source {
            case .named(let nameOrPath):
                let url = try url(for: nameOrPath)
                let data = try readPresetFile(url)
                names.formUnion(Preset.declaredVariables(in: data))
                loaded.append(.data(data, source: url, base: nil))
            case .json(let data, let base):
                names.formUnion(Preset.declaredVariables(in: data))
                loaded.append(.data(data, source: nil, base: base))
            case .preset(let preset):
                names.formUnion(preset.variables.keys)
                loaded.append(.value(preset))
            }
        }
        var presets: [Preset] = []
        for entry in loaded {
            switch entry {
            case .data(let data, let source, let base):
                presets.append(try Preset.decode(data, source: source, base: base, knownVariables: names))
            case .value(let preset):
                try preset.validate(knownVariables: names)
                presets.append(preset)
            }
        }
        return presets
    }
}
