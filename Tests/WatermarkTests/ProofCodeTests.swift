// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Testing
import Watermark

/// The proof code: 40 bits of SHA-256(instance id) (the invisible mark's payload's first five
/// bytes) in Crockford's base32 with its check symbol, read back as a person types it.
@Suite struct ProofCodeUnitTests {
    @Test func aCodeIsTheMarksFirstFortyBitsAndReadsBack() throws {
        for n in 0..<200 {
            let id = "xmp:iid:00000000-0000-4000-8000-\(String(n, radix: 16).leftPadded(12))"
            let code = ProofCode(instanceID: id)
            let payload = MarkPayload(instanceID: id).bytes
            #expect(code.value == payload.prefix(5).reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
            let text = code.description
            #expect(text.count == 11 && text.split(separator: "-").map(\.count) == [4, 4, 1], "\(text)")
            #expect(try ProofCode(typed: text) == code)
            #expect(try ProofCode(typed: text.lowercased().replacingOccurrences(of: "-", with: " ")) == code)
            // Read off a print: every 0 as O, every 1 as l, the check symbol's too.
            let misread = text.replacingOccurrences(of: "0", with: "O").replacingOccurrences(of: "1", with: "l")
            #expect(try ProofCode(typed: misread) == code, "\(misread)")
        }
    }

    @Test func mistakesAreSaid() throws {
        let code = ProofCode(instanceID: "xmp:iid:one").description
        #expect(throws: ProofCode.Failure.length(8)) { try ProofCode(typed: String(code.dropLast())) }
        #expect(throws: ProofCode.Failure.symbol("U")) { try ProofCode(typed: "U" + code.dropFirst()) }
        // One symbol changed (not to its I/L/O twin) no longer checks.
        let first = code.first == "7" ? "8" : "7"
        #expect(throws: ProofCode.Failure.check) { try ProofCode(typed: first + code.dropFirst()) }
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
