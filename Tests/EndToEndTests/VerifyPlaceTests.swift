// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

/// Issue 33 §1: `verify` says where a photo was taken, as `{latlon}` and `{place}` write it:
/// from the manifest's `stds.exif` assertion when it states a position, else from the file's own
/// GPS tags (which the hash covers when the file is signed).
@Suite(.enabled(if: hasC2PAReferee, "c2pa-python is not installed: run make python-deps"))
struct VerifyPlaceTests {
    struct Answer: Decodable {
        struct Location: Decodable {
            var latitude: Double
            var longitude: Double
            var latlon: String
            var place: String?
            var from: String
        }
        var state: String
        var location: Location?
    }

    @Test func thePlaceComesFromTheManifestOrTheGPSTags() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let chain = try TestChain(in: folder.appendingPathComponent("keys"))
        let plain = folder.appendingPathComponent("in/plain.jpg")
        try plasmaJPEG(plain, width: 320, height: 240)
        // The manifest's position: another writer's stds.exif assertion.
        let located = folder.appendingPathComponent("in/located.jpg")
        try OtherWriter.located.sign(plain, to: located, chain: chain)
        // The photo's own GPS tags, written by exiftool, then marked and signed by camstamp.
        let tagged = folder.appendingPathComponent("in/tagged.jpg")
        try FileManager.default.copyItem(at: plain, to: tagged)
        try exiftool([
            "-q", "-overwrite_original", "-GPSLatitude=48.8566", "-GPSLatitudeRef=N", "-GPSLongitude=2.3522",
            "-GPSLongitudeRef=E", tagged.path,
        ])
        let out = folder.appendingPathComponent("out")
        let batch = try camstamp([
            "batch", tagged.path, "-o", out.path, "--text", "site 4", "--sign", chain.chain.path,
            "--sign-key", chain.key.path,
        ])
        #expect(batch.status == 0, "\(batch.stderr)")
        let signed = out.appendingPathComponent("tagged.jpg")
        #expect(try exiftool(["-s3", "-n", "-GPSLatitude"], signed).hasPrefix("48.8566"), "GPS carried")
        let result = try camstamp(["verify", located.path, signed.path, plain.path, "--json"])
        let answers = try result.stdout.split(separator: "\n").map {
            try JSONDecoder().decode(Answer.self, from: Data($0.utf8))
        }
        try #require(answers.count == 3, "\(result.stdout)")
        let fromManifest = try #require(answers[0].location, "\(result.stdout)")
        #expect(answers[0].state == "valid")
        #expect(
            fromManifest.from == "manifest" && fromManifest.latlon.hasPrefix("39.35170° N, 74.4428"), "\(fromManifest)")
        #expect(abs(fromManifest.latitude - 39.3517) < 1e-6 && abs(fromManifest.longitude + 74.442895) < 1e-6)
        #expect(fromManifest.place?.hasPrefix("Atlantic City") == true, "\(fromManifest)")
        let fromTags = try #require(answers[1].location, "\(result.stdout)")
        #expect(answers[1].state == "valid")
        #expect(fromTags.from == "exif" && fromTags.latlon == "48.85660° N, 2.35220° E", "\(fromTags)")
        #expect(fromTags.place?.contains("Paris") == true, "\(fromTags)")
        #expect(answers[2].location == nil, "a photo without GPS tags has no place: \(result.stdout)")
        // The line says it too.
        let line = try camstamp(["verify", signed.path])
        #expect(line.stdout.contains("at 48.85660° N, 2.35220° E (Paris"), "\(line.stdout)")
        #expect(line.stdout.contains("as its EXIF says"), "\(line.stdout)")
    }
}
