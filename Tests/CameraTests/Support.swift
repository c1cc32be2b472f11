// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Media
import Testing
import TestSupport

let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Scripts")

final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func get() -> Value { lock.withLock { value } }
    func update<R>(_ change: (inout Value) -> R) -> R { lock.withLock { change(&value) } }
}

/// `camstamp camera` running in the background, on a free port of 127.0.0.1 unless `--web` is given
/// (TestSupport's `BackgroundProcess`, which reads its output as it runs and bounds every wait).
final class CameraProcess: @unchecked Sendable {
    private let running: BackgroundProcess
    /// The URL it printed (with `?token=` when there is one).
    private(set) var printedURL = ""
    /// Where to connect: always 127.0.0.1, whatever address it was bound to.
    private(set) var base = ""
    private(set) var port = 0

    /// `ulimit`: limits set by /bin/sh before it becomes camstamp (`-n 1024`: Debian's default).
    init(_ arguments: [String], in folder: URL, environment: [String: String] = [:], ulimit: String? = nil) throws {
        var arguments = ["camera"] + arguments
        if !arguments.contains("--web") && !arguments.contains("--window") { arguments += ["--web", "127.0.0.1:0"] }
        let environment = ChildEnvironment.inherited(["G_DEBUG": "fatal-criticals"].merging(environment) { $1 })
        if let ulimit {
            running = try BackgroundProcess(
                "/bin/sh", ["-c", "ulimit \(ulimit) && exec \"$0\" \"$@\"", camstampBinary.path] + arguments,
                environment: environment, in: folder)
        } else {
            running = try BackgroundProcess(camstampBinary.path, arguments, environment: environment, in: folder)
        }
        guard arguments.contains("--web") else { return }
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline && running.isRunning {
            if let line = stdout.split(separator: "\n").first, stdout.contains("\n") {
                printedURL = String(line)
                break
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        guard let match = printedURL.firstMatch(of: /^(https?):\/\/[^\/]+:(\d+)\//), let number = Int(match.2) else {
            let result = stop()
            throw CameraTestError("camstamp camera printed no URL (exit \(result.status)): \(result.stderr)")
        }
        port = number
        base = "\(match.1)://127.0.0.1:\(number)"
    }

    var stdout: String { running.stdout }
    var stderr: String { running.stderr }
    var pid: Int32 { running.pid }

    /// Ctrl-C, then waits (bounded) for it to end; one that does not is killed and the test failed.
    @discardableResult
    func stop(signal: Int32 = SIGINT, timeout: TimeInterval = 30) -> (status: Int32, stdout: String, stderr: String) {
        running.send(signal)
        let result = running.finish(timeout: timeout)
        return (result.status, result.stdout, result.stderr)
    }

    /// How many file descriptors the process has open now.
    var openDescriptors: Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
    }
}

struct CameraTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

struct HTTPResult {
    var status: Int
    var headers: [String: String]
    var body: Data
    var json: [String: Any] { ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any]) ?? [:] }
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// One request through URLSession (FoundationNetworking), waited for (bounded).
func http(
    _ method: String, _ url: String, json: [String: Any]? = nil, headers: [String: String] = [:],
    timeout: TimeInterval = 30
) throws -> HTTPResult {
    var request = URLRequest(url: URL(string: url)!, timeoutInterval: timeout)
    request.httpMethod = method
    request.httpShouldHandleCookies = false
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    if let json {
        request.httpBody = try JSONSerialization.data(withJSONObject: json)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    }
    let result = Locked<Result<HTTPResult, Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    let session = URLSession(configuration: .ephemeral)
    session.dataTask(with: request) { data, response, error in
        if let response = response as? HTTPURLResponse {
            var headers: [String: String] = [:]
            for (key, value) in response.allHeaderFields {
                headers[String(describing: key).lowercased()] = String(describing: value)
            }
            result.update {
                $0 = .success(HTTPResult(status: response.statusCode, headers: headers, body: data ?? Data()))
            }
        } else {
            result.update { $0 = .failure(error ?? CameraTestError("no response from \(url)")) }
        }
        done.signal()
    }.resume()
    guard done.wait(timeout: .now() + timeout + 5) == .success, let outcome = result.get() else {
        throw CameraTestError("\(method) \(url) did not answer within \(timeout) s")
    }
    session.finishTasksAndInvalidate()
    return try outcome.get()
}

