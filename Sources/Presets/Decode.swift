// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

extension Preset {
    /// Reads, decodes and validates the preset file at `url`. `knownVariables` are names that will
    /// be set from elsewhere (`--var`, other stacked presets) and so are not "unknown".
    public static func load(contentsOf url: URL, knownVariables: Set<String> = []) throws(PresetError) -> Preset {
        try decode(readPresetFile(url), source: url, knownVariables: knownVariables)
    }

    /// Decodes and validates preset JSON. `source` names the file in errors and is the base of
    /// relative `image` and `font-file` paths; `base` sets that folder for JSON without a file
    /// (the current directory when both are nil).
    public static func decode(
        _ data: Data, source: URL? = nil, base: URL? = nil,
        knownVariables: Set<String> = []
    ) throws(PresetError) -> Preset {
        let decoder = PresetDecoder(source: source, base: base)
        let root = try decoder.document(data)
        var preset = try decoder.preset(root)
        preset.source = source?.standardizedFileURL
        do {
            try preset.validate(knownVariables: knownVariables)
        } catch {
            throw error.located(file: decoder.file, line: decoder.line(for: error.path))
        }
        return preset
    }

    /// The names in the `variables` object of preset JSON, or none if it does not parse; for
    /// stacking, where one preset's text may use another's variables.
    static func declaredVariables(in data: Data) -> Set<String> {
        guard let root = try? JSONReader.parse(data), case .object(let members) = root.value,
            let variables = members.first(where: { $0.key == "variables" }),
            case .object(let entries) = variables.value.value
        else { return [] }
        return Set(entries.map(\.key))
    }
}

/// The largest preset file read (docs/presets.md, "Limits").
let maxPresetBytes = 4 << 20

/// The file's bytes, or a `PresetError` saying why they cannot be read. Only a regular file is
/// read (see `RegularFile`): a FIFO as the preset would otherwise wait for a writer forever.
func readPresetFile(_ url: URL) throws(PresetError) -> Data {
    do {
        // A preset is small JSON: a large file (a sparse one, a photo given by mistake) is not
        // read whole into memory to find that out.
        return try RegularFile.contents(of: url, limit: maxPresetBytes)
    } catch {
        switch error {
        case .missing: throw PresetError(.notFound, "no such preset file", file: url.path)
        case .folder: throw PresetError(.unreadable, "is a folder, not a preset file", file: url.path)
        case .notRegular, .tooLarge:
            throw PresetError(.unreadable, error.description, hint: "give a preset file (.json)", file: url.path)
        case .failed(let reason):
            throw PresetError(.unreadable, "cannot read the preset file (\(reason))", file: url.path)
        }
    }
}

/// Turns a `JSONNode` tree into a `Preset`, one key at a time (a mark's keys as `Mark.keys` reads
/// them), so every message can name the key's path and line. Ranges and cross-field rules are left
/// to `Preset.validate()`.
final class PresetDecoder {
    let file: String?
    let baseDirectory: URL
    /// The line of every path visited, so errors from `validate()` can be placed in the file.
    private var lines: [String: Int] = [:]

    static let presetKeys = ["name", "description", "variables", "marks"]
    static let lengthExample = "a length like 24, \"24px\" or \"4%\""

    init(source: URL?, base: URL? = nil) {
        file = source?.path
        baseDirectory =
            base ?? source?.deletingLastPathComponent()
            ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
    }

    /// The line of `path`, or of its nearest recorded ancestor.
    func line(for path: String) -> Int? {
        var path = path
        while !path.isEmpty {
            if let line = lines[path] { return line }
            guard let cut = path.lastIndex(where: { $0 == "." || $0 == "[" }) else { break }
            path = String(path[..<cut])
        }
        return lines["$"]
    }

    func error(
        _ kind: PresetError.Kind, _ message: String, at path: String, line: Int?, hint: String? = nil
    ) -> PresetError {
        PresetError(kind, message, path: path, hint: hint, file: file, line: line)
    }

    func document(_ data: Data) throws(PresetError) -> JSONNode {
        do {
            return try JSONReader.parse(data)
        } catch {
            throw PresetError(
                .invalidJSON, "invalid JSON: \(error.message) (column \(error.column))",
                file: file, line: error.line)
        }
    }

    // MARK: Shapes

