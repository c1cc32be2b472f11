// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
@testable import CamStamp
import Foundation
import Testing

/// `ContentCredentials.carriesManifest`, which every photo of a batch goes through whole: the
/// JUMBF box's `jumdc2pa` found wherever it lies, and nothing else taken for it.
@Suite struct ManifestSearchTests {
    private let box = Data("jumdc2pa".utf8)

    @Test func findsTheBoxAtTheStartTheEndAndInASlice() {
        let filler = Data(repeating: 0xFF, count: 100_000)
        #expect(ContentCredentials.carriesManifest(box + filler))
        #expect(ContentCredentials.carriesManifest(filler + box))
        #expect(ContentCredentials.carriesManifest(filler + box + filler))
        // A slice that does not start at its storage's first byte.
        let whole = filler + box
        #expect(ContentCredentials.carriesManifest(whole[50_000...]))
        #expect(!ContentCredentials.carriesManifest(whole[..<(whole.endIndex - 1)]))
    }

    @Test func takesNoNearMissOrShortDataForTheBox() {
        #expect(!ContentCredentials.carriesManifest(Data()))
        #expect(!ContentCredentials.carriesManifest(Data("jumdc2p".utf8)))
        #expect(!ContentCredentials.carriesManifest(Data("jumdC2PA jumd c2pa jumdc2p".utf8)))
        #expect(!ContentCredentials.carriesManifest(Data(repeating: 0, count: 4096)))
    }
}
