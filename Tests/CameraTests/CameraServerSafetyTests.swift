// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

/// Issue 21 §1: loopback is not a trust boundary. Any page the user visits can send requests to
/// 127.0.0.1, and a name it controls can be rebound to it; a client can send any amount, keep any
/// number of connections half-open. Each test talks to the camera with plain sockets, as those do.
extension CameraTests {
    @Suite struct ServerSafety {
        static let small = ["--source", "test", "--size", "320x240", "--text", "x"]

        static func post(_ path: String, port: Int, body: String = #"{"grid":true}"#, headers: [String] = []) -> String
        {
            ([
                "POST \(path) HTTP/1.1", "Host: 127.0.0.1:\(port)", "Content-Type: text/plain",
                "Content-Length: \(body.utf8.count)",
            ]
                + headers).joined(separator: "\r\n") + "\r\n\r\n" + body
        }

        static func jpegs(in folder: URL) throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".jpg") }
        }

        @Test func requestsFromAnotherSiteCannotShootOrChangeSettings() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let camera = try CameraProcess(Self.small, in: folder)
            let port = camera.port
            for header in [
                "Origin: http://evil.example", "Origin: null", "Origin: http://127.0.0.1:\(port + 1)",
                "Referer: http://evil.example/page.html",
            ] {
                for path in ["/api/settings", "/api/shoot"] {
                    let answer = try RawClient.exchange(port: port, Self.post(path, port: port, headers: [header]))
                    #expect(answer?.status == 403, "\(path) with \(header): \(answer?.text ?? "no answer")")
                }
            }
            #expect(try Self.jpegs(in: folder).isEmpty, "a photo was taken for another site")
            #expect(
                try http("GET", camera.base + "/api/state").json["grid"] as? Bool == false,
                "another site changed the grid")
            // The camera's own page, and a script that sends neither header (curl), may.
            let own = try RawClient.exchange(
                port: port, Self.post("/api/settings", port: port, headers: ["Origin: http://127.0.0.1:\(port)"]))
            #expect(own?.status == 200, "\(own?.text ?? "no answer")")
            let referred = try RawClient.exchange(
                port: port,
                Self.post(
                    "/api/settings", port: port,
                    headers: ["Referer: http://127.0.0.1:\(port)/"]))
            #expect(referred?.status == 200, "\(referred?.text ?? "no answer")")
            #expect(try RawClient.exchange(port: port, Self.post("/api/shoot", port: port, body: ""))?.status == 200)
            #expect(camera.stop().status == 130)
        }

        /// libsoup hands over the last of repeated headers: a foreign name or site followed by the
        /// camera's own used to pass (HTTP/1.1 wants 400 for two Hosts). A browser sends each once;
        /// this holds for any other client.
        @Test func aSecondHostOrOriginCannotHideAForeignFirst() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let camera = try CameraProcess(Self.small, in: folder)
            let port = camera.port
            let hosts = "GET /api/state HTTP/1.1\r\nHost: evil.example:\(port)\r\nHost: 127.0.0.1:\(port)\r\n\r\n"
            let named = try RawClient.exchange(port: port, hosts)
            #expect([400, 421].contains(named?.status), "\(named?.text.prefix(300) ?? "no answer")")
            #expect(named?.text.contains(folder.lastPathComponent) == false, "another site was told the photos' paths")
            let origins = ["Origin: http://evil.example", "Origin: http://127.0.0.1:\(port)"]
            let changed = try RawClient.exchange(port: port, Self.post("/api/settings", port: port, headers: origins))
            #expect(changed?.status == 403, "\(changed?.text.prefix(300) ?? "no answer")")
            #expect(
                try http("GET", camera.base + "/api/state").json["grid"] as? Bool == false,
                "another site changed the grid")
            #expect(camera.stop().status == 130)
        }

        @Test func aNameThatIsNotThisMachinesIsRefusedOnEveryPath() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let camera = try CameraProcess(Self.small, in: folder)
            let port = camera.port
            #expect(try http("POST", camera.base + "/api/shoot").status == 200)
            for request in [
                "GET /api/state", "GET /", "GET /stream.mjpg", "GET /app.js", "GET /shots/x.jpg", "POST /api/shoot",
            ] {
                let answer = try RawClient.exchange(
                    port: port,
                    "\(request) HTTP/1.1\r\nHost: evil.example:\(port)\r\n"
                        + "Content-Length: 0\r\n\r\n")
                #expect(answer?.status == 421, "\(request): \(answer?.text.prefix(300) ?? "no answer")")
                #expect(
                    answer?.text.contains(folder.lastPathComponent) == false,
                    "\(request) told another site the photos' paths")
            }
            #expect(try Self.jpegs(in: folder).count == 1)
            for host in [
                "127.0.0.1:\(port)", "localhost:\(port)", "LOCALHOST.:\(port)", "[::1]:\(port)",
                ProcessInfo.processInfo.hostName,
            ] {
                let answer = try RawClient.exchange(port: port, "GET /api/state HTTP/1.1\r\nHost: \(host)\r\n\r\n")
                #expect(answer?.status == 200, "Host \(host): \(answer?.text.prefix(300) ?? "no answer")")
            }
            #expect(camera.stop().status == 130)
        }

        /// A length libsoup reads as negative (`-1`, or one past 2^64) passed the 1 MiB check: the
        /// request then waited for a body until the 10 s deadline closed it, without an answer.
        @Test func aLengthBeyondAnyBodyGets413() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let camera = try CameraProcess(Self.small, in: folder)
            let port = camera.port
            for length in ["-1", "99999999999999999999"] {
                let answer = try RawClient.exchange(
                    port: port,
                    "POST /api/settings HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
                        + "Content-Length: \(length)\r\n\r\n", timeout: 5)
                #expect(answer?.status == 413, "Content-Length: \(length): \(answer?.text.prefix(300) ?? "no answer")")
            }
            #expect(camera.stop().status == 130)
        }

        /// The figure of issue 21: one 256 MiB POST added 527 MiB. Only its first 2 MiB are sent here
        /// (the answer must come before the rest).
        @Test func aBodyOverOneMiBGets413BeforeItIsRead() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let camera = try CameraProcess(Self.small, in: folder)
            let port = camera.port
            let before = residentKiB(camera.pid)
            let part = Data(repeating: UInt8(ascii: "a"), count: 1 << 20)
            for framing in ["Content-Length: \(256 << 20)", "Transfer-Encoding: chunked"] {
                let client = try RawClient(port: port)
                client.send("POST /api/settings HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(framing)\r\n\r\n")
                for _ in 0..<2 {
                    let chunk =
                        framing.hasPrefix("Transfer") ? Data("100000\r\n".utf8) + part + Data("\r\n".utf8) : part
                    if !client.send(chunk) { break }
                }
                let answer = client.status()
                #expect(answer?.status == 413, "\(framing): \(answer?.text.prefix(300) ?? "no answer")")
            }
            // Expect: 100-continue is refused before the client sends anything.
            let polite = try RawClient.exchange(
                port: port,
                "POST /api/settings HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
                    + "Content-Length: \(256 << 20)\r\nExpect: 100-continue\r\n\r\n")
            #expect(polite?.status == 413, "\(polite?.text ?? "no answer")")
            let after = residentKiB(camera.pid)
            #expect(after - before < 32 * 1024, "resident memory grew from \(before) to \(after) KiB")
            // A body within the limit is still read whole.
            let within = #"{"grid": true"# + String(repeating: " ", count: 900 << 10) + "}"
            #expect(
                try RawClient.exchange(port: port, Self.post("/api/settings", port: port, body: within))?.status == 200)
            #expect(camera.stop().status == 130)
        }

        @Test func idleAndHalfSentRequestsAreClosed() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let camera = try CameraProcess(Self.small, in: folder)
            let idle = try RawClient(port: camera.port)
            let halfHeaders = try RawClient(port: camera.port)
            halfHeaders.send("GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            let halfBody = try RawClient(port: camera.port)
            halfBody.send("POST /api/settings HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{\"grid\":")
            // Hang guard only: the server's own deadline is shorter.
            for (name, client) in [("idle", idle), ("half-sent headers", halfHeaders), ("half-sent body", halfBody)] {
                #expect(client.readToClose(timeout: 40) != nil, "a connection with \(name) is still open after 40 s")
            }
            #expect(try http("GET", camera.base + "/api/state").json["grid"] as? Bool == false)
            #expect(camera.stop().status == 130)
        }

        /// Debian's default `ulimit -n 1024` and 1,100 half-open requests made libsoup stop accepting
        /// for good. Past the cap they get 503; once they close, the camera answers again. On a LAN
        /// address too, where the token is checked only once a request is read.
        @Test(arguments: ["127.0.0.1:0", "0.0.0.0:0"])
        func manyHalfOpenConnectionsGet503AndTheCameraAnswersAfterThem(web: String) throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let camera = try CameraProcess(Self.small + ["--web", web], in: folder, ulimit: "-n 1024")
            var clients: [RawClient] = []
            for _ in 0..<1100 {
                let client = try RawClient(port: camera.port)
                client.send("GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                clients.append(client)
            }
            let late = try RawClient.exchange(port: camera.port, "GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(late?.status == 503, "past the cap: \(late?.text.prefix(200) ?? "no answer")")
            clients.removeAll()
            #expect(Self.answersAgain(camera), "no answer after the half-open connections closed")
            #expect(camera.stop().status == 130)
        }

        /// With fewer descriptors than the cap: connections never take the last of them (fonts and
        /// GStreamer need some too), and the camera answers again once they close.
        @Test func aSmallDescriptorLimitIsNeverUsedUpByConnections() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            // Swift's crash reporter needs descriptors of its own: a crash should say so here at once.
            let camera = try CameraProcess(
                Self.small, in: folder, environment: ["SWIFT_BACKTRACE": "enable=no"], ulimit: "-n 96")
            var clients: [RawClient] = []
            for _ in 0..<300 {
                let client = try RawClient(port: camera.port)
                client.send("GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                clients.append(client)
            }
            let late = try RawClient.exchange(port: camera.port, "GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(late != nil, "a request hung while descriptors were short")
            clients.removeAll()
            #expect(Self.answersAgain(camera), "no answer after descriptors came back")
            let result = camera.stop()
            #expect(result.status == 130, "\(result.stderr)")
        }

        @Test func theSoftDescriptorLimitIsRaisedToTheHardOne() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let camera = try CameraProcess(Self.small, in: folder, ulimit: "-S -n 256")
            let limits = try String(contentsOfFile: "/proc/\(camera.pid)/limits", encoding: .utf8)
            let line = try #require(limits.split(separator: "\n").first { $0.hasPrefix("Max open files") })
            let numbers = line.split(separator: " ").compactMap { Int($0) }
            #expect(numbers.count == 2 && numbers[0] == numbers[1] && numbers[0] > 256, "\(line)")
            #expect(camera.stop().status == 130)
        }

        /// Bounded: a GET answered within 30 s.
        static func answersAgain(_ camera: CameraProcess) -> Bool {
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline {
                // 401 on a LAN address: answered, without the token.
                if let answer = try? RawClient.exchange(
                    port: camera.port, "GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
                    timeout: 5), [200, 401].contains(answer.status)
                {
                    return true
                }
                Thread.sleep(forTimeInterval: 0.5)
            }
            return false
        }
    }
}