/// Reads `/stream.mjpg` through URLSession for `seconds` after its first part, counting parts.
final class StreamCounter: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let marker = Array("--camstampframe".utf8)
    private let state = Locked(
        (parts: 0, first: Date?.none, last: Date?.none, tail: [UInt8](), firstPart: Data(), status: 0))
    private var session: URLSession!

    /// Parts counted between the first and `seconds` later, and the parts per second.
    static func measure(
        _ url: String, seconds: TimeInterval, headers: [String: String] = [:]
    ) throws -> (parts: Int, perSecond: Double, firstPart: Data) {
        let counter = StreamCounter()
        counter.session = URLSession(configuration: .ephemeral, delegate: counter, delegateQueue: nil)
        var request = URLRequest(url: URL(string: url)!)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let task = counter.session.dataTask(with: request)
        task.resume()
        let deadline = Date().addingTimeInterval(seconds + 20)
        while Date() < deadline {
            let (_, first, last, _, _, _) = counter.state.get()
            if let first, let last, last.timeIntervalSince(first) >= seconds { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        task.cancel()
        counter.session.invalidateAndCancel()
        let (parts, first, last, _, firstPart, status) = counter.state.get()
        guard let first, let last, parts > 1 else { throw CameraTestError("no parts from \(url) (status \(status))") }
        return (parts - 1, Double(parts - 1) / last.timeIntervalSince(first), firstPart)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        state.update { $0.status = (response as? HTTPURLResponse)?.statusCode ?? 0 }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let now = Date()
        let marker = marker
        state.update { state in
            let bytes = state.tail + Array(data)
            var index = 0
            var found = 0
            while index + marker.count <= bytes.count {
                if bytes[index] == marker[0] && Array(bytes[index..<index + marker.count]) == marker {
                    found += 1
                    index += marker.count
                } else {
                    index += 1
                }
            }
            if state.parts < 3 { state.firstPart.append(data) }
            state.tail = Array(bytes.suffix(marker.count - 1))
            if found > 0 {
                if state.first == nil { state.first = now }
                state.parts += found
                state.last = now
            }
        }
    }
}

/// A viewer on a plain socket: sends the request and then reads only when told to (a stalled
/// phone, a browser tab in the background).
final class RawViewer {
    let socket: Int32

    init(port: Int, path: String = "/stream.mjpg", receiveBuffer: Int32 = 4096) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var size = receiveBuffer
        setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw CameraTestError("cannot connect to 127.0.0.1:\(port)") }
        let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        _ = request.withCString { send(socket, $0, strlen($0), 0) }
    }

    /// Reads up to `count` bytes, waiting at most `timeout` for each read.
    func read(atLeast count: Int, timeout: TimeInterval = 10) -> Data {
        var received = Data()
        var seconds = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &seconds, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 65536)
        while received.count < count {
            let n = recv(socket, &buffer, buffer.count, 0)
            if n <= 0 { break }
            received.append(contentsOf: buffer[0..<n])
        }
        return received
    }

    func close() { Glibc.close(socket) }
}

/// Runs a test script with Debian's python3 (where python3-selenium is installed), its stdout and
/// stderr together (bounded: killed, and the test failed, after `timeout` seconds).
func runScript(
    _ name: String, _ arguments: [String], timeout: TimeInterval = 120
) throws -> (status: Int32, output: String) {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let log = folder.appendingPathComponent("output.log")
    let script = try BackgroundProcess(
        "/usr/bin/python3", [scripts.appendingPathComponent(name).path] + arguments,
        environment: .inherited(["G_DEBUG": "fatal-criticals"]), stdout: .file(log), stderr: .file(log))
    let result = script.finish(timeout: timeout)
    return (result.status, script.stderr)
}

/// One exchange on a plain socket to 127.0.0.1, written as given (any Host, any header, a body
/// sent in parts): what a browser on another site, or a script, can send.
final class RawClient {
    let socket: Int32

    init(port: Int) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        // A server that stopped accepting fills its backlog: connecting then fails in bounded time.
        var seconds = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &seconds, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            Glibc.close(socket)
            throw CameraTestError("cannot connect to 127.0.0.1:\(port) (errno \(errno))")
        }
    }

    deinit { Glibc.close(socket) }

    /// Sends all of `data`; false when the server closed the connection first.
    @discardableResult
    func send(_ data: Data) -> Bool {
        data.withUnsafeBytes { bytes in
            var sent = 0
            while sent < bytes.count {
                let n = Glibc.send(socket, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
                if n <= 0 { return false }
                sent += n
            }
            return true
        }
    }

    func send(_ text: String) { send(Data(text.utf8)) }

    /// Everything until the server closes, or nil when nothing ends within `timeout` (a hang).
    func readToClose(timeout: TimeInterval = 30) -> Data? {
        var seconds = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &seconds, socklen_t(MemoryLayout<timeval>.size))
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let n = recv(socket, &buffer, buffer.count, 0)
            if n > 0 {
                received.append(contentsOf: buffer[0..<n])
                continue
            }
            if n == 0 || errno == ECONNRESET { return received }
            return nil
        }
        return nil
    }

    /// The status of the answer (0 when the connection closed without one), nil on a hang.
    func status(timeout: TimeInterval = 30) -> (status: Int, text: String)? {
        guard let data = readToClose(timeout: timeout) else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        let status = text.firstMatch(of: /^HTTP\/1\.[01] (\d{3})/).flatMap { Int($0.1) } ?? 0
        return (status, text)
    }

    /// One whole request; the answer's status and text (nil on a hang).
    static func exchange(
        port: Int, _ request: String, timeout: TimeInterval = 30
    ) throws -> (status: Int, text: String)? {
        let client = try RawClient(port: port)
        // Asked to close after the answer, so that reading to the end ends with it.
        guard let lineEnd = request.range(of: "\r\n") else { throw CameraTestError("not a request: \(request)") }
        client.send(request.replacingCharacters(in: lineEnd, with: "\r\nConnection: close\r\n"))
        return client.status(timeout: timeout)
    }
}

/// The resident memory of `pid` in KiB (VmRSS).
func residentKiB(_ pid: Int32) -> Int {
    let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
    return status.firstMatch(of: /VmRSS:\s+(\d+) kB/).flatMap { Int($0.1) } ?? -1
}

extension CameraProcess {
    /// The test camera at 640×360 on a flat grey picture (so every changed pixel is the mark's),
    /// marked "MARK", shooting into `folder/shots`.
    static func flatMarked(in folder: URL) throws -> CameraProcess {
        let template = try writeSolidCameraTemplate(in: folder)
        return try CameraProcess(
            ["--source", "test", "--pipeline", template.path, "--size", "640x360", "--text", "MARK", "-o", "shots"],
            in: folder)
    }
}
