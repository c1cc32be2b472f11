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
}
