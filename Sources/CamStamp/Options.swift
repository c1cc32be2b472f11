// Validated options for the jobs: plain values built from command-line text.
//
// Each parser here checks the text alone (and, where noted, that a folder exists); whether a camera
// or a GStreamer element exists is the job's business. Errors are one line that names the option and
// says what to do, ready to be shown as `camstamp: MESSAGE`.
import Foundation
package import Media
import Presets

/// A bad option value; `message` is one line that names the option and the fix.
public struct OptionValueError: Error, Equatable, Sendable, CustomStringConvertible {
    /// One line that names the option and says what to do.
    public var message: String
    /// An error with `message`.
    public init(_ message: String) { self.message = message }
    public var description: String { message }

    /// The common "invalid value" wording: what was given, for which option, and what is expected.
    package static func invalid(_ value: String, for option: String, expected: String) -> OptionValueError {
        OptionValueError("invalid value '\(value)' for '\(option)': expected \(expected)")
    }
}

// MARK: - Single values

/// Where frames come from (`--source`).
public enum SourceSpec: Sendable, Equatable {
    /// The first camera found; the job reports a clear error when there is none.
    case auto
    /// The built-in moving test pattern.
    case test
    /// A V4L2 device node such as `/dev/video0`.
    case v4l2(device: String)
    /// A video file played as if it were a camera.
    case file(URL)
    /// A camera by the name `camstamp devices` prints (`HD Webcam`): exact, else a unique
    /// case-insensitive prefix or part of one; resolved when the job starts.
    case named(String)

    /// Parses `auto`, `test`, `/dev/videoN`, `v4l2:/dev/videoN`, `file:PATH`, or else a camera name.
    public init(parsing text: String, option: String = "--source") throws {
        let expected = "auto, test, /dev/videoN, v4l2:/dev/videoN, file:PATH or a camera name"
        switch text {
        case "auto": self = .auto
        case "test": self = .test
        case _ where text.hasPrefix("v4l2:"):
            let device = String(text.dropFirst("v4l2:".count))
            guard device.hasPrefix("/"), device.count > 1 else {
                throw OptionValueError.invalid(text, for: option, expected: expected)
            }
            self = .v4l2(device: device)
        case _ where text.hasPrefix("/dev/") && text.count > "/dev/".count:
            self = .v4l2(device: text)
        case _ where text.hasPrefix("file:"):
            let path = String(text.dropFirst("file:".count))
            guard !path.isEmpty else {
                throw OptionValueError.invalid(text, for: option, expected: expected)
            }
            self = .file(URL(fileURLWithPath: path))
        case _ where text.hasPrefix("/") || text.trimmingCharacters(in: .whitespaces).isEmpty:
            throw OptionValueError.invalid(text, for: option, expected: expected)
        default:
            self = .named(text)
        }
    }

    /// The frames thrown away before the first photo when `--warmup` is not given: a camera needs
    /// time for auto-exposure to settle, the test pattern does not.
    public var defaultWarmup: Int {
        self == .test ? 0 : 15
    }
}

/// A frame size in pixels (`--size WxH`).
public struct FrameSize: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// Pixels across.
    public var width: Int
    /// Pixels down.
    public var height: Int
    /// A size of `width`×`height` pixels.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Parses `WIDTHxHEIGHT`, e.g. `1280x720`; both sides at least 1.
    public init(parsing text: String, option: String = "--size") throws {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) else {
            throw OptionValueError.invalid(text, for: option, expected: "WIDTHxHEIGHT, e.g. 1280x720")
        }
        guard width >= 1, height >= 1 else {
            throw OptionValueError("'\(option)' must be at least 1x1 (got \(text))")
        }
        self.init(width: width, height: height)
    }

    public var description: String { "\(width)x\(height)" }
}

