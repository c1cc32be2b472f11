// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Media
import Testing
import TestSupport

// Ports, servers and probes for the live-target tests (LiveTargetTests).

/// A TCP or UDP port free on 127.0.0.1 right now (the kernel's pick, released at once).
/// A socket bound to a port the kernel chose on 127.0.0.1, and that port; the caller closes it.
func boundSocket(udp: Bool = false) throws -> (fd: Int32, port: Int) {
    let fd = socket(AF_INET, Int32(udp ? SOCK_DGRAM.rawValue : SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw ToolFailure("socket: errno \(errno)") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
        }
    }
    guard bound else {
        close(fd)
        throw ToolFailure("bind: errno \(errno)")
    }
    return (fd, Int(UInt16(bigEndian: address.sin_port)))
}

func freePort(udp: Bool = false) throws -> Int {
    let (fd, port) = try boundSocket(udp: udp)
    close(fd)
    return port
}

/// A TCP server on 127.0.0.1 that takes connections and never says a word (another service on
/// the port, a stuck proxy): the kernel completes them, nobody reads. `close(fd)` ends it.
func silentServer() throws -> (fd: Int32, port: Int) {
    let server = try boundSocket()
    guard listen(server.fd, 8) == 0 else {
        close(server.fd)
        throw ToolFailure("listen: errno \(errno)")
    }
    return server
}

/// A program the test runs in the background (a server, a receiver), stopped by `stop()`: its
/// stderr, and its stdout unless `stdout` names a file of its own, into the log `output`.
func helper(_ executable: String, _ arguments: [String], output: URL, stdout: URL? = nil) throws -> BackgroundProcess {
    try BackgroundProcess(executable, arguments, stdout: .file(stdout ?? output), stderr: .file(output))
}

/// Waits (bounded) until something accepts TCP connections on 127.0.0.1:`port`.
func waitForListener(port: Int, timeout: TimeInterval = 10) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        close(fd)
        if connected { return true }
        Thread.sleep(forTimeInterval: 0.1)
    }
    return false
}

/// nginx with libnginx-mod-rtmp on 127.0.0.1:`port`, with its own config, pid and logs in `folder`.
final class NginxRTMP {
    let port: Int
    let folder: URL
    private var server: BackgroundProcess?

    init(folder: URL, port: Int) throws {
        self.port = port
        self.folder = folder
        // One process in the foreground (daemon off, no master), so the test owns and stops it;
        // a viewer is only sent video from a keyframe on.
        let config = """
            load_module /usr/lib/nginx/modules/ngx_rtmp_module.so;
            \(getuid() == 0 ? "user root;" : "")
            daemon off;
            master_process off;
            pid \(folder.path)/nginx.pid;
            error_log \(folder.path)/error.log info;
            events { worker_connections 64; }
            rtmp {
                server {
                    listen 127.0.0.1:\(port);
                    application live { live on; record off; wait_key on; wait_video on; }
                }
            }
            """
        try config.write(to: folder.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
        try start()
    }

    func start() throws {
        let config = folder.appendingPathComponent("nginx.conf"), log = folder.appendingPathComponent("error.log")
        server = try helper(
            "/usr/sbin/nginx", ["-c", config.path, "-p", folder.path, "-e", log.path],
            output: folder.appendingPathComponent("nginx.out"))
        guard waitForListener(port: port) else {
            throw ToolFailure("nginx did not listen on \(port): \(server?.stderr ?? "")")
        }
    }

    /// Stops the server at once, as a crash or a restart would (a single nginx process finishes its
    /// live connections before it obeys SIGTERM).
    func stop() {
        server?.stop(SIGKILL)
        server = nil
    }

    deinit { stop() }
}

/// What ffprobe finds in `input` (a file or URL): the codec of each stream, in order.
func probeCodecs(_ input: String, arguments: [String] = [], timeout: TimeInterval = 20) throws -> [String] {
    let result = try runTool(
        "/usr/bin/ffprobe",
        ["-v", "error"] + arguments
            + ["-show_entries", "stream=codec_name", "-of", "csv=p=0", input], timeout: timeout)
    // MPEG-TS lists its streams twice (in its program, then alone): each stream once, in order.
    var codecs: [String] = []
    for line in result.split(separator: "\n") {
        let codec = line.trimmingCharacters(in: .whitespaces)
        if !codec.isEmpty && !codecs.contains(codec) { codecs.append(codec) }
    }
    return codecs
}

/// The mark in a frame from the middle of a received stream (its first frames may predate a keyframe).
func expectMarkInTheMiddle(_ file: URL, sourceLocation: SourceLocation = #_sourceLocation) throws {
    try expectMarkBottomRight(try decodeVideo(file: file, keep: 30, limit: 31).kept, sourceLocation: sourceLocation)
}

/// Runs a tool to the end (bounded: killed, and the test failed, after `timeout` seconds) and
/// returns its standard output, whatever its status.
@discardableResult
func runTool(
    _ executable: String, _ arguments: [String], timeout: TimeInterval = 30,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> String {
    try runProcess(executable, arguments, stderr: .discard, timeout: timeout, sourceLocation: sourceLocation).stdout
}

/// Frames in a video file, counted by decoding (ffprobe -count_frames).
func decodedFrames(_ file: URL) throws -> Int {
    let text = try runTool(
        "/usr/bin/ffprobe",
        [
            "-v", "error", "-select_streams", "v:0", "-count_frames",
            "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", file.path,
        ])
    // MPEG-TS prints the stream twice (in its program, then alone).
    return text.split(separator: "\n").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }.first ?? 0
}

/// The frames the summary says were written, checked against `expected` (a loaded machine may
/// drop a few before the encoder; they are counted, and written + dropped is the whole stream).
func framesWritten(_ stderr: String, expected: Int, sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
    let match = try #require(
        stderr.firstMatch(of: try Regex(#"(\d+) frames written, (\d+) dropped"#)), "\(stderr)",
        sourceLocation: sourceLocation)
    let written = Int(match.output[1].substring ?? "") ?? 0, dropped = Int(match.output[2].substring ?? "") ?? 0
    // A live camera on a loaded machine may deliver a few frames less: within a tenth, not a timing test.
    #expect(
        written + dropped <= expected + 3 && written + dropped >= expected * 9 / 10 && dropped <= expected / 10,
        "\(stderr)", sourceLocation: sourceLocation)
    return written
}
