// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

/// What an adversarial pass on the camera's server left: a body's framing that two lengths make
/// ambiguous, a header too large to read, one client taking every connection. Plain sockets, as
/// an attacker's.
extension CameraTests {
    @Suite struct ServerLimits {
        static let small = ["--source", "test", "--size", "320x240", "--text", "x"]

        static func settings(port: Int, lengths: [String], body: String = #"{"grid":true}"#) -> String {
            (["POST /api/settings HTTP/1.1", "Host: 127.0.0.1:\(port)", "Content-Type: text/plain"]
                + lengths.map { "Content-Length: \($0)" }).joined(separator: "\r\n") + "\r\n\r\n" + body
        }

        /// RFC 9112 §6.3: two Content-Length values that differ leave the body's end unknown (a
        /// proxy in front may take the other one: request smuggling). The settings were applied
        /// with whichever libsoup took, 200.
        @Test func differingContentLengthsGet400AndChangeNothing() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let camera = try CameraProcess(Self.small, in: folder)
            let port = camera.port
            for lengths in [["13", "2"], ["2", "13"], ["13", "13x"], ["13, 2"]] {
                let answer = try RawClient.exchange(
                    port: port, Self.settings(port: port, lengths: lengths), timeout: 10)
                #expect(answer?.status == 400, "\(lengths): \(answer?.text.prefix(300) ?? "no answer")")
                // libsoup refuses a malformed single value itself; two numbers are ours to refuse.
                if lengths.count == 2 && !lengths[1].contains("x") {
                    #expect(answer?.text.contains("is not one length") == true, "\(answer?.text ?? "")")
                }
            }
            #expect(try http("GET", camera.base + "/api/state").json["grid"] as? Bool == false)
            // The same length twice is one length (RFC 9110 §8.6).
            let same = try RawClient.exchange(port: port, Self.settings(port: port, lengths: ["13", "13"]))
            #expect(same?.status == 200, "\(same?.text.prefix(300) ?? "no answer")")
            #expect(try http("GET", camera.base + "/api/state").json["grid"] as? Bool == true)
            #expect(camera.stop().status == 130)
        }

        /// libsoup gives up on a head past 64 KiB and closed the connection with the rest unread:
        /// the kernel reset it, and the client saw no answer at all.
        @Test func aOneMegabyteHeaderLineGets431NotAReset() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let camera = try CameraProcess(Self.small, in: folder)
            let port = camera.port
            let line = "X-Padding: " + String(repeating: "a", count: 1 << 20)
            for request in [
                "GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(line)\r\n\r\n",
                "GET /api/state HTTP/1.1\r\n\(line)\r\nHost: 127.0.0.1:\(port)\r\n\r\n",
            ] {
                let answer = try RawClient.exchange(port: port, request, timeout: 20)
                #expect(answer?.status == 431, "\(answer.map { "\($0.text.prefix(200))" } ?? "no answer")")
            }
            #expect(try http("GET", camera.base + "/api/state").status == 200)
            #expect(camera.stop().status == 130)
        }

        /// The cap was global (128): one client's half-open requests took every slot and the
        /// camera's own page got 503. Now one address holds at most 32; others still get in.
        @Test func oneClientCannotTakeEveryConnection() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let camera = try CameraProcess(Self.small, in: folder)
            let port = camera.port
            var clients: [RawClient] = []
            for _ in 0..<130 {
                let client = try RawClient(port: port)
                client.send("GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                clients.append(client)
            }
            let same = try RawClient.exchange(port: port, "GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(same?.status == 503, "the same client: \(same?.text.prefix(200) ?? "no answer")")
            #expect(same?.text.contains("this client holds too many connections") == true)
            let other = try Self.exchange(from: "127.0.0.2", port: port)
            #expect(other?.status == 200, "another client: \(other?.text.prefix(200) ?? "no answer")")
            clients.removeAll()
            #expect(camera.stop().status == 130)
        }

        /// One GET from the source address `source` (a loopback address other than 127.0.0.1 is
        /// another client to the server); the status and text of the answer, nil when none came.
        static func exchange(from source: String, port: Int) throws -> (status: Int, text: String)? {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            func address(_ text: String, _ port: Int) -> sockaddr_in {
                var address = sockaddr_in()
                address.sin_family = sa_family_t(AF_INET)
                address.sin_port = in_port_t(UInt16(port).bigEndian)
                address.sin_addr.s_addr = inet_addr(text)
                return address
            }
            func call(_ text: String, _ port: Int, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
                var value = address(text, port)
                return withUnsafePointer(to: &value) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        body($0, socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                }
            }
            guard call(source, 0, { bind(fd, $0, $1) }) == 0, call("127.0.0.1", port, { connect(fd, $0, $1) }) == 0
            else {
                throw CameraTestError("cannot connect from \(source) (errno \(errno))")
            }
            var seconds = timeval(tv_sec: 20, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &seconds, socklen_t(MemoryLayout<timeval>.size))
            let request = Array("GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
            guard send(fd, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else { return nil }
            var received = Data()
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = recv(fd, &buffer, buffer.count, 0)
                if n <= 0 { break }
                received.append(contentsOf: buffer[0..<n])
            }
            let text = String(decoding: received, as: UTF8.self)
            guard let match = text.firstMatch(of: /^HTTP\/1\.[01] (\d{3})/), let status = Int(match.1) else {
                return nil
            }
            return (status, text)
        }
    }
}