/// An encoded still-image format.
public enum ImageFormat: String, Sendable, Equatable, CaseIterable {
    /// JPEG (`.jpg`).
    case jpg
    /// PNG (`.png`).
    case png
    /// The formats below are batch outputs only (`batch --format`); `shoot` writes JPEG or PNG.
    /// WebP (`.webp`).
    case webp
    /// HEIC (`.heic`), through libheif's x265.
    case heic
    /// TIFF (`.tiff`).
    case tiff
    /// AVIF (`.avif`): written only by `--format keep` from an AVIF source (libheif's aom).
    case avif

    /// Parses `jpg` (or `jpeg`) and `png`, in any case.
    public init(parsing text: String, option: String = "--format") throws {
        switch text.lowercased() {
        case "jpg", "jpeg": self = .jpg
        case "png": self = .png
        default: throw OptionValueError.invalid(text, for: option, expected: "jpg or png")
        }
    }

    /// The file-name extension written for this format (`tif` for TIFF, as batch has always
    /// named its TIFF outputs).
    public var fileExtension: String { self == .tiff ? "tif" : rawValue }
}

/// The output format of `batch`: each input's own, or one for all.
public enum BatchFormat: Sendable, Equatable {
    /// Each output in its input's own format (read by content).
    case keep
    /// Every output in this format.
    case convert(ImageFormat)

