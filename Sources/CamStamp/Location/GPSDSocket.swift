// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// Why gpsd could not be reached or read.
struct GPSDError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// One TCP connection to gpsd: connect with a timeout, send a command, read lines. Every wait is
/// a bounded poll, so `stop` is seen within a fraction of a second.
final class GPSDSocket {
    private let fd: Int32
    private let stop: () -> Bool

    init(host: String, port: UInt16, stop: @escaping () -> Bool, timeout: Duration = .seconds(2)) throws(GPSDError) {
        self.stop = stop
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw GPSDError("\(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var why = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry {
            entry = address.pointee.ai_next
            let fd = socket(address.pointee.ai_family, address.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { continue }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            if connect(fd, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0
                || (errno == EINPROGRESS && Self.finishConnect(fd, timeout: timeout, why: &why))
            {
                self.fd = fd
                return
            }
            if errno != EINPROGRESS { why = String(cString: strerror(errno)) }
            close(fd)
        }
        throw GPSDError("cannot connect to \(host):\(port) (\(why))")
    }

    deinit { close(fd) }

    private static func finishConnect(_ fd: Int32, timeout: Duration, why: inout String) -> Bool {
        var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        let milliseconds = Int32(timeout / .milliseconds(1))
        guard poll(&poller, 1, milliseconds) == 1 else {
            why = "timed out"
            return false
        }
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
        if error != 0 { why = String(cString: strerror(error)) }
        return error == 0
    }

    func send(_ text: String) throws(GPSDError) {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n > 0 {
                sent += n
            } else if n < 0, errno == EAGAIN || errno == EINTR {
                var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&poller, 1, 200)
                if stop() { return }
            } else {
                throw GPSDError("gpsd closed the connection")
            }
        }
    }

    /// Calls `line` for each line gpsd sends until it closes the connection (returns) or `stop`.
    /// A line longer than `maxLength` is dropped up to its newline.
    func readLines(maxLength: Int, _ line: (Data) -> Void) throws(GPSDError) {
        var pending = Data()
        var skipping = false
        var buffer = [UInt8](repeating: 0, count: 16384)
        while !stop() {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, 200)
            if ready == 0 || (ready < 0 && errno == EINTR) { continue }
            let n = recv(fd, &buffer, buffer.count, 0)
            if n == 0 { return }
            if n < 0 {
                if errno == EAGAIN || errno == EINTR { continue }
                throw GPSDError("reading from gpsd: \(String(cString: strerror(errno)))")
            }
            var start = 0
            for i in 0..<n where buffer[i] == UInt8(ascii: "\n") {
                if !skipping { pending.append(contentsOf: buffer[start..<i]) }
                if !skipping && !pending.isEmpty { line(pending) }
                pending.removeAll(keepingCapacity: true)
                skipping = false
                start = i + 1
            }
            if !skipping { pending.append(contentsOf: buffer[start..<n]) }
            if pending.count > maxLength {
                pending.removeAll(keepingCapacity: true)
                skipping = true
            }
        }
    }
}
