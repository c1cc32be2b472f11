// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing

@testable import Credentials

/// The pieces of camstamp's own embedding of a JPEG's manifest that need no SDK: the cut of the
/// photo's parts where the manifest goes, and the manifest definition's JSON text.
@Suite struct EmbeddingTests {
    static let whole = Data((0..<500).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 1) })
    static let parts = [whole[0..<2], Data(), whole[2..<200], whole[200...]]

    @Test(arguments: [0, 1, 2, 3, 199, 200, 201, 499, 500])
    func theCutKeepsEveryByteInOrder(offset: Int) {
        let (before, after) = ManifestDraft.split(Self.parts, at: offset)
        #expect(Data(before.joined()) == Self.whole.prefix(offset))
        #expect(Data(after.joined()) == Self.whole.dropFirst(offset))
        #expect(!before.contains(where: \.isEmpty) && !after.contains(where: \.isEmpty))
    }

    @Test func definitionTextIsJSONThatReadsBackTheSame() throws {
        let value: JSONValue = [
            "title": "a \"quoted\" \\ name/with slash\n\ttab\u{01}é 📷",
            "numbers": .array([0, 1, -3, 4096, 0.5, 1e-5, 12_345_678_901].map { .number($0) }),
            "flags": [true, false], "empty": [:], "none": [],
            "b": ["z": .number(1), "a": .number(2)],
        ]
        let text = value.text
        #expect(text.hasPrefix("{\"b\":{\"a\":2,\"z\":1},\"empty\":{},\"flags\":[true,false],\"none\":[]"))
        #expect(text.contains("\"numbers\":[0,1,-3,4096,0.5,1e-05,12345678901]"))
        #expect(text.contains("name/with slash\\n\\ttab\\u0001é 📷"))
        let read = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(read["title"] as? String == "a \"quoted\" \\ name/with slash\n\ttab\u{01}é 📷")
        #expect((read["numbers"] as? [Double]) == [0, 1, -3, 4096, 0.5, 1e-5, 12_345_678_901])
        #expect(JSONValue.number(.infinity) == "null" && JSONValue.number(.nan) == "null")
    }
}
