// Validated options for the jobs: plain values built from command-line text.
//
// Each parser here checks the text alone (and, where noted, that a folder exists); whether a camera
// or a GStreamer element exists is the job's business. Errors are one line that names the option and
// says what to do, ready to be shown as `camstamp: MESSAGE`.
import Foundation

/// A bad option value; `message` is one line that names the option and the fix.
public struct OptionValueError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }

    /// The common "invalid value" wording: what was given, for which option, and what is expected.
    static func invalid(_ value: String, for option: String, expected: String) -> OptionValueError {
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

    /// Parses `auto`, `test`, `/dev/videoN`, `v4l2:/dev/videoN` or `file:PATH`.
    public init(parsing text: String, option: String = "--source") throws {
        let expected = "auto, test, /dev/videoN, v4l2:/dev/videoN or file:PATH"
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
        default:
            throw OptionValueError.invalid(text, for: option, expected: expected)
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
    public var width: Int
    public var height: Int
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
    case jpg
    case png

    /// Parses `jpg` (or `jpeg`) and `png`, in any case.
    public init(parsing text: String, option: String = "--format") throws {
        switch text.lowercased() {
        case "jpg", "jpeg": self = .jpg
        case "png": self = .png
        default: throw OptionValueError.invalid(text, for: option, expected: "jpg or png")
        }
    }

    /// The file-name extension written for this format.
    public var fileExtension: String { rawValue }
}

/// The output format of `batch`: each input's own, or one for all.
public enum BatchFormat: Sendable, Equatable {
    case keep
    case convert(ImageFormat)

    /// Parses `keep`, `jpg` (or `jpeg`) and `png`.
    public init(parsing text: String, option: String = "--format") throws {
        if text.lowercased() == "keep" {
            self = .keep
        } else if let format = try? ImageFormat(parsing: text, option: option) {
            self = .convert(format)
        } else {
            throw OptionValueError.invalid(text, for: option, expected: "keep, jpg or png")
        }
    }
}

/// How `batch` re-encodes the video of a clip (`--video-codec`).
public enum VideoCodecChoice: String, Sendable, Equatable, CaseIterable {
    /// H.264 4:2:0, which every player takes (the default).
    case h264
    case hevc
    case vp9
    /// The source's codec where it is H.264, HEVC or VP9 (and the container holds it), else H.264.
    case keep

    public init(parsing text: String, option: String = "--video-codec") throws {
        guard let choice = Self(rawValue: text.lowercased()) else {
            throw OptionValueError.invalid(text, for: option, expected: "h264, hevc, vp9 or keep")
        }
        self = choice
    }
}

/// The container of a recorded stream, chosen by the file's extension.
public enum VideoContainer: String, Sendable, Equatable, CaseIterable {
    case mp4
    case mkv
}

/// Where `stream --to` sends the stamped video.
public enum StreamTarget: Sendable, Equatable {
    /// A file, `.mp4` or `.mkv`.
    case file(URL, container: VideoContainer)
    /// H.264 over RTP/UDP.
    case rtp(host: String, port: UInt16)

    /// Parses `out.mp4`, `out.mkv` or `rtp://HOST:PORT` (`rtp://[::1]:5000` for IPv6); a file's
    /// folder must already exist.
    public init(parsing text: String, option: String = "--to") throws {
        let unsupported = OptionValueError(
            "unsupported target '\(text)' for '\(option)': use a .mp4 or .mkv file or rtp://HOST:PORT")
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
        let folder = url.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory),
              isDirectory.boolValue
        else {
            throw OptionValueError("'\(option)' folder '\(folder.path)' does not exist")
        }
        self = .file(url, container: container)
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

/// One `--var KEY=VALUE`; kept in command-line order so that a later one wins.
public struct VariableAssignment: Sendable, Equatable, Hashable {
    public var key: String
    public var value: String
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

    public var key: Key
    public var template: String
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
    case skip
    case overwrite
}

/// What `batch` keeps of each photo's metadata.
public enum MetadataPolicy: Sendable, Equatable {
    case keep
    /// Everything but the GPS position.
    case stripGPS
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

    /// A positive, finite number of seconds such as `10` or `2.5`.
    public static func seconds(_ text: String, option: String = "--duration") throws -> Double {
        guard let value = Double(text), value.isFinite else {
            throw OptionValueError.invalid(text, for: option, expected: "a number of seconds, e.g. 10 or 2.5")
        }
        guard value > 0 else {
            throw OptionValueError("'\(option)' must be more than 0 seconds (got \(text))")
        }
        return value
    }
}

// MARK: - Commands

/// Options of `camstamp shoot`: take one photo and stamp it.
public struct ShootOptions: Sendable, Equatable {
    public var source: SourceSpec
    /// Preset names or JSON paths, stacked in order.
    public var presets: [String]
    /// A quick mark in the default style (`--text`).
    public var text: String?
    public var variables: [VariableAssignment]
    /// A file or a folder; nil means the current folder.
    public var output: URL?
    public var size: FrameSize?
    public var fps: Int?
    /// Frames thrown away first; nil means `source.defaultWarmup`.
    public var warmup: Int?
    public var format: ImageFormat
    public var quality: Int
    /// A user's own capture pipeline template.
    public var pipeline: URL?
    /// `-o -`: the photo's bytes go to stdout (and `output` is not used).
    public var toStandardOutput = false
    /// Replace an existing `-o` file (otherwise it is refused).
    public var overwrite = false

    public static let defaultQuality = 90

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

/// Options of `camstamp batch`: stamp many photos into a folder.
public struct BatchOptions: Sendable, Equatable {
    /// Files and folders, as given.
    public var inputs: [URL]
    public var outputFolder: URL
    public var presets: [String]
    public var text: String?
    public var variables: [VariableAssignment]
    public var recursive: Bool
    public var jobs: Int
    public var format: BatchFormat
    /// The JPEG quality; nil re-encodes each JPEG at its own quality, estimated from its
    /// quantisation tables (70…98), and PNG sources at ShootOptions.defaultQuality.
    public var quality: Int?
    /// A photo whose data is damaged fails instead of being stamped with a warning.
    public var strict: Bool = false
    /// The longest side of an output in pixels; nil keeps the size.
    public var maxSize: Int?
    /// Output name from template variables, without extension.
    public var namePattern: String
    public var existing: ExistingFilePolicy
    public var metadata: MetadataPolicy
    /// Values written into every output's metadata (`--set-metadata`), in command-line order.
    public var setMetadata: [MetadataAssignment] = []
    public var dryRun: Bool
    /// Results as JSON lines on stdout, for scripts.
    public var json: Bool
    /// The codec video clips are re-encoded with.
    public var videoCodec: VideoCodecChoice = .h264

    public static let defaultNamePattern = "{stem}"
    /// The most pixels a photo may have: 250 megapixels (a 200 MP phone sensor is 16320×12240).
    /// Larger pictures are refused before decoding: one frame alone would take gigabytes.
    public static let maxPixels = 250_000_000
    /// One job per active processor.
    public static var defaultJobs: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

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
    public var source: SourceSpec
    public var presets: [String]
    public var text: String?
    public var variables: [VariableAssignment]
    public var target: StreamTarget
    /// Stops by itself after this many seconds; nil runs until Ctrl-C or SIGTERM.
    public var duration: Double?
    public var size: FrameSize?
    public var fps: Int?
    /// H.264 bitrate in kbit/s.
    public var bitrate: Int
    /// Where to write the SDP of an RTP stream, besides stdout.
    public var sdp: URL?
    public var snapshotFolder: URL?
    /// A user's own pipeline template.
    public var pipeline: URL?
    /// Replace an existing `--to` file (otherwise it is refused).
    public var overwrite = false

    public static let defaultBitrate = 4000

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
    public var json: Bool
    public init(json: Bool = false) { self.json = json }
}

/// What `camstamp presets` does.
public enum PresetsAction: Sendable, Equatable {
    case list
    /// Print one preset by name or path.
    case show(String)
    /// Validate preset files.
    case check([String])
}
