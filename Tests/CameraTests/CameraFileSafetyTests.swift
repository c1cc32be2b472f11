// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

/// Issue 21 §1, files: the page names presets and cameras from what the camera offers, never a
/// path of its choosing, and `/shots/` serves only the files this camera wrote.
extension CameraTests {
    @Suite struct CameraFiles {
        @Test func settingsNamePresetsNeverFilesSoNoFileCanBeProbed() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let secret = folder.appendingPathComponent("bashrc")
            try Data("# a secret\nexport TOKEN=1\n".utf8).write(to: secret)
            let mine = folder.appendingPathComponent("mine.json")
            try Data(#"{"marks": [{"text": "MINE"}]}"#.utf8).write(to: mine)
            let camera = try CameraProcess(
                ["--source", "test", "--size", "320x240", "--preset", mine.path], in: folder)
            var answers: [String] = []
            for path in [
                secret.path, folder.appendingPathComponent("missing").path, "/etc/passwd", "../../etc/passwd",
                "timestamp.json", "~/.bashrc",
            ] {
                let refused = try http("POST", camera.base + "/api/settings", json: ["presets": [path]])
                #expect(refused.status == 400, "\(path): \(refused.status) \(refused.text)")
                answers.append(refused.text)
            }
            // The same words whatever the file: nothing about it (its first byte, whether it exists).
            #expect(Set(answers).count == 1, "\(answers)")
            #expect(answers[0].contains("'presets'") && !answers[0].contains("#"), "\(answers[0])")
            // A preset file given on the command line may be picked again, and names from the folders.
            let back = try http("POST", camera.base + "/api/settings", json: ["presets": ["timestamp"]])
            #expect(back.status == 200, "\(back.text)")
            let again = try http("POST", camera.base + "/api/settings", json: ["presets": [mine.path, "credit"]])
            #expect(again.status == 200 && again.json["active"] as? [String] == [mine.path, "credit"], "\(again.text)")
            #expect(camera.stop().status == 130)
        }

        /// A list of one name many times over was taken whole: 10,000 copies of a preset held the
        /// server thread for seconds, and every frame and every state drew or listed them all.
        @Test func aPresetNamedTwiceIsRefused() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let camera = try CameraProcess(["--source", "test", "--size", "320x240", "--text", "x"], in: folder)
            let twice = try http(
                "POST", camera.base + "/api/settings",
                json: ["presets": ["timestamp", "credit"] + Array(repeating: "timestamp", count: 100)])
            #expect(twice.status == 400, "\(twice.status) \(twice.text.prefix(300))")
            #expect(twice.text.contains("'timestamp' is given twice"), "\(twice.text.prefix(300))")
            #expect(try http("GET", camera.base + "/api/state").json["active"] as? [String] == [])
            #expect(camera.stop().status == 130)
        }

        @Test func aShotReplacedByALinkOrAnotherFileIsNotServed() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let other = folder.appendingPathComponent("other.txt")
            try Data("not a photo of this camera".utf8).write(to: other)
            let camera = try CameraProcess(
                ["--source", "test", "--size", "320x240", "--text", "x", "-o", "shots"], in: folder)
            var shots: [(url: String, path: String)] = []
            for _ in 0..<2 {
                let json = try http("POST", camera.base + "/api/shoot").json
                shots.append((try #require(json["url"] as? String), try #require(json["path"] as? String)))
            }
            #expect(try http("GET", camera.base + shots[0].url).status == 200)
            // `ln -sf other shots/camstamp-…jpg`, and another file renamed over the second photo.
            try FileManager.default.removeItem(atPath: shots[0].path)
            try FileManager.default.createSymbolicLink(atPath: shots[0].path, withDestinationPath: other.path)
            let copy = folder.appendingPathComponent("copy.jpg")
            try FileManager.default.copyItem(atPath: shots[1].path, toPath: copy.path)
            #expect(rename(copy.path, shots[1].path) == 0)
            for shot in shots {
                let refused = try http("GET", camera.base + shot.url)
                #expect(refused.status == 404, "\(shot.url): \(refused.status)")
                #expect(!refused.text.contains("not a photo"))
            }
            #expect(camera.stop().status == 130)
        }

        @Test func everySettingIsCheckedWholeAndAnErrorNamesItsKey() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let camera = try CameraProcess(["--source", "test", "--size", "320x240", "--preset", "credit"], in: folder)
            let cases: [(String, String)] = [
                (#"{"camera": "file:/etc/passwd"}"#, "'camera'"),
                (#"{"camera": "/dev/null"}"#, "'camera'"),
                (#"{"grid": 1}"#, "'grid' must be true or false"),
                (#"{"mirror": 0}"#, "'mirror' must be true or false"),
                (#"{"timer": true}"#, "'timer'"),
                (#"{"burst": {"count": true, "interval": 1}}"#, "'burst'"),
                (#"{"text": "{nope}"}"#, "'text'"),
                (#"{"variables": {"author": 3}}"#, "'variables'"),
                // One bad key among good ones: nothing at all is applied.
                (#"{"grid": true, "square": true, "timer": 5}"#, "'timer'"),
                (#"{"grid": tru"#, "not valid JSON"),
                ("[1, 2]", "expected a JSON object"),
            ]
            for (body, words) in cases {
                let answer = try RawClient.exchange(
                    port: camera.port,
                    "POST /api/settings HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        + "Content-Length: \(body.utf8.count)\r\n\r\n" + body)
                #expect(answer?.status == 400, "\(body): \(answer?.text ?? "no answer")")
                #expect(answer?.text.contains(words) == true, "\(body): \(answer?.text ?? "no answer")")
                #expect(answer?.text.contains("operation could not be completed") == false)
            }
            let state = try http("GET", camera.base + "/api/state").json
            #expect(
                state["grid"] as? Bool == false && state["square"] as? Bool == false
                    && state["mirror"] as? Bool == false)
            #expect((state["camera"] as? [String: Any])?["source"] as? String == "test", "\(state["camera"] ?? "none")")
            #expect(state["active"] as? [String] == ["credit"] && state["error"] == nil, "\(state)")
            #expect(camera.stop().status == 130)
        }

        @Test func theBearerSchemeIsCaseInsensitive() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let camera = try CameraProcess(
                ["--source", "test", "--size", "320x240", "--text", "x", "--token", "s3cret-token"], in: folder)
            for scheme in ["Bearer", "bearer", "BEARER"] {
                let answer = try http(
                    "GET", camera.base + "/api/state", headers: ["Authorization": "\(scheme) s3cret-token"])
                #expect(answer.status == 200, "\(scheme): \(answer.status)")
            }
            #expect(
                try http("GET", camera.base + "/api/state", headers: ["Authorization": "bearer wrong"]).status == 401)
            #expect(camera.stop().status == 130)
        }
    }
}
