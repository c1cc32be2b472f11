// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// The address an RTP stream is sent to, checked and resolved before anything starts: udpsink
/// takes any text and fails quietly, so `rtp://999.1.1.1:5004` or a misspelt host name would
/// otherwise "stream" to nowhere and report success.
enum RTPAddress {
    /// The numeric address for `host` (an IPv4 or IPv6 address, or a name looked up now), or a
    /// usage error that names the target.
    static func resolve(host: String, port: UInt16) throws(CamStampError) -> String {
        let target = "rtp://\(host.contains(":") ? "[\(host)]" : host):\(port)"
        // Only digits and dots is meant as an IPv4 address, never a name to look up.
        if host.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }) {
            guard parses(host, family: AF_INET) else {
                throw .usage(
                    "--to \(target): \(host) is not an IPv4 address (four numbers from 0 to 255, e.g. 192.168.1.20)")
            }
            return host
        }
        if host.contains(":") {
            // Through getaddrinfo rather than inet_pton: a link-local address keeps its %zone.
            guard case .success = numericAddress(host, flags: AI_NUMERICHOST) else {
                throw .usage("--to \(target): \(host) is not an IPv6 address")
            }
            return host
        }
        // RFC 6761: names under .invalid never resolve, and resolvers should say so at once.
        if host.lowercased().hasSuffix(".invalid") || host.lowercased() == "invalid" {
            throw unresolved(target, host, reason: "a name under .invalid never resolves")
        }
        switch numericAddress(host, flags: 0) {
        case .success(let address): return address
        case .failure(let reason): throw unresolved(target, host, reason: reason.message)
        }
    }

    private struct LookupFailure: Error { var message: String }

    /// The first address getaddrinfo(3) gives for `host`, as text; a failure carries its reason.
    private static func numericAddress(_ host: String, flags: Int32) -> Result<String, LookupFailure> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        hints.ai_flags = flags
        var found: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &found)
        guard status == 0, let first = found else {
            return .failure(LookupFailure(message: String(cString: gai_strerror(status))))
        }
        defer { freeaddrinfo(found) }
        var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        guard
            getnameinfo(
                first.pointee.ai_addr, first.pointee.ai_addrlen, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST)
                == 0
        else {
            return .failure(LookupFailure(message: "no usable address"))
        }
        return .success(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    private static func parses(_ text: String, family: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 16)
        return inet_pton(family, text, &buffer) == 1
    }

    private static func unresolved(_ target: String, _ host: String, reason: String) -> CamStampError {
        .usage("--to \(target): cannot find the host '\(host)' (\(reason)); check the name or give an IP address")
    }
}