    /// The members of an object, after checking that every key is one of `keys`.
    private func object(
        _ node: JSONNode, _ path: String, keys: [String], what: String
    ) throws(PresetError) -> [String: JSONNode] {
        lines[path] = node.line
        guard case .object(let members) = node.value else {
            throw error(.wrongType, "\(what) must be an object, not \(node.typeName)", at: path, line: node.line)
        }
        var result: [String: JSONNode] = [:]
        for member in members {
            guard keys.contains(member.key) else {
                throw error(
                    .unknownKey, "unknown key '\(member.key)'", at: path, line: member.keyLine,
                    hint: didYouMean(member.key, in: keys) ?? "valid keys are \(keys.joined(separator: ", "))")
            }
            lines[path + "." + member.key] = member.value.line
            result[member.key] = member.value
        }
        return result
    }

    func string(_ node: JSONNode, _ path: String, _ key: String) throws(PresetError) -> String {
        guard case .string(let text) = node.value else {
            throw error(.wrongType, "\(key) must be a string, not \(node.typeName)", at: path, line: node.line)
        }
        return text
    }

    func number(_ node: JSONNode, _ path: String, _ message: String) throws(PresetError) -> Double {
        guard case .number(let value) = node.value else {
            throw error(.wrongType, message, at: path, line: node.line)
        }
        return value
    }

    func length(_ node: JSONNode, _ path: String, _ key: String) throws(PresetError) -> Length {
        switch node.value {
        case .number(let value): return .px(value)
        case .string(let text):
            if let length = Length(parsing: text) { return length }
        default: break
        }
        throw error(.wrongType, "\(key) must be \(Self.lengthExample)", at: path, line: node.line)
    }

    /// `[x, y]`, or (when `single`) one length for both.
    func lengthPair(_ node: JSONNode, _ path: String, _ key: String, single: Bool) throws(PresetError) -> LengthPair {
        if case .array(let items) = node.value {
            guard items.count == 2 else {
                throw error(
                    .wrongType, "\(key) must be [x, y], two lengths, not \(items.count)", at: path, line: node.line)
            }
            return LengthPair(x: try length(items[0], path + "[0]", key), y: try length(items[1], path + "[1]", key))
        }
        guard single else {
            throw error(
                .wrongType, "\(key) must be [x, y] with lengths like 24, \"24px\" or \"4%\"", at: path, line: node.line)
        }
        switch node.value {
        case .number, .string: return LengthPair(both: try length(node, path, key))
        default:
            throw error(.wrongType, "\(key) must be \(Self.lengthExample), or [x, y]", at: path, line: node.line)
        }
    }

    func color(_ node: JSONNode, _ path: String, _ key: String) throws(PresetError) -> Color {
        guard case .string(let text) = node.value else {
            throw error(
                .wrongType, "\(key) must be a colour in quotes: #RGB, #RRGGBB or #RRGGBBAA, not \(node.typeName)",
                at: path, line: node.line)
        }
        guard let color = Color(hex: text) else {
            throw error(
                .badColor, "\(key) must be #RGB, #RRGGBB or #RRGGBBAA, not '\(text)'", at: path, line: node.line,
                hint: text.hasPrefix("#") ? nil : "write e.g. \"#FFFFFF\" for white")
        }
        return color
    }

    func bool(_ node: JSONNode, _ path: String, _ key: String) throws(PresetError) -> Bool {
        guard case .bool(let value) = node.value else {
            throw error(.wrongType, "\(key) must be true or false, not \(node.typeName)", at: path, line: node.line)
        }
        return value
    }

    /// `false`/`null` turn a sub-object off, `true` asks for its defaults, an object sets fields.
    func optionalObject(
        _ node: JSONNode, _ path: String, _ key: String, keys: [String],
        example: String
    ) throws(PresetError) -> [String: JSONNode]? {
        switch node.value {
        case .null, .bool(false): return nil
        case .bool(true): return [:]
        case .object: return try object(node, path, keys: keys, what: key)
        default:
            throw error(.wrongType, "\(key) must be an object like \(example), or false", at: path, line: node.line)
        }
    }

    // MARK: Preset

