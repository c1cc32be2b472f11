// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

/// Issue 33 §1 in Chromium at 390×844 and 1280×800 (Scripts/verify_page_test.py): the page of
/// `verify --serve` says each verdict in words for files this test signs: trusted, changed after
/// signing, no credentials, a stripped copy found by its invisible mark in --manifests, and the
/// signed original found from its proof code typed in.
extension CameraTests {
    @Suite struct VerifyPageInBrowser {
        @Test(.enabled(if: hasC2PAReferee, "c2pa-python is not installed: run make python-deps"))
        func eachVerdictIsSaidInWordsOnAPhoneAndALaptop() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let chain = try TestChain(in: folder.appendingPathComponent("keys"))
            let source = folder.appendingPathComponent("in/photo.jpg")
            try plasmaJPEG(source, width: 800, height: 600)
            // Where it was taken, in its own GPS tags: the page says the place.
            try exiftool([
                "-q", "-overwrite_original", "-GPSLatitude=48.8566", "-GPSLatitudeRef=N", "-GPSLongitude=2.3522",
                "-GPSLongitudeRef=E", source.path,
            ])
            let signed = folder.appendingPathComponent("signed")
            let result = try camstamp([
                "batch", source.path, "-o", signed.path, "--text", "Site 7 · {proof}", "--invisible",
                "--sign", chain.chain.path, "--sign-key", chain.key.path,
            ])
            #expect(result.status == 0, "\(result.stderr)")
            let original = signed.appendingPathComponent("photo.jpg")
            let files = folder.appendingPathComponent("files")
            try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
            // Signed without --invisible, the photo stays spliced and records its changed blocks.
            let spliced = folder.appendingPathComponent("spliced")
            let second = try camstamp([
                "batch", source.path, "-o", spliced.path, "--text", "Site 7 · {proof}",
                "--sign", chain.chain.path, "--sign-key", chain.key.path,
            ])
            #expect(second.status == 0, "\(second.stderr)")
            let trusted = files.appendingPathComponent("trusted.jpg")
            try FileManager.default.copyItem(at: spliced.appendingPathComponent("photo.jpg"), to: trusted)
            // Bytes of the picture changed, the manifest kept: its hash no longer matches.
            var bytes = try Data(contentsOf: original)
            let middle = bytes.count * 3 / 4
            for offset in stride(from: middle, to: middle + 64, by: 8)
            where bytes[offset] != 0xFF && bytes[offset - 1] != 0xFF {
                bytes[offset] ^= 0x10
            }
            let tampered = files.appendingPathComponent("tampered.jpg")
            try bytes.write(to: tampered)
            let unsigned = files.appendingPathComponent("unsigned.jpg")
            try FileManager.default.copyItem(at: source, to: unsigned)
            let stripped = files.appendingPathComponent("stripped.jpg")
            try FileManager.default.copyItem(at: original, to: stripped)
            _ = try exiftool(["-q", "-all=", "-overwrite_original", stripped.path])
            let verified = try camstamp(["verify", original.path, "--json"])
            let code = try #require(
                (try JSONSerialization.jsonObject(with: Data(verified.stdout.utf8)) as? [String: Any])?["proof"]
                    as? String)
            let run = try runScript(
                "verify_page_test.py",
                [camstampBinary.path, folder.path, chain.root.path, signed.path, code]
                    + [trusted, tampered, unsigned, stripped].map(\.path),
                timeout: 300)
            #expect(run.status == 0, "\(run.output)")
            let line = try #require(run.output.split(separator: "\n").last { $0.hasPrefix("result ") }, "\(run.output)")
            let results = try #require(
                try JSONSerialization.jsonObject(with: Data(line.dropFirst("result ".count).utf8)) as? [String: Any])
            let expected = [
                "trusted.jpg": "Trusted", "tampered.jpg": "Changed after signing", "unsigned.jpg": "No credentials",
                "stripped.jpg": "A copy of a signed photo",
            ]
            for size in ["390x844", "1280x800"] {
                let page = try #require(results[size] as? [String: [String: Any]], "\(results)")
                for (name, title) in expected {
                    let shown = try #require(page[name], "\(size): \(page.keys)")
                    #expect(shown["title"] as? String == title, "\(size) \(name): \(shown)")
                    #expect(shown["overflow"] as? Bool == false, "\(size) \(name): wider than the page")
                }
                #expect((page["trusted.jpg"]?["facts"] as? String)?.contains("Test Signer") == true, "\(page)")
                #expect(
                    (page["trusted.jpg"]?["facts"] as? String)?.contains("48.85660° N, 2.35220° E · Paris") == true,
                    "\(size): \(page["trusted.jpg"] ?? [:])")
                // The photo's changed blocks (its block record's) are outlined on it; none on a
                // photo without a record.
                #expect((page["trusted.jpg"]?["outlined"] as? Int ?? 0) > 0, "\(size): \(page["trusted.jpg"] ?? [:])")
                #expect(page["unsigned.jpg"]?["outlined"] as? Int == 0, "\(size): \(page["unsigned.jpg"] ?? [:])")
                #expect((page["stripped.jpg"]?["text"] as? String)?.contains(original.path) == true, "\(page)")
                // The code typed in finds the signed original.
                #expect(page["code"]?["title"] as? String == "Trusted", "\(size): \(page["code"] ?? [:])")
                #expect((page["code"]?["facts"] as? String)?.contains(code) == true, "\(size): \(page["code"] ?? [:])")
            }
        }

        /// The camera serves the same page at `/verify`, behind its token when it has one: a shot
        /// it signed is valid, and its stripped copy is found among the camera's own photos.
        @Test(.enabled(if: hasC2PAReferee, "c2pa-python is not installed: run make python-deps"))
        func theCameraServesTheVerifyPage() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let chain = try TestChain(in: folder.appendingPathComponent("keys"))
            let photos = folder.appendingPathComponent("photos")
            let camera = try PageAPI.start(
                [
                    "--source", "test", "--size", "640x480", "-o", photos.path, "--invisible", "--sign",
                    chain.chain.path, "--sign-key", chain.key.path,
                ], in: folder)
            defer { _ = camera.stop() }
            let page = try PageAPI.send("GET", "/verify", port: camera.port)
            #expect(page.status == 200 && page.head.lowercased().contains("content-type: text/html"), "\(page.head)")
            let shot = try PageAPI.send("POST", "/api/shoot", port: camera.port)
            #expect(shot.status == 200, "\(shot.head)")
            let path = try #require(
                (try JSONSerialization.jsonObject(with: shot.body) as? [String: Any])?["path"] as? String)
            let stripped = folder.appendingPathComponent("stripped.jpg")
            try FileManager.default.copyItem(at: URL(fileURLWithPath: path), to: stripped)
            _ = try exiftool(["-q", "-all=", "-overwrite_original", stripped.path])
            for (file, state) in [(URL(fileURLWithPath: path), "valid"), (stripped, "unsigned")] {
                let answer = try PageAPI.send(
                    "POST", "/api/verify?name=\(file.lastPathComponent)", port: camera.port,
                    body: try Data(contentsOf: file))
                #expect(answer.status == 200, "\(answer.head)")
                let object = try #require(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])
                #expect(object["state"] as? String == state, "\(object)")
                if state == "unsigned" {
                    let mark = try #require(object["invisible"] as? [String: Any], "\(object)")
                    #expect(mark["manifest_file"] as? String == path, "\(mark)")
                }
            }
            // A shot taken after that lookup is found too: the camera's photos are read as they come.
            let later = try PageAPI.send("POST", "/api/shoot", port: camera.port)
            let laterPath = try #require(
                (try JSONSerialization.jsonObject(with: later.body) as? [String: Any])?["path"] as? String)
            let laterStripped = folder.appendingPathComponent("later.jpg")
            try FileManager.default.copyItem(at: URL(fileURLWithPath: laterPath), to: laterStripped)
            _ = try exiftool(["-q", "-all=", "-overwrite_original", laterStripped.path])
            let again = try PageAPI.send(
                "POST", "/api/verify?name=later.jpg", port: camera.port, body: try Data(contentsOf: laterStripped))
            let againObject = try #require(try JSONSerialization.jsonObject(with: again.body) as? [String: Any])
            let againMark = try #require(againObject["invisible"] as? [String: Any], "\(againObject)")
            #expect(againMark["manifest_file"] as? String == laterPath, "\(againMark)")
            let foreign = try PageAPI.send(
                "POST", "/api/verify?name=x.jpg", port: camera.port, body: try Data(contentsOf: stripped),
                headers: ["Origin: http://evil.example"])
            #expect(foreign.status == 403, "\(foreign.head)")
        }
    }
}
