// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

/// `camera --sign` as a user meets it: every shot and every recording the page's API makes is
/// signed (`c2pa.created`), downloaded from the gallery URL the API answered and checked by
/// c2pa-python's Reader against the test chain's root; a key that is not the chain's is refused
/// at the start.
extension CameraTests {
    @Suite(.enabled(if: hasC2PAReferee, "c2pa-python is not installed: run make python-deps"))
    struct Signing {
        @Test func aShotAndARecordingThroughTheAPIAreSignedAndTrusted() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let chain = try TestChain(in: folder.appendingPathComponent("keys"))
            let template = try writeSolidCameraTemplate(in: folder)
            let camera = try CameraProcess(
                [
                    "--source", "test", "--pipeline", template.path, "--size", "640x360", "--text", "MARK", "-o",
                    "shots", "--sign", chain.chain.path, "--sign-key", chain.key.path,
                ], in: folder)
            let viewer = MJPEGParts(camera.base + "/stream.mjpg")
            defer { viewer.stop() }
            try viewer.waitFor(5)
            let shot = try http("POST", camera.base + "/api/shoot")
            let shotURL = try #require(shot.json["url"] as? String, "\(shot.text)")
            let started = try http("POST", camera.base + "/api/record", json: ["action": "start"])
            #expect(started.status == 200, "\(started.text)")
            try viewer.waitFor(30)
            let stopped = try http("POST", camera.base + "/api/record", json: ["action": "stop"])
            let videoURL = try #require(stopped.json["url"] as? String, "\(stopped.text)")
            for (url, mime) in [(shotURL, "image/jpeg"), (videoURL, "video/mp4")] {
                let served = try http("GET", camera.base + url)
                #expect(served.status == 200, "\(url)")
                let file = folder.appendingPathComponent("downloaded-" + (url as NSString).lastPathComponent)
                try served.body.write(to: file)
                let report = try Referee.read(file, mime: mime, anchors: chain.root)
                #expect(report.state == "Trusted", "\(url): \(report)")
                #expect(report.failures.isEmpty, "\(url): \(report.failures)")
                #expect(report.actions.first == "c2pa.created", "\(url): \(report.actions)")
                #expect(report.actions.contains("c2pa.addedText: MARK"), "\(url): \(report.actions)")
                #expect(report.generator == "camstamp")
            }
            #expect(camera.stop().status == 130)
        }

        /// A key that is not the certificate's: one line and exit 64 before the camera starts, not
        /// a failure at the first shot.
        @Test func aKeyThatIsNotTheChainsIsRefusedAtTheStart() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let chain = try TestChain(in: folder.appendingPathComponent("keys"))
            let other = try TestChain(in: folder.appendingPathComponent("other"))
            let template = try writeSolidCameraTemplate(in: folder)
            let result = try camstamp(
                [
                    "camera", "--source", "test", "--pipeline", template.path, "--size", "640x360", "--web",
                    "127.0.0.1:0", "-o", folder.appendingPathComponent("shots").path, "--sign", chain.chain.path,
                    "--sign-key", other.key.path,
                ], timeout: 60)
            #expect(result.status == 64, "\(result.stdout)\(result.stderr)")
            #expect(result.stdout.isEmpty, "it started: \(result.stdout)")
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines.first?.hasPrefix("camstamp: --sign ") == true, "\(result.stderr)")
        }
    }
}
