// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

@testable import Watermark

@Suite struct PayloadTests {
    @Test func sha256MatchesTheStandardVectors() {
        #expect(
            SHA256.digest(Array("abc".utf8)).map { String(format: "%02x", $0) }.joined()
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        // 56 bytes: the padding spills into a second block.
        #expect(
            SHA256.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)).map {
                String(format: "%02x", $0)
            }.joined() == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func payloadIsTheInstanceIDsHashTruncated() throws {
        let id = "xmp:iid:6f3c2a7e-1b4d-4c8e-9a0f-2d5e7b9c1a3f"
        let payload = MarkPayload(instanceID: id)
        #expect(payload.hex.count == 16)
        #expect(MarkPayload(hex: payload.hex) == payload)
        #expect(payload.bits.count == 64)
        #expect(payload.bits.prefix(8).reduce(0) { $0 << 1 | $1 } == payload.bytes[0])
        #expect(MarkPayload(hex: "0123") == nil)
        #expect(MarkPayload(hex: "zz23456789abcdef") == nil)
    }

    @Test(.needsMarkReferee) func payloadMatchesPythonsHashlib() throws {
        let id = "xmp:iid:6f3c2a7e-1b4d-4c8e-9a0f-2d5e7b9c1a3f"
        #expect(try markReferee(["payload", id]) == MarkPayload(instanceID: id).hex)
    }
}
