// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// The command line's value parsers: the text of one option becomes a value of the library's
// option types, or a one-line `OptionValueError` that names the option and the fix.
// (`SourceSpec(parsing:)` stays in CamStamp: the camera's HTTP API reads the same grammar.)
import CamStamp
import Foundation
import Presets

extension FrameSize {
    /// Parses `WIDTHxHEIGHT`, e.g. `1280x720`; both sides at least 1.
    package init(parsing text: String, option: String = "--size") throws {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) else {
            throw OptionValueError.invalid(text, for: option, expected: "WIDTHxHEIGHT, e.g. 1280x720")
        }
        guard width >= 1, height >= 1 else {
            throw OptionValueError("'\(option)' must be at least 1x1 (got \(text))")
        }
        self.init(width: width, height: height)
    }
}

extension ImageFormat {
    /// Parses `jpg` (or `jpeg`) and `png`, in any case.
    package init(parsing text: String, option: String = "--format") throws {
        switch text.lowercased() {
        case "jpg", "jpeg": self = .jpg
        case "png": self = .png
        default: throw OptionValueError.invalid(text, for: option, expected: "jpg or png")
        }
    }
}

extension BatchFormat {
    /// Parses `keep`, `jpg` (or `jpeg`), `png`, `webp`, `heic` (or `heif`) and `tiff` (or `tif`).
    package init(parsing text: String, option: String = "--format") throws {
        switch text.lowercased() {
        case "keep": self = .keep
        case "webp": self = .convert(.webp)
        case "heic", "heif": self = .convert(.heic)
        case "tif", "tiff": self = .convert(.tiff)
        default:
            guard let format = try? ImageFormat(parsing: text, option: option) else {
                throw OptionValueError.invalid(text, for: option, expected: "keep, jpg, png, webp, heic or tiff")
            }
            self = .convert(format)
        }
    }
}

extension VideoCodecChoice {
    /// Parses `h264`, `hevc`, `vp9` or `keep`, in any case.
    package init(parsing text: String, option: String = "--video-codec") throws {
        guard let choice = Self(rawValue: text.lowercased()) else {
            throw OptionValueError.invalid(text, for: option, expected: "h264, hevc, vp9 or keep")
        }
        self = choice
    }
}

extension StreamTarget {
    /// Parses `out.mp4`, `out.mkv` or `rtp://HOST:PORT` (`rtp://[::1]:5000` for IPv6); a file's
    /// folder must already exist.
    package init(parsing text: String, option: String = "--to") throws {
        let unsupported = OptionValueError(
            "unsupported target '\(text)' for '\(option)': use a .mp4 or .mkv file, rtp://HOST:PORT, rtmp://HOST/APP/KEY, srt://HOST:PORT, hls:DIR, whip://HOST:PORT/PATH or v4l2:/dev/videoN"
        )
        if let network = try Self.networkTarget(text, option: option) {
            self = network
            return
        }
        if text.lowercased().hasPrefix("rtp://") {
            let address = text.dropFirst("rtp://".count)
            guard let (host, port) = Self.hostAndPort(address) else {
                throw OptionValueError.invalid(
                    text, for: option, expected: "rtp://HOST:PORT, e.g. rtp://127.0.0.1:5000")
            }
            self = .rtp(host: host, port: port)
            return
        }
        guard !text.contains("://"),
            let container = VideoContainer(rawValue: (text as NSString).pathExtension.lowercased())
        else { throw unsupported }
        let url = URL(fileURLWithPath: text)
        try Self.requireFolder(url.deletingLastPathComponent(), option: option)
        self = .file(url, container: container)
    }

