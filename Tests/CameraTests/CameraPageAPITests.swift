// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

/// Issue 25 §2, through the API: the presets' thumbnails, marks moved into a user preset, the
/// gallery's delete and the album's upload, each with the server's rules (Origin, sizes, names).
extension CameraTests {
    @Suite struct PageAPI {
        /// The camera on 127.0.0.1 with its own config folder (a moved mark is written there).
        static func start(_ arguments: [String], in folder: URL) throws -> CameraProcess {
            let config = folder.appendingPathComponent("config")
            return try CameraProcess(
                arguments, in: folder,
                environment: ["XDG_CONFIG_HOME": config.path, "HOME": folder.appendingPathComponent("home").path])
        }

        /// A request with a binary body, on a plain socket: the answer's status, headers and body.
        static func send(
            _ method: String, _ path: String, port: Int, body: Data = Data(), headers: [String] = []
        ) throws -> (status: Int, head: String, body: Data) {
            let client = try RawClient(port: port)
            let head =
                ([
                    "\(method) \(path) HTTP/1.1", "Host: 127.0.0.1:\(port)", "Connection: close",
                    "Content-Length: \(body.count)",
                ] + headers).joined(separator: "\r\n") + "\r\n\r\n"
            client.send(Data(head.utf8) + body)
            let answer = try #require(client.readToClose(timeout: 60), "\(method) \(path): no answer")
            let split = try #require(answer.range(of: Data("\r\n\r\n".utf8)), "\(method) \(path): no header end")
            let text = String(decoding: answer[..<split.lowerBound], as: UTF8.self)
            let status = text.firstMatch(of: /^HTTP\/1\.[01] (\d{3})/).flatMap { Int($0.1) } ?? 0
            return (status, text, Data(answer[split.upperBound...]))
        }

        /// The width and height in a JPEG's first frame header.
        static func jpegSize(_ data: Data) -> (width: Int, height: Int)? {
            let bytes = [UInt8](data)
            guard bytes.starts(with: [0xFF, 0xD8]) else { return nil }
            var index = 2
            while index + 9 < bytes.count, bytes[index] == 0xFF {
                let marker = bytes[index + 1]
                let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
                if (0xC0...0xC3).contains(marker) {
                    return (
                        Int(bytes[index + 7]) << 8 | Int(bytes[index + 8]),
                        Int(bytes[index + 5]) << 8 | Int(bytes[index + 6])
                    )
                }
                index += 2 + length
            }
            return nil
        }

        /// A flat grey JPEG with a camera model in its EXIF.
        static func albumPhoto(in folder: URL) throws -> URL {
            let photo = folder.appendingPathComponent("album.jpg")
            try writeWithGStreamer(
                "videotestsrc num-buffers=1 pattern=solid-color foreground-color=0xff404040 "
                    + "! video/x-raw,width=800,height=600 ! jpegenc quality=92 ! filesink location={location}",
                to: photo)
            try tool("/usr/bin/exiftool", ["-q", "-overwrite_original", "-Model=Album Phone", photo.path])
            return photo
        }

        @Test func withNoPresetOrTextTheCameraStartsOnTimestamp() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let camera = try Self.start(["--source", "test", "--size", "320x240"], in: folder)
            let state = try http("GET", camera.base + "/api/state").json
            #expect(state["active"] as? [String] == ["timestamp"], "\(state)")
            #expect(camera.stop().status == 130)
        }

