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
    public static func decode(_ data: Data, source: URL? = nil, base: URL? = nil,
                              knownVariables: Set<String> = []) throws(PresetError) -> Preset {
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
              case .object(let entries) = variables.value.value else { return [] }
        return Set(entries.map(\.key))
    }
}

/// The file's bytes, or a `PresetError` saying why they cannot be read.
func readPresetFile(_ url: URL) throws(PresetError) -> Data {
    let kind = PathKind(of: url)
    guard kind != .missing else {
        throw PresetError(.notFound, "no such preset file", file: url.path)
    }
    guard kind != .folder else {
        throw PresetError(.unreadable, "is a folder, not a preset file", file: url.path)
    }
    do {
        return try Data(contentsOf: url)
    } catch {
        throw PresetError(.unreadable, "cannot read the preset file (permission denied?)", file: url.path)
    }
}

/// Turns a `JSONNode` tree into a `Preset`, one key at a time, so every message can name the
/// key's path and line. Ranges and cross-field rules are left to `Preset.validate()`.
final class PresetDecoder {
    let file: String?
    let baseDirectory: URL
    /// The line of every path visited, so errors from `validate()` can be placed in the file.
    private var lines: [String: Int] = [:]

    static let presetKeys = ["name", "description", "variables", "marks"]
    static let markKeys = ["text", "image", "font", "font-file", "weight", "size", "color", "outline", "shadow",
                           "box", "align", "max-width", "markup", "anchor", "margin", "offset", "rotate",
                           "opacity", "tile", "width", "height"]
    static let textOnlyKeys: Set<String> = ["font", "font-file", "weight", "size", "color", "outline", "shadow",
                                            "box", "align", "max-width", "markup"]
    static let imageOnlyKeys = ["width", "height"]
    static let lengthExample = "a length like 24, \"24px\" or \"4%\""

    /// Defaults for sub-objects whose fields are left out.
    static let defaultOutline = Outline(color: Color(red: 0, green: 0, blue: 0, alpha: 0.7), width: .percent(0.25))
    static let defaultShadow = Shadow(color: Color(red: 0, green: 0, blue: 0, alpha: 0.5),
                                      offset: LengthPair(both: .percent(0.2)), blur: .percent(0.3))
    static let defaultBox = Box(color: Color(red: 0, green: 0, blue: 0, alpha: 0.35), padding: .percent(1), radius: .px(0))
    static let defaultTile = Tile(gap: .percent(10))

