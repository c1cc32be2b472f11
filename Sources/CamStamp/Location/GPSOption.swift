// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// `--gps auto|HOST:PORT|off`: where the position comes from.
public enum GPSOption: Sendable, Equatable, CustomStringConvertible {
    /// gpsd on localhost:2947 when it runs; nothing, silently, when it does not.
    case auto
    /// gpsd at this address; a warning when it cannot be reached.
    case server(host: String, port: UInt16)
    /// No position from gpsd (the camera page's position is still taken).
    case off

    /// gpsd's own port.
    public static let defaultPort: UInt16 = 2947

    /// Parses `auto`, `off`, `HOST:PORT`, `HOST` (port 2947) or `[IPv6]:PORT`.
    public init(parsing text: String, option: String) throws(OptionValueError) {
        switch text {
        case "auto": self = .auto
        case "off": self = .off
        default:
            let expected = "auto, off or HOST:PORT of a gpsd (localhost:2947)"
            var host = Substring(text), port = Self.defaultPort
            if host.hasPrefix("[") {
                guard let close = host.firstIndex(of: "]") else {
                    throw .invalid(text, for: option, expected: expected)
                }
                let rest = host[host.index(after: close)...]
                host = host[host.index(after: host.startIndex)..<close]
                if !rest.isEmpty {
                    guard rest.hasPrefix(":"), let number = UInt16(rest.dropFirst()), number > 0 else {
                        throw .invalid(text, for: option, expected: expected)
                    }
                    port = number
                }
            } else if let colon = host.lastIndex(of: ":") {
                guard let number = UInt16(host[host.index(after: colon)...]), number > 0 else {
                    throw .invalid(text, for: option, expected: expected)
                }
                port = number
                host = host[..<colon]
            }
            guard !host.isEmpty, !host.contains(":") || text.hasPrefix("["),
                host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-.:".contains($0)) })
            else {
                throw .invalid(text, for: option, expected: expected)
            }
            self = .server(host: String(host), port: port)
        }
    }

    /// As `--gps` takes it: `auto`, `off`, `localhost:2947`, `[::1]:2947`.
    public var description: String {
        switch self {
        case .auto: "auto"
        case .off: "off"
        case .server(let host, let port): host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        }
    }
}
