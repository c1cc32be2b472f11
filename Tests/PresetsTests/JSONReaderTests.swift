// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
@testable import Presets

@Suite struct JSONReaderTests {
    func parse(_ text: String) throws(JSONSyntaxError) -> JSONNode { try JSONReader.parse(Data(text.utf8)) }

    func syntaxError(_ text: String) -> JSONSyntaxError? {
        do {
            _ = try parse(text)
            return nil
        } catch { return error }
    }

    @Test func valuesAndLines() throws {
        let node = try parse(
            "{\n  \"a\": [1, -2.5e2, true, false, null],\n  \"b\": \"x\\n\\u00e9\\ud83d\\ude00\\/\"\n}")
        guard case .object(let members) = node.value else {
            Issue.record("not an object")
            return
        }
        #expect(members.map(\.key) == ["a", "b"])
        #expect(members.map(\.keyLine) == [2, 3])
        guard case .array(let items) = members[0].value.value else {
            Issue.record("not an array")
            return
        }
        #expect(items.count == 5)
        if case .number(let value) = items[1].value { #expect(value == -250) } else { Issue.record("not a number") }
        if case .string(let text) = members[1].value.value {
            #expect(text == "x\né😀/")
        } else {
            Issue.record("not a string")
        }
        #expect(node.line == 1)
    }

    @Test func unicodeStringsPassThrough() throws {
        let node = try parse("\u{FEFF}\"「日付」 © 🎉\"")
        if case .string(let text) = node.value { #expect(text == "「日付」 © 🎉") } else { Issue.record("not a string") }
    }

    @Test(arguments: [
        ("{\"a\": 1,}", 1, 9, "trailing comma before '}'"),
        ("[1, 2,]", 1, 7, "trailing comma before ']'"),
        ("{\n\"a\": 01}", 2, 7, "numbers must not have leading zeros"),
        ("{\"a\": 'x'}", 1, 7, "strings must use double quotes"),
        ("// c\n{}", 1, 1, "comments are not allowed in JSON"),
        ("{\"a\": 1 \"b\": 2}", 1, 9, "expected ',' or '}' after the value of 'a', found '\"'"),
        ("{\"a\": 1, \"a\": 2}", 1, 10, "duplicate key 'a'"),
        ("\"abc", 1, 5, "unterminated string"),
        ("\"a\tb\"", 1, 3, "control character in a string (escape it)"),
        ("\"\\x\"", 1, 2, "invalid escape '\\x'"),
        ("\"\\ud800\"", 1, 8, "unpaired surrogate \\uD800"),
        ("[1.]", 1, 4, "a number needs digits after '.'"),
        ("[NaN]", 1, 2, "unexpected 'N', expected a value"),
        ("{} {}", 1, 4, "unexpected '{' after the end of the document"),
        ("", 1, 1, "the file is empty"),
        ("[tru]", 1, 2, "invalid literal, expected 'true' (strings need double quotes)"),
        ("{\"a\": 1", 1, 8, "unexpected end of file, expected ',' or '}'"),
        ("{a: 1}", 1, 2, "expected a key in double quotes, found 'a'"),
    ])
    func rejects(text: String, line: Int, column: Int, message: String) {
        #expect(syntaxError(text) == JSONSyntaxError(line: line, column: column, message: message))
    }

    /// The node as Foundation objects, to compare with JSONSerialization.
    func foundation(_ node: JSONNode) -> Any {
        switch node.value {
        case .null: NSNull()
        case .bool(let value): NSNumber(value: value)
        case .number(let value): NSNumber(value: value)
        case .string(let value): value
        case .array(let items): items.map(foundation)
        case .object(let members): Dictionary(uniqueKeysWithValues: members.map { ($0.key, foundation($0.value)) })
        }
    }

    @Test(arguments: [
        #"{"a": [1, 2.5, -0.125, 1e3, 2E-2, true, false, null], "b": {"c": "d\"e\\f\u0041"}, "": []}"#,
        #"[[], {}, [[[]]], "\u00e9\ud834\udd1e", 0, -0, 123456789]"#,
        "  \r\n\t[ 1 , 2 ]\n",
        #""just a string""#,
    ])
    func agreesWithJSONSerialization(text: String) throws {
        let ours = foundation(try parse(text))
        let theirs = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        #expect(NSArray(array: [ours]).isEqual(to: [theirs]), "\(text)")
    }

    @Test func rejectsInvalidUTF8() {
        do {
            _ = try JSONReader.parse(Data([0x22, 0xFF, 0x22]))
            Issue.record("accepted invalid UTF-8")
        } catch {
            #expect(error.message == "the file is not valid UTF-8")
        }
    }

    @Test func rejectsDeepNesting() {
        #expect(syntaxError(String(repeating: "[", count: 300))?.message == "nesting deeper than 256 levels")
    }

    @Test func columnsCountCharactersNotBytes() {
        #expect(syntaxError("[\"日本\" 1]")?.column == 7)
    }
}