        @Test func presetsAreListedWithThumbnailsDrawnOnTheLiveFrame() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let camera = try Self.start(["--source", "test", "--size", "640x360", "--preset", "credit"], in: folder)
            let listed = try http("GET", camera.base + "/api/presets")
            let presets = try #require(try JSONSerialization.jsonObject(with: listed.body) as? [[String: Any]])
            let credit = try #require(presets.first { $0["name"] as? String == "credit" }, "\(listed.text)")
            #expect(credit["active"] as? Bool == true && credit["origin"] as? String == "shipped")
            #expect(presets.first { $0["name"] as? String == "timestamp" }?["active"] as? Bool == false)
            var thumbnail = try http("GET", camera.base + "/api/presets/timestamp/preview.jpg")
            // The first frame may not be in yet: 503 says so.
            for _ in 0..<50 where thumbnail.status == 503 {
                Thread.sleep(forTimeInterval: 0.1)
                thumbnail = try http("GET", camera.base + "/api/presets/timestamp/preview.jpg")
            }
            #expect(thumbnail.status == 200 && thumbnail.headers["content-type"] == "image/jpeg", "\(thumbnail.text)")
            let size = try #require(Self.jpegSize(thumbnail.body), "not a JPEG")
            #expect(size.width == 320 && size.height == 180, "\(size)")
            let file = folder.appendingPathComponent("thumbnail.jpg")
            try thumbnail.body.write(to: file)
            let decoded = try decodeImage(file)
            #expect(decoded.width == 320 && decoded.height == 180)
            #expect(camera.stop().status == 130)
        }

        @Test func aPresetNameIsNeverAPath() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let camera = try Self.start(["--source", "test", "--size", "320x240"], in: folder)
            try "{}".write(to: folder.appendingPathComponent("secret.json"), atomically: true, encoding: .utf8)
            for path in [
                "/api/presets/../secret/preview.jpg", "/api/presets/..%2Fsecret/preview.jpg",
                "/api/presets/%2Fetc%2Fpasswd/preview.jpg", "/api/presets/.hidden/preview.jpg",
                "/api/presets/\(folder.path)/secret/preview.jpg", "/api/presets/nosuch/preview.jpg",
            ] {
                let answer = try Self.send("GET", path, port: camera.port)
                #expect([400, 404].contains(answer.status), "\(path): \(answer.head)")
                #expect(Self.jpegSize(answer.body) == nil, "\(path) answered a picture")
            }
            #expect(camera.stop().status == 130)
        }

        @Test func deleteRemovesOnlyThisCamerasPhotoAndNeverForAnotherSite() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let camera = try Self.start(["--source", "test", "--size", "320x240", "-o", "shots"], in: folder)
            let shot = try http("POST", camera.base + "/api/shoot").json
            let url = try #require(shot["url"] as? String), path = try #require(shot["path"] as? String)
            let other = folder.appendingPathComponent("shots/mine.jpg")
            try Data([0xFF, 0xD8, 0xFF, 0xD9]).write(to: other)
            let foreign = try Self.send("DELETE", url, port: camera.port, headers: ["Origin: http://evil.example"])
            #expect(foreign.status == 403, "\(foreign.head)")
            #expect(FileManager.default.fileExists(atPath: path), "another site deleted the photo")
            for name in ["mine.jpg", "..%2Fsecret.json", "../config"] {
                #expect(try Self.send("DELETE", "/shots/" + name, port: camera.port).status != 200, "\(name)")
            }
            #expect(FileManager.default.fileExists(atPath: other.path), "a file the camera did not write went")
            let own = try Self.send(
                "DELETE", url, port: camera.port, headers: ["Origin: http://127.0.0.1:\(camera.port)"])
            #expect(own.status == 200, "\(own.head)")
            #expect(!FileManager.default.fileExists(atPath: path), "the photo is still there")
            #expect(try http("GET", camera.base + url).status == 404)
            #expect((try http("GET", camera.base + "/api/state").json["shots"] as? [Any])?.isEmpty == true)
            #expect(camera.stop().status == 130)
        }

        @Test func anAlbumPhotoComesBackMarkedWithItsMetadataAndIsKept() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let camera = try Self.start(
                ["--source", "test", "--size", "320x240", "--text", "ALBUM", "-o", "shots"], in: folder)
            let photo = try Self.albumPhoto(in: folder)
            let answer = try Self.send(
                "POST", "/api/stamp?name=holiday.jpg", port: camera.port, body: try Data(contentsOf: photo),
                headers: ["Content-Type: image/jpeg", "Origin: http://127.0.0.1:\(camera.port)"])
            #expect(answer.status == 200, "\(answer.head) \(String(decoding: answer.body.prefix(300), as: UTF8.self))")
            #expect(Self.jpegSize(answer.body).map { [$0.width, $0.height] } == [800, 600])
            let marked = folder.appendingPathComponent("marked.jpg")
            try answer.body.write(to: marked)
            // The upload is flat grey: the mark is what changed, bottom-right as --text puts it.
            let luma = try lumaPlane(try decodeImage(marked))
            let bounds = try #require(changedBounds(luma, background: luma[0][0], tolerance: 12), "no mark")
            #expect(bounds.minX > 400 && bounds.minY > 450, "the mark is at \(bounds)")
            #expect(try exiftool(["-s3", "-Model"], marked).contains("Album Phone"), "the EXIF was not kept")
            let kept = try #require(answer.head.firstMatch(of: /X-Camstamp-Path: (\S+)/).map { String($0.1) })
            #expect(try Data(contentsOf: URL(fileURLWithPath: kept)) == answer.body)
            let shots = try #require(try http("GET", camera.base + "/api/state").json["shots"] as? [[String: Any]])
            #expect(shots.map { $0["path"] as? String } == [kept])
            #expect(camera.stop().status == 130)
        }

        @Test func uploadsFromAnotherSiteOrOverTheCapAreRefusedAndNeverHeldInMemory() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let camera = try Self.start(["--source", "test", "--size", "320x240", "-o", "shots"], in: folder)
            let photo = try Data(contentsOf: try Self.albumPhoto(in: folder))
            let foreign = try Self.send(
                "POST", "/api/stamp", port: camera.port, body: photo, headers: ["Origin: http://evil.example"])
            #expect(foreign.status == 403, "\(foreign.head)")
            // Declared over the cap: refused before it is read.
            let client = try RawClient(port: camera.port)
            client.send(
                "POST /api/stamp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(200 << 20)\r\n\r\n")
            #expect(client.status()?.status == 413)
            // Sent without a length: refused once it passes the cap.
            let chunked = try RawClient(port: camera.port)
            chunked.send("POST /api/stamp HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n")
            let chunk = Data("100000\r\n".utf8) + Data(count: 1 << 20) + Data("\r\n".utf8)
            for _ in 0..<110 where chunked.send(chunk) {}
            #expect(chunked.status()?.status == 413)
            // 60 MB under the cap goes to a file, not into memory: the camera grows by far less.
            let before = residentKiB(camera.pid)
            let junk = try Self.send("POST", "/api/stamp", port: camera.port, body: Data(count: 60 << 20))
            let after = residentKiB(camera.pid)
            #expect(junk.status == 422, "\(junk.head)")
            #expect(after - before < 30 << 10, "resident memory grew from \(before) to \(after) KiB")
            let left = try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)
            #expect(!left.contains { $0.hasPrefix(".camstamp-upload-") }, "an upload's file was left")
            #expect(camera.stop().status == 130)
        }
        @Test func offLoopbackEveryNewRouteWantsTheTokenAndAnUploadIsRefusedBeforeItsBody() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let camera = try Self.start(["--source", "test", "--size", "320x240", "--web", "0.0.0.0:0"], in: folder)
            let token = try #require(camera.printedURL.firstMatch(of: /\?token=([0-9a-f]{32})$/).map { String($0.1) })
            for (method, path) in [
                ("GET", "/api/presets"), ("GET", "/api/presets/timestamp/preview.jpg"), ("GET", "/api/marks"),
                ("POST", "/api/marks/move"), ("POST", "/api/stamp"), ("DELETE", "/shots/anything.jpg"),
            ] {
                #expect(try Self.send(method, path, port: camera.port).status == 401, "\(method) \(path)")
            }
            // Only the headers of a large upload: the answer comes before any of its body is sent.
            let client = try RawClient(port: camera.port)
            client.send("POST /api/stamp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(50 << 20)\r\n\r\n")
            #expect(client.status()?.status == 401)
            let photo = try Data(contentsOf: try Self.albumPhoto(in: folder))
            let allowed = try Self.send(
                "POST", "/api/stamp", port: camera.port, body: photo, headers: ["Authorization: Bearer \(token)"])
            #expect(allowed.status == 200, "\(allowed.head)")
            let byQuery = try Self.send("POST", "/api/stamp?token=\(token)&name=a.jpg", port: camera.port, body: photo)
            #expect(byQuery.status == 200, "\(byQuery.head)")
            #expect(camera.stop().status == 130)
        }

        @Test func aMovedMarkIsKeptAsAUserPresetAndTheNextPhotoHasItThere() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let template = try writeSolidCameraTemplate(in: folder)
            let camera = try Self.start(
                ["--source", "test", "--pipeline", template.path, "--size", "640x360", "--preset", "timestamp"],
                in: folder)
            func markBounds() throws -> (minX: Int, minY: Int, maxX: Int, maxY: Int) {
                let shot = try http("POST", camera.base + "/api/shoot")
                let path = try #require(shot.json["path"] as? String, "\(shot.text)")
                let luma = try lumaPlane(try decodeImage(URL(fileURLWithPath: path)))
                return try #require(changedBounds(luma, background: luma[0][0], tolerance: 12), "no mark")
            }
            let before = try markBounds()
            let places = try http("GET", camera.base + "/api/marks").json
            let mark = try #require((places["marks"] as? [[String: Any]])?.first, "\(places)")
            #expect(mark["preset"] as? String == "timestamp")
            #expect(abs((mark["x"] as? Int ?? -99) - before.minX) <= 8, "\(mark) vs \(before)")
            let moved = try http(
                "POST", camera.base + "/api/marks/move",
                json: ["preset": "timestamp", "mark": 0, "dx": 0.25, "dy": -0.5])
            #expect(moved.status == 200, "\(moved.text)")
            let file = folder.appendingPathComponent("config/camstamp/presets/timestamp.json")
            #expect(moved.json["file"] as? String == file.path)
            let written = try String(contentsOf: file, encoding: .utf8)
            // 0.25 of 640 and -0.5 of 360, in % of the short side (360).
            #expect(written.contains(#""offset": ["44.44%", "-50%"]"#), "\(written)")
            var after = try markBounds()
            // The loop reloads the marks between frames: a photo or two may still have the old place.
            for _ in 0..<20 where after.minX == before.minX {
                Thread.sleep(forTimeInterval: 0.1)
                after = try markBounds()
            }
            #expect(
                abs(after.minX - before.minX - 160) <= 3 && abs(after.minY - before.minY + 180) <= 3,
                "the mark went from \(before) to \(after)")
            #expect(camera.stop().status == 130)
            // batch --preset timestamp finds the moved one too.
            let photo = try Self.albumPhoto(in: folder)
            let batch = try runProcess(
                camstampBinary.path,
                [
                    "batch", "--preset", "timestamp", "-o", folder.appendingPathComponent("out").path,
                    photo.path,
                ],
                environment: .inherited(["XDG_CONFIG_HOME": folder.appendingPathComponent("config").path]))
            #expect(batch.status == 0, "\(batch.stderr)")
            let out = folder.appendingPathComponent("out/album.jpg")
            let luma = try lumaPlane(try decodeImage(out))
            let batchBounds = try #require(changedBounds(luma, background: luma[0][0], tolerance: 12), "no mark")
            // Bottom-left 3% in, then 44.44% and -50% of 600: at x ≈ 18 + 267, y well above the bottom.
            #expect(batchBounds.minX > 250 && batchBounds.maxY < 600 - 250, "batch put the mark at \(batchBounds)")
        }

        @Test func aMoveNamesOnlyAPresetInForceFromTheFolders() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let camera = try Self.start(["--source", "test", "--size", "320x240", "--preset", "timestamp"], in: folder)
            for body: [String: Any] in [
                ["preset": "credit", "mark": 0, "dx": 0.1, "dy": 0],
                ["preset": "../timestamp", "mark": 0, "dx": 0.1, "dy": 0],
                ["preset": "timestamp", "mark": 5, "dx": 0.1, "dy": 0],
                ["preset": "timestamp", "mark": 0, "dx": 9, "dy": 0],
            ] {
                let answer = try http("POST", camera.base + "/api/marks/move", json: body)
                #expect(answer.status == 400, "\(body): \(answer.text)")
            }
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("config").path))
            #expect(camera.stop().status == 130)
        }
    }
}
