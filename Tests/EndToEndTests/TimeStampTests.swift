// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

/// A time-stamp authority on 127.0.0.1: OpenSSL's `openssl ts -reply` behind a small HTTP
/// handler (Tests/TestSupport/Scripts/tsa.py), with its own root and a certificate for
/// time-stamping only; `mode` makes it answer garbage, an HTTP 500, or nothing for 60 s.
struct TimeStampServer {
    let process: BackgroundProcess
    let folder: URL
    let url: String

    init(in folder: URL, mode: String = "good") throws {
        self.folder = folder
        let script = packageRoot.appendingPathComponent("Tests/TestSupport/Scripts/tsa.py").path
        process = try BackgroundProcess("python3", [script, folder.path, "--mode", mode])
        let port = folder.appendingPathComponent("port")
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: port.path), process.isRunning, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        let number = try String(contentsOf: port, encoding: .utf8)
        url = "http://127.0.0.1:\(number)/tsa"
    }

    /// The authority's root certificate.
    var root: URL { folder.appendingPathComponent("root.pem") }
    /// The requests it was sent, one line each.
    var requests: [String] {
        ((try? String(contentsOf: folder.appendingPathComponent("requests"), encoding: .utf8)) ?? "")
            .split(separator: "\n").map(String.init)
    }

    func stop() { _ = process.stop() }
}

/// Issue 33 §2: `--tsa` against a real RFC 3161 responder. The time stamp validates per
/// c2pa-python for a batch photo, a recording and a shot, verify says the authority's time as such, and an authority that is down, slow
/// or answers garbage fails in one line before anything is written.
@Suite(.enabled(if: hasC2PAReferee, "c2pa-python is not installed: run make python-deps"))
struct TimeStampTests {
    @Test func aPhotoAndARecordingAreTimeStampedByTheAuthority() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let chain = try TestChain(in: folder.appendingPathComponent("keys"))
        let authority = try TimeStampServer(in: folder.appendingPathComponent("tsa"))
        defer { authority.stop() }
        let anchors = folder.appendingPathComponent("anchors.pem")
        try (String(contentsOf: chain.root, encoding: .utf8) + String(contentsOf: authority.root, encoding: .utf8))
            .write(to: anchors, atomically: true, encoding: .utf8)
        let sign = ["--sign", chain.chain.path, "--sign-key", chain.key.path, "--tsa", authority.url]
        let input = folder.appendingPathComponent("in/photo.jpg")
        try plasmaJPEG(input, width: 320, height: 240)
        let before = Date()
        let photo = try camstamp(
            ["batch", input.path, "-o", folder.appendingPathComponent("out").path, "--text", "Site 7"] + sign)
        #expect(photo.status == 0, "\(photo.stderr)")
        let recording = folder.appendingPathComponent("rec.mp4")
        let stream = try camstamp(
            ["stream", "--source", "test", "--to", recording.path, "--duration", "1", "--text", "Live"] + sign)
        #expect(stream.status == 0, "\(stream.stderr)")
        let shot = folder.appendingPathComponent("shot.jpg")
        let shoot = try camstamp(["shoot", "-o", shot.path, "--source", "test", "--text", "Site 7"] + sign)
        #expect(shoot.status == 0, "\(shoot.stderr)")
        #expect(authority.requests.allSatisfy { $0.hasPrefix("/tsa application/timestamp-query ") })
        #expect(authority.requests.count >= 9, "a check and a probe a job, a token a file: \(authority.requests)")
        let files = [
            (folder.appendingPathComponent("out/photo.jpg"), "image/jpeg"), (recording, "video/mp4"),
            (shot, "image/jpeg"),
        ]
        for (file, mime) in files {
            let report = try Referee.read(file, mime: mime, anchors: anchors)
            #expect(report.state == "Trusted" && report.failures == [], "\(file.lastPathComponent): \(report.failures)")
            #expect(report.successes.contains("timeStamp.validated"), "\(report.successes)")
            #expect(report.successes.contains("timeStamp.trusted"), "\(report.successes)")
            let verified = try camstamp(["verify", file.path, "--trust", anchors.path, "--json"])
            #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(verified.stdout.utf8)) as? [String: Any])
            #expect(object["time_stamp"] as? String == "rfc3161", "\(object)")
            let signed = try #require(object["signed"] as? String, "\(object)")
            let when = try #require(ISO8601DateFormatter().date(from: signed), "\(signed)")
            #expect(when > before.addingTimeInterval(-5) && when < Date().addingTimeInterval(5), "\(signed)")
            let line = try camstamp(["verify", file.path, "--trust", anchors.path])
            #expect(line.stdout.contains("; time-stamped at \(signed) by a time-stamp authority;"), "\(line.stdout)")
        }
    }

    /// Down (nothing listens), HTTP 500, bytes that are no reply, no answer for 60 s (the wait is
    /// 10 s): one line naming --tsa, exit 1, no output at all.
    @Test(arguments: ["down", "refuse", "garbage", "slow"])
    func anAuthorityThatFailsFailsTheJobInOneLine(mode: String) throws {
        let folder = try temporaryFolder("tsa-\(mode)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let chain = try TestChain(in: folder.appendingPathComponent("keys"))
        let authority = mode == "down" ? nil : try TimeStampServer(in: folder.appendingPathComponent("tsa"), mode: mode)
        defer { authority?.stop() }
        let url = authority?.url ?? "http://127.0.0.1:9/tsa"
        let input = folder.appendingPathComponent("in/photo.jpg")
        try plasmaJPEG(input, width: 320, height: 240)
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(
            [
                "batch", input.path, "-o", out.path, "--text", "Site 7",
                "--sign", chain.chain.path, "--sign-key", chain.key.path, "--tsa", url,
            ])
        #expect(result.status == 1, "\(result.stderr)")
        let said = [
            "down": "the time-stamp authority does not answer (",
            "refuse": "the time-stamp authority answered HTTP 500",
            "garbage": "the answer is not an RFC 3161 time-stamp reply", "slow": "no answer within 10 s",
        ]
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(lines.first?.hasPrefix("camstamp: --tsa \(url): \(said[mode] ?? "")") == true, "\(result.stderr)")
        #expect(lines.first?.hasSuffix("; nothing is written") == true, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path), "nothing is written")
    }
}
