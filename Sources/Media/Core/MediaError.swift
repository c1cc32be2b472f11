// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CGStreamer
internal import CGstApp
internal import CGstVideo
import Glibc

/// Every way GStreamer work can fail, with what a user needs to fix it: the element, GStreamer's
/// message, and its debug text (where the real cause of a negotiation failure lives).
public enum MediaError: Error, Equatable, CustomStringConvertible {
    /// gst_init failed.
    case initialization(String)
    /// The pipeline description names elements that are not installed.
    case missingElements([String])
    /// The pipeline description could not be parsed (syntax, unknown property, bad link).
    case parse(message: String, pipeline: String)
    /// A state change was refused; `element`, `message` and `debug` come from the bus.
    case stateChange(element: String, message: String, debug: String?)
    /// An error posted on the bus while running: decoding, negotiation, a device, a file.
    case stream(element: String, domain: String, code: Int, message: String, debug: String?)
    /// A template value that was refused before it reached launch syntax.
    case invalidTemplate(String)
    /// A named element the code needs is not in the pipeline (a user's `--pipeline` template).
    case missingNamedElement(name: String, pipeline: String)
    /// Something did not happen in time (EOS after Ctrl-C, the first frame).
    case timeout(String)
    /// A device node could not be opened or asked something (`operation`: `open`,
    /// `VIDIOC_QUERYCAP`); `code` is the errno.
    case device(path: String, operation: String, code: Int32)
    /// The marks could not be blended into a frame (GStreamer's blender does not take its
    /// format): the frame must not go out unmarked.
    case blend(format: String, width: Int, height: Int)

    // camstamp's own findings about what a pipeline handed over (not errors GStreamer posted).

    /// A frame's pixels could not be mapped (its buffer does not hold the whole frame its format
    /// and size describe).
    case unmappableFrame(format: String, width: Int, height: Int)
    /// An appsink handed over a sample without a buffer or without caps.
    case emptySample(element: String)
    /// Raw video frames were expected at `element`, and `caps` came.
    case notRawVideo(element: String, caps: String)
    /// An appsrc refused a buffer (`flow`: GStreamer's name for why) and the bus said nothing more.
    case outputStopped(element: String, flow: String)
    /// The decoder let a photo pass without a picture (jpegdec drops a damaged one without a word).
    case damagedPicture
    /// The photo pipeline gave `got` (a raw format, or encoded data) where `expected` was asked for.
    case unexpectedOutput(expected: String, got: String)
    /// GStreamer's typefinders recognised nothing in the file.
    case unknownMediaType
    /// A clip's pipeline stopped moving (no frame, no position change for `seconds`) without an
    /// error or an end, after `frames` frames: a file cut short or damaged in its media data.
    case stalled(frames: Int, seconds: Int)
    /// A picture library camstamp calls itself (`library`: libjpeg-turbo, libheif, libtiff, or the
    /// picture allocator) refused a picture, with its own message.
    case picture(library: String, message: String)
    /// The sound's edit list (the priming it skips, its length) could not be written into the clip
    /// the muxer wrote, for `reason`: left as it was, its sound would play out of sync.
    case editList(reason: String)
    /// A clip's container metadata could not be carried into its output `file` (`ClipMetadata`).
    case metadata(file: String, reason: String)
    /// GStreamer took `timecode` (`HH:MM:SS:FF` at `rate`) for no valid timecode, so it cannot
    /// label a frame for the muxer's timecode track.
    case timecode(String, rate: String)