    /// `rtmp://`, `rtmps://`, `srt://` and `hls:` targets; nil for any other text.
    private static func networkTarget(_ text: String, option: String) throws -> StreamTarget? {
        let lower = text.lowercased()
        if lower.hasPrefix("rtmp://") || lower.hasPrefix("rtmps://") {
            let rest = text.drop { $0 != ":" }.dropFirst(3)
            let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
            // Servers take the stream as /APP/KEY: without both there is nothing to publish to.
            guard parts.count >= 3, !parts[0].isEmpty, !parts[1].isEmpty, !parts.last!.isEmpty,
                !text.contains(where: { $0 == " " || $0 == "\"" })
            else {
                throw OptionValueError.invalid(
                    text, for: option,
                    expected: "rtmp://HOST[:PORT]/APP/KEY, e.g. rtmp://live.example.com/live/streamkey")
            }
            return .rtmp(url: text)
        }
        if lower.hasPrefix("srt://") {
            let expected = "srt://HOST:PORT (caller) or srt://:PORT?mode=listener"
            var address = text.dropFirst("srt://".count)
            var listener = false
            if let question = address.firstIndex(of: "?") {
                let query = address[address.index(after: question)...]
                address = address[..<question]
                guard query == "mode=listener" || query == "mode=caller" else {
                    throw OptionValueError.invalid(text, for: option, expected: expected)
                }
                listener = query == "mode=listener"
            }
            if address.hasPrefix(":"), let port = UInt16(address.dropFirst()), port >= 1 {
                guard listener else {
                    throw OptionValueError.invalid(
                        text, for: option, expected: "srt://:PORT?mode=listener to listen, or srt://HOST:PORT to call")
                }
                return .srt(host: nil, port: port, listener: true)
            }
            guard let (host, port) = hostAndPort(address) else {
                throw OptionValueError.invalid(text, for: option, expected: expected)
            }
            return .srt(host: host, port: port, listener: listener)
        }
        if lower.hasPrefix("whip://") || lower.hasPrefix("whips://") {
            // WHIP's endpoint is an HTTP(S) URL with its own scheme's name: a host is needed.
            let rest = text.drop { $0 != ":" }.dropFirst(3)
            guard let host = rest.split(separator: "/", omittingEmptySubsequences: false).first, !host.isEmpty,
                !text.contains(where: { $0 == " " || $0 == "\"" || $0.isNewline }),
                URL(string: "http://" + rest) != nil
            else {
                throw OptionValueError.invalid(
                    text, for: option,
                    expected: "whip://HOST[:PORT]/PATH or whips://HOST/PATH, e.g. whip://127.0.0.1:8889/live/whip")
            }
            return .whip(url: text)
        }
        if lower.hasPrefix("v4l2:") {
            let path = String(text.dropFirst("v4l2:".count))
            guard path.hasPrefix("/"), !path.contains(where: { $0 == "\"" || $0.isNewline }) else {
                throw OptionValueError.invalid(
                    text, for: option, expected: "v4l2:/dev/videoN, a v4l2loopback device, e.g. v4l2:/dev/video10")
            }
            return .v4l2(device: path)
        }
        if lower.hasPrefix("hls:") {
            let path = String(text.dropFirst("hls:".count))
            guard !path.isEmpty else {
                throw OptionValueError.invalid(text, for: option, expected: "hls:DIR, e.g. hls:/var/www/live")
            }
            let url = URL(fileURLWithPath: path, isDirectory: true)
            try requireFolder(url.deletingLastPathComponent(), option: option)
            return .hls(folder: url)
        }
        return nil
    }

    /// A target's folder (a recording's, the HLS folder's parent) must exist already.
    private static func requireFolder(_ folder: URL, option: String) throws {
        guard PathKind(of: folder) == .folder else {
            throw OptionValueError("'\(option)' folder '\(folder.path)' does not exist")
        }
    }

    /// Splits `HOST:PORT` or `[IPV6]:PORT`; nil when either part is missing or the port is not 1…65535.
    private static func hostAndPort(_ address: Substring) -> (String, UInt16)? {
        let host: Substring
        let portText: Substring
        if address.hasPrefix("[") {
            guard let close = address.firstIndex(of: "]") else { return nil }
            host = address[address.index(after: address.startIndex)..<close]
            let rest = address[address.index(after: close)...]
            guard rest.hasPrefix(":") else { return nil }
            portText = rest.dropFirst()
        } else {
            guard let colon = address.lastIndex(of: ":") else { return nil }
            host = address[..<colon]
            portText = address[address.index(after: colon)...]
            guard !host.contains(":") else { return nil }
        }
        guard !host.isEmpty, !host.contains("/"),
            let port = UInt16(portText), port >= 1
        else { return nil }
        return (String(host), port)
    }
}

extension RTSPServe {
    /// Parses `rtsp://ADDRESS:PORT/PATH` (an IPv6 address in brackets).
    package init(parsing text: String, option: String = "--serve") throws {
        let expected = "rtsp://ADDRESS:PORT/PATH, e.g. rtsp://0.0.0.0:8554/live"
        guard text.lowercased().hasPrefix("rtsp://") else {
            throw OptionValueError.invalid(text, for: option, expected: expected)
        }
        let rest = text.dropFirst("rtsp://".count)
        guard let slash = rest.firstIndex(of: "/") else {
            throw OptionValueError.invalid(text, for: option, expected: expected)
        }
        let authority = rest[..<slash]
        let path = String(rest[slash...])
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "/_-."))
        guard path.count > 1, path.unicodeScalars.allSatisfy(allowed.contains),
            let colon = authority.lastIndex(of: ":"), let port = UInt16(authority[authority.index(after: colon)...]),
            port >= 1
        else { throw OptionValueError.invalid(text, for: option, expected: expected) }
        var host = String(authority[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw OptionValueError.invalid(text, for: option, expected: expected) }
        self.init(address: host, port: port, path: path)
    }
}

extension AudioChoice {
    /// Parses `auto`, `none` or a device name.
    package init(parsing text: String, option: String = "--audio") throws {
        switch text {
        case "auto": self = .auto
        case "none": self = .none
        case "":
            throw OptionValueError.invalid(
                text, for: option, expected: "auto, none or a device (e.g. hw:1,0 or a PulseAudio source name)")
        default: self = .device(text)
        }
    }
}

