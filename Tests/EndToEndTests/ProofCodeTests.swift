// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

/// Issue 33 §3: `{proof}`, a code from the manifest's instance id, is drawn before the photo is
/// signed and names that manifest; `verify --code` finds the signed original from the code as a
/// person types it back in.
@Suite(.enabled(if: hasC2PAReferee, "c2pa-python is not installed: run make python-deps"))
struct ProofCodeTests {
    @Test func theDrawnCodeFindsTheSignedOriginal() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let chain = try TestChain(in: folder.appendingPathComponent("keys"))
        for name in ["a", "b"] {
            try plasmaJPEG(folder.appendingPathComponent("in/\(name).jpg"), width: 320, height: 240)
        }
        let out = folder.appendingPathComponent("signed")
        let result = try camstamp([
            "batch", folder.appendingPathComponent("in").path, "-o", out.path, "--text", "Proof {proof} {proof-url}",
            "--sign", chain.chain.path, "--sign-key", chain.key.path, "--proof-url", "https://example.org/v/{proof}",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        var codes: [String: String] = [:]
        for name in ["a", "b"] {
            let file = out.appendingPathComponent("\(name).jpg")
            let report = try Referee.read(file, mime: "image/jpeg", anchors: chain.root)
            #expect(report.state == "Trusted", "\(report.failures)")
            let drawn = try #require(
                report.actions.first { $0.hasPrefix("c2pa.addedText: Proof ") }, "\(report.actions)")
            let code = String(drawn.dropFirst("c2pa.addedText: Proof ".count).prefix(11))
            #expect(
                code.wholeMatch(of: /[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z*~$=U]/) != nil,
                "\(drawn)")
            #expect(drawn.hasSuffix(" https://example.org/v/\(code)"), "\(drawn)")
            // The manifest the referee read names the code the photo shows.
            let verified = try camstamp(["verify", file.path, "--json"])
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(verified.stdout.utf8)) as? [String: Any])
            #expect(object["proof"] as? String == code, "\(object)")
            codes[name] = code
        }
        #expect(codes["a"] != codes["b"])
        // Typed back in: lower case, without hyphens, O for 0 and L for 1 where they are.
        let a = try #require(codes["a"])
        let typed = a.lowercased().replacingOccurrences(of: "-", with: "").replacingOccurrences(of: "0", with: "o")
            .replacingOccurrences(of: "1", with: "l")
        let found = try camstamp(["verify", "--code", typed, "--manifests", out.path, "--trust", chain.root.path])
        #expect(found.status == 0, "\(found.stderr)")
        #expect(found.stdout.hasPrefix("\(out.appendingPathComponent("a.jpg").path): trusted;"), "\(found.stdout)")
        #expect(found.stdout.split(separator: "\n").count == 1, "\(found.stdout)")
        // A mistyped symbol is caught by the check symbol; a code of no manifest here is said so.
        let last = a.last == "0" ? "1" : "0"
        let mistyped = try camstamp(["verify", "--code", String(a.dropLast()) + last, "--manifests", out.path])
        #expect(
            mistyped.status == 64 && mistyped.stderr.contains("its last symbol does not check"), "\(mistyped.stderr)")
        let other = folder.appendingPathComponent("other")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        let missing = try camstamp(["verify", "--code", a, "--manifests", other.path])
        #expect(
            missing.status == 1 && missing.stderr.contains("no manifest in --manifests names it"), "\(missing.stderr)")
        // Without --sign there is no manifest to name: refused before any work.
        let unsigned = try camstamp([
            "batch", folder.appendingPathComponent("in").path, "-o", folder.appendingPathComponent("u").path,
            "--text", "{proof}",
        ])
        #expect(unsigned.status == 64 && unsigned.stderr.contains("{proof} and {proof-url} need --sign"))
    }

    /// A `"qr": "{proof-url}"` mark: zbarimg reads back the URL with the code the manifest names,
    /// and the manifest says the QR code was drawn. A QR mark takes image keys, not text ones.
    @Test func aQRCodeOfTheProofURLScansBack() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let chain = try TestChain(in: folder.appendingPathComponent("keys"))
        let input = folder.appendingPathComponent("in/site.jpg")
        try plasmaJPEG(input)
        let preset = folder.appendingPathComponent("proof.json")
        try """
        {"name": "proof", "marks": [
          {"text": "proof {proof}", "anchor": "bottom-left"},
          {"qr": "{proof-url}", "anchor": "bottom-right", "width": "22%"}]}
        """.write(to: preset, atomically: true, encoding: .utf8)
        let out = folder.appendingPathComponent("out")
        let result = try camstamp([
            "batch", input.path, "-o", out.path, "--preset", preset.path, "--sign", chain.chain.path,
            "--sign-key", chain.key.path, "--proof-url", "https://example.org/v/{proof}",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let output = out.appendingPathComponent("site.jpg")
        let scanned = try runProcess("zbarimg", ["-q", "--raw", output.path], timeout: 60)
        #expect(scanned.status == 0, "zbarimg found no code: \(scanned.stderr)")
        let url = scanned.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let verified = try camstamp(["verify", output.path, "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(verified.stdout.utf8)) as? [String: Any])
        let code = try #require(object["proof"] as? String, "\(object)")
        #expect(url == "https://example.org/v/\(code)")
        let report = try Referee.read(output, mime: "image/jpeg", anchors: chain.root)
        #expect(report.state == "Trusted", "\(report.failures)")
        #expect(report.actions.contains("c2pa.edited: QR code: \(url)"), "\(report.actions)")
        // The QR code is black on white, with its quiet zone, where the preset puts it.
        let picture = try djpeg(output)
        let inset = min(picture.width, picture.height) * 3 / 100 + 3
        let (x, y) = (picture.width - 1 - inset, picture.height - 1 - inset)
        let at = (y * picture.width + x) * picture.channels
        let pixel = Array(picture.pixels[at..<at + picture.channels])
        #expect(pixel.allSatisfy { $0 > 230 }, "the quiet zone is white at (\(x), \(y)): \(pixel)")

        for (marks, said) in [
            (#"[{"qr": "x", "font": "Sans"}]"#, "'font' applies to text marks only"),
            (#"[{"qr": "x", "text": "y"}]"#, "a mark has one of 'text', 'image' or 'qr', not 2"),
            (#"[{"qr": ""}]"#, "qr must be a text of 1 to 1024 bytes"),
        ] {
            try #"{"name": "bad", "marks": \#(marks)}"#.write(to: preset, atomically: true, encoding: .utf8)
            let refused = try camstamp(["batch", input.path, "-o", out.path + "2", "--preset", preset.path])
            #expect(refused.status == 64 && refused.stderr.contains(said), "\(marks): \(refused.stderr)")
        }
    }

    /// A shot's code is its manifest's too (the id chosen before the marks are drawn).
    @Test func aShotsCodeIsItsManifests() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let chain = try TestChain(in: folder.appendingPathComponent("keys"))
        let shot = folder.appendingPathComponent("shot.jpg")
        let result = try camstamp([
            "shoot", "-o", shot.path, "--source", "test", "--text", "proof {proof}", "--sign", chain.chain.path,
            "--sign-key", chain.key.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try Referee.read(shot, mime: "image/jpeg", anchors: chain.root)
        #expect(report.state == "Trusted", "\(report.failures)")
        let verified = try camstamp(["verify", shot.path, "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(verified.stdout.utf8)) as? [String: Any])
        let code = try #require(object["proof"] as? String, "\(object)")
        #expect(report.actions.contains("c2pa.addedText: proof \(code)"), "\(report.actions)")
        let found = try camstamp(["verify", "--code", code, "--manifests", folder.path])
        #expect(found.status == 0 && found.stdout.hasPrefix("\(shot.path): valid;"), "\(found.stdout)\(found.stderr)")
    }
}