    public var description: String {
        switch self {
        case .initialization(let message):
            "GStreamer could not start: \(message)"
        case .missingElements(let names):
            "GStreamer element\(names.count == 1 ? "" : "s") not installed: "
                + names.map { name in
                    if let package = MediaError.debianPackage(providing: name) {
                        "\(name) (install the Debian package \(package))"
                    } else {
                        name
                    }
                }.joined(separator: ", ")
        case .parse(let message, _):
            "invalid pipeline: \(message)"
        case .stateChange(let element, let message, let debug):
            "\(element): \(message)" + (debug.map { " (\($0))" } ?? "")
        case .stream(let element, _, _, let message, let debug):
            "\(element): \(message)" + (debug.map { " (\(Self.cause(inDebug: $0)))" } ?? "")
        case .invalidTemplate(let message):
            "invalid pipeline template: \(message)"
        case .missingNamedElement(let name, _):
            "the pipeline has no element named '\(name)' (add name=\(name) to it)"
        case .timeout(let what):
            "timed out: \(what)"
        case .device(let path, let operation, let code):
            code == ENOTTY
                ? "\(path): not a V4L2 camera (\(operation): \(String(cString: strerror(code))))"
                : "\(path): \(operation): \(String(cString: strerror(code)))"
        case .blend(let format, let width, let height):
            "cannot blend the marks into a \(width)x\(height) \(format) frame"
        case .unmappableFrame(let format, let width, let height):
            "cannot map the pixels of a \(width)x\(height) \(format) frame: its buffer does not hold the whole frame"
        case .emptySample(let element):
            "\(element): a sample without a buffer or caps"
        case .notRawVideo(let element, let caps):
            "\(element): not raw video (\(caps))"
        case .outputStopped(let element, let flow):
            "\(element): the output stopped taking frames (\(flow))"
        case .damagedPicture:
            "decoder: the picture data is damaged"
        case .unexpectedOutput(let expected, let got):
            "output: the photo pipeline gave \(got), not \(expected)"
        case .unknownMediaType:
            "no media type recognised"
        case .picture(let library, let message):
            "\(library): \(message)"
        case .editList(let reason):
            "the sound's edit list could not be written into the output (its sound would play out of sync): \(reason)"
        case .metadata(let file, let reason):
            "\(file): cannot keep the clip's metadata: \(reason)"
        case .timecode(let timecode, let rate):
            "the timecode \(timecode) at \(rate) frames a second is none GStreamer can write"
        case .stalled(let frames, let seconds):
            "the video stopped after \(frames) frame\(frames == 1 ? "" : "s") with neither an error nor its end (nothing moved for \(seconds) s): the file is probably cut short or damaged"
        }
    }

    /// The kind of resource failure (a device or file), when this is one.
    public var resourceProblem: ResourceProblem? {
        if case .device(_, _, let code) = self {
            switch code {
            case ENOENT, ENODEV, ENXIO: return .notFound
            case EBUSY: return .busy
            case EACCES, EPERM: return .permissionDenied
            default: return .other
            }
        }
        // A failure while starting comes as a state change that kept only the debug text.
        if case .stateChange(_, _, let debug) = self { return debug.flatMap(Self.problem(inDebug:)) }
        guard case .stream(_, let domain, let code, let message, let debug) = self, domain == "gst-resource-error-quark"
        else { return nil }
        // hlssink2 puts the system's reason in its message ("Failed to write playlist 'Error
        // writing to file: No space left on device'"), with a plain write error's code.
        if let problem = debug.flatMap(Self.problem(inDebug:)) ?? Self.problem(inDebug: message) { return problem }
        switch GstResourceError(rawValue: UInt32(code)) {
        case GST_RESOURCE_ERROR_NOT_FOUND: return .notFound
        case GST_RESOURCE_ERROR_BUSY: return .busy
        case GST_RESOURCE_ERROR_NOT_AUTHORIZED: return .permissionDenied
        case GST_RESOURCE_ERROR_NO_SPACE_LEFT: return .noSpaceLeft
        case GST_RESOURCE_ERROR_OPEN_WRITE, GST_RESOURCE_ERROR_WRITE: return .cannotWrite
        default: return .other
        }
    }

    public enum ResourceProblem: Sendable { case notFound, busy, permissionDenied, cannotWrite, noSpaceLeft, other }

    /// The operating system's reason in a resource error's debug text ("system error: Read-only
    /// file system"), when GStreamer gave one.
    public var systemReason: String? {
        guard case .stream(_, _, _, _, let debug?) = self, let start = debug.range(of: "system error: ") else {
            return nil
        }
        let reason = debug[start.upperBound...].prefix { $0 != ")" && $0 != "\n" }
        return reason.isEmpty ? nil : String(reason)
    }

