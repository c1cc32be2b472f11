// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// What the web server accepts before any handler runs (docs/product.md, "The camera page as a
/// camera"): a request must name this machine in `Host` (DNS rebinding), a state-changing one
/// must come from the server's own origin (CSRF), and a body must fit in `maxBody`.
public struct WebLimits: Sendable {
    /// Larger request bodies get 413 before they are read.
    public var maxBody: Int
    /// Connections served at once (MJPEG viewers included); more get 503.
    public var maxConnections: Int
    /// Connections one client address may hold at once; more get 503 while other clients still get
    /// in. A browser opens at most 6 per host, so 32 leaves room for several browsers and scripts
    /// on one machine (a shared NAT address) and keeps three quarters of `maxConnections` for others.
    public var maxConnectionsPerPeer: Int
    /// From connecting to the last byte of the request (idle and half-sent requests are closed).
    public var requestTimeout: Duration
    /// From the request read to the last byte of the answer (the MJPEG stream excepted).
    public var answerTimeout: Duration

    public init(
        maxBody: Int = 1 << 20, maxConnections: Int = 128, maxConnectionsPerPeer: Int = 32,
        requestTimeout: Duration = .seconds(10), answerTimeout: Duration = .seconds(60)
    ) {
        self.maxBody = maxBody
        self.maxConnections = maxConnections
        self.maxConnectionsPerPeer = maxConnectionsPerPeer
        self.requestTimeout = requestTimeout
        self.answerTimeout = answerTimeout
    }
}

/// A refusal decided from the request's headers alone.
struct WebRefusal: Error {
    var status: Int
    var text: String
}

/// The Host and Origin rules. Names are compared lower-cased, without a trailing dot or port.
struct WebGuard: Sendable {
    /// The bound address, `localhost`, the loopback addresses and the machine's names; its
    /// interface addresses are looked up again on a miss (they change with the network).
    let names: Set<String>
    /// `http` or `https`: what the page's own origin starts with.
    let scheme: String

    init(boundAddress: String, scheme: String = "http") {
        self.scheme = scheme
        var names: Set<String> = ["localhost", "127.0.0.1", "::1", Self.normalised(boundAddress)]
        let host = Self.hostName
        if !host.isEmpty {
            names.insert(Self.normalised(host))
            names.insert(Self.normalised(host) + ".local")
            if let short = host.split(separator: ".").first { names.insert(Self.normalised(String(short))) }
        }
        self.names = names.union(Self.interfaceAddresses())
    }

    /// Refuses what the headers alone condemn; `contentLength` is nil for a chunked body.
    func check(
        method: String, host: String?, origin: String?, referer: String?, contentLength: Int?,
        limits: WebLimits
    ) throws(WebRefusal) {
        guard let host, let name = Self.hostPart(host) else {
            throw WebRefusal(status: 400, text: "camstamp: the request has no valid Host header")
        }
        guard names.contains(name) || Self.interfaceAddresses().contains(name) else {
            // The name may be an attacker's (DNS rebinding): say nothing about this camera.
            throw WebRefusal(
                status: 421,
                text: "camstamp: this camera does not answer to the name '\(name)'; "
                    + "open the address camstamp printed")
        }
        if method != "GET" && method != "HEAD" {
            // A browser sends Origin with every POST; Referer is the fallback of old ones. A
            // request with neither comes from a script (curl), which no web page can make send.
            let own = scheme + "://" + host.lowercased()
            if let origin {
                guard origin.lowercased() == own else {
                    throw WebRefusal(
                        status: 403,
                        text: "camstamp: a request from another site (\(origin)) cannot "
                            + "change the camera; use the camera's own page")
                }
            } else if let referer, Self.origin(ofURL: referer) != own {
                throw WebRefusal(
                    status: 403,
                    text: "camstamp: a request from another page cannot change the camera; "
                        + "use the camera's own page")
            }
        }
        // Beyond 2^63 (`-1`, twenty nines) libsoup's parse wraps to a negative length.
        if let contentLength, contentLength < 0 || contentLength > limits.maxBody {
            throw Self.tooLarge(limits)
        }
    }

    /// The body's framing (RFC 9112 §6.3): Content-Length values that differ make the message's
    /// end unknowable (a proxy in front may take the other one), so the request is refused with 400
    /// and the connection closed. The same value repeated is one length (RFC 9110 §8.6); a single
    /// malformed one is libsoup's, or `check`'s, to refuse. `header` is every Content-Length the
    /// request has, joined with ", ".
    static func checkFraming(contentLength header: String?) throws(WebRefusal) {
        guard let header else { return }
        let values = Set(
            header.split(separator: ",", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            })
        guard values.count == 1 else {
            throw WebRefusal(
                status: 400,
                text: "camstamp: the request's Content-Length (\(header.prefix(64))) is not one length; "
                    + "send a single Content-Length")
        }
    }

    static func tooLarge(_ limits: WebLimits) -> WebRefusal {
        WebRefusal(
            status: 413,
            text: "camstamp: the request body is larger than \(limits.maxBody / 1024) KiB; "
                + "the camera takes small JSON settings only")
    }

    /// `Example.org.:8080` → `example.org`, `[::1]:8080` → `::1`; nil when malformed.
    static func hostPart(_ header: String) -> String? {
        let text = header.trimmingCharacters(in: .whitespaces)
        var name: Substring
        var rest: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            name = text[text.index(after: text.startIndex)..<close]
            rest = text[text.index(after: close)...]
        } else if let colon = text.firstIndex(of: ":") {
            name = text[..<colon]
            rest = text[colon...]
        } else {
            name = Substring(text)
            rest = ""
        }
        if !rest.isEmpty {
            guard rest.hasPrefix(":"), rest.count > 1, rest.dropFirst().allSatisfy(\.isASCII),
                rest.dropFirst().allSatisfy(\.isNumber)
            else { return nil }
        }
        guard !name.isEmpty else { return nil }
        return normalised(String(name))
    }

    /// `http://host:port` of an absolute URL, lower-cased.
    static func origin(ofURL text: String) -> String? {
        guard let url = URLComponents(string: text), let scheme = url.scheme, let host = url.host else { return nil }
        let shown = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return (scheme + "://" + shown + (url.port.map { ":\($0)" } ?? "")).lowercased()
    }

    private static func normalised(_ name: String) -> String {
        var name = name.lowercased()
        while name.hasSuffix(".") { name.removeLast() }
        // An IPv6 zone (`fe80::1%eth0`) is not part of the address.
        if name.contains(":"), let percent = name.firstIndex(of: "%") { name = String(name[..<percent]) }
        return name
    }

    static var hostName: String {
        var buffer = [CChar](repeating: 0, count: 256)
        gethostname(&buffer, buffer.count - 1)
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// Every address of this machine's interfaces, as text.
    static func interfaceAddresses() -> Set<String> {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return [] }
        defer { freeifaddrs(list) }
        var found: Set<String> = []
        var entry = list
        while let current = entry {
            defer { entry = current.pointee.ifa_next }
            guard let address = current.pointee.ifa_addr else { continue }
            var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            let length = socklen_t(
                address.pointee.sa_family == sa_family_t(AF_INET6)
                    ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
            guard [sa_family_t(AF_INET), sa_family_t(AF_INET6)].contains(address.pointee.sa_family),
                getnameinfo(address, length, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST) == 0
            else {
                continue
            }
            found.insert(normalised(buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }))
        }
        return found
    }
}
