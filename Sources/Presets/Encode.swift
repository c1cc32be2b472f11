// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

extension Preset {
    /// The preset as JSON with every default filled in, each mark's keys in `Mark.keys` order:
    /// what `camstamp presets show` prints, so a user sees every knob a mark has. Image and font
    /// paths inside the preset's folder are written relative to it. Reading the output back gives
    /// the same preset.
    public func resolvedJSON() -> String {
        let writer = PresetWriter(folder: source?.deletingLastPathComponent().standardizedFileURL.path)
        var top: [String] = ["  \"name\": \(quoted(name))", "  \"description\": \(quoted(description))"]
        let variableText = variables.keys.sorted().map { "\(quoted($0)): \(quoted(variables[$0]!))" }
        top.append(
            "  \"variables\": {" + (variableText.isEmpty ? "" : " " + variableText.joined(separator: ", ") + " ") + "}")
        let markText = marks.map {
            "    {\n" + writer.fields(of: $0).map { "      " + $0 }.joined(separator: ",\n") + "\n    }"
        }
        top.append("  \"marks\": [\n" + markText.joined(separator: ",\n") + "\n  ]")
        return "{\n" + top.joined(separator: ",\n") + "\n}\n"
    }
}

/// Writes values as preset JSON; paths inside `folder` (the preset's own) relative to it.
struct PresetWriter {
    let folder: String?

    /// `"key": value` for the content key, then each key of the mark's kind, then each key of
    /// every mark; keys whose value is unset are left out.
    func fields(of mark: Mark) -> [String] {
        let (content, kind): (String, PresetKey<Mark>.Marks) =
            switch mark.content {
            case .text(let text): ("\"text\": \(quoted(text))", .text)
            case .image(let url): ("\"image\": \(quoted(relative(url)))", .image)
            case .qr(let text): ("\"qr\": \(quoted(text))", .image)
            }
        let keys = Mark.keys.filter { $0.marks == kind } + Mark.keys.filter { $0.marks == .all }
        return [content] + keys.compactMap { key in key.write(mark, self).map { "\(quoted(key.name)): \($0)" } }
    }

    func length(_ length: Length) -> String { quoted(length.description) }

    /// A path relative to `folder` when it lies inside it.
    func relative(_ url: URL) -> String {
        guard let folder else { return url.path }
        let path = url.standardizedFileURL.path
        return path.hasPrefix(folder + "/") ? String(path.dropFirst(folder.count + 1)) : path
    }
}

/// A JSON string literal.
func quoted(_ text: String) -> String {
    "\""
        + text.escaping { scalar in
            switch scalar {
            case "\"": "\\\""
            case "\\": "\\\\"
            case "\n": "\\n"
            case "\r": "\\r"
            case "\t": "\\t"
            case _ where scalar.value < 0x20: String(format: "\\u%04x", scalar.value)
            default: nil
            }
        } + "\""
}