extension VariableAssignment {
    /// Parses `KEY=VALUE`: the first `=` splits, the key is not empty, the value may be.
    package init(parsing text: String) throws {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
            throw OptionValueError("--var expects KEY=VALUE")
        }
        self.init(key: String(text[..<equals]), value: String(text[text.index(after: equals)...]))
    }
}

extension MetadataAssignment {
    /// Parses `KEY=TEMPLATE`; the key is matched without regard to case.
    package init(parsing text: String, option: String = "--set-metadata") throws {
        let allowed = Key.allCases.map(\.rawValue).joined(separator: " or ")
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
            throw OptionValueError("\(option) expects KEY=VALUE with KEY \(allowed), e.g. Artist='{author}'")
        }
        let name = String(text[..<equals])
        guard let key = Key.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else {
            throw OptionValueError("unknown key '\(name)' for '\(option)': use \(allowed)")
        }
        self.init(key: key, template: String(text[text.index(after: equals)...]))
    }
}

extension WebAddress {
    /// Parses `PORT`, `ADDR:PORT` or `[IPV6]:PORT`; ADDR is an IP address, or `localhost`.
    package init(parsing text: String, option: String = "--web") throws {
        let expected = "[ADDR:]PORT with an IP address, e.g. 8080, 127.0.0.1:8080 or 0.0.0.0:8080"
        var host = "127.0.0.1"
        var portText = Substring(text)
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                throw OptionValueError.invalid(text, for: option, expected: expected)
            }
            host = String(text[text.index(after: text.startIndex)..<close])
            portText = text[text.index(close, offsetBy: 2)...]
        } else if let colon = text.lastIndex(of: ":") {
            host = String(text[..<colon])
            portText = text[text.index(after: colon)...]
        }
        if host == "localhost" { host = "127.0.0.1" }
        guard let port = UInt16(portText), Self.isIPAddress(host) else {
            throw OptionValueError.invalid(text, for: option, expected: expected)
        }
        self.init(host: host, port: port)
    }

    private static func isIPAddress(_ text: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }
}

/// Parsers for the numeric options, each naming its option in the error.
package enum NumberOption {
    /// A whole number within `range`.
    package static func integer(_ text: String, option: String, in range: ClosedRange<Int>) throws -> Int {
        guard let value = Int(text) else {
            throw OptionValueError.invalid(text, for: option, expected: "a whole number")
        }
        guard range.contains(value) else {
            if range.upperBound == Int.max {
                throw OptionValueError("'\(option)' must be at least \(range.lowerBound) (got \(value))")
            }
            throw OptionValueError(
                "'\(option)' must be between \(range.lowerBound) and \(range.upperBound) (got \(value))")
        }
        return value
    }

    /// A number of pixels, at least 1: digits, or megapixels with an `M` (`50M`, `0.5M`).
    package static func pixels(_ text: String, option: String = "--max-pixels") throws -> Int {
        let mega = text.hasSuffix("M") || text.hasSuffix("m")
        let digits = mega ? String(text.dropLast()) : text
        let value: Int? =
            mega
            ? Double(digits).flatMap { $0.isFinite && $0 < 1e12 ? Int(($0 * 1e6).rounded()) : nil }
            : digits.allSatisfy(\.isASCII) ? Int(digits) : nil
        guard let value, !digits.isEmpty, !digits.hasPrefix("+") else {
            throw OptionValueError.invalid(text, for: option, expected: "a number of pixels, e.g. 50000000 or 50M")
        }
        guard value >= 1 else { throw OptionValueError("'\(option)' must be at least 1 pixel (got \(text))") }
        return value
    }

    /// A JPEG quality, 1…100.
    package static func quality(_ text: String, option: String = "--quality") throws -> Int {
        try integer(text, option: option, in: 1...100)
    }

    /// A number of parallel jobs, at least 1.
    package static func jobs(_ text: String, option: String = "--jobs") throws -> Int {
        guard let value = Int(text) else {
            throw OptionValueError.invalid(text, for: option, expected: "a whole number")
        }
        guard value >= 1 else { throw OptionValueError("\(option) must be at least 1") }
        return value
    }

    /// A finite number of seconds, 0 or more (`--delay 0` is no delay).
    package static func nonNegativeSeconds(_ text: String, option: String) throws -> Double {
        let value = try finiteSeconds(text, option: option)
        guard value >= 0 else {
            throw OptionValueError("'\(option)' must be at least 0 seconds (got \(text))")
        }
        return value
    }

    /// A positive, finite number of seconds such as `10` or `2.5`.
    package static func seconds(_ text: String, option: String = "--duration") throws -> Double {
        let value = try finiteSeconds(text, option: option)
        guard value > 0 else {
            throw OptionValueError("'\(option)' must be more than 0 seconds (got \(text))")
        }
        return value
    }

    private static func finiteSeconds(_ text: String, option: String) throws -> Double {
        guard let value = Double(text), value.isFinite else {
            throw OptionValueError.invalid(text, for: option, expected: "a number of seconds, e.g. 10 or 2.5")
        }
        return value
    }
}
