// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
@testable import ISOBMFF

/// `ContainerMetadata`'s box reading on movie boxes built byte by byte (its round trips through
/// ffmpeg and exiftool are in MediaTests' ClipMetadataUnitTests).
@Suite struct ContainerMetadataTests {
    /// A `meta` too short to hold even its version and flags (an 8-byte box, in the moov or in
    /// its udta) is no keyed metadata: left out, never a trap (its children's range ran
    /// backwards).
    @Test func aMetaBoxTooShortForItsHeaderIsLeftOut() {
        func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
            bigEndianBytes(UInt64(8 + body.count), 4) + Array(type.utf8) + body
        }
        for body in [[], [0], [0, 0, 0]] as [[UInt8]] {
            let moov = Data(box("moov", box("meta", body) + box("udta", box("meta", body))))
            #expect(ContainerMetadata.copiedBoxes(fromMoov: moov, keepLocation: true).moov.isEmpty)
        }
    }
}
