// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// What the accept loop writes on a socket itself, before or instead of libsoup: who the client is,
/// and the short answers it sends by hand (503 when full, 431 for a head libsoup gave up on).
extension WebConnections {
    /// The numeric address of the client on `fd` (IPv4-mapped IPv6 as IPv4); "" when unknown.
    static func peerAddress(_ fd: Int32) -> String {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        let found = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                getpeername(fd, address, &length) == 0
                    && getnameinfo(address, length, &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) == 0
            }
        }
        guard found else { return "" }
        let text = host.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return text.hasPrefix("::ffff:") ? String(text.dropFirst(7)) : text
    }

    // MARK: Answers written by hand

    static let busy = answer(503, "camstamp: the camera is serving too many connections; try again in a moment")
    static let busyPeer = answer(
        503, "camstamp: this client holds too many connections to the camera; close some and try again")

    static func answer(_ status: Int, _ text: String) -> [UInt8] {
        let reasons = [
            400: "Bad Request", 403: "Forbidden", 413: "Content Too Large", 421: "Misdirected Request",
            431: "Request Header Fields Too Large", 503: "Service Unavailable",
        ]
        let body = Array((text + "\n").utf8)
        let head =
            "HTTP/1.1 \(status) \(reasons[status] ?? "Error")\r\nContent-Type: text/plain; charset=utf-8\r\n"
            + "Content-Length: \(body.count)\r\nConnection: close\r\nCache-Control: no-store\r\n"
            + (status == 503 ? "Retry-After: 1\r\n" : "") + "\r\n"
        return Array(head.utf8) + body
    }

    /// Best effort, never blocking: a short answer fits in a fresh socket's send buffer.
    static func sendAnswer(_ fd: Int32, _ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
    }
}
