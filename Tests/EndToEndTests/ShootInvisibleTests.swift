// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport
import Watermark

/// `shoot --invisible`: a camera's photo carries the mark batch writes, as invisible-watermark
/// reads it, and with `--sign` the manifest names it (its instance id, a soft binding).
@Suite(.needsMarkReferee, .runsGStreamerElements) struct ShootInvisibleTests {
    /// Runs `shoot --invisible --json` with `arguments` and gives the photo's file, and its mark's
    /// instance id and payload as its JSON line says them.
    func shot(_ arguments: [String], in folder: URL, name: String) throws -> (URL, String, MarkPayload) {
        let photo = folder.appendingPathComponent(name)
        let result = try camstamp(
            ["shoot", "-o", photo.path, "--text", "Site 7", "--invisible", "--json"] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        let line = try #require(result.stdout.split(separator: "\n").first, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let mark = try #require(object["invisible"] as? [String: Any], "\(object)")
        #expect(mark["algorithm"] as? String == "org.camstamp.dwtdct64.1")
        let id = try #require(mark["instance_id"] as? String)
        let hex = try #require(mark["payload"] as? String)
        let hashed = try markReferee(["payload", id])
        #expect(id.hasPrefix("xmp:iid:") && hex == hashed)
        return (photo, id, try #require(MarkPayload(hex: hex)))
    }

    /// `--source` for a camera filming a generated photo (`photoClip`), without warm-up.
    func photoCamera(in folder: URL) throws -> [String] {
        ["--source", "file:" + (try photoClip(in: folder)).path, "--warmup", "0"]
    }

    @Test func theTestCamerasPhotoCarriesTheInstanceIDsPayload() throws {
        let folder = try temporaryFolder("shoot-invisible-test")
        defer { try? FileManager.default.removeItem(at: folder) }
        // An HD frame of the test camera is limited-range BT.709: marked after its conversion.
        let (photo, _, payload) = try shot(
            ["--source", "test", "--size", "1280x720", "--format", "png"], in: folder, name: "shot.png")
        let read = try markReferee(["decode", photo.path])
        #expect(read == payload.hex, "\(photo.path)")
    }

    @Test func aPhotosMarkSurvivesJPEG75() throws {
        let folder = try temporaryFolder("shoot-invisible-jpeg")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (photo, _, payload) = try shot(try photoCamera(in: folder), in: folder, name: "shot.jpg")
        // camstamp's reader finds every bit; invisible-watermark's cuts each bit at one half,
        // where a photo's own lean can tip one or two, as batch's tests allow (56 of 64 bits).
        let ours = try camstamp(["verify", photo.path])
        #expect(ours.stdout.contains("unsigned; invisible mark \(payload.hex),"), "\(ours.stdout)")
        let read = try #require(MarkPayload(hex: try markReferee(["decode", photo.path])))
        #expect(read.agreement(with: payload) >= 56, "\(photo.path)")
        // What a social network makes of it.
        let recompressed = folder.appendingPathComponent("q75.ppm")
        try markReferee(["jpeg", photo.path, recompressed.path, "75"])
        let referee = try #require(MarkPayload(hex: try markReferee(["decode", recompressed.path])))
        #expect(referee.agreement(with: payload) >= 56, "after q75")
    }

    @Test(.enabled(if: hasC2PAReferee, "c2pa-python is not installed: run make python-deps"))
    func aSignedShotsManifestCarriesTheMarksSoftBinding() throws {
        let folder = try temporaryFolder("shoot-invisible-signed")
        defer { try? FileManager.default.removeItem(at: folder) }
        let chain = try TestChain(in: folder.appendingPathComponent("keys"))
        let (photo, id, payload) = try shot(
            try photoCamera(in: folder) + ["--sign", chain.chain.path, "--sign-key", chain.key.path],
            in: folder, name: "signed.jpg")
        let decoded = try #require(MarkPayload(hex: try markReferee(["decode", photo.path])))
        #expect(decoded.agreement(with: payload) >= 56, "\(photo.path)")
        let read = try tool(refereePython, ["-c", SoftBindingTests.script, photo.path, chain.root.path])
        let store = try #require(try JSONSerialization.jsonObject(with: read) as? [String: Any])
        #expect(store["state"] as? String == "Trusted", "\(store)")
        #expect((store["failures"] as? [String]) == [], "\(store)")
        #expect(store["instance_id"] as? String == id)
        let actions = try #require(store["actions"] as? [String], "\(store)")
        #expect(actions.first == "c2pa.created" && actions.contains("c2pa.watermarked"), "\(actions)")
        let bindings = try #require(store["soft_bindings"] as? [[String: Any]])
        #expect(bindings.count == 1, "\(store)")
        #expect(bindings.first?["alg"] as? String == "org.camstamp.dwtdct64.1")
        let block = try #require((bindings.first?["blocks"] as? [[String: Any]])?.first)
        #expect(block["value"] as? String == Data(payload.bytes).base64EncodedString(), "\(block)")
    }
}
