// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

/// Issue 25 §4: the page's position (the browser's Geolocation API) reaches the marks and the
/// photos' EXIF, through `POST /api/settings {"location": …}`; over HTTPS with `--tls-cert`.
extension CameraTests {
    @Suite struct Location {
        static let camera = ["--source", "test", "--size", "320x240", "--gps", "off", "--text", "{latlon|no fix}"]
        static let paris = #"{"location": {"lat": 48.85341, "lon": 2.3488, "accuracy": 12, "alt": 35}}"#

        /// curl (a real client) with `arguments`; its output, then the status code on a last line.
        static func curl(_ arguments: [String]) throws -> (body: String, status: Int) {
            let result = try runProcess(
                "curl", ["-s", "--max-time", "10", "-w", "\n%{http_code}"] + arguments, timeout: 30)
            let text = result.stdout
            let cut = text.lastIndex(of: "\n") ?? text.startIndex
            return (
                String(text[..<cut]), Int(text[text.index(after: cut)...].trimmingCharacters(in: .whitespaces)) ?? 0
            )
        }

        static func post(
            _ body: String, to url: String, origin: String, extra: [String] = []
        ) throws -> (
            body: String, status: Int
        ) {
            try curl(
                extra + [
                    "-X", "POST", "-H", "Origin: \(origin)", "-H", "Content-Type: application/json", "-d", body, url,
                ])
        }

        static func gps(_ path: String) throws -> [Double] {
            try exiftool(["-n", "-s", "-s", "-s", "-GPSLatitude", "-GPSLongitude", "-GPSAltitude", path])
                .split(separator: "\n").compactMap { Double($0) }
        }

        /// A self-signed certificate for 127.0.0.1 and localhost, and its key, made by openssl.
        static func certificate(in folder: URL) throws -> (certificate: String, key: String) {
            let certificate = folder.appendingPathComponent("cert.pem").path
            let key = folder.appendingPathComponent("key.pem").path
            try tool(
                "openssl",
                [
                    "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
                    "-keyout", key, "-out", certificate, "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
                ])
            return (certificate, key)
        }

        /// Chromium on the HTTPS page, its position emulated and allowed: Location, then a photo.
        @Test func theLocationButtonSendsTheBrowsersPositionOverHTTPS() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let (certificate, key) = try Self.certificate(in: folder)
            let run = try runScript("location_test.py", [camstampBinary.path, folder.path, certificate, key])
            #expect(run.status == 0, "\(run.output)")
            let path = run.output.split(separator: "\n").first { $0.hasPrefix("photo: ") }?.dropFirst(7)
            let tags = try Self.gps(path.map(String.init) ?? "")
            #expect(tags.prefix(2).map { ($0 * 1e5).rounded() } == [4_885_341, 234_880], "\(run.output)")
        }

        @Test func thePagesPositionIsInTheShotAndBadValuesAreRefused() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let camera = try CameraProcess(Self.camera, in: folder)
            let bad = [
                #"{"location": {"lat": 91, "lon": 2}}"#, #"{"location": {"lat": 48, "lon": -180.5}}"#,
                #"{"location": {"lat": "48", "lon": 2}}"#, #"{"location": {"lat": 48}}"#,
                #"{"location": {"lat": 48, "lon": 2, "accuracy": -1}}"#,
                #"{"location": {"lat": 48, "lon": 2, "speed": 3}}"#, #"{"location": [48, 2]}"#,
                #"{"location": {"lat": 1e999, "lon": 2}}"#,
            ]
            for body in bad {
                let answer = try Self.post(body, to: camera.base + "/api/settings", origin: camera.base)
                #expect(answer.status == 400, "\(body): \(answer.status) \(answer.body)")
            }
            let before = try http("POST", camera.base + "/api/shoot")
            #expect(try Self.gps(before.json["path"] as? String ?? "").isEmpty, "a position before any was sent")
            let sent = try Self.post(Self.paris, to: camera.base + "/api/settings", origin: camera.base)
            #expect(sent.status == 200, "\(sent.body)")
            let shot = try http("POST", camera.base + "/api/shoot")
            let tags = try Self.gps(shot.json["path"] as? String ?? "")
            #expect(tags.count == 3 && abs(tags[0] - 48.85341) < 1e-7 && abs(tags[1] - 2.3488) < 1e-7 && tags[2] == 35)
            #expect(camera.stop().status == 130)
        }

        @Test func anHTTPSCameraAnswersWithItsCertificateAndTakesThePosition() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let (certificate, key) = try Self.certificate(in: folder)
            let camera = try CameraProcess(Self.camera + ["--tls-cert", certificate, "--tls-key", key], in: folder)
            #expect(camera.base.hasPrefix("https://"), "\(camera.printedURL)")
            let trusted = ["--cacert", certificate]
            let page = try Self.curl(trusted + [camera.base + "/"])
            #expect(page.status == 200 && page.body.contains("Shoot"), "\(page.status)")
            // Not without the certificate, nor in the clear.
            #expect(try Self.curl([camera.base + "/"]).status == 0)
            #expect(try Self.curl(["http://127.0.0.1:\(camera.port)/"]).status == 0)
            // The page's origin is https://; the http:// one is another site.
            let plainOrigin = "http://127.0.0.1:\(camera.port)"
            let refused = try Self.post(
                Self.paris, to: camera.base + "/api/settings", origin: plainOrigin, extra: trusted)
            #expect(refused.status == 403, "\(refused.body)")
            let badValue = try Self.post(
                #"{"location": {"lat": 48, "lon": 200}}"#, to: camera.base + "/api/settings", origin: camera.base,
                extra: trusted)
            #expect(badValue.status == 400, "\(badValue.body)")
            let sent = try Self.post(Self.paris, to: camera.base + "/api/settings", origin: camera.base, extra: trusted)
            #expect(sent.status == 200, "\(sent.body)")
            let shot = try Self.post("", to: camera.base + "/api/shoot", origin: camera.base, extra: trusted)
            let path = (try JSONSerialization.jsonObject(with: Data(shot.body.utf8)) as? [String: Any])?["path"]
            #expect(try Self.gps(path as? String ?? "").prefix(2).map { ($0 * 1e5).rounded() } == [4_885_341, 234_880])
            // The MJPEG preview comes through TLS too: a part with a JPEG in it.
            let stream = try runProcess(
                "curl", ["-s", "--max-time", "2", "--cacert", certificate, camera.base + "/stream.mjpg"], timeout: 20)
            #expect(stream.output.count > 1000, "\(stream.output.count) bytes of MJPEG")
            #expect(stream.output.range(of: Data([0xFF, 0xD8, 0xFF])) != nil, "no JPEG in the stream")
            #expect(camera.stop().status == 130)
        }
    }
}
