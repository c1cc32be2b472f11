// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport
import Watermark

/// `batch --invisible`: the mark is in what camstamp wrote, as invisible-watermark reads it, and
/// still after a social network's JPEG q75.
@Suite(.needsMarkReferee) struct InvisibleMarkTests {
    /// A generated photo as a JPEG (cjpeg, q90, 4:2:0) in `folder`.
    func photoJPEG(_ seed: Int, in folder: URL, name: String) throws -> URL {
        let ppm = folder.deletingLastPathComponent().appendingPathComponent("source-\(seed).ppm")
        try markReferee(["photo", "\(seed)", "1200", "900", ppm.path])
        let jpeg = folder.appendingPathComponent(name)
        try tool("/usr/bin/cjpeg", ["-quality", "90", "-outfile", jpeg.path, ppm.path])
        return jpeg
    }

    @Test func batchInvisibleWritesTheInstanceIDsPayloadThatSurvivesJPEG75() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputs = folder.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        for seed in 1...2 { _ = try photoJPEG(seed, in: inputs, name: "photo \(seed).jpg") }
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", inputs.path, "-o", out.path, "--text", "© Studio", "--invisible", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let photos = lines.filter { $0["summary"] == nil }
        #expect(photos.count == 2, "\(result.stdout)")
        var payloads: Set<String> = []
        for photo in photos {
            let output = try #require(photo["output"] as? String)
            let mark = try #require(photo["invisible"] as? [String: Any], "\(photo)")
            let payload = try #require(mark["payload"] as? String)
            let id = try #require(mark["instance_id"] as? String)
            #expect(mark["algorithm"] as? String == "org.camstamp.dwtdct64.1")
            let hashed = try markReferee(["payload", id])
            #expect(id.hasPrefix("xmp:iid:") && payload == hashed)
            #expect(photo["path"] as? String == "reencoded")
            let expected = try #require(MarkPayload(hex: payload))
            let decoded = folder.appendingPathComponent("decoded.ppm")
            let recompressed = folder.appendingPathComponent("q75.ppm")
            try markReferee(["ppm", output, decoded.path])
            try markReferee(["jpeg", output, recompressed.path, "75"])
            for (picture, what) in [(decoded, "as written"), (recompressed, "after q75")] {
                // As written, every bit. After q75 on a 1 MP photo (half the 2 MP the robustness set
                // in WatermarkTests holds to every bit) a payload can lose a bit or two, as the
                // random instance id falls: the mark must still match (56 of 64 bits).
                let reading = try readMark(picture)
                if picture == decoded {
                    #expect(reading.payload == expected, "\(output) \(what)")
                } else {
                    #expect(reading.matches(expected), "\(output) \(what): \(reading.agreement(with: expected)) bits")
                }
                // invisible-watermark's reader cuts every bit at one half, where a photo's own lean
                // can tip a bit or two: it must still find the mark (56 of 64 bits).
                let referee = try #require(MarkPayload(hex: try markReferee(["decode", picture.path])))
                #expect(referee.agreement(with: expected) >= 56, "\(output) \(what)")
            }
            payloads.insert(payload)
        }
        #expect(payloads.count == 2, "each photo its own instance id")
    }

    /// What our reader finds in a PPM.
    func readMark(_ file: URL) throws -> MarkReading {
        var picture = try RGBPicture(ppm: file)
        let (width, height) = (picture.width, picture.height)
        return try picture.pixels.withUnsafeMutableBytes { bytes in
            try InvisibleMark.read(
                ChromaPlane(
                    base: bytes.baseAddress!, stride: width * 3, width: width, height: height,
                    layout: .packed(bytesPerPixel: 3, red: 0, green: 1, blue: 2)))
        }
    }

    @Test func aPhotoTooSmallForTheMarkFailsInOneLineAndTheOthersGoOn() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let small = folder.appendingPathComponent("small.ppm")
        try markReferee(["photo", "3", "200", "150", small.path])
        let jpeg = folder.appendingPathComponent("small.jpg")
        try tool("/usr/bin/cjpeg", ["-outfile", jpeg.path, small.path])
        let result = try camstamp([
            "batch", jpeg.path, "-o", folder.appendingPathComponent("out").path, "--text", "x", "--invisible",
        ])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "small.jpg: cannot mark the image: cannot write the invisible mark: the picture is 200×150; "
                    + "an invisible mark needs at least 256×256 pixels"), "\(result.stderr)")
    }
}