    /// v4l2src reports a failed open(2) as OPEN_READ_WRITE whatever the cause; the errno is only
    /// in the debug text (GST_ERROR_SYSTEM: "system error: Device or resource busy").
    static func problem(inDebug debug: String) -> ResourceProblem? {
        if debug.contains("Permission denied") { return .permissionDenied }
        if debug.contains("Device or resource busy") { return .busy }
        if debug.contains("No such file or directory") { return .notFound }
        if debug.contains("No space left on device") { return .noSpaceLeft }
        return nil
    }

    /// GStreamer's message when the error came from the element named `name` (its path on the bus
    /// ends in `:name`), or nil for an error of anything else.
    public func reason(ofElement name: String) -> String? {
        switch self {
        case .stateChange(let element, let message, _), .stream(let element, _, _, let message, _):
            element == name || element.hasSuffix(":\(name)") ? message : nil
        default:
            nil
        }
    }

    /// GStreamer's own message (without the element's path) for an error an element posted.
    public var elementMessage: String? {
        switch self {
        case .stateChange(_, let message, _), .stream(_, _, _, let message, _): message
        default: nil
        }
    }

    /// Whether the element that failed is inside the bin `name` of a pipeline built from parts
    /// (`Pipeline(parts:)`), by its path (`/GstPipeline:pipeline0/GstBin:capture/…`).
    public func isInside(part name: String) -> Bool {
        switch self {
        case .stateChange(let element, _, _), .stream(let element, _, _, _, _):
            element.split(separator: "/").dropFirst().contains { $0.hasSuffix(":\(name)") }
        default:
            false
        }
    }

    /// Debug strings are `file.c(123): function (): /path/to/element:\nreason`; the reason is what
    /// a person needs (e.g. "streaming stopped, reason not-negotiated (-4)").
    static func cause(inDebug debug: String) -> String {
        let lines = debug.split(separator: "\n", omittingEmptySubsequences: true)
        guard lines.count > 1 else { return debug }
        return lines.dropFirst().joined(separator: " ")
    }

    /// The Debian package that ships a GStreamer element, for the "install ..." hint.
    public static func debianPackage(providing element: String) -> String? {
        packages[element]
    }

    private static let packages: [String: String] = {
        var map: [String: String] = [:]
        let table: [(String, [String])] = [
            (
                "gstreamer1.0-plugins-base",
                [
                    "appsrc", "appsink", "videoconvert", "videoscale", "videorate",
                    "videotestsrc", "decodebin", "uridecodebin", "playbin",
                    "audiotestsrc", "encodebin",
                ]
            ),
            ("gstreamer1.0-x", ["textoverlay", "clockoverlay", "timeoverlay", "ximagesink"]),
            (
                "gstreamer1.0-plugins-good",
                [
                    "v4l2src", "jpegenc", "jpegdec", "pngenc", "pngdec", "mp4mux", "qtmux",
                    "qtdemux", "matroskamux", "matroskademux", "rtph264pay", "rtph264depay",
                    "udpsink", "udpsrc", "videoflip", "gdkpixbufoverlay", "splitmuxsink",
                ]
            ),
            ("gstreamer1.0-plugins-bad", ["h264parse", "jpegparse", "mpegtsmux", "openh264enc", "x265enc"]),
            ("gstreamer1.0-plugins-ugly", ["x264enc"]),
            ("gstreamer1.0-libav", ["avdec_h264", "avenc_mjpeg"]),
        ]
        for (package, elements) in table { for element in elements { map[element] = package } }
        return map
    }()
}

/// Turns an error/warning message into a MediaError. Takes no ownership of `message`.
func mediaError(from message: UnsafeMutablePointer<GstMessage>) -> MediaError {
    var error: UnsafeMutablePointer<GError>?
    var debug: UnsafeMutablePointer<gchar>?
    gst_message_parse_error(message, &error, &debug)
    defer { if let error { g_error_free(error) } }
    let element = objectPath(message.pointee.src)
    let text = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
    let domain = error.map { String(cString: g_quark_to_string($0.pointee.domain)) } ?? ""
    return .stream(
        element: element, domain: domain, code: Int(error?.pointee.code ?? 0),
        message: text, debug: takeGString(debug))
}