    func preset(_ root: JSONNode) throws(PresetError) -> Preset {
        let members = try object(root, "$", keys: Self.presetKeys, what: "a preset")
        var name = file.map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent } ?? "preset"
        if let node = members["name"] { name = try string(node, "$.name", "name") }
        var description = ""
        if let node = members["description"] { description = try string(node, "$.description", "description") }
        var variables: [String: String] = [:]
        if let node = members["variables"] {
            guard case .object(let entries) = node.value else {
                throw error(
                    .wrongType, "variables must be an object of names and strings, like {\"author\": \"Your Name\"}",
                    at: "$.variables", line: node.line)
            }
            for entry in entries {
                let path = "$.variables.\(entry.key)"
                lines[path] = entry.keyLine
                switch entry.value.value {
                case .string(let text): variables[entry.key] = text
                case .number(let number): variables[entry.key] = Template.formatFPS(number)
                default:
                    throw error(
                        .wrongType, "variable '\(entry.key)' must be a string, not \(entry.value.typeName)",
                        at: path, line: entry.value.line)
                }
            }
        }
        guard let marksNode = members["marks"] else {
            throw error(
                .missingKey, "missing key 'marks'", at: "$", line: root.line,
                hint: "a preset needs a list of marks, like \"marks\": [{\"text\": \"© {author}\"}]")
        }
        lines["$.marks"] = marksNode.line
        guard case .array(let items) = marksNode.value else {
            throw error(
                .wrongType, "marks must be an array of marks, not \(marksNode.typeName)", at: "$.marks",
                line: marksNode.line)
        }
        var marks: [Mark] = []
        for (index, item) in items.enumerated() {
            marks.append(try mark(item, "$.marks[\(index)]"))
        }
        return Preset(name: name, description: description, variables: variables, marks: marks)
    }

    // MARK: Mark

    func mark(_ node: JSONNode, _ path: String) throws(PresetError) -> Mark {
        let members = try object(node, path, keys: Mark.keyNames, what: "a mark")
        let content: MarkContent
        let given = Mark.contentKeys.filter { members[$0] != nil }
        guard given.count == 1, let kind = given.first, let value = members[kind] else {
            throw error(
                .content,
                given.isEmpty
                    ? "a mark needs 'text', 'image' or 'qr'"
                    : "a mark has one of 'text', 'image' or 'qr', not \(given.count)",
                at: path, line: node.line, hint: given.isEmpty ? nil : "split it into several marks")
        }
        switch kind {
        case "text":
            content = .text(try string(value, path + ".text", "text"))
            for key in Mark.keys where key.marks == .image {
                guard let value = members[key.name] else { continue }
                throw error(
                    .content, "'\(key.name)' applies to image and QR marks only", at: "\(path).\(key.name)",
                    line: value.line, hint: "use 'size' for text, and 'max-width' to wrap it")
            }
        default:
            let written = try string(value, path + "." + kind, kind)
            if kind == "qr" {
                content = .qr(written)
            } else {
                guard !written.isEmpty else {
                    throw error(
                        .content, "image must be a path to a PNG or SVG file", at: path + ".image", line: value.line)
                }
                content = .image(resolve(written))
            }
            for key in Mark.keys where key.marks == .text {
                guard let value = members[key.name] else { continue }
                throw error(
                    .content, "'\(key.name)' applies to text marks only", at: "\(path).\(key.name)", line: value.line)
            }
        }
        var mark = Mark(content: content)
        for key in Mark.keys {
            if let value = members[key.name] { try key.read(&mark, value, "\(path).\(key.name)", self) }
        }
        return mark
    }

    /// `path` as written in the preset: relative to its folder, `~/` for the home folder.
    func resolve(_ path: String) -> URL {
        let expanded = path.hasPrefix("~/") ? NSString(string: path).expandingTildeInPath : path
        return URL(fileURLWithPath: expanded, relativeTo: baseDirectory).standardizedFileURL.absoluteURL
    }

    func weight(_ node: JSONNode, _ path: String) throws(PresetError) -> FontWeight {
        let valid =
            FontWeight.names.map(\.key).joined(separator: ", ")
            + " or a number from \(FontWeight.range.lowerBound) to \(FontWeight.range.upperBound)"
        switch node.value {
        case .string(let name):
            if let weight = FontWeight(name: name) { return weight }
            throw error(
                .badValue, "weight must be \(valid), not '\(name)'", at: path, line: node.line,
                hint: didYouMean(name, in: FontWeight.names.map(\.key)))
        case .number(let value):
            guard let whole = Int(exactly: value), FontWeight.range.contains(whole) else {
                throw FontWeight.outOfRange(at: path).located(file: file, line: node.line)
            }
            return FontWeight(whole)
        default:
            throw error(.wrongType, "weight must be \(valid), not \(node.typeName)", at: path, line: node.line)
        }
    }
}
