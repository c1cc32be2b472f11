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
            let count = variables[name]!.count
            guard count <= Mark.maxTextCharacters else {
                throw PresetError(.outOfRange, "variable '\(name)' has \(count) characters, more than the \(Mark.maxTextCharacters) a mark can show",
                                  path: path)
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

/// How far a preset length may go, per key. Past these a mark is a mistake, and far past them the
/// pixel arithmetic overflows (1e300 px cannot become an Int): every length is checked here, at
/// load time, so rendering never meets one it cannot draw.
struct LengthLimit {
    enum Sign { case positive, nonNegative, any }
    var sign: Sign
    var maxPercent: Double
    var maxPixels: Double

    /// Sizes of one mark's parts (font size, outline, blur, padding): at most the short side.
    static func markPart(_ sign: Sign) -> LengthLimit { LengthLimit(sign: sign, maxPercent: 100, maxPixels: 8192) }
    /// Positions and extents on the picture (margin, offset, gap, wrap width, image size): ten
    /// short sides, and never more pixels than Cairo can draw on one side.
    static func placement(_ sign: Sign) -> LengthLimit { LengthLimit(sign: sign, maxPercent: 1000, maxPixels: 32767) }

    /// Throws when `length` is outside this limit; `key` is the JSON path below the mark.
    func check(_ length: Length?, _ key: String, at path: String, hint: String? = nil) throws(PresetError) {
        guard let length else { return }
        let name = String(key.split(separator: ".").last!)
        let at = "\(path).\(key)"
        switch sign {
        case .positive where !(length.value > 0):
            throw PresetError(.outOfRange, "\(name) must be greater than 0", path: at)
        case .nonNegative where !(length.value >= 0):
            throw PresetError(.outOfRange, "\(name) must be 0 or more", path: at, hint: hint)
        default: break
        }
        let between = sign == .any
        func format(_ value: Double) -> String { String(Int(value)) }  // the limits are whole numbers
        switch length {
        case .percent(let value) where !(abs(value) <= maxPercent):
            throw PresetError(.outOfRange, between
                              ? "\(name) must be between -\(format(maxPercent))% and \(format(maxPercent))% of the short side"
                              : "\(name) must be at most \(format(maxPercent))% of the short side", path: at)
        case .px(let value) where !(abs(value) <= maxPixels):
            throw PresetError(.outOfRange, between
                              ? "\(name) must be between -\(format(maxPixels)) and \(format(maxPixels)) pixels"
                              : "\(name) must be at most \(format(maxPixels)) pixels", path: at,
                              hint: "use a percentage such as \"4%\" so the mark follows the picture's size")
        default: break
        }
    }
}

extension Mark {
    /// The most characters a mark's text may have, as written and once its variables are
    /// expanded: a caption of a few dozen lines. Beyond it Pango lays out megabytes of glyphs for
    /// a mark far wider than any picture (a 60 KB EXIF value took 1 GB).
    public static let maxTextCharacters = 4096

    func validate(at path: String, variables: Set<String>) throws(PresetError) {
        switch content {
        case .text(let text):
            guard !text.isEmpty else {
                throw PresetError(.content, "text must not be empty", path: "\(path).text")
            }
            // Pango takes C strings: a NUL would silently cut the text short.
            guard !text.unicodeScalars.contains("\u{0}") else {
                throw PresetError(.badValue, "text must not contain a NUL character (\\u0000)", path: "\(path).text")
            }
            let count = text.count
            guard count <= Self.maxTextCharacters else {
                throw PresetError(.outOfRange, "text has \(count) characters, more than the \(Self.maxTextCharacters) a mark can show",
                                  path: "\(path).text", hint: "split it into several marks or shorten it")
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
            // A mark larger than the picture is a mistake, and fonts that size take minutes to draw.
            try LengthLimit.markPart(.positive).check(size, "size", at: path)
            try LengthLimit.placement(.positive).check(maxWidth, "max-width", at: path)
            guard (100...900).contains(weight.value) else {
                throw PresetError(.outOfRange, "weight must be between 100 and 900", path: "\(path).weight")
            }
        case .image(let url):
            guard ["png", "svg"].contains(url.pathExtension.lowercased()) else {
                throw PresetError(.badValue, "image must be a PNG or SVG file, not '\(url.lastPathComponent)'", path: "\(path).image")
            }
            let kind = PathKind(of: url)
            guard kind != .missing else {
                throw PresetError(.missingFile, "image file not found: \(url.path)", path: "\(path).image",
                                  hint: "image paths are relative to the preset file's folder")
            }
            guard kind != .folder else {
                throw PresetError(.badValue, "image is a folder, not a file: \(url.path)", path: "\(path).image",
                                  hint: "give the path of a PNG or SVG file")
            }
            try LengthLimit.placement(.positive).check(width, "width", at: path)
            try LengthLimit.placement(.positive).check(height, "height", at: path)
        }
        if let fontFile {
            let kind = PathKind(of: fontFile)
            guard kind != .missing else {
                throw PresetError(.missingFile, "font file not found: \(fontFile.path)", path: "\(path).font-file",
                                  hint: "font paths are relative to the preset file's folder")
            }
            guard kind != .folder else {
                throw PresetError(.badValue, "font-file is a folder, not a file: \(fontFile.path)", path: "\(path).font-file",
                                  hint: "give the path of a .ttf or .otf file")
            }
        }
        if let font, font.trimmingCharacters(in: .whitespaces).isEmpty {
            throw PresetError(.badValue, "font must name a font family, like \"Noto Sans\"", path: "\(path).font")
        }
        try LengthLimit.markPart(.nonNegative).check(outline?.width, "outline.width", at: path)
        try LengthLimit.markPart(.any).check(shadow?.offset.x, "shadow.offset", at: path)
        try LengthLimit.markPart(.any).check(shadow?.offset.y, "shadow.offset", at: path)
        try LengthLimit.markPart(.nonNegative).check(shadow?.blur, "shadow.blur", at: path)
        try LengthLimit.markPart(.nonNegative).check(box?.padding, "box.padding", at: path)
        try LengthLimit.markPart(.nonNegative).check(box?.radius, "box.radius", at: path)
        try LengthLimit.placement(.nonNegative).check(tile?.gap, "tile.gap", at: path)
        let marginHint = "use 'offset' to move a mark past the edge"
        try LengthLimit.placement(.nonNegative).check(margin.x, "margin", at: path, hint: marginHint)
        try LengthLimit.placement(.nonNegative).check(margin.y, "margin", at: path, hint: marginHint)
        try LengthLimit.placement(.any).check(offset.x, "offset", at: path)
        try LengthLimit.placement(.any).check(offset.y, "offset", at: path)
        guard (0...1).contains(opacity) else {
            throw PresetError(.outOfRange, "opacity must be between 0 and 1", path: "\(path).opacity")
        }
        guard (-360...360).contains(rotate) else {
            throw PresetError(.outOfRange, "rotate must be between -360 and 360", path: "\(path).rotate")
        }
    }
}
