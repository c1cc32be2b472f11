import Foundation

extension Preset {
    /// The preset as JSON with every default filled in, keys in the order product.md lists them:
    /// what `camstamp presets show` prints, so a user sees every knob a mark has. Image and font
    /// paths inside the preset's folder are written relative to it. Reading the output back gives
    /// the same preset.
    public func resolvedJSON() -> String {
        var lines: [String] = ["{"]
        var top: [String] = ["  \"name\": \(quoted(name))", "  \"description\": \(quoted(description))"]
        let variableText = variables.keys.sorted().map { "\(quoted($0)): \(quoted(variables[$0]!))" }
        top.append("  \"variables\": {" + (variableText.isEmpty ? "" : " " + variableText.joined(separator: ", ") + " ") + "}")
        let markText = marks.map { "    {\n" + fields(of: $0).map { "      " + $0 }.joined(separator: ",\n") + "\n    }" }
        top.append("  \"marks\": [\n" + markText.joined(separator: ",\n") + "\n  ]")
        lines.append(top.joined(separator: ",\n"))
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    private func fields(of mark: Mark) -> [String] {
        var out: [String] = []
        func add(_ key: String, _ value: String) { out.append("\(quoted(key)): \(value)") }
        switch mark.content {
        case .text(let text):
            add("text", quoted(text))
            if let font = mark.font { add("font", quoted(font)) }
            if let file = mark.fontFile { add("font-file", quoted(relative(file))) }
            let weightName = FontWeight.names.first { $0.value == mark.weight.value }?.key
            add("weight", weightName.map(quoted) ?? String(mark.weight.value))
            add("size", length(mark.size))
            add("color", quoted(mark.color.hexString))
            add("outline", mark.outline.map { "{ \"color\": \(quoted($0.color.hexString)), \"width\": \(length($0.width)) }" } ?? "null")
            add("shadow", mark.shadow.map {
                "{ \"color\": \(quoted($0.color.hexString)), \"offset\": \(pair($0.offset)), \"blur\": \(length($0.blur)) }"
            } ?? "null")
            add("box", mark.box.map {
                "{ \"color\": \(quoted($0.color.hexString)), \"padding\": \(length($0.padding)), \"radius\": \(length($0.radius)) }"
            } ?? "null")
            add("align", quoted(mark.align.rawValue))
            if let maxWidth = mark.maxWidth { add("max-width", length(maxWidth)) }
            add("markup", String(mark.markup))
        case .image(let url):
            add("image", quoted(relative(url)))
            if let width = mark.width { add("width", length(width)) }
            if let height = mark.height { add("height", length(height)) }
        }
        add("anchor", quoted(mark.anchor.rawValue))
        add("margin", pair(mark.margin))
        add("offset", pair(mark.offset))
        add("rotate", mark.rotate.plainDecimal)
        add("opacity", mark.opacity.plainDecimal)
        if let tile = mark.tile { add("tile", "{ \"gap\": \(length(tile.gap)) }") }
        return out
    }

    private func length(_ length: Length) -> String { quoted(length.description) }
    private func pair(_ pair: LengthPair) -> String { "[\(length(pair.x)), \(length(pair.y))]" }

    /// A path relative to the preset's folder when it lies inside it.
    private func relative(_ url: URL) -> String {
        guard let folder = source?.deletingLastPathComponent().standardizedFileURL.path else { return url.path }
        let path = url.standardizedFileURL.path
        return path.hasPrefix(folder + "/") ? String(path.dropFirst(folder.count + 1)) : path
    }
}

/// A JSON string literal.
func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}
