// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

/// Issue 32 §4: `verify --json` answers for every file, one object each (a remote manifest, one
/// no reader takes, a file that is no photo, a missing one), and a source whose manifest comes
/// from another writer is carried as the parent's, or, where it cannot be carried whole, named
/// without it, with one warning: the signed output validates, per c2pa-python.
@Suite(.enabled(if: hasC2PAReferee, "c2pa-python is not installed: run make python-deps"))
struct VerifyEveryFileTests {
    struct Answer: Decodable {
        var file: String
        var state: String
        var reason: String?
        var remote_url: String?
        var failures: [String]
    }

    @Test func everyFileGetsOneObjectAndExitOne() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let chain = try TestChain(in: folder.appendingPathComponent("keys"))
        let plain = folder.appendingPathComponent("in/plain.jpg")
        try plasmaJPEG(plain, width: 320, height: 240)
        let file = { (name: String) in folder.appendingPathComponent("in/\(name)") }
        for writer in [OtherWriter.claimV2, .remote, .unknownAlgorithm] {
            try writer.sign(plain, to: file("\(writer.rawValue).jpg"), chain: chain)
        }
        try "not a photo\n".write(to: file("notes.txt"), atomically: true, encoding: .utf8)
        let names = ["v2.jpg", "remote.jpg", "alg.jpg", "notes.txt", "gone.jpg", "plain.jpg"]
        let result = try camstamp(["verify"] + names.map { file($0).path } + ["--json"], timeout: 120)
        #expect(result.status == 1, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == names.count, "one object per file: \(result.stdout)")
        var answers: [String: Answer] = [:]
        for line in lines {
            let answer = try JSONDecoder().decode(Answer.self, from: Data(line.utf8))
            answers[URL(fileURLWithPath: answer.file).lastPathComponent] = answer
        }
        #expect(answers["v2.jpg"]?.state == "valid", "\(result.stdout)")
        #expect(answers["plain.jpg"]?.state == "unsigned", "\(result.stdout)")
        let remote = try #require(answers["remote.jpg"], "\(result.stdout)")
        #expect(remote.state == "remote" && remote.remote_url == OtherWriter.remoteURL, "\(result.stdout)")
        let damaged = try #require(answers["alg.jpg"], "\(result.stdout)")
        #expect(damaged.state == "invalid" && damaged.reason?.isEmpty == false, "\(result.stdout)")
        for name in ["notes.txt", "gone.jpg"] {
            let answer = try #require(answers[name], "\(result.stdout)")
            #expect(answer.state == "unreadable" && answer.reason?.isEmpty == false, "\(result.stdout)")
        }
        #expect(answers["gone.jpg"]?.reason == "no such file")
        // The referee cannot read the damaged one either: it is not our reader's quirk.
        #expect(throws: (any Error).self) { try Referee.read(file("alg.jpg"), mime: "image/jpeg", anchors: chain.root) }
        // Without --json, a line each that says as much.
        let words = try camstamp(["verify", file("remote.jpg").path, file("alg.jpg").path])
        #expect(words.status == 1)
        #expect(
            words.stdout.contains("remote; its manifest is at \(OtherWriter.remoteURL), which verify does not fetch"),
            "\(words.stdout)")
        #expect(words.stdout.contains("alg.jpg: invalid; the manifest cannot be read: "), "\(words.stdout)")
    }

    /// A v1 and a v2 claim are carried as the parent's manifest, without a word; a manifest that
    /// makes the output fail (`ingredient.manifest.missing`) or that the SDK cannot take (an
    /// unknown algorithm) leaves the parent named only, with one warning. Every output is
    /// Trusted by the referee, with nothing failing.
    @Test(arguments: [OtherWriter.claimV1, .claimV2, .missingIngredient, .unknownAlgorithm])
    func aParentFromAnyWriterLeavesAValidOutput(writer: OtherWriter) throws {
        let folder = try temporaryFolder("carry\(writer.rawValue)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let chain = try TestChain(in: folder.appendingPathComponent("keys"))
        let plain = folder.appendingPathComponent("plain.jpg")
        try plasmaJPEG(plain, width: 320, height: 240)
        let input = folder.appendingPathComponent("in/photo.jpg")
        try writer.sign(plain, to: input, chain: chain)
        let out = folder.appendingPathComponent("out")
        let result = try camstamp([
            "batch", input.path, "-o", out.path, "--text", "Job A-113",
            "--sign", chain.chain.path, "--sign-key", chain.key.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let warnings = result.stderr.split(separator: "\n").filter { $0.contains("warning:") }
        let carried = writer == .claimV1 || writer == .claimV2
        if carried {
            #expect(warnings.isEmpty, "\(result.stderr)")
        } else {
            #expect(warnings.count == 1, "\(result.stderr)")
            #expect(
                warnings.first?.contains("its Content Credentials (C2PA manifest) cannot be carried on") == true
                    && warnings.first?.hasSuffix("the source is the parent ingredient without them") == true,
                "\(result.stderr)")
        }
        let output = out.appendingPathComponent("photo.jpg")
        let report = try Referee.read(output, mime: "image/jpeg", anchors: chain.root)
        #expect(report.state == "Trusted" && report.failures == [], "\(writer): \(report.failures)")
        #expect(report.relationships == ["parentOf"])
        #expect(report.parentGenerator == (carried ? "Other Writer" : nil), "\(writer)")
        let verified = try camstamp(["verify", output.path, "--trust", chain.root.path])
        #expect(verified.status == 0 && verified.stdout.contains(": trusted;"), "\(verified.stdout)\(verified.stderr)")
    }
}
