// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import TestSupport
import Testing

/// The splice writes a Huffman table the marks need more codes of extended (up to 256 symbols),
/// which makes the headers grow: that growth stays bounded whatever the DHT segments hold.
@Suite struct SpliceTableGrowthTests {
    /// A 256×256 grey baseline JPEG whose AC table 0 is defined `redefinitions` times (one symbol,
    /// end of block) before its DC and AC tables of one symbol each: a flat mid-grey picture of
    /// two bits a block.
    static func redefinedTables(_ redefinitions: Int) -> Data {
        func segment(_ marker: UInt8, _ body: [UInt8]) -> [UInt8] {
            [0xFF, marker, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
        }
        let oneSymbol: (UInt8) -> [UInt8] = { [$0, 1] + [UInt8](repeating: 0, count: 15) + [0x00] }
        var jpeg: [UInt8] = [0xFF, 0xD8] + segment(0xDB, [0x00] + [UInt8](repeating: 4, count: 64))
        jpeg += segment(0xC0, [8, 1, 0, 1, 0, 1, 0x01, 0x11, 0x00])
        // A DHT holds 3,640 such tables at most (65,533 bytes).
        for first in stride(from: 0, to: redefinitions, by: 3600) {
            let tables = (first..<min(first + 3600, redefinitions)).flatMap { _ in oneSymbol(0x10) }
            jpeg += segment(0xC4, tables)
        }
        jpeg += segment(0xC4, oneSymbol(0x00) + oneSymbol(0x10))
        jpeg += segment(0xDA, [0x01, 0x01, 0x00, 0x00, 0x3F, 0x00])
        jpeg += [UInt8](repeating: 0, count: 32 * 32 * 2 / 8) + [0xFF, 0xD9]
        return Data(jpeg)
    }

    /// Each redefinition used to be written as the last one extended (17 bytes in, 180 out), past
    /// the room the writer had reserved: a heap overflow ("realloc(): invalid next size", signal
    /// 6). Now only the definition in force is extended, and the photo is stamped.
    @Test func redefinedHuffmanTablesDoNotGrowTheHeaders() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let jpeg = Self.redefinedTables(10_000)
        let input = try put(jpeg, "in/tables.jpg", in: folder)
        try tool("djpeg", ["-outfile", "/dev/null", input.path])
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", input.path, "-o", out.path, "--text", "Proof", "--json"])
        #expect(result.status == 0 && result.stdout.contains(#""status":"marked""#), "\(result.stderr)")
        let output = out.appendingPathComponent("tables.jpg")
        let pixels = try tool("djpeg", ["-pnm", output.path])
        #expect(Set(pixels.suffix(256 * 256)).count > 1, "the mark changes the flat grey")
        let written = try Data(contentsOf: output)
        #expect(written.count < jpeg.count + 4096, "\(written.count) bytes written for \(jpeg.count)")
    }
}
