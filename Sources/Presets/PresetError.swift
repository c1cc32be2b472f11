// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// A preset problem a user can fix: which file, which line (when known), where in the JSON, what
/// is wrong and, when there is one, a hint. Printed as
/// `FILE:LINE: unknown key 'colour' at $.marks[0]; did you mean 'color'?`.
public struct PresetError: Error, CustomStringConvertible, Hashable, Sendable {
    /// What kind of problem it is, for code that reacts to some (the message says the rest).
    public enum Kind: Hashable, Sendable {
        /// The file is not JSON (a syntax error, with its line and column).
        case invalidJSON
        /// A key the preset format does not have ("did you mean…").
        case unknownKey
        /// A required key is absent (a preset without `marks`).
        case missingKey
        /// A value of the wrong JSON type (a string where a number goes).
        case wrongType
        /// A number or length outside what the key allows.
        case outOfRange
        /// A mark's content is unusable (empty text, both text and image or neither, a key its kind does not take).
        case content
        /// A colour that is not `#RGB`, `#RRGGBB` or `#RRGGBBAA`.
        case badColor
        /// An anchor that is not one of the nine names.
        case badAnchor
        /// Any other value the key does not take (a variable name, a weight…).
        case badValue
        /// An `image` or `font-file` that does not exist.
        case missingFile
        /// A template uses a variable nobody sets.
        case unknownVariable
        /// A template that does not parse (an unclosed brace, a bad date format).
        case badTemplate
        /// No preset of that name, or no such preset file.
        case notFound
        /// The preset file exists but cannot be read.
        case unreadable
    }

    /// What kind of problem it is.
    public var kind: Kind
    /// The preset file's path, when the preset came from a file.
    public var file: String?
    /// 1-based line in `file`, when known.
    public var line: Int?
    /// JSON path of the offending value (`$.marks[0].size`); empty when it is about the file as a whole.
    public var path: String
    /// What is wrong, without file, line or path.
    public var message: String
    /// How to fix it ("did you mean 'color'?"), when there is an obvious fix.
    public var hint: String?

    /// A problem of `kind`; `file` and `line` are usually filled in later by the loader.
    public init(
        _ kind: Kind, _ message: String, path: String = "", hint: String? = nil,
        file: String? = nil, line: Int? = nil
    ) {
        self.kind = kind
        self.message = message
        self.path = path
        self.hint = hint
        self.file = file
        self.line = line
    }

    public var description: String {
        var text = ""
        if let file {
            text += file
            if let line { text += ":\(line)" }
            text += ": "
        }
        text += message
        if !path.isEmpty { text += " at \(path)" }
        if let hint { text += "; \(hint)" }
        return text
    }

    /// A copy that names `file`, and `line` unless one is already known.
    func located(file: String?, line: Int?) -> PresetError {
        var copy = self
        if copy.file == nil { copy.file = file }
        if copy.line == nil { copy.line = line }
        return copy
    }
}

/// "did you mean 'x'?" for the candidate closest to `word`, when it is close enough to be a typo.
public func didYouMean<S: Sequence>(_ word: String, in candidates: S) -> String? where S.Element == String {
    closest(to: word, in: candidates).map { "did you mean '\($0)'?" }
}

/// The candidate closest to `word`, when it is close enough to be a typo, or else the one
/// candidate that starts with it ("qual" for "quality"); nil otherwise. Case is ignored. The one
/// "did you mean" rule, for preset keys and values, variables, cameras' controls and the CLI's
/// commands and options: a typo changes at most a third of the longer name's letters (1 to 3), so
/// "tetx" gives "text" but "taxi" gives nothing.
public func closest<S: Sequence>(to word: String, in candidates: S) -> String? where S.Element == String {
    let lowered = word.lowercased()
    guard !lowered.isEmpty else { return nil }
    var best: (String, Int)?
    for candidate in candidates {
        let distance = editDistance(lowered, candidate.lowercased())
        if best == nil || distance < best!.1 { best = (candidate, distance) }
    }
    guard let (candidate, distance) = best else { return nil }
    let allowed = max(1, min(3, max(word.count, candidate.count) / 3))
    if distance <= allowed { return candidate }
    let prefixed = candidates.filter { lowered.count >= 3 && $0.lowercased().hasPrefix(lowered) }
    return prefixed.count == 1 ? prefixed[0] : nil
}

/// Optimal string alignment distance: Levenshtein plus adjacent transpositions ("rigth" → "right" is 1).
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous2 = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            let cost = a[i - 1] == b[j - 1] ? 0 : 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                current[j] = min(current[j], previous2[j - 2] + 1)
            }
        }
        (previous2, previous, current) = (previous, current, previous2)
    }
    return previous[b.count]
}
