import Foundation

extension Preset {
    /// Checks ranges and cross-field rules that decoding alone does not: sizes, opacity, files that
    /// must exist, and that every `{variable}` in a text is built in, a preset variable, or one of
    /// `knownVariables` (`--var` names, other stacked presets). Paths name the offending value.
    public func validate(knownVariables: Set<String> = []) throws(PresetError) {
        do {
            try checkVariables()
            let names = Set(variables.keys).union(knownVariables)
            for (index, mark) in marks.enumerated() {
                try mark.validate(at: "$.marks[\(index)]", variables: names)
            }
        } catch {
            throw error.located(file: source?.path, line: nil)
        }
    }

    private func checkVariables() throws(PresetError) {
        for name in variables.keys.sorted() {
            let path = "$.variables.\(name)"
            if Template.builtinNames.contains(name) {
                throw PresetError(.badValue, "variable '\(name)' is built in", path: path, hint: "pick another name")
            }
            guard !name.isEmpty, Self.isVariableName(name) else {
                throw PresetError(.badValue, "variable name '\(name)' may use only letters, digits, '_' and '-'", path: path)
            }
        }
    }

    /// Letters, digits, `_` and `-`: what `{name}` and `--var name=value` accept.
    public static func isVariableName(_ name: String) -> Bool {
        !name.isEmpty && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
    }

    /// The variables a template sees: this preset's `variables`, overridden by `overrides` (`--var`).
    public func variables(overriddenBy overrides: [String: String]) -> [String: String] {
        variables.merging(overrides) { _, override in override }
    }

    /// Whether any mark's text changes with the clock (a live stream re-expands it as time passes).
    public var dependsOnTime: Bool { marks.contains { $0.template?.dependsOnTime ?? false } }

    /// Whether any mark's text changes with every frame (`{frame}`).
    public var dependsOnFrame: Bool { marks.contains { $0.template?.dependsOnFrame ?? false } }
}

extension Mark {
    func validate(at path: String, variables: Set<String>) throws(PresetError) {
        func nonNegative(_ length: Length?, _ key: String) throws(PresetError) {
            if let length, length.value < 0 {
                throw PresetError(.outOfRange, "\(key.split(separator: ".").last!) must be 0 or more", path: "\(path).\(key)")
            }
        }
        func positive(_ length: Length?, _ key: String) throws(PresetError) {
            if let length, !(length.value > 0) {
                throw PresetError(.outOfRange, "\(key) must be greater than 0", path: "\(path).\(key)")
            }
        }
        switch content {
        case .text(let text):
            guard !text.isEmpty else {
                throw PresetError(.content, "text must not be empty", path: "\(path).text")
            }
            // Pango takes C strings: a NUL would silently cut the text short.
            guard !text.unicodeScalars.contains("\u{0}") else {
                throw PresetError(.badValue, "text must not contain a NUL character (\\u0000)", path: "\(path).text")
            }
            let template: Template
            do {
                template = try Template(text, variables: variables)
            } catch {
                var located = error
                located.path = "\(path).text"
                throw located
            }
            if markup, let problem = template.markupProblem() {
                throw PresetError(.badValue, "markup: \(problem)", path: "\(path).text",
                                  hint: "set \"markup\": false to show the text as written")
            }
            try positive(size, "size")
            // A mark larger than the picture is a mistake, and fonts that size take minutes to draw.
            switch size {
            case .percent(let value) where value > 100:
                throw PresetError(.outOfRange, "size must be at most 100% of the short side", path: "\(path).size")
            case .px(let value) where value > 8192:
                throw PresetError(.outOfRange, "size must be at most 8192 pixels", path: "\(path).size",
                                  hint: "use a percentage such as \"4%\" so the mark follows the picture's size")
            default: break
            }
            try positive(maxWidth, "max-width")
            guard (100...900).contains(weight.value) else {
                throw PresetError(.outOfRange, "weight must be between 100 and 900", path: "\(path).weight")
            }
        case .image(let url):
            guard ["png", "svg"].contains(url.pathExtension.lowercased()) else {
                throw PresetError(.badValue, "image must be a PNG or SVG file, not '\(url.lastPathComponent)'", path: "\(path).image")
            }
            guard FileManager.default.fileExists(atPath: url.path) else {
                throw PresetError(.missingFile, "image file not found: \(url.path)", path: "\(path).image",
                                  hint: "image paths are relative to the preset file's folder")
            }
            try positive(width, "width")
            try positive(height, "height")
        }
        if let fontFile, !FileManager.default.fileExists(atPath: fontFile.path) {
            throw PresetError(.missingFile, "font file not found: \(fontFile.path)", path: "\(path).font-file",
                              hint: "font paths are relative to the preset file's folder")
        }
        if let font, font.trimmingCharacters(in: .whitespaces).isEmpty {
            throw PresetError(.badValue, "font must name a font family, like \"Noto Sans\"", path: "\(path).font")
        }
        try nonNegative(outline?.width, "outline.width")
        try nonNegative(shadow?.blur, "shadow.blur")
        try nonNegative(box?.padding, "box.padding")
        try nonNegative(box?.radius, "box.radius")
        try nonNegative(tile?.gap, "tile.gap")
        if margin.x.value < 0 || margin.y.value < 0 {
            throw PresetError(.outOfRange, "margin must be 0 or more", path: "\(path).margin", hint: "use 'offset' to move a mark past the edge")
        }
        guard (0...1).contains(opacity) else {
            throw PresetError(.outOfRange, "opacity must be between 0 and 1", path: "\(path).opacity")
        }
        guard (-360...360).contains(rotate) else {
            throw PresetError(.outOfRange, "rotate must be between -360 and 360", path: "\(path).rotate")
        }
    }
}
