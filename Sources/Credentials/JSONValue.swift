// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// A JSON value, as the SDK's manifest definitions and assertions take them.
package enum JSONValue: Sendable, Equatable, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral, ExpressibleByBooleanLiteral
{
    case string(String)
    case number(Double)
    case bool(Bool)
    case array([JSONValue])
    case object([String: JSONValue])

    package init(stringLiteral value: String) { self = .string(value) }
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    package init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    package init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { $1 }))
    }

    /// Compact JSON text, keys sorted. Written directly: JSONEncoder took half a millisecond for
    /// a photo's 2 KB manifest definition, a sixth of what signing it costs in all.
    package var text: String {
        var out: [UInt8] = []
        out.reserveCapacity(1024)
        write(into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private func write(into out: inout [UInt8]) {
        switch self {
        case .string(let value): Self.write(value, into: &out)
        case .number(let value): out.append(contentsOf: Self.number(value).utf8)
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .array(let values):
            out.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                value.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.write(key, into: &out)
                out.append(UInt8(ascii: ":"))
                members[key]?.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// A number as JSON has it: a whole one without a fraction, null for what JSON cannot say.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 { return String(Int64(value)) }
        return "\(value)"
    }

    /// A string quoted: `"` and `\` escaped, control characters as `\u00XX`, the rest as UTF-8.
    static func write(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                out.append(UInt8(ascii: "\\"))
                out.append(byte)
            case 0x0A: out.append(contentsOf: "\\n".utf8)
            case 0x0D: out.append(contentsOf: "\\r".utf8)
            case 0x09: out.append(contentsOf: "\\t".utf8)
            case ..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: "\\u00".utf8)
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
