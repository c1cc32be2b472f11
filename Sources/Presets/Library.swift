// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// The presets a user can name: `NAME.json` files in a list of folders, earlier folders first.
public struct PresetLibrary: Sendable {
    /// The folders searched for `NAME.json`, in order.
    public var directories: [URL]

    /// A library over `directories`, earlier folders first.
    public init(directories: [URL]) { self.directories = directories }

    /// Every preset by name with its description, sorted by name; a name found in two folders is
    /// listed once, from the first. A file that does not parse is listed with the reason.
    public func list() -> [(name: String, description: String)] {
        entries().map { ($0.name, $0.description) }
    }

    /// `list()` with the file each preset comes from and the folder (of `directories`) it is in.
    public func entries() -> [(name: String, description: String, file: URL, directory: URL)] {
        var seen: Set<String> = []
        var entries: [(name: String, description: String, file: URL, directory: URL)] = []
        for directory in directories {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            for file in files.sorted() where file.hasSuffix(".json") && !file.hasPrefix(".") {
                let name = String(file.dropLast(".json".count))
                guard seen.insert(name).inserted else { continue }
                let url = directory.appendingPathComponent(file)
                entries.append((name, Self.summary(of: url), url, directory))
            }
        }
        return entries.sorted { $0.name < $1.name }
    }

    /// The `description` of a preset file, read without validating the rest.
    private static func summary(of url: URL) -> String {
        guard let data = try? RegularFile.contents(of: url) else { return "(unreadable)" }
        do {
            let root = try JSONReader.parse(data)
            if case .object(let members) = root.value,
                let node = members.first(where: { $0.key == "description" }),
                case .string(let description) = node.value.value
            {
                return description
            }
            return ""
        } catch {
            return "(invalid JSON, line \(error.line))"
        }
    }

    /// Whether `nameOrPath` names a file rather than a library preset.
    public static func isPath(_ nameOrPath: String) -> Bool {
        nameOrPath.contains("/") || nameOrPath.hasSuffix(".json")
    }

    /// The file `nameOrPath` refers to: a path as is, or `NAME.json` in the first folder that has it.
    public func url(for nameOrPath: String) throws(PresetError) -> URL {
        if Self.isPath(nameOrPath) {
            let expanded = nameOrPath.hasPrefix("~/") ? NSString(string: nameOrPath).expandingTildeInPath : nameOrPath
            return URL(fileURLWithPath: expanded).standardizedFileURL
        }
        for directory in directories {
            let url = directory.appendingPathComponent(nameOrPath + ".json")
            if FileManager.default.fileExists(atPath: url.path) { return url.standardizedFileURL }
        }
        let names = list().map(\.name)
        let hint =
            didYouMean(nameOrPath, in: names)
            ?? (names.isEmpty
                ? "no presets found in \(directories.map(\.path).joined(separator: ", "))"
                : "available: \(names.joined(separator: ", "))")
        throw PresetError(.notFound, "no preset named '\(nameOrPath)'", hint: hint)
    }

    /// Loads and validates one preset by name or path; `knownVariables` are `--var` names.
    public func load(_ nameOrPath: String, knownVariables: Set<String> = []) throws(PresetError) -> Preset {
        try Preset.load(contentsOf: url(for: nameOrPath), knownVariables: knownVariables)
    }

    /// Loads several presets and stacks them in order (see `Preset.stacking`). A text in one may use
    /// a variable that another defines; `knownVariables` are `--var` names.
    public func load(stacking namesOrPaths: [String], knownVariables: Set<String> = []) throws(PresetError) -> Preset {
        Preset.stacking(try loadEach(stacking: namesOrPaths, knownVariables: knownVariables))
    }

    /// The presets `load(stacking:)` stacks, each still with its own `source` (so later checks
    /// can name the file a mark came from).
    public func loadEach(
        stacking namesOrPaths: [String], knownVariables: Set<String> = []
    ) throws(PresetError) -> [Preset] {
        try loadEach(namesOrPaths.map(PresetSource.named), knownVariables: knownVariables)
    }
}

extension Preset {
    /// `presets` drawn one after another: marks concatenated in order, variables merged (a later
    /// preset's value wins), names joined with "+".
    public static func stacking(_ presets: [Preset]) -> Preset {
        guard presets.count != 1 else { return presets[0] }
        var variables: [String: String] = [:]
        for preset in presets { variables.merge(preset.variables) { _, later in later } }
        return Preset(
            name: presets.map(\.name).joined(separator: "+"),
            description: presets.map(\.description).filter { !$0.isEmpty }.joined(separator: "; "),
            variables: variables, marks: presets.flatMap(\.marks))
    }
}
