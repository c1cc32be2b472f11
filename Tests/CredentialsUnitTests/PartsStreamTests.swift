// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing

@testable import Credentials

/// The signer reads a stamped photo from its parts (header, then scan) as one stream: every read,
/// at every size and after every seek, gives the bytes the joined photo would.
@Suite struct PartsStreamTests {
    /// Parts of odd sizes, one empty, one a slice whose indices do not start at 0.
    static let whole = Data((0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) })
    static let parts = [whole[0..<1], Data(), whole[1..<300], whole[300..<301], whole[301...]]

    func readAll(_ stream: PartsStream, chunk: Int) -> Data {
        var out = Data()
        var buffer = [UInt8](repeating: 0, count: chunk)
        while true {
            let got = buffer.withUnsafeMutableBytes { stream.read(into: $0) }
            if got == 0 { return out }
            out.append(contentsOf: buffer[0..<got])
        }
    }

    @Test(arguments: [1, 2, 7, 299, 300, 301, 999, 1000, 4096])
    func readsInChunksGiveTheJoinedBytes(chunk: Int) {
        #expect(readAll(PartsStream(Self.parts), chunk: chunk) == Self.whole)
    }

    @Test func seeksLandWhereTheJoinedBytesAre() {
        let stream = PartsStream(Self.parts)
        #expect(stream.seek(0, from: 2) == 1000)
        #expect(readAll(stream, chunk: 16).isEmpty)
        for offset in [0, 1, 299, 300, 301, 640, 999] {
            #expect(stream.seek(offset, from: 0) == offset)
            #expect(readAll(stream, chunk: 33) == Self.whole[offset...], "from \(offset)")
        }
        #expect(stream.seek(-1, from: 0) == -1)
        #expect(stream.seek(.max, from: 2) == -1, "an offset past Int.max is refused, not a trap")
        #expect(stream.seek(5000, from: 0) == 5000)
        #expect(readAll(stream, chunk: 8).isEmpty)
    }
}
