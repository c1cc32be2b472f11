// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

extension Template {
    /// Tags Pango markup knows.
    static let markupTags = ["markup", "span", "b", "big", "i", "s", "sub", "sup", "small", "tt", "u"]

    /// Why this template's own markup would not parse in Pango (unbalanced or unknown tags, a bare
    /// `&`), or nil. Substituted values are escaped, so only the literal text can break it.
    public func markupProblem() -> String? {
        var text = ""
        for part in parts {
            if case .literal(let literal) = part { text += literal } else { text += "x" }
        }
        var open: [String] = []
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "&" {
                guard let semicolon = text[index...].prefix(12).firstIndex(of: ";"),
                    Self.isEntity(text[text.index(after: index)..<semicolon])
                else {
                    return "a bare '&' must be written '&amp;'"
                }
                index = text.index(after: semicolon)
                continue
            }
            guard character == "<" else {
                index = text.index(after: index)
                continue
            }
            guard let close = Self.tagEnd(in: text, from: index) else {
                return "unclosed '<' (write '&lt;' for a literal '<')"
            }
            let inner = text[text.index(after: index)..<close]
            index = text.index(after: close)
            if inner.hasPrefix("/") {
                let name = inner.dropFirst().trimmingCharacters(in: .whitespaces)
                guard let last = open.popLast() else { return "'</\(name)>' closes nothing" }
                guard last == name else { return "'</\(name)>' does not match '<\(last)>'" }
                continue
            }
            let selfClosing = inner.hasSuffix("/")
            let name = String(inner.prefix { !$0.isWhitespace && $0 != "/" })
            guard Self.markupTags.contains(name) else {
                let hint =
                    didYouMean(name, in: Self.markupTags)
                    ?? "Pango knows \(Self.markupTags.map { "<\($0)>" }.joined(separator: " "))"
                return "unknown markup tag '<\(name)>'; \(hint)"
            }
            if !selfClosing { open.append(name) }
        }
        if let last = open.last { return "'<\(last)>' is never closed" }
        return nil
    }

    /// The `>` that ends the tag starting at `start`, skipping quoted attribute values.
    private static func tagEnd(in text: String, from start: String.Index) -> String.Index? {
        var quote: Character?
        var index = text.index(after: start)
        while index < text.endIndex {
            let character = text[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == ">" {
                return index
            } else if character == "<" {
                return nil
            }
            index = text.index(after: index)
        }
        return nil
    }

    private static func isEntity(_ name: Substring) -> Bool {
        if ["amp", "lt", "gt", "quot", "apos"].contains(name) { return true }
        if name.hasPrefix("#x") || name.hasPrefix("#X") {
            return name.count > 2 && name.dropFirst(2).allSatisfy(\.isHexDigit)
        }
        return name.hasPrefix("#") && name.count > 1 && name.dropFirst().allSatisfy { $0.isASCII && $0.isNumber }
    }
}
