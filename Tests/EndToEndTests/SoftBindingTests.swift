// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport
import Watermark

/// `batch --invisible --sign`: the manifest names the mark (its instance id, `c2pa.watermarked`,
/// a soft binding of the payload), as c2pa-python reads it; `verify` finds that manifest again
/// from a copy whose metadata exiftool stripped.
@Suite(
    .needsMarkReferee, .enabled(if: hasC2PAReferee, "c2pa-python is not installed: run make python-deps"))
struct SoftBindingTests {
    /// The active manifest's instance id, actions and soft-binding assertions, as c2pa-python reads them.
    static let script =
        Referee.reading("path, anchors = sys.argv[1:3]", mime: "\"image/jpeg\"") + """
            active = store["manifests"][store["active_manifest"]]
            print(json.dumps({
                "state": store.get("validation_state"),
                "failures": [c["code"] for c in store["validation_results"]["activeManifest"].get("failure", [])],
                "instance_id": active.get("instance_id"),
                "actions": [a["action"] for s in active["assertions"] if s["label"].startswith("c2pa.actions")
                            for a in s["data"]["actions"]],
                "soft_bindings": [s["data"] for s in active["assertions"] if s["label"] == "c2pa.soft-binding"]}))
            """

    /// The mark referee's 1200×900 photo as a JPEG, `in/photo.jpg` in `folder`.
    static func photo(in folder: URL) throws -> URL {
        let ppm = folder.appendingPathComponent("source.ppm")
        try markReferee(["photo", "5", "1200", "900", ppm.path])
        let input = folder.appendingPathComponent("in/photo.jpg")
        try FileManager.default.createDirectory(
            at: input.deletingLastPathComponent(), withIntermediateDirectories: true)
        try tool("/usr/bin/cjpeg", ["-quality", "90", "-outfile", input.path, ppm.path])
        return input
    }

    @Test func theSignedMarkIsTheManifestsAndVerifyFindsItAfterStripping() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let chain = try TestChain(in: folder.appendingPathComponent("keys"))
        let input = try Self.photo(in: folder)
        let out = folder.appendingPathComponent("out")
        let result = try camstamp([
            "batch", input.path, "-o", out.path, "--text", "© Studio", "--invisible", "--json",
            "--sign", chain.chain.path, "--sign-key", chain.key.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let line = try #require(result.stdout.split(separator: "\n").first)
        let photo = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let mark = try #require(photo["invisible"] as? [String: Any], "\(photo)")
        let id = try #require(mark["instance_id"] as? String)
        let hex = try #require(mark["payload"] as? String)
        let payload = try #require(MarkPayload(hex: hex))
        let signed = out.appendingPathComponent("photo.jpg")

        let read = try tool(refereePython, ["-c", Self.script, signed.path, chain.root.path])
        let store = try #require(try JSONSerialization.jsonObject(with: read) as? [String: Any])
        #expect(store["state"] as? String == "Trusted", "\(store)")
        #expect((store["failures"] as? [String]) == [], "\(store)")
        #expect(store["instance_id"] as? String == id)
        #expect((store["actions"] as? [String])?.contains("c2pa.watermarked") == true, "\(store)")
        let bindings = try #require(store["soft_bindings"] as? [[String: Any]])
        #expect(bindings.count == 1, "\(store)")
        #expect(bindings.first?["alg"] as? String == "org.camstamp.dwtdct64.1")
        let blocks = bindings.first?["blocks"] as? [[String: Any]]
        let block = try #require(blocks?.first)
        #expect(block["value"] as? String == Data(payload.bytes).base64EncodedString(), "\(block)")
        // Our reader finds the payload in the signed photo's pixels.
        let decoded = folder.appendingPathComponent("decoded.ppm")
        try markReferee(["ppm", signed.path, decoded.path])
        #expect(try InvisibleMarkTests().readMark(decoded).payload == payload)

        // A copy without its metadata (the manifest goes with it) still names the manifest.
        let stripped = folder.appendingPathComponent("stripped.jpg")
        try FileManager.default.copyItem(at: signed, to: stripped)
        _ = try exiftool(["-q", "-all=", "-overwrite_original", stripped.path])
        let found = try camstamp(["verify", stripped.path, "--manifests", out.path])
        #expect(found.status == 1)
        #expect(
            found.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                == "\(stripped.path): unsigned, but its invisible mark names manifest \(id) (in \(signed.path))",
            "\(found.stdout)\(found.stderr)")
        let json = try camstamp(["verify", stripped.path, signed.path, "--json"])
        let first = try #require(json.stdout.split(separator: "\n").first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
        #expect(object["state"] as? String == "unsigned")
        let invisible = try #require(object["invisible"] as? [String: Any], "\(object)")
        #expect(invisible["instance_id"] as? String == id && invisible["payload"] as? String == payload.hex)
        let alone = try camstamp(["verify", stripped.path])
        #expect(alone.status == 1)
        #expect(
            alone.stdout.contains("unsigned; invisible mark \(payload.hex), no manifest at hand carries it"),
            "\(alone.stdout)")
        // The unmarked source says only that it is unsigned.
        let plain = try camstamp(["verify", input.path, "--manifests", out.path])
        #expect(plain.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "\(input.path): unsigned")
    }

    /// A HEIC's mark is read from libheif's own picture (no pipeline, no PNG written for nothing),
    /// and one over 16 MP, which libheif can only decode whole, is passed over and said so,
    /// unless --search-marks (issue 32: a 50 MP HEIC took a minute and 400 MB).
    @Test func aHEICsMarkIsReadAndABigOneIsPassedOverUnlessAsked() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try Self.photo(in: folder)
        let out = folder.appendingPathComponent("out")
        let result = try camstamp([
            "batch", input.path, "-o", out.path, "--text", "© Studio", "--invisible", "--format", "heic", "--json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let line = try #require(result.stdout.split(separator: "\n").first)
        let photo = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let hex = try #require((photo["invisible"] as? [String: Any])?["payload"] as? String, "\(photo)")
        let heic = out.appendingPathComponent("photo.heic")
        let read = try camstamp(["verify", heic.path])
        #expect(
            read.stdout.contains("unsigned; invisible mark \(hex), no manifest at hand carries it"), "\(read.stdout)")

        // 4200×4200, flat (x265 encodes it in a second): 17.6 MP.
        let flat = folder.appendingPathComponent("flat.png"), big = folder.appendingPathComponent("big.heic")
        try tool("convert", ["-size", "4200x4200", "xc:gray50", "-type", "TrueColor", flat.path])
        try tool("heif-enc", ["-p", "preset=ultrafast", "-q", "30", "-o", big.path, flat.path])
        let passed = try camstamp(["verify", big.path, "--json"])
        #expect(passed.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(passed.stdout.utf8)) as? [String: Any])
        #expect(object["state"] as? String == "unsigned")
        let skipped = (object["invisible"] as? [String: Any])?["skipped"] as? String
        #expect(
            skipped == "not searched for an invisible mark: a HEIC of 18 MP is decoded whole (more than 16 MP: "
                + "--search-marks searches it)", "\(passed.stdout)")
        let searched = try camstamp(["verify", big.path, "--search-marks"])
        #expect(searched.stdout == "\(big.path): unsigned\n", "\(searched.stdout)")
    }
}
