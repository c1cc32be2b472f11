// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// A gst-launch template with `{name}` placeholders. Only validated values are filled in:
/// numbers, plain words, and strings that go through `quote(_:)`, so user text (a path with a
/// space, a quote or a `!`) can never change the pipeline's shape.
public struct PipelineTemplate: Sendable {
    public let text: String
    /// Where it was read from, for messages.
    public let origin: String

    public init(_ text: String, origin: String = "built-in template") {
        self.text = text
        self.origin = origin
    }

    public init(contentsOf url: URL) throws(MediaError) {
        do {
            self.init(fileText: try String(contentsOf: url, encoding: .utf8), origin: url.path)
        } catch {
            throw .invalidTemplate("cannot read \(url.path): \(error.localizedDescription)")
        }
    }

    /// A template file's text: lines starting with '#' are comments, the rest is joined as one
    /// description.
    public init(fileText text: String, origin: String) {
        let body = text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#") }
            .joined(separator: " ")
        self.init(body, origin: origin)
    }

    /// A value that may be placed into a template.
    public enum Value: Sendable, Equatable {
        case integer(Int)
        case number(Double)
        /// Letters, digits and `_ - . :` only (element names, enum nicks, caps fields).
        case word(String)
        /// Any string, placed in double quotes with `\` and `"` escaped.
        case quoted(String)
        /// Launch syntax assembled by this module's own code from validated parts.
        case fragment(LaunchFragment)
    }

    /// Fills every `{name}`; an unknown placeholder or a value that fails validation throws.
    public func render(_ values: [String: Value]) throws(MediaError) -> String {
        var output = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            output += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else {
                throw .invalidTemplate("\(origin): unclosed '{'")
            }
            let name = String(rest[rest.index(after: open)..<close])
            guard let value = values[name] else {
                throw .invalidTemplate("\(origin): unknown placeholder '{\(name)}'")
            }
            output += try Self.launchText(value, for: name)
            rest = rest[rest.index(after: close)...]
        }
        output += rest
        return output
    }

    static func launchText(_ value: Value, for name: String) throws(MediaError) -> String {
        switch value {
        case .integer(let number): return String(number)
        case .number(let number):
            guard number.isFinite else { throw .invalidTemplate("'{\(name)}' is not a finite number") }
            return String(number)
        case .word(let word):
            let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "_-.:"))
            guard !word.isEmpty, word.unicodeScalars.allSatisfy(allowed.contains) else {
                throw .invalidTemplate("'{\(name)}' must be a plain word, got '\(word)'")
            }
            return word
        case .quoted(let string): return quote(string)
        case .fragment(let fragment): return fragment.text
        }
    }

    /// Quotes a string for gst-launch syntax: the parser takes `\x` as `x` inside quotes.
    public static func quote(_ string: String) -> String {
        var quoted = "\""
        for character in string {
            if character == "\\" || character == "\"" { quoted.append("\\") }
            quoted.append(character)
        }
        return quoted + "\""
    }
}

/// A piece of launch syntax built only by `Media` from validated parts (a source element and its
/// properties). Its initialiser is internal, so nothing outside can smuggle raw text in.
public struct LaunchFragment: Sendable, Equatable {
    let text: String
    init(_ text: String) { self.text = text }

    /// Nothing: a placeholder left out.
    public static let empty = LaunchFragment("")

    /// `! tee name=raw`: the marked pictures, raw, for the targets that take them so (the
    /// `{raw}` of stream-encode.pipeline).
    public static let rawTee = LaunchFragment("! tee name=raw")

    /// `factory name=value ...` with each value quoted.
    init(element factory: String, _ properties: KeyValuePairs<String, String> = [:]) {
        text = ([factory] + properties.map { "\($0.key)=\(PipelineTemplate.quote($0.value))" }).joined(separator: " ")
    }
}