    /// Parses `keep`, `jpg` (or `jpeg`), `png`, `webp`, `heic` (or `heif`) and `tiff` (or `tif`).
    public init(parsing text: String, option: String = "--format") throws {
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

/// How `batch` re-encodes the video of a clip (`--video-codec`).
public enum VideoCodecChoice: String, Sendable, Equatable, CaseIterable {
    /// H.264 4:2:0, which every player takes (the default).
    case h264
    /// HEVC (x265), smaller files at the same quality.
    case hevc
    /// VP9, for WebM.
    case vp9
    /// The source's codec where it is H.264, HEVC or VP9 (and the container holds it), else H.264.
    case keep

    /// Parses `h264`, `hevc`, `vp9` or `keep`, in any case.
    public init(parsing text: String, option: String = "--video-codec") throws {
        guard let choice = Self(rawValue: text.lowercased()) else {
            throw OptionValueError.invalid(text, for: option, expected: "h264, hevc, vp9 or keep")
        }
        self = choice
    }
}

/// The container of a recorded stream, chosen by the file's extension.
public enum VideoContainer: String, Sendable, Equatable, CaseIterable {
    /// MPEG-4 (`.mp4`), written in one-second fragments so a killed recording still plays.
    case mp4
    /// Matroska (`.mkv`).
    case mkv
}

/// Where `stream --to` sends the stamped video.
public enum StreamTarget: Sendable, Equatable {
    /// A file, `.mp4` or `.mkv`.
    case file(URL, container: VideoContainer)
    /// H.264 over RTP/UDP.
    case rtp(host: String, port: UInt16)
    /// FLV (H.264 + AAC) published to an RTMP server: `rtmp://host[:port]/app/key`, kept as written.
    case rtmp(url: String)
    /// MPEG-TS over SRT: a caller to `host:port`, or (host nil) a listener on `port`.
    case srt(host: String?, port: UInt16, listener: Bool)
    /// HLS segments (MPEG-TS, 2 s) and a playlist written into a folder.
    case hls(folder: URL)
    /// `--serve`: camstamp's own RTSP server, one encode for every viewer.
    case serve(RTSPServe)

    /// Parses `out.mp4`, `out.mkv` or `rtp://HOST:PORT` (`rtp://[::1]:5000` for IPv6); a file's
    /// folder must already exist.
    public init(parsing text: String, option: String = "--to") throws {
        let unsupported = OptionValueError(
            "unsupported target '\(text)' for '\(option)': use a .mp4 or .mkv file, rtp://HOST:PORT, rtmp://HOST/APP/KEY, srt://HOST:PORT or hls:DIR")
        if let network = try Self.networkTarget(text, option: option) {
            self = network
            return
        }
        if text.lowercased().hasPrefix("rtp://") {
            let address = text.dropFirst("rtp://".count)
            guard let (host, port) = Self.hostAndPort(address) else {
                throw OptionValueError.invalid(text, for: option, expected: "rtp://HOST:PORT, e.g. rtp://127.0.0.1:5000")
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
                throw OptionValueError.invalid(text, for: option, expected: "rtmp://HOST[:PORT]/APP/KEY, e.g. rtmp://live.example.com/live/streamkey")
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
                guard listener else { throw OptionValueError.invalid(text, for: option, expected: "srt://:PORT?mode=listener to listen, or srt://HOST:PORT to call") }
                return .srt(host: nil, port: port, listener: true)
            }
            guard let (host, port) = hostAndPort(address) else { throw OptionValueError.invalid(text, for: option, expected: expected) }
            return .srt(host: host, port: port, listener: listener)
        }
        if lower.hasPrefix("hls:") {
            let path = String(text.dropFirst("hls:".count))
            guard !path.isEmpty else { throw OptionValueError.invalid(text, for: option, expected: "hls:DIR, e.g. hls:/var/www/live") }
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

/// `stream --serve rtsp://ADDRESS:PORT/PATH`: camstamp's own RTSP server.
public struct RTSPServe: Sendable, Equatable {
    /// The address to listen on (`0.0.0.0` for every interface).
    public var address: String
    /// The TCP port (8554 is RTSP's usual).
    public var port: UInt16
    /// The mount point, with its leading `/`.
    public var path: String

    /// Listens on `address`:`port` at `path`, unchecked.
    public init(address: String, port: UInt16, path: String) {
        self.address = address
        self.port = port
        self.path = path
    }

    /// Parses `rtsp://ADDRESS:PORT/PATH` (an IPv6 address in brackets).
    public init(parsing text: String, option: String = "--serve") throws {
        let expected = "rtsp://ADDRESS:PORT/PATH, e.g. rtsp://0.0.0.0:8554/live"
        guard text.lowercased().hasPrefix("rtsp://") else { throw OptionValueError.invalid(text, for: option, expected: expected) }
        let rest = text.dropFirst("rtsp://".count)
        guard let slash = rest.firstIndex(of: "/") else { throw OptionValueError.invalid(text, for: option, expected: expected) }
        let authority = rest[..<slash]
        let path = String(rest[slash...])
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "/_-."))
        guard path.count > 1, path.unicodeScalars.allSatisfy(allowed.contains),
              let colon = authority.lastIndex(of: ":"), let port = UInt16(authority[authority.index(after: colon)...]), port >= 1
        else { throw OptionValueError.invalid(text, for: option, expected: expected) }
        var host = String(authority[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw OptionValueError.invalid(text, for: option, expected: expected) }
        self.init(address: host, port: port, path: path)
    }

    /// The URL viewers open.
    public var description: String { "rtsp://\(address.contains(":") ? "[\(address)]" : address):\(port)\(path)" }
}

/// `stream --audio`: where the sound comes from.
public enum AudioChoice: Sendable, Equatable {
    /// The test source's tone; a camera's microphone (PulseAudio, else ALSA) when there is one.
    case auto
    /// No sound.
    case none
    /// A PulseAudio source name, or an ALSA device (`hw:1,0`, `plughw:…`, `default`).
    case device(String)

    /// Parses `auto`, `none` or a device name.
    public init(parsing text: String, option: String = "--audio") throws {
        switch text {
        case "auto": self = .auto
        case "none": self = .none
        case "": throw OptionValueError.invalid(text, for: option, expected: "auto, none or a device (e.g. hw:1,0 or a PulseAudio source name)")
        default: self = .device(text)
        }
    }
}

/// One `--var KEY=VALUE`; kept in command-line order so that a later one wins.
public struct VariableAssignment: Sendable, Equatable, Hashable {
    /// The variable's name, as `{KEY}` uses it.
    public var key: String
    /// Its value (may be empty).
    public var value: String
    /// Sets `key` to `value`.
    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }

    /// Parses `KEY=VALUE`: the first `=` splits, the key is not empty, the value may be.
    public init(parsing text: String) throws {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
            throw OptionValueError("--var expects KEY=VALUE")
        }
        self.init(key: String(text[..<equals]), value: String(text[text.index(after: equals)...]))
    }
}

/// One `--set-metadata KEY=TEMPLATE`: a value written into every output's metadata, its template
/// expanded per photo like a mark's text.
public struct MetadataAssignment: Sendable, Equatable, Hashable {
    /// What can be set, by the EXIF tag name a user knows.
    public enum Key: String, Sendable, CaseIterable {
        /// EXIF Artist, XMP dc:creator, IPTC By-line.
        case artist = "Artist"
        /// EXIF Copyright, XMP dc:rights, IPTC CopyrightNotice.
        case copyright = "Copyright"
    }

    /// Which metadata field is written.
    public var key: Key
    /// The value, a template expanded per photo like a mark's text.
    public var template: String
    /// Writes `template` into `key`.
    public init(key: Key, template: String) {
        self.key = key
        self.template = template
    }

    /// Parses `KEY=TEMPLATE`; the key is matched without regard to case.
    public init(parsing text: String, option: String = "--set-metadata") throws {
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

/// What `batch` does when an output file already exists.
public enum ExistingFilePolicy: Sendable, Equatable {
    /// Fail that input and go on (the default: nothing is overwritten by surprise).
    case refuse
    /// Leave the existing file and count the input as skipped (`--skip-existing`).
    case skip
    /// Replace the existing file (`--overwrite`).
    case overwrite
}

/// What `batch` keeps of each photo's metadata.
public enum MetadataPolicy: Sendable, Equatable {
    /// Keep EXIF, ICC, XMP and IPTC (orientation reset, thumbnails dropped).
    case keep
    /// Everything but the GPS position.
    case stripGPS
    /// Drop all metadata (`--strip-metadata`).
    case stripAll
}

// MARK: - Numbers

/// Parsers for the numeric options, each naming its option in the error.
public enum NumberOption {
    /// A whole number within `range`.
    public static func integer(_ text: String, option: String, in range: ClosedRange<Int>) throws -> Int {
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

    /// A JPEG quality, 1…100.
    public static func quality(_ text: String, option: String = "--quality") throws -> Int {
        try integer(text, option: option, in: 1...100)
    }

    /// A number of parallel jobs, at least 1.
    public static func jobs(_ text: String, option: String = "--jobs") throws -> Int {
        guard let value = Int(text) else {
            throw OptionValueError.invalid(text, for: option, expected: "a whole number")
        }
        guard value >= 1 else { throw OptionValueError("\(option) must be at least 1") }
        return value
    }

    /// A finite number of seconds, 0 or more (`--delay 0` is no delay).
    public static func nonNegativeSeconds(_ text: String, option: String) throws -> Double {
        let value = try finiteSeconds(text, option: option)
        guard value >= 0 else {
            throw OptionValueError("'\(option)' must be at least 0 seconds (got \(text))")
        }
        return value
    }

    /// A positive, finite number of seconds such as `10` or `2.5`.
    public static func seconds(_ text: String, option: String = "--duration") throws -> Double {
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

// MARK: - Commands

/// Options of `camstamp shoot`: take one photo and stamp it.
public struct ShootOptions: Sendable, Equatable {
    /// Where frames come from (`--source`).
    public var source: SourceSpec
    /// Preset names or JSON paths, stacked in order.
    public var presets: [String]
    /// A quick mark in the default style (`--text`).
    public var text: String?
    /// `--var` values, in command-line order (a later one wins).
    public var variables: [VariableAssignment]
    /// A file or a folder; nil means the current folder.
    public var output: URL?
    /// The capture size (`--size`); nil takes the camera's default.
    public var size: FrameSize?
    /// The capture frame rate (`--fps`); nil takes the camera's default.
    public var fps: Int?
    /// Frames thrown away first; nil means `source.defaultWarmup`.
    public var warmup: Int?
    /// The photo's format (`--format`; also picked by `-o`'s extension).
    public var format: ImageFormat
    /// The JPEG quality, 1…100 (`--quality`).
    public var quality: Int
    /// A user's own capture pipeline template.
    public var pipeline: URL?
    /// `-o -`: the photo's bytes go to stdout (and `output` is not used).
    public var toStandardOutput = false
    /// Replace an existing `-o` file (otherwise it is refused).
    public var overwrite = false
    /// Seconds to wait, with the camera running, before the (first) photo.
    public var delay: Double = 0
    /// How many photos (`--count`), `interval` seconds apart from one start to the next.
    public var count = 1
    /// Seconds from the start of one photo to the next (`--interval`).
    public var interval: Double = 0
    /// `--rotate`, `--square`, `--mirror`: what happens to the frame before it is marked.
    public var geometry = StillGeometry()
    /// V4L2 controls set on the camera as it opens (`--control NAME=VALUE`).
    package var controls: [ExtraControl] = []

    /// The JPEG quality when none is given.
    public static let defaultQuality = 90

    /// Options with the defaults `camstamp shoot` has.
    public init(source: SourceSpec = .auto, presets: [String] = [], text: String? = nil,
                variables: [VariableAssignment] = [], output: URL? = nil, size: FrameSize? = nil,
                fps: Int? = nil, warmup: Int? = nil, format: ImageFormat = .jpg,
                quality: Int = ShootOptions.defaultQuality, pipeline: URL? = nil) {
        self.source = source
        self.presets = presets
        self.text = text
        self.variables = variables
        self.output = output
        self.size = size
        self.fps = fps
        self.warmup = warmup
        self.format = format
        self.quality = quality
        self.pipeline = pipeline
    }

    /// The warm-up frame count that applies: the given one, else the source's default.
    public var effectiveWarmup: Int { warmup ?? source.defaultWarmup }
}

/// `--control NAME=VALUE`, read the way v4l2src will read it.
package enum ControlOption {
    /// One control to set, as the command line names the type without importing Media.
    package typealias Setting = ExtraControl

    package static func parse(_ text: String) throws -> ExtraControl {
        do { return try ExtraControl(parsing: text) } catch { throw OptionValueError(error.message) }
    }
}

/// Options of `camstamp batch`: stamp many photos into a folder.
public struct BatchOptions: Sendable, Equatable {
    /// Files and folders, as given.
    public var inputs: [URL]
    /// The folder the outputs go into (`-o`), mirroring the inputs' layout.
    public var outputFolder: URL
    /// Preset names or JSON paths, stacked in order.
    public var presets: [String]
    /// A quick mark in the default style (`--text`).
    public var text: String?
    /// `--var` values, in command-line order (a later one wins).
    public var variables: [VariableAssignment]
    /// Whether folders are searched in their subfolders too (`--recursive`).
    public var recursive: Bool
    /// How many photos are stamped at once (`--jobs`).
    public var jobs: Int
    /// The output format (`--format keep|jpg|png`).
    public var format: BatchFormat
    /// The JPEG quality; nil re-encodes each JPEG at its own quality, estimated from its
    /// quantisation tables (70…98), and PNG sources at ShootOptions.defaultQuality.
    public var quality: Int?
    /// A photo whose data is damaged fails instead of being stamped with a warning.
    public var strict: Bool = false
    /// The longest side of an output in pixels; nil keeps the size.
    public var maxSize: Int?
    /// `--reencode`: every JPEG decoded, turned upright and encoded again, never stamped in its
    /// DCT coefficients (the default for JPEG → JPEG at the same size and quality).
    public var reencode: Bool = false
    /// Output name from template variables, without extension.
    public var namePattern: String
    /// What happens when an output exists (`--skip-existing`, `--overwrite`).
    public var existing: ExistingFilePolicy
    /// What is kept of each photo's metadata (`--strip-gps`, `--strip-metadata`).
    public var metadata: MetadataPolicy
    /// Values written into every output's metadata (`--set-metadata`), in command-line order.
    public var setMetadata: [MetadataAssignment] = []
    /// List what would be done without doing it (`--dry-run`).
    public var dryRun: Bool
    /// Results as JSON lines on stdout, for scripts.
    public var json: Bool
    /// `--shard K/N`: only this share of the photos (by a stable hash of their relative path).
    public var shard: Shard?
    /// The codec video clips are re-encoded with.
    public var videoCodec: VideoCodecChoice = .h264

    /// The output name when `--name` is not given: the input's stem.
    public static let defaultNamePattern = "{stem}"
    /// The most pixels a photo may have: 250 megapixels (a 200 MP phone sensor is 16320×12240).
    /// Larger pictures are refused before decoding: one frame alone would take gigabytes.
    public static let maxPixels = 250_000_000
    /// One job per active processor.
    public static var defaultJobs: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// Options with the defaults `camstamp batch` has.
    public init(inputs: [URL], outputFolder: URL, presets: [String] = [], text: String? = nil,
                variables: [VariableAssignment] = [], recursive: Bool = false,
                jobs: Int = BatchOptions.defaultJobs, format: BatchFormat = .keep,
                quality: Int? = nil, maxSize: Int? = nil,
                namePattern: String = BatchOptions.defaultNamePattern,
                existing: ExistingFilePolicy = .refuse, metadata: MetadataPolicy = .keep,
                dryRun: Bool = false, json: Bool = false) {
        self.inputs = inputs
        self.outputFolder = outputFolder
        self.presets = presets
        self.text = text
        self.variables = variables
        self.recursive = recursive
        self.jobs = jobs
        self.format = format
        self.quality = quality
        self.maxSize = maxSize
        self.namePattern = namePattern
        self.existing = existing
        self.metadata = metadata
        self.dryRun = dryRun
        self.json = json
    }
}

/// Options of `camstamp stream`: stamp live video and record or send it.
public struct StreamOptions: Sendable, Equatable {
    /// Where frames come from (`--source`).
    public var source: SourceSpec
    /// Preset names or JSON paths, stacked in order.
    public var presets: [String]
    /// A quick mark in the default style (`--text`).
    public var text: String?
    /// `--var` values, in command-line order (a later one wins).
    public var variables: [VariableAssignment]
    /// Where the video goes (`--to`): a file or an RTP address.
    public var target: StreamTarget
    /// Stops by itself after this many seconds; nil runs until Ctrl-C or SIGTERM.
    public var duration: Double?
    /// The capture size (`--size`); nil takes the camera's default.
    public var size: FrameSize?
    /// The capture frame rate (`--fps`); nil takes the camera's default.
    public var fps: Int?
    /// H.264 bitrate in kbit/s.
    public var bitrate: Int
    /// Where to write the SDP of an RTP stream, besides stdout.
    public var sdp: URL?
    /// Where SIGUSR1 snapshots are written (`--snapshot-dir`).
    public var snapshotFolder: URL?
    /// A user's own pipeline template.
    public var pipeline: URL?
    /// Replace an existing `--to` file (otherwise it is refused).
    public var overwrite = false
    /// Further `--to` (and `--serve`) targets fed from the same encode (record and publish at once).
    public var moreTargets: [StreamTarget] = []
    /// `--audio`; nil is the default: auto when publishing (RTMP, SRT, HLS, RTSP), none otherwise.
    public var audio: AudioChoice?

    /// The H.264 bitrate in kbit/s when none is given.
    public static let defaultBitrate = 4000

    /// Options with the defaults `camstamp stream` has.
    public init(source: SourceSpec = .auto, presets: [String] = [], text: String? = nil,
                variables: [VariableAssignment] = [], target: StreamTarget, duration: Double? = nil,
                size: FrameSize? = nil, fps: Int? = nil, bitrate: Int = StreamOptions.defaultBitrate,
                sdp: URL? = nil, snapshotFolder: URL? = nil, pipeline: URL? = nil) {
        self.source = source
        self.presets = presets
        self.text = text
        self.variables = variables
        self.target = target
        self.duration = duration
        self.size = size
        self.fps = fps
        self.bitrate = bitrate
        self.sdp = sdp
        self.snapshotFolder = snapshotFolder
        self.pipeline = pipeline
    }
}

/// Options of `camstamp devices`.
public struct DevicesOptions: Sendable, Equatable {
    /// Print the cameras as JSON (`--json`).
    public var json: Bool
    /// Options for `camstamp devices`.
    public init(json: Bool = false) { self.json = json }
}

/// Where `camera --web` listens: an IP address and a port (0: any free port, printed).
public struct WebAddress: Sendable, Equatable {
    /// An IPv4 or IPv6 address (`localhost` becomes 127.0.0.1).
    public var host: String
    /// 0 picks any free port.
    public var port: UInt16
    /// `host`:`port` as given, unchecked.
    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// 127.0.0.1:8080: this machine only, no token needed.
    public static let `default` = WebAddress(host: "127.0.0.1", port: 8080)

    /// Parses `PORT`, `ADDR:PORT` or `[IPV6]:PORT`; ADDR is an IP address, or `localhost`.
    public init(parsing text: String, option: String = "--web") throws {
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

    /// Whether only this machine can connect (127.0.0.0/8 or ::1): then no token is needed.
    public var isLoopback: Bool {
        host.hasPrefix("127.") || host == "::1"
    }

    /// `127.0.0.1:8080`, `[::1]:8080`.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    private static func isIPAddress(_ text: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }
}

/// Options of `camstamp camera`: the watermark camera with a live viewfinder.
public struct CameraOptions: Sendable, Equatable {
    /// `--source`: the camera, the test camera or a video file.
    public var source: SourceSpec
    /// `--preset`: names or JSON paths, stacked in order.
    public var presets: [String]
    /// `--text`: a quick mark in the default style.
    public var text: String?
    /// `--var KEY=VALUE`, in command-line order.
    public var variables: [VariableAssignment]
    /// The folder photos go to; nil means the current folder.
    public var output: URL?
    /// Where the web viewfinder listens; nil when only `--window` was asked for.
    public var web: WebAddress?
    /// `--window`: a native X11 viewfinder.
    public var window: Bool
    /// Required on every request when given, and always on a non-loopback address (random then).
    public var token: String?
    /// `--size`: the frame size asked of the camera.
    public var size: FrameSize?
    /// `--fps`: the frame rate asked of the camera.
    public var fps: Int?
    /// JPEG quality of the photos.
    public var quality: Int
    /// Photos mirrored like the preview (a selfie camera); otherwise only the preview is.
    public var mirrorPhotos: Bool
    /// `--pipeline`: a capture template of the user's own.
    public var pipeline: URL?

    /// The options, with the command line's defaults.
    public init(source: SourceSpec = .auto, presets: [String] = [], text: String? = nil,
                variables: [VariableAssignment] = [], output: URL? = nil, web: WebAddress? = .default,
                window: Bool = false, token: String? = nil, size: FrameSize? = nil, fps: Int? = nil,
                quality: Int = ShootOptions.defaultQuality, mirrorPhotos: Bool = false, pipeline: URL? = nil) {
        self.source = source
        self.presets = presets
        self.text = text
        self.variables = variables
        self.output = output
        self.web = web
        self.window = window
        self.token = token
        self.size = size
        self.fps = fps
        self.quality = quality
        self.mirrorPhotos = mirrorPhotos
        self.pipeline = pipeline
    }
}
