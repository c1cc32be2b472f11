// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

extension Preset {
    /// Checks what decoding alone does not: each key's range as `Mark.keys` gives it (sizes,
    /// opacity, files that must exist), and that every `{variable}` in a text is built in, a preset
    /// variable, or one of `knownVariables` (`--var` names, other stacked presets). Paths name the
    /// offending value; of several, the first in key order.
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
                throw PresetError(
                    .badValue, "variable name '\(name)' may use only letters, digits, '_' and '-'", path: path)
            }
            let count = variables[name]!.count
            guard count <= Mark.maxTextCharacters else {
                throw PresetError(
                    .outOfRange,
                    "variable '\(name)' has \(count) characters, more than the \(Mark.maxTextCharacters) a mark can show",
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

    /// Whether any mark's text shows `{timecode}`.
    public var showsTimecode: Bool { marks.contains { $0.template?.showsTimecode ?? false } }
}

extension Mark {
    /// The most characters a mark's text may have, as written and once its variables are
    /// expanded: a caption of a few dozen lines. Beyond it Pango lays out megabytes of glyphs for
    /// a mark far wider than any picture (a 60 KB EXIF value took 1 GB).
    public static let maxTextCharacters = 4096
    /// The most bytes a QR code mark encodes (as written, and once expanded): far more than a
    /// URL needs, far less than a version 40 code holds (2,331 bytes at level M).
    public static let maxQRBytes = 1024

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
                throw PresetError(
                    .outOfRange,
                    "text has \(count) characters, more than the \(Self.maxTextCharacters) a mark can show",
                    path: "\(path).text", hint: "split it into several marks or shorten it")
            }
            let template: Template
            do {
                template = try (self.template ?? Template(lenient: text)).checked(variables: variables)
            } catch {
                var located = error
                located.path = "\(path).text"
                throw located
            }
            if markup, let problem = template.markupProblem() {
                throw PresetError(
                    .badValue, "markup: \(problem)", path: "\(path).text",
                    hint: "set \"markup\": false to show the text as written")
            }
        case .qr(let text):
            // A version 40 code at level M holds 2,331 bytes; a URL of a few dozen is what scans.
            guard !text.isEmpty, text.utf8.count <= Self.maxQRBytes, !text.unicodeScalars.contains("\u{0}") else {
                throw PresetError(
                    .badValue, "qr must be a text of 1 to \(Self.maxQRBytes) bytes (a URL: {proof-url})",
                    path: "\(path).qr")
            }
            do { _ = try (self.template ?? Template(lenient: text)).checked(variables: variables) } catch {
                var located = error
                located.path = "\(path).qr"
                throw located
            }
        case .image(let url):
            guard ["png", "svg"].contains(url.pathExtension.lowercased()) else {
                throw PresetError(
                    .badValue, "image must be a PNG or SVG file, not '\(url.lastPathComponent)'", path: "\(path).image")
            }
            try checkFile(
                url, at: "\(path).image", key: "image", missing: "image file not found",
                missingHint: "image paths are relative to the preset file's folder",
                folder: "image is a folder", folderHint: "give the path of a PNG or SVG file")
        }
        for key in Self.keys {
            try key.check(self, "\(path).\(key.name)")
        }
    }
}
