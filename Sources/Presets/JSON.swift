// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// A parsed JSON value that remembers the line it starts on, so preset errors can point into the
/// file. Foundation's JSONSerialization and JSONDecoder drop positions, hence this small reader.
package struct JSONNode: Sendable {
    package enum Value: Sendable {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case array([JSONNode])
        /// Members in file order; `keyLine` is where the key itself is written.
        case object([Member])
    }
    package struct Member: Sendable {
        package var key: String
        package var keyLine: Int
        package var value: JSONNode
    }

    package var value: Value
    /// 1-based line of the value's first character.
    package var line: Int

    /// The JSON type name used in messages ("a string", "an object", ...).
    package var typeName: String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// A syntax error with its 1-based position.
package struct JSONSyntaxError: Error, Equatable {
    package var line: Int
    package var column: Int
    package var message: String
}

/// A strict RFC 8259 reader: no comments, no trailing commas, no leading zeros, no NaN; a UTF-8
/// byte order mark is skipped (RFC 8259 §8.1 allows it). Duplicate keys are rejected because in a
/// preset the second one would silently win.
package struct JSONReader {
    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private var depth = 0
    private static let maxDepth = 256

    package static func parse(_ data: Data) throws(JSONSyntaxError) -> JSONNode {
        var reader = JSONReader(bytes: [UInt8](data))
        return try reader.document()
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private mutating func document() throws(JSONSyntaxError) -> JSONNode {
        if String(validating: bytes, as: UTF8.self) == nil {
            throw JSONSyntaxError(line: 1, column: 1, message: "the file is not valid UTF-8")
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            index = 3
            lineStart = 3
        }
        skipWhitespace()
        guard index < bytes.count else { throw fail("the file is empty") }
        let node = try value()
        skipWhitespace()
        guard index == bytes.count else {
            throw fail("unexpected \(describe(bytes[index])) after the end of the document")
        }
        return node
    }

    private func fail(_ message: String) -> JSONSyntaxError {
        // Columns count characters, not bytes: skip UTF-8 continuation bytes.
        let column = bytes[lineStart..<min(index, bytes.count)].filter { $0 & 0xC0 != 0x80 }.count + 1
        return JSONSyntaxError(line: line, column: column, message: message)
    }

    private func describe(_ byte: UInt8) -> String {
        switch byte {
        case 0x0A: "end of line"
        case 0x20...0x7E: "'\(Character(Unicode.Scalar(byte)))'"
        default: "byte 0x\(String(byte, radix: 16, uppercase: true))"
        }
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
            default: return
            }
        }
    }

    private mutating func value() throws(JSONSyntaxError) -> JSONNode {
        guard index < bytes.count else { throw fail("unexpected end of file, expected a value") }
        let startLine = line
        switch bytes[index] {
        case UInt8(ascii: "{"): return JSONNode(value: try object(), line: startLine)
        case UInt8(ascii: "["): return JSONNode(value: try array(), line: startLine)
        case UInt8(ascii: "\""): return JSONNode(value: .string(try string()), line: startLine)
        case UInt8(ascii: "t"):
            try literal("true")
            return JSONNode(value: .bool(true), line: startLine)
        case UInt8(ascii: "f"):
            try literal("false")
            return JSONNode(value: .bool(false), line: startLine)
        case UInt8(ascii: "n"):
            try literal("null")
            return JSONNode(value: .null, line: startLine)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONNode(value: .number(try number()), line: startLine)
        case UInt8(ascii: "'"): throw fail("strings must use double quotes")
        case UInt8(ascii: "/"): throw fail("comments are not allowed in JSON")
        default: throw fail("unexpected \(describe(bytes[index])), expected a value")
        }
    }

    private mutating func literal(_ word: String) throws(JSONSyntaxError) {
        let expected = Array(word.utf8)
        guard bytes.count - index >= expected.count,
            Array(bytes[index..<index + expected.count]) == expected
        else {
            throw fail("invalid literal, expected '\(word)' (strings need double quotes)")
        }
        index += expected.count
    }

    /// Steps into the object or array whose opening bracket is at `index`; true (and stepped out
    /// again) when `close` follows at once, an empty one.
    private mutating func enter(closedBy close: UInt8) throws(JSONSyntaxError) -> Bool {
        depth += 1
        if depth > Self.maxDepth { throw fail("nesting deeper than \(Self.maxDepth) levels") }
        index += 1
        skipWhitespace()
        return leave(at: close)
    }

    /// Steps past `close` and out of the object or array, when `close` is at `index`.
    private mutating func leave(at close: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == close else { return false }
        index += 1
        depth -= 1
        return true
    }

    private mutating func object() throws(JSONSyntaxError) -> JSONNode.Value {
        var members: [JSONNode.Member] = []
        var seen: Set<String> = []
        if try enter(closedBy: UInt8(ascii: "}")) { return .object(members) }
        while true {
            skipWhitespace()
            guard index < bytes.count else { throw fail("unexpected end of file inside an object") }
            guard bytes[index] == UInt8(ascii: "\"") else {
                if bytes[index] == UInt8(ascii: "}") { throw fail("trailing comma before '}'") }
                throw fail("expected a key in double quotes, found \(describe(bytes[index]))")
            }
            let keyLine = line
            let keyStart = (index, line, lineStart)
            let key = try string()
            if !seen.insert(key).inserted {
                (index, line, lineStart) = keyStart
                throw fail("duplicate key '\(key)'")
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw fail("expected ':' after key '\(key)'")
            }
            index += 1
            skipWhitespace()
            let member = try value()
            members.append(JSONNode.Member(key: key, keyLine: keyLine, value: member))
            skipWhitespace()
            guard index < bytes.count else { throw fail("unexpected end of file, expected ',' or '}'") }
            if leave(at: UInt8(ascii: "}")) { return .object(members) }
            guard bytes[index] == UInt8(ascii: ",") else {
                throw fail("expected ',' or '}' after the value of '\(key)', found \(describe(bytes[index]))")
            }
            index += 1
        }
    }

    private mutating func array() throws(JSONSyntaxError) -> JSONNode.Value {
        var elements: [JSONNode] = []
        if try enter(closedBy: UInt8(ascii: "]")) { return .array(elements) }
        while true {
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") { throw fail("trailing comma before ']'") }
            elements.append(try value())
            skipWhitespace()
            guard index < bytes.count else { throw fail("unexpected end of file, expected ',' or ']'") }
            if leave(at: UInt8(ascii: "]")) { return .array(elements) }
            guard bytes[index] == UInt8(ascii: ",") else {
                throw fail("expected ',' or ']' in an array, found \(describe(bytes[index]))")
            }
            index += 1
        }
    }

    private mutating func string() throws(JSONSyntaxError) -> String {
        index += 1  // opening quote
        var scalars = String.UnicodeScalarView()
        var run = index  // start of the current unescaped run of bytes
        func flush(_ end: Int) {
            // Runs are whole UTF-8 sequences: they end only at ASCII quote, backslash or control bytes.
            scalars.append(contentsOf: String(decoding: bytes[run..<end], as: UTF8.self).unicodeScalars)
        }
        while true {
            guard index < bytes.count else { throw fail("unterminated string") }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                flush(index)
                index += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                flush(index)
                index += 1
                scalars.append(try escape())
                run = index
            case 0x00..<0x20:
                throw fail(
                    byte == 0x0A
                        ? "unterminated string (a newline in a string must be written \\n)"
                        : "control character in a string (escape it)")
            default:
                index += 1
            }
        }
    }

    private mutating func escape() throws(JSONSyntaxError) -> Unicode.Scalar {
        guard index < bytes.count else { throw fail("unterminated string") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try hex4()
            if (0xD800..<0xDC00).contains(high) {
                guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"),
                    bytes[index + 1] == UInt8(ascii: "u")
                else {
                    throw fail("unpaired surrogate \\u\(String(high, radix: 16, uppercase: true))")
                }
                index += 2
                let low = try hex4()
                guard (0xDC00..<0xE000).contains(low) else {
                    throw fail("unpaired surrogate \\u\(String(high, radix: 16, uppercase: true))")
                }
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
            }
            guard let scalar = Unicode.Scalar(high) else {
                throw fail("unpaired surrogate \\u\(String(high, radix: 16, uppercase: true))")
            }
            return scalar
        default:
            index -= 2  // point at the backslash
            throw fail("invalid escape '\\\(Character(Unicode.Scalar(byte)))'")
        }
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard bytes.count - index >= 4 else { throw fail("\\u needs four hex digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = Self.hexValue(bytes[index]) else { throw fail("\\u needs four hex digits") }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private mutating func number() throws(JSONSyntaxError) -> Double {
        let start = index
        func isDigit(_ i: Int) -> Bool {
            i < bytes.count && bytes[i] >= UInt8(ascii: "0") && bytes[i] <= UInt8(ascii: "9")
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard isDigit(index) else { throw fail("a number needs digits after '-'") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if isDigit(index) { throw fail("numbers must not have leading zeros") }
        } else {
            while isDigit(index) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard isDigit(index) else { throw fail("a number needs digits after '.'") }
            while isDigit(index) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard isDigit(index) else { throw fail("a number needs digits in its exponent") }
            while isDigit(index) { index += 1 }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            index = start
            throw fail("number \(text) is out of range")
        }
        return value
    }
}
