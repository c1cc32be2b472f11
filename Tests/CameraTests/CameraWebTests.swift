// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Media
import Testing
import TestSupport

/// Every camera test, one at a time: the frame-rate checks must not share the CPU with another
/// camera, a browser or an X server of this suite.
@Suite(.serialized) enum CameraTests {}

/// `camstamp camera` over HTTP: each test starts the camera on the test source on 127.0.0.1 (a
/// free port), talks to it as a browser or a script would, and stops it with Ctrl-C (exit 130).
extension CameraTests {
    @Suite struct Web {
        @Test func theStreamDeliversAtLeast25PartsASecondAt640x480() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let camera = try CameraProcess(
                ["--source", "test", "--size", "640x480", "--preset", "timestamp"], in: folder)
            let measured = try StreamCounter.measure(camera.base + "/stream.mjpg", seconds: 4)
            let head = String(decoding: measured.firstPart.prefix(200), as: UTF8.self)
            #expect(head.contains("Content-Type: image/jpeg"), "\(head)")
            #expect(measured.perSecond >= 25, "\(measured.parts) parts, \(measured.perSecond) a second")
            let result = camera.stop()
            #expect(result.status == 130, "stderr: \(result.stderr)")
        }

        @Test func aPhotoIsFullResolutionWithTheMarkWhereThePresetPutsItAndNoGrid() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let template = try writeSolidCameraTemplate(in: folder)
            let camera = try CameraProcess(
                [
                    "--source", "test", "--pipeline", template.path, "--size", "1920x1080",
                    "--text", "MARK", "-o", "shots",
                ], in: folder)
            // The grid is on in the preview; it must not reach the photo.
            let settings = try http("POST", camera.base + "/api/settings", json: ["grid": true])
            #expect(settings.status == 200 && settings.json["grid"] as? Bool == true, "\(settings.text)")
            let shot = try http("POST", camera.base + "/api/shoot")
            #expect(shot.status == 200, "\(shot.text)")
            let path = try #require(shot.json["path"] as? String)
            #expect(
                path
                    == folder.appendingPathComponent("shots").appendingPathComponent(
                        (path as NSString).lastPathComponent
                    ).path)
            #expect(shot.json["url"] as? String == "/shots/" + (path as NSString).lastPathComponent)
            let frame = try decodeImage(URL(fileURLWithPath: path))
            #expect(frame.width == 1920 && frame.height == 1080)
            let luma = try lumaPlane(frame)
            let bounds = try #require(
                changedBounds(luma, background: luma[0][0], tolerance: 12), "no mark in the photo")
            // --text: bottom-right, 3% of the short side from the edges; nothing anywhere else (a
            // grid line would stretch the changed area to a third of the width or height).
            let margin = 0.03 * 1080
            #expect(abs(Double(1920 - 1 - bounds.maxX) - margin) <= 4, "right edge at \(bounds.maxX)")
            #expect(abs(Double(1080 - 1 - bounds.maxY) - margin) <= 4, "bottom edge at \(bounds.maxY)")
            #expect(
                bounds.minX > 1920 * 2 / 3 && bounds.minY > 1080 * 2 / 3,
                "changed pixels reach (\(bounds.minX),\(bounds.minY))")
            // The preview is at most 1280 wide, the photo the camera's own size.
            let state = try http("GET", camera.base + "/api/state").json
            #expect((state["preview"] as? [String: Any])?["width"] as? Int == 1280)
            #expect((state["size"] as? [String: Any])?["width"] as? Int == 1920)
            #expect((state["shots"] as? [Any])?.count == 1)
            let result = camera.stop()
            #expect(result.status == 130, "stderr: \(result.stderr)")
            #expect(result.stdout.contains(path), "the photo's path is printed: \(result.stdout)")
        }

        /// A photo asked for right after a setting is taken with that setting, every time: the loop
        /// applies what the page changed before it takes the photos asked for after the change.
        @Test func aShotRightAfterASettingTakesThatSetting() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let camera = try CameraProcess(["--source", "test", "--size", "640x360", "--text", "x"], in: folder)
            for round in 0..<10 {
                let square = round % 2 == 0
                _ = try http("POST", camera.base + "/api/settings", json: ["square": square])
                let shot = try http("POST", camera.base + "/api/shoot")
                let width = try #require(shot.json["width"] as? Int, "\(shot.text)")
                #expect(width == (square ? 360 : 640), "round \(round): square \(square), photo \(width) wide")
            }
            #expect(camera.stop().status == 130)
        }

        @Test func squareGivesASquarePhotoWithTheMarkInsideTheSquare() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let template = try writeSolidCameraTemplate(in: folder)
            let camera = try CameraProcess(
                [
                    "--source", "test", "--pipeline", template.path, "--size", "1280x720",
                    "--text", "MARK",
                ], in: folder)
            _ = try http("POST", camera.base + "/api/settings", json: ["square": true, "grid": true])
            let shot = try http("POST", camera.base + "/api/shoot")
            let path = try #require(shot.json["path"] as? String, "\(shot.text)")
            let frame = try decodeImage(URL(fileURLWithPath: path))
            #expect(frame.width == 720 && frame.height == 720)
            let luma = try lumaPlane(frame)
            let bounds = try #require(
                changedBounds(luma, background: luma[0][0], tolerance: 12), "no mark in the photo")
            let margin = 0.03 * 720
            #expect(abs(Double(720 - 1 - bounds.maxX) - margin) <= 4, "right edge at \(bounds.maxX)")
            #expect(abs(Double(720 - 1 - bounds.maxY) - margin) <= 4, "bottom edge at \(bounds.maxY)")
            #expect(camera.stop().status == 130)
        }

        @Test func aNonLoopbackAddressRequiresTheToken() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            // Bound to every address, but only ever reached through 127.0.0.1.
            let camera = try CameraProcess(
                ["--source", "test", "--size", "320x240", "--text", "x", "--web", "0.0.0.0:0"], in: folder)
            let token = try #require(
                camera.printedURL.firstMatch(of: /\?token=([0-9a-f]{32})$/)?.1, "URL: \(camera.printedURL)")
            for (method, path) in [
                ("GET", "/"), ("GET", "/api/state"), ("GET", "/stream.mjpg"), ("POST", "/api/shoot"),
                ("POST", "/api/settings"), ("GET", "/shots/anything.jpg"),
            ] {
                let denied = try http(method, camera.base + path)
                #expect(denied.status == 401, "\(method) \(path) without the token: \(denied.status)")
                let wrong = try http(method, camera.base + path + "?token=0123456789abcdef0123456789abcdef")
                #expect(wrong.status == 401, "\(method) \(path) with a wrong token: \(wrong.status)")
            }
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: folder.path).allSatisfy { !$0.hasSuffix(".jpg") },
                "a photo was taken without the token")
            let page = try http("GET", camera.base + "/?token=\(token)")
            #expect(page.status == 200 && page.text.contains(">Shoot</button>"))
            let cookie = try #require(page.headers["set-cookie"]?.split(separator: ";").first.map(String.init))
            let shot = try http("POST", camera.base + "/api/shoot", headers: ["Cookie": cookie])
            #expect(shot.status == 200, "\(shot.text)")
            let url = try #require(shot.json["url"] as? String)
            let photo = try http("GET", camera.base + url, headers: ["Cookie": cookie])
            #expect(photo.status == 200 && photo.body.prefix(2) == Data([0xFF, 0xD8]))
            #expect(try http("GET", camera.base + url).status == 401, "a photo served without the token")
            #expect(camera.stop().status == 130)

            // A token of one's own, required on loopback too when given.
            let own = try CameraProcess(
                ["--source", "test", "--size", "320x240", "--text", "x", "--token", "my-secret-token"], in: folder)
            #expect(own.printedURL.hasSuffix("/?token=my-secret-token"))
            #expect(try http("GET", own.base + "/api/state").status == 401)
            #expect(
                try http("GET", own.base + "/api/state", headers: ["Authorization": "Bearer my-secret-token"]).status
                    == 200)
            #expect(own.stop().status == 130)
        }

        /// --quiet keeps errors only, but never the address: without it (and its token) the viewfinder
        /// cannot be reached at all.
        @Test func quietStillPrintsTheAddressWithItsToken() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let camera = try CameraProcess(
                ["-q", "--source", "test", "--size", "320x240", "--text", "x", "--web", "0.0.0.0:0"], in: folder)
            let token = try #require(
                camera.printedURL.firstMatch(of: /\?token=([0-9a-f]{32})$/)?.1, "URL: \(camera.printedURL)")
            #expect(try http("GET", camera.base + "/api/state?token=\(token)").status == 200)
            #expect(camera.stop().status == 130)
        }

        @Test func aViewerThatStopsReadingDoesNotSlowAnother() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let camera = try CameraProcess(
                ["--source", "test", "--size", "640x480", "--preset", "timestamp"], in: folder)
            // Two stalled viewers: they ask for the stream and never read it.
            let stalled = try [RawViewer(port: camera.port), RawViewer(port: camera.port)]
            defer { stalled.forEach { $0.close() } }
            Thread.sleep(forTimeInterval: 1)
            let measured = try StreamCounter.measure(camera.base + "/stream.mjpg", seconds: 4)
            #expect(
                measured.perSecond >= 25,
                "with stalled viewers: \(measured.parts) parts, \(measured.perSecond) a second")
            let result = camera.stop()
            #expect(result.status == 130, "stderr: \(result.stderr)")
        }

        @Test func theSocketsOfDepartedViewersAreReleased() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let camera = try CameraProcess(["--source", "test", "--size", "320x240", "--text", "x"], in: folder)
            // One viewer first, so that lazily opened descriptors are in the baseline.
            let warm = try RawViewer(port: camera.port)
            #expect(warm.read(atLeast: 20_000).count >= 20_000)
            warm.close()
            Thread.sleep(forTimeInterval: 1)
            let baseline = camera.openDescriptors
            for _ in 0..<3 {
                let viewers = try (0..<8).map { _ in try RawViewer(port: camera.port) }
                for viewer in viewers {
                    #expect(viewer.read(atLeast: 10_000).count >= 10_000, "a viewer got no stream")
                }
                #expect(camera.openDescriptors >= baseline + 8)
                viewers.forEach { $0.close() }
            }
            // Hang guard only: multisocketsink notices the closed sockets on its next write.
            let deadline = Date().addingTimeInterval(15)
            while camera.openDescriptors > baseline && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
            #expect(
                camera.openDescriptors <= baseline,
                "\(camera.openDescriptors) descriptors open, \(baseline) before the viewers")
            let state = try http("GET", camera.base + "/api/state").json
            #expect(state["viewers"] as? Int == 0)
            #expect(camera.stop().status == 130)
        }

        @Test func concurrentShootsEachWriteAWholePhoto() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let camera = try CameraProcess(
                ["--source", "test", "--size", "1280x720", "--preset", "timestamp"], in: folder)
            let results = Locked([HTTPResult?](repeating: nil, count: 6))
            DispatchQueue.concurrentPerform(iterations: 6) { index in
                let result = try? http("POST", camera.base + "/api/shoot")
                results.update { $0[index] = result }
            }
            let paths = results.get().compactMap { $0?.json["path"] as? String }
            #expect(paths.count == 6, "\(results.get().map { $0?.text ?? "no answer" })")
            #expect(Set(paths).count == paths.count, "two shoots answered with the same file")
            for path in paths {
                let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
                #expect(
                    bytes.prefix(2) == Data([0xFF, 0xD8]) && bytes.suffix(2) == Data([0xFF, 0xD9]),
                    "\(path) is not a whole JPEG")
                let frame = try decodeImage(URL(fileURLWithPath: path))
                #expect(frame.width == 1280 && frame.height == 720)
            }
            // Nothing but the photos: no temporary left behind.
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(names.count == 6, "\(names)")
            #expect(camera.stop().status == 130)
        }

        @Test func onlyThisCamerasPhotosAreServed() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            try Data("not yours".utf8).write(to: folder.appendingPathComponent("other.jpg"))
            let camera = try CameraProcess(["--source", "test", "--size", "320x240", "--text", "x"], in: folder)
            let shot = try http("POST", camera.base + "/api/shoot").json
            let url = try #require(shot["url"] as? String)
            let photo = try http("GET", camera.base + url)
            #expect(photo.status == 200 && photo.headers["content-type"] == "image/jpeg")
            #expect(photo.body == (try Data(contentsOf: URL(fileURLWithPath: shot["path"] as! String))))
            for path in [
                "/shots/other.jpg", "/shots/..%2Fother.jpg", "/shots/../other.jpg", "/shots/%2Fetc%2Fpasswd",
                "/other.jpg", "/../other.jpg",
            ] {
                let refused = try http("GET", camera.base + path)
                // libsoup itself refuses some of these as malformed (400) before camstamp sees them.
                #expect(refused.status == 404 || refused.status == 400, "\(path): \(refused.status)")
                #expect(!refused.text.contains("not yours"))
            }
            let download = try http("GET", camera.base + url + "?download=1")
            #expect(download.headers["content-disposition"]?.hasPrefix("attachment") == true)
            #expect(camera.stop().status == 130)
        }

        @Test func settingsAreCheckedBeforeAnythingChanges() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let camera = try CameraProcess(["--source", "test", "--size", "320x240", "--preset", "credit"], in: folder)
            let state = try http("GET", camera.base + "/api/state").json
            #expect(
                (state["variables"] as? [String: String])?["author"] == "Your Name",
                "variable fields: \(state["variables"] ?? "none")")
            #expect((state["presets"] as? [[String: Any]])?.contains { $0["name"] as? String == "timestamp" } == true)
            #expect((state["cameras"] as? [[String: Any]])?.first?["source"] as? String == "test")
            #expect(
                state["controls"] as? [Any] != nil
                    && (state["controlsReason"] as? String)?.contains("test camera has no controls") == true)
            let cases: [([String: Any], String)] = [
                (["presets": ["no-such-preset"]], "no preset named 'no-such-preset'"),
                (["grid": "yes"], "'grid' must be true or false"),
                (["timer": 5], "'timer' must be 0, 3 or 10"),
                (["colour": true], "unknown key 'colour'"),
                (["text": "{nope}"], "nope"),
                (["camera": "/dev/video99"], "'camera': '/dev/video99' is not one of this camera's sources"),
                (["controls": ["focus_absolute": 10]], "cannot set control 'focus_absolute'"),
            ]
            for (body, words) in cases {
                let refused = try http("POST", camera.base + "/api/settings", json: body)
                #expect(refused.status == 400, "\(body): \(refused.status)")
                #expect((refused.json["error"] as? String)?.contains(words) == true, "\(body): \(refused.text)")
            }
            let after = try http("GET", camera.base + "/api/state").json
            #expect(
                after["active"] as? [String] == ["credit"] && after["grid"] as? Bool == false
                    && after["timer"] as? Int == 0)
            let changed = try http(
                "POST", camera.base + "/api/settings",
                json: ["presets": ["timestamp"], "variables": ["job": "A-113"], "timer": 3])
            #expect(
                changed.status == 200 && changed.json["active"] as? [String] == ["timestamp"]
                    && changed.json["timer"] as? Int == 3, "\(changed.text)")
            #expect(camera.stop().status == 130)
        }

        @Test func aPortInUseIsRefusedInOneLine() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let first = try CameraProcess(["--source", "test", "--size", "320x240", "--text", "x"], in: folder)
            let second = try camstamp([
                "camera", "--source", "test", "--size", "320x240", "--text", "x", "--web", "127.0.0.1:\(first.port)",
            ])
            let message = second.stderr
            #expect(second.status == 1)
            #expect(
                message.hasPrefix(
                    "camstamp: --web 127.0.0.1:\(first.port): cannot listen on 127.0.0.1:\(first.port) ("), "\(message)"
            )
            #expect(
                message.hasSuffix("; choose another port with --web\n") && message.split(separator: "\n").count == 1,
                "\(message)")
            #expect(first.stop().status == 130)
        }

        @Test func aBrowserLoadsThePageSeesFramesShootsAndShowsTheGrid() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let screenshot = folder.appendingPathComponent("camera-page.png")
            let photos = folder.appendingPathComponent("photos")
            try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
            let run = try runScript("browser_test.py", [camstampBinary.path, photos.path, screenshot.path])
            #expect(run.status == 0, "\(run.output)")
            let shot = try decodeImage(screenshot)
            #expect(shot.width > 600, "screenshot \(shot.width)x\(shot.height)")
            // CAMSTAMP_SCREENSHOT=docs/images/camera-page.png keeps it (how docs/camera.md's picture is made).
            if let keep = ProcessInfo.processInfo.environment["CAMSTAMP_SCREENSHOT"] {
                try? FileManager.default.removeItem(atPath: keep)
                try FileManager.default.copyItem(at: screenshot, to: URL(fileURLWithPath: keep))
            }
            // The page on a phone and on a laptop (the script also played another site against it).
            for (width, height) in [(390, 844), (1280, 800)] {
                let sized = try decodeImage(folder.appendingPathComponent("camera-page-\(width)x\(height).png"))
                #expect(sized.width == width && sized.height == height, "screenshot \(sized.width)x\(sized.height)")
            }
        }
    }

}

extension CameraTests {
    @Suite struct Window {
        /// `q`: the Q key; `close`: the window closed as a window manager does (WM_DELETE_WINDOW).
        @Test(arguments: ["q", "close"])
        func spaceWritesAPhotoAndQuittingExitsZeroUnderXvfb(ending: String) throws {
            let folder = try temporaryFolder("window\(ending)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let run = try runScript("window_test.py", [camstampBinary.path, folder.path, ending])
            #expect(run.status == 0, "\(run.output)")
        }

        @Test func withoutADisplayTheWindowSaysSoInOneLine() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let camera = try CameraProcess(
                ["--source", "test", "--text", "x", "--window"], in: folder,
                environment: ["DISPLAY": "", "WAYLAND_DISPLAY": ""])
            let result = camera.stop(signal: 0)
            #expect(result.status == 1)
            #expect(
                result.stderr
                    == "camstamp: --window: no display (DISPLAY is not set); use --web to view the camera in a browser\n"
            )
            #expect(result.stdout.isEmpty)
        }
    }
}