    init(source: URL?, base: URL? = nil) {
        file = source?.path
        baseDirectory = base ?? source?.deletingLastPathComponent()
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

    private func error(_ kind: PresetError.Kind, _ message: String, at path: String, line: Int?, hint: String? = nil) -> PresetError {
        PresetError(kind, message, path: path, hint: hint, file: file, line: line)
    }

    func document(_ data: Data) throws(PresetError) -> JSONNode {
        do {
            return try JSONReader.parse(data)
        } catch {
            throw PresetError(.invalidJSON, "invalid JSON: \(error.message) (column \(error.column))",
                              file: file, line: error.line)
        }
    }

    // MARK: Shapes

    /// The members of an object, after checking that every key is one of `keys`.
    private func object(_ node: JSONNode, _ path: String, keys: [String], what: String) throws(PresetError) -> [String: JSONNode] {
        lines[path] = node.line
        guard case .object(let members) = node.value else {
            throw error(.wrongType, "\(what) must be an object, not \(node.typeName)", at: path, line: node.line)
        }
        var result: [String: JSONNode] = [:]
        for member in members {
            guard keys.contains(member.key) else {
                throw error(.unknownKey, "unknown key '\(member.key)'", at: path, line: member.keyLine,
                            hint: didYouMean(member.key, in: keys) ?? "valid keys are \(keys.joined(separator: ", "))")
            }
            lines[path + "." + member.key] = member.value.line
            result[member.key] = member.value
        }
        return result
    }

    private func string(_ node: JSONNode, _ path: String, _ key: String) throws(PresetError) -> String {
        guard case .string(let text) = node.value else {
            throw error(.wrongType, "\(key) must be a string, not \(node.typeName)", at: path, line: node.line)
        }
        return text
    }

    private func number(_ node: JSONNode, _ path: String, _ message: String) throws(PresetError) -> Double {
        guard case .number(let value) = node.value else {
            throw error(.wrongType, message, at: path, line: node.line)
        }
        return value
    }

    private func length(_ node: JSONNode, _ path: String, _ key: String) throws(PresetError) -> Length {
        switch node.value {
        case .number(let value): return .px(value)
        case .string(let text):
            if let length = Length(parsing: text) { return length }
        default: break
        }
        throw error(.wrongType, "\(key) must be \(Self.lengthExample)", at: path, line: node.line)
    }

    /// `[x, y]`, or (when `single`) one length for both.
    private func lengthPair(_ node: JSONNode, _ path: String, _ key: String, single: Bool) throws(PresetError) -> LengthPair {
        if case .array(let items) = node.value {
            guard items.count == 2 else {
                throw error(.wrongType, "\(key) must be [x, y], two lengths, not \(items.count)", at: path, line: node.line)
            }
            return LengthPair(x: try length(items[0], path + "[0]", key), y: try length(items[1], path + "[1]", key))
        }
        guard single else {
            throw error(.wrongType, "\(key) must be [x, y] with lengths like 24, \"24px\" or \"4%\"", at: path, line: node.line)
        }
        switch node.value {
        case .number, .string: return LengthPair(both: try length(node, path, key))
        default:
            throw error(.wrongType, "\(key) must be \(Self.lengthExample), or [x, y]", at: path, line: node.line)
        }
    }

    private func color(_ node: JSONNode, _ path: String, _ key: String) throws(PresetError) -> Color {
        guard case .string(let text) = node.value else {
            throw error(.wrongType, "\(key) must be a colour in quotes: #RGB, #RRGGBB or #RRGGBBAA, not \(node.typeName)",
                        at: path, line: node.line)
        }
        guard let color = Color(hex: text) else {
            throw error(.badColor, "\(key) must be #RGB, #RRGGBB or #RRGGBBAA, not '\(text)'", at: path, line: node.line,
                        hint: text.hasPrefix("#") ? nil : "write e.g. \"#FFFFFF\" for white")
        }
        return color
    }

    private func bool(_ node: JSONNode, _ path: String, _ key: String) throws(PresetError) -> Bool {
        guard case .bool(let value) = node.value else {
            throw error(.wrongType, "\(key) must be true or false, not \(node.typeName)", at: path, line: node.line)
        }
        return value
    }

    /// `false`/`null` turn a sub-object off, `true` asks for its defaults, an object sets fields.
    private func optionalObject(_ node: JSONNode, _ path: String, _ key: String, keys: [String],
                                example: String) throws(PresetError) -> [String: JSONNode]? {
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
                throw error(.wrongType, "variables must be an object of names and strings, like {\"author\": \"Your Name\"}",
                            at: "$.variables", line: node.line)
            }
            for entry in entries {
                let path = "$.variables.\(entry.key)"
                lines[path] = entry.keyLine
                switch entry.value.value {
                case .string(let text): variables[entry.key] = text
                case .number(let number): variables[entry.key] = Template.formatFPS(number)
                default:
                    throw error(.wrongType, "variable '\(entry.key)' must be a string, not \(entry.value.typeName)",
                                at: path, line: entry.value.line)
                }
            }
        }
        guard let marksNode = members["marks"] else {
            throw error(.missingKey, "missing key 'marks'", at: "$", line: root.line,
                        hint: "a preset needs a list of marks, like \"marks\": [{\"text\": \"© {author}\"}]")
        }
        lines["$.marks"] = marksNode.line
        guard case .array(let items) = marksNode.value else {
            throw error(.wrongType, "marks must be an array of marks, not \(marksNode.typeName)", at: "$.marks", line: marksNode.line)
        }
        var marks: [Mark] = []
        for (index, item) in items.enumerated() {
            marks.append(try mark(item, "$.marks[\(index)]"))
        }
        return Preset(name: name, description: description, variables: variables, marks: marks)
    }

    // MARK: Mark

    func mark(_ node: JSONNode, _ path: String) throws(PresetError) -> Mark {
        let members = try object(node, path, keys: Self.markKeys, what: "a mark")
        let content: MarkContent
        switch (members["text"], members["image"]) {
        case (.some, .some):
            throw error(.content, "a mark has either 'text' or 'image', not both", at: path, line: node.line,
                        hint: "split it into two marks")
        case (nil, nil):
            throw error(.content, "a mark needs 'text' or 'image'", at: path, line: node.line)
        case (let text?, nil):
            content = .text(try string(text, path + ".text", "text"))
            for key in Self.imageOnlyKeys where members[key] != nil {
                throw error(.content, "'\(key)' applies to image marks only", at: "\(path).\(key)",
                            line: members[key]!.line, hint: "use 'size' for text, and 'max-width' to wrap it")
            }
        case (nil, let image?):
            let written = try string(image, path + ".image", "image")
            guard !written.isEmpty else {
                throw error(.content, "image must be a path to a PNG or SVG file", at: path + ".image", line: image.line)
            }
            content = .image(resolve(written))
            for key in Self.markKeys where Self.textOnlyKeys.contains(key) && members[key] != nil {
                throw error(.content, "'\(key)' applies to text marks only", at: "\(path).\(key)", line: members[key]!.line)
            }
        }
        var mark = Mark(content: content)
        for key in Self.markKeys {
            guard let value = members[key] else { continue }
            let at = "\(path).\(key)"
            switch key {
            case "font": mark.font = try string(value, at, key)
            case "font-file": mark.fontFile = resolve(try string(value, at, key))
            case "weight": mark.weight = try weight(value, at)
            case "size": mark.size = try length(value, at, key)
            case "color": mark.color = try color(value, at, key)
            case "outline": mark.outline = try outline(value, at)
            case "shadow": mark.shadow = try shadow(value, at)
            case "box": mark.box = try box(value, at)
            case "align": mark.align = try align(value, at)
            case "max-width": mark.maxWidth = try length(value, at, key)
            case "markup": mark.markup = try bool(value, at, key)
            case "anchor": mark.anchor = try anchor(value, at)
            case "margin": mark.margin = try lengthPair(value, at, key, single: true)
            case "offset": mark.offset = try lengthPair(value, at, key, single: false)
            case "rotate": mark.rotate = try number(value, at, "rotate must be a number of degrees, like -30")
            case "opacity": mark.opacity = try number(value, at, "opacity must be a number between 0 and 1")
            case "tile": mark.tile = try tile(value, at)
            case "width": mark.width = try length(value, at, key)
            case "height": mark.height = try length(value, at, key)
            default: break  // text and image: done above
            }
        }
        return mark
    }

    private func resolve(_ path: String) -> URL {
        let expanded = path.hasPrefix("~/") ? NSString(string: path).expandingTildeInPath : path
        return URL(fileURLWithPath: expanded, relativeTo: baseDirectory).standardizedFileURL.absoluteURL
    }

    private func weight(_ node: JSONNode, _ path: String) throws(PresetError) -> FontWeight {
        let valid = "thin, light, normal, medium, semibold, bold, heavy, black or a number from 100 to 900"
        switch node.value {
        case .string(let name):
            if let weight = FontWeight(name: name) { return weight }
            throw error(.badValue, "weight must be \(valid), not '\(name)'", at: path, line: node.line,
                        hint: didYouMean(name, in: FontWeight.names.map(\.key)))
        case .number(let value):
            guard value == value.rounded(), (100...900).contains(value) else {
                throw error(.outOfRange, "weight must be between 100 and 900", at: path, line: node.line)
            }
            return FontWeight(Int(value))
        default:
            throw error(.wrongType, "weight must be \(valid), not \(node.typeName)", at: path, line: node.line)
        }
    }

    private func anchor(_ node: JSONNode, _ path: String) throws(PresetError) -> Anchor {
        let names = Anchor.allCases.map(\.rawValue)
        guard case .string(let text) = node.value, let anchor = Anchor(rawValue: text) else {
            let written = if case .string(let text) = node.value { "'\(text)'" } else { node.typeName }
            let hint = if case .string(let text) = node.value { didYouMean(text, in: names) } else { String?.none }
            throw error(.badAnchor, "anchor must be one of \(names.joined(separator: ", ")), not \(written)",
                        at: path, line: node.line, hint: hint)
        }
        return anchor
    }

    private func align(_ node: JSONNode, _ path: String) throws(PresetError) -> TextAlign {
        guard case .string(let text) = node.value, let align = TextAlign(rawValue: text) else {
            let written = if case .string(let text) = node.value { "'\(text)'" } else { node.typeName }
            throw error(.badValue, "align must be left, center or right, not \(written)", at: path, line: node.line)
        }
        return align
    }

    private func outline(_ node: JSONNode, _ path: String) throws(PresetError) -> Outline? {
        guard let fields = try optionalObject(node, path, "outline", keys: ["color", "width"],
                                              example: "{\"color\": \"#000000B3\", \"width\": \"0.25%\"}") else { return nil }
        var outline = Self.defaultOutline
        if let value = fields["color"] { outline.color = try color(value, path + ".color", "color") }
        if let value = fields["width"] { outline.width = try length(value, path + ".width", "width") }
        return outline
    }

    private func shadow(_ node: JSONNode, _ path: String) throws(PresetError) -> Shadow? {
        guard let fields = try optionalObject(node, path, "shadow", keys: ["color", "offset", "blur"],
                                              example: "{\"color\": \"#00000080\", \"offset\": [\"0.2%\", \"0.2%\"], \"blur\": \"0.3%\"}")
        else { return nil }
        var shadow = Self.defaultShadow
        if let value = fields["color"] { shadow.color = try color(value, path + ".color", "color") }
        if let value = fields["offset"] { shadow.offset = try lengthPair(value, path + ".offset", "offset", single: false) }
        if let value = fields["blur"] { shadow.blur = try length(value, path + ".blur", "blur") }
        return shadow
    }

    private func box(_ node: JSONNode, _ path: String) throws(PresetError) -> Box? {
        guard let fields = try optionalObject(node, path, "box", keys: ["color", "padding", "radius"],
                                              example: "{\"color\": \"#00000059\", \"padding\": \"1%\", \"radius\": 0}")
        else { return nil }
        var box = Self.defaultBox
        if let value = fields["color"] { box.color = try color(value, path + ".color", "color") }
        if let value = fields["padding"] { box.padding = try length(value, path + ".padding", "padding") }
        if let value = fields["radius"] { box.radius = try length(value, path + ".radius", "radius") }
        return box
    }

    private func tile(_ node: JSONNode, _ path: String) throws(PresetError) -> Tile? {
        guard let fields = try optionalObject(node, path, "tile", keys: ["gap"], example: "{\"gap\": \"12%\"}") else { return nil }
        var tile = Self.defaultTile
        if let value = fields["gap"] { tile.gap = try length(value, path + ".gap", "gap") }
        return tile
    }
}
