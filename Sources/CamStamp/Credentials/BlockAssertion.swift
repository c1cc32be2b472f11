// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import Credentials
import Foundation
internal import Media

/// camstamp's own assertion (not a C2PA standard one) on a JPEG stamped in its coefficients: the
/// block layout, the blocks the stamp changed, and the SHA-256 over the parent's other blocks
/// (docs/credentials.md says what it holds, in which order, and what it proves).
enum BlockAssertion {
    static let label = "org.camstamp.blocks.1"

    /// The assertion's data: `{"alg": "sha256", "hash": HEX, "components": [{"blocks_wide",
    /// "blocks_high", "h", "v", "changed": [[x, y, width, height], …]}, …]}`, with the counts.
    static func json(_ record: JPEGBlockRecord) -> JSONValue {
        let components: [JSONValue] = record.components.map { component in
            [
                "blocks_wide": number(component.width), "blocks_high": number(component.height),
                "h": number(component.h), "v": number(component.v),
                "changed": .array(
                    component.changed.map { [number($0.x), number($0.y), number($0.width), number($0.height)] }),
            ]
        }
        var object: [String: JSONValue] = [
            "components": .array(components),
            "changed_blocks": number(record.blocksChanged), "total_blocks": number(record.blocksTotal),
        ]
        // A spliced photo's record has no hash: its blocks are compared with the parent's instead.
        if !record.digest.isEmpty {
            object["alg"] = "sha256"
            object["hash"] = .string(record.digest.map { String(format: "%02x", $0) }.joined())
        }
        return .object(object)
    }

    /// The record in a verified manifest, nil when it has none; a record that does not read is
    /// said as a failure by the caller (`.malformed`).
    static func record(_ result: Verification) -> Parsed? {
        guard let text = result.ownAssertions[label] else { return nil }
        guard let root = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any],
            let digest = Self.digest(root), let list = root["components"] as? [[String: Any]], !list.isEmpty,
            list.count <= 4
        else { return .malformed }
        var components: [JPEGBlockRecord.Component] = []
        for item in list {
            guard let wide = int(item["blocks_wide"]), let high = int(item["blocks_high"]),
                let h = int(item["h"]), let v = int(item["v"]), let changed = item["changed"] as? [Any],
                (1...65535).contains(wide), (1...65535).contains(high), (1...4).contains(h), (1...4).contains(v),
                changed.count <= JPEGBlockRecord.maxRectangles
            else { return .malformed }
            var rectangles: [JPEGBlockRecord.Rectangle] = []
            for entry in changed {
                guard let values = entry as? [Any], values.count == 4 else { return .malformed }
                let numbers = values.compactMap(int)
                guard numbers.count == 4 else { return .malformed }
                rectangles.append(.init(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3]))
            }
            components.append(.init(width: wide, height: high, h: h, v: v, changed: rectangles))
        }
        let record = JPEGBlockRecord(components: components, digest: digest)
        // Its map of blocks is made in memory: a forged record must not ask for gigabytes.
        guard record.blocksTotal <= JPEGBlockRecord.maxBlocks else { return .malformed }
        return .record(record)
    }

    enum Parsed {
        case record(JPEGBlockRecord)
        case malformed
    }

    private static func number(_ value: Int) -> JSONValue { .number(Double(value)) }

    private static func int(_ value: Any?) -> Int? {
        if let value = value as? Int { return value }
        if let value = value as? Double, value == value.rounded(), abs(value) < 1e9 { return Int(value) }
        return nil
    }

    /// The record's hash, `[]` when it has none; nil when one is there but does not read.
    private static func digest(_ root: [String: Any]) -> [UInt8]? {
        guard root["alg"] != nil || root["hash"] != nil else { return [] }
        guard root["alg"] as? String == "sha256", let hex = root["hash"] as? String else { return nil }
        return bytes(hex)
    }

    private static func bytes(_ hex: String) -> [UInt8]? {
        let characters = Array(hex.utf8)
        guard characters.count == 64 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: 64, by: 2) {
            guard let byte = UInt8(String(decoding: characters[index..<index + 2], as: UTF8.self), radix: 16) else {
                return nil
            }
            bytes.append(byte)
        }
        return bytes
    }
}
