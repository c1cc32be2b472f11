// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// Everything a template can refer to when it is expanded for one photo or frame.
public struct TemplateContext: Sendable {
    /// When the photo was taken (DateTimeOriginal in batch) or the frame captured.
    public var captureDate: Date
    /// The current time, for `{now}`.
    public var now: Date
    /// The zone dates are shown in.
    public var timeZone: TimeZone
    /// The input's file name, for `{filename}`.
    public var filename: String?
    /// The file name without its extension, for `{stem}`.
    public var stem: String?
    /// The photo's number in a batch or series, for `{counter}`.
    public var counter: Int?
    /// The upright frame's width in pixels, for `{width}`.
    public var width: Int?
    /// The upright frame's height in pixels, for `{height}`.
    public var height: Int?
    /// EXIF tags by name (`Model`, `FNumber`, ...); a missing tag expands to its fallback or "".
    public var exif: [String: String]
    /// This machine's name, for `{hostname}`.
    public var hostname: String
    /// Video only: the frame number, for `{frame}`.
    public var frame: Int?
    /// Video only: the frame rate, for `{fps}`.
    public var fps: Double?
    /// Video only: the clip's own timecode, where `{timecode}` starts; nil counts from 00:00:00:00.
    public var timecode: Timecode?
    /// Preset `variables` merged with `--var` values (see `Preset.variables(overriddenBy:)`).
    public var variables: [String: String]
    /// Where the photo or frame was taken, for `{lat}`, `{lon}`, `{latlon}`, `{alt}` and
    /// `{gps:accuracy}`; nil when there is no fix.
    public var location: GeoFix?
    /// The nearest city to `location`, for `{place}` (filled in by whoever has a gazetteer).
    public var place: String?
    /// The signed output's proof code (`ProofCode`, from the instance id chosen before the marks
    /// are drawn), for `{proof}`.
    public var proof: String?
    /// `--proof-url` with the proof code in it, for `{proof-url}`.
    public var proofURL: String?

    /// A context with what is known; what is left nil expands to nothing.
    public init(
        captureDate: Date = Date(), now: Date = Date(), timeZone: TimeZone = .current,
        filename: String? = nil, stem: String? = nil, counter: Int? = nil,
        width: Int? = nil, height: Int? = nil, exif: [String: String] = [:],
        hostname: String = ProcessInfo.processInfo.hostName,
        frame: Int? = nil, fps: Double? = nil, variables: [String: String] = [:]
    ) {
        self.captureDate = captureDate
        self.now = now
        self.timeZone = timeZone
        self.filename = filename
        self.stem = stem
        self.counter = counter
        self.width = width
        self.height = height
        self.exif = exif
        self.hostname = hostname
        self.frame = frame
        self.fps = fps
        self.variables = variables
    }
}

extension TemplateContext {
    /// The capture date to show: `captureDate`, or the current time when it is outside the years
    /// strftime can show (a damaged file time such as 2^63−1 seconds), or the epoch when both are.
    var shownCaptureDate: Date {
        if Strftime.formattableDates.contains(captureDate) { return captureDate }
        return Strftime.formattableDates.contains(now) ? now : Date(timeIntervalSince1970: 0)
    }
}

/// A mark's text parsed at load time: literal runs and `{variable}` references. Expanding it is a
/// walk over the parts, cheap enough to do for every video frame.
public struct Template: Hashable, Sendable {
    enum Clock: Hashable, Sendable { case capture, now }
    enum Part: Hashable, Sendable {
        case literal(String)
        case date(Clock, Strftime)
        case filename, stem, width, height, hostname, frame, fps
        /// `{timecode}`: HH:MM:SS:FF of the frame, from the clip's own timecode or from 00:00:00:00.
        case timecode
        /// `{counter}` or `{counter:N}` zero-padded to N digits.
        case counter(digits: Int)
        case exif(tag: String, fallback: String?)
        /// A preset variable or `--var`.
        case variable(String)
        /// `{lat}`, `{latlon}`, `{place}`, ...: from the context's location, or the fallback.
        case location(LocationField, fallback: String?)
        /// `{proof}`, `{proof-url}`: the signed output's code, and the URL that finds it.
        case proof, proofURL
    }

    /// Names with a meaning of their own; presets may not define variables with these names.
    public static let builtinNames: [String] =
        [
            "date", "time", "datetime", "now", "filename", "stem", "counter", "width", "height",
            "exif", "hostname", "frame", "fps", "timecode", "proof", "proof-url",
        ] + LocationField.names

    static let defaultFormats: [String: String] = [
        "date": "%Y-%m-%d", "time": "%H:%M:%S", "datetime": "%Y-%m-%d %H:%M:%S", "now": "%Y-%m-%d %H:%M:%S",
    ]

    /// The template as written.
    public let source: String
    let parts: [Part]
    /// False when `init(lenient:)` could not parse `source` and keeps it literally.
    let parsed: Bool

    /// Parses `source`, accepting `variables` (preset variables and `--var` names) besides the
    /// built-in ones. Errors carry no path; the caller adds where the template came from.
    public init(_ source: String, variables: Set<String>) throws(PresetError) {
        self.source = source
        self.parts = try Self.parse(source, variables: variables)
        self.parsed = true
    }

    /// A template that never fails: any `{name}` is accepted, and text that does not parse is
    /// kept literally. A mark parses its text this way once; `Preset.validate()` then checks it
    /// (`checked(variables:)`) rather than parsing it again.
    init(lenient source: String) {
        self.source = source
        do {
            self.parts = try Self.parse(source, variables: nil)
            self.parsed = true
        } catch {
            self.parts = [.literal(source)]
            self.parsed = false
        }
    }

    /// This template when it parsed and names only built-in variables and `variables`: then a
    /// strict parse would give the same parts. Otherwise the strict parse's error, which says
    /// what is wrong first in the text.
    func checked(variables: Set<String>) throws(PresetError) -> Template {
        if parsed && variableNames.isSubset(of: variables) { return self }
        return try Template(source, variables: variables)
    }

    /// Whether the text changes with the clock (any date or time), so a live stream must
    /// re-expand it as time passes.
    public var dependsOnTime: Bool {
        parts.contains { if case .date = $0 { true } else { false } }
    }

    /// Whether the text shows `{timecode}` (a clip's own timecode is then looked for).
    public var showsTimecode: Bool { parts.contains(.timecode) }

    /// Whether the text shows `{proof}` or `{proof-url}`, which only a signed output has.
    public var showsProof: Bool { parts.contains(.proof) || parts.contains(.proofURL) }

    /// Whether the text depends on the frame's size (`{width}`, `{height}`), unknown before a
    /// frame is taken.
    public var dependsOnSize: Bool {
        parts.contains { $0 == .width || $0 == .height }
    }

    /// The preset or `--var` variables the template refers to.
    public var variableNames: Set<String> {
        Set(parts.compactMap { if case .variable(let name) = $0 { name } else { nil } })
    }

    /// The text for `context`. With `escapingMarkup` (a `markup: true` mark) the substituted values
    /// are escaped for Pango markup while the template's own markup is kept; without it the result
    /// is plain text for Pango and nothing is escaped.
    public func expand(_ context: TemplateContext, escapingMarkup: Bool) -> String {
        var out = ""
        for part in parts {
            if case .literal(let text) = part {
                out += text
                continue
            }
            let value = self.value(of: part, in: context)
            out += escapingMarkup ? Self.escapeMarkup(value) : value
        }
        return out
    }

    private func value(of part: Part, in context: TemplateContext) -> String {
        switch part {
        case .literal(let text): return text
        case .date(let clock, let format):
            return format.string(
                from: clock == .now ? context.now : context.shownCaptureDate, timeZone: context.timeZone)
        case .filename: return context.filename ?? ""
        case .stem: return context.stem ?? ""
        case .proof: return context.proof ?? ""
        case .proofURL: return context.proofURL ?? ""
        case .width: return context.width.map(String.init) ?? ""
        case .height: return context.height.map(String.init) ?? ""
        case .hostname: return context.hostname
        case .frame: return context.frame.map(String.init) ?? ""
        case .fps: return context.fps.map(Self.formatFPS) ?? ""
        case .timecode:
            guard let frame = context.frame else { return "" }
            if let timecode = context.timecode { return timecode.label(videoFrame: frame, videoRate: context.fps) }
            guard let fps = context.fps else { return "" }
            return Self.timecode(frame: frame, fps: fps)
        case .counter(let digits):
            guard let counter = context.counter else { return "" }
            let text = String(counter)
            return text.count >= digits ? text : String(repeating: "0", count: digits - text.count) + text
        case .exif(let tag, let fallback):
            let value = context.exif[tag]?.trimmingCharacters(in: .whitespaces) ?? ""
            return value.isEmpty ? (fallback ?? "") : value
        case .variable(let name): return context.variables[name] ?? ""
        case .location(let field, let fallback):
            let value = field.value(in: context)
            return value.isEmpty ? (fallback ?? "") : value
        }
    }

    /// `HH:MM:SS:FF` for frame `frame` at `fps` (non-drop-frame: 29.97 counts 30 frames a second,
    /// as editors label such footage without drop-frame).
    static func timecode(frame: Int, fps: Double) -> String {
        Timecode.clock(
            max(0, frame), framesPerSecond: fps.isFinite ? Int(min(max(fps.rounded(), 1), 1e9)) : 1, dropFrame: false)
    }

    /// "30", "29.97", "12.5".
    static func formatFPS(_ fps: Double) -> String {
        if fps == fps.rounded(), abs(fps) < 1e9 { return String(Int(fps)) }
        var text = String(format: "%.2f", fps)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }

    /// `text` made safe inside Pango markup.
    public static func escapeMarkup(_ text: String) -> String {
        text.escaping { scalar in
            switch scalar {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case "\"": "&quot;"
            case "'": "&apos;"
            default: nil
            }
        }
    }

    /// `variables == nil` accepts any name (lenient).
    private static func parse(_ source: String, variables: Set<String>?) throws(PresetError) -> [Part] {
        var parts: [Part] = []
        var literal = ""
        var index = source.startIndex
        while index < source.endIndex {
            let character = source[index]
            let next = source.index(after: index)
            if character == "{", next < source.endIndex, source[next] == "{" {
                literal.append("{")
                index = source.index(after: next)
                continue
            }
            if character == "}" {
                guard next < source.endIndex, source[next] == "}" else {
                    throw PresetError(
                        .badTemplate, "lone '}' in text '\(source)'", hint: "write '}}' for a literal brace")
                }
                literal.append("}")
                index = source.index(after: next)
                continue
            }
            guard character == "{" else {
                literal.append(character)
                index = next
                continue
            }
            guard let close = source[next...].firstIndex(where: { $0 == "}" || $0 == "{" }), source[close] == "}" else {
                throw PresetError(
                    .badTemplate, "unclosed '{' in text '\(source)'", hint: "write '{{' for a literal brace")
            }
            if !literal.isEmpty {
                parts.append(.literal(literal))
                literal = ""
            }
            parts.append(try variable(String(source[next..<close]), variables: variables))
            index = source.index(after: close)
        }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        return parts
    }

    private static func variable(_ body: String, variables: Set<String>?) throws(PresetError) -> Part {
        let name: String, argument: String?
        if let colon = body.firstIndex(of: ":") {
            name = String(body[..<colon])
            argument = String(body[body.index(after: colon)...])
        } else {
            name = body
            argument = nil
        }
        if let location = try LocationField.part(body) { return location }
        guard !name.isEmpty else {
            throw PresetError(
                .badTemplate, "empty variable '{\(body)}'", hint: "write '{{' and '}}' for literal braces")
        }
        func noArgument(_ part: Part) throws(PresetError) -> Part {
            guard argument == nil else {
                throw PresetError(.badTemplate, "variable '\(name)' takes no ':' argument in '{\(body)}'")
            }
            return part
        }
        switch name {
        case "date", "time", "datetime", "now":
            let format = argument ?? defaultFormats[name]!
            guard !format.isEmpty else {
                throw PresetError(
                    .badTemplate, "empty date format in '{\(body)}'", hint: "write e.g. {\(name):%Y-%m-%d}")
            }
            return .date(name == "now" ? .now : .capture, try Strftime(format))
        case "filename": return try noArgument(.filename)
        case "stem": return try noArgument(.stem)
        case "width": return try noArgument(.width)
        case "height": return try noArgument(.height)
        case "hostname": return try noArgument(.hostname)
        case "frame": return try noArgument(.frame)
        case "fps": return try noArgument(.fps)
        case "timecode": return try noArgument(.timecode)
        case "proof": return try noArgument(.proof)
        case "proof-url": return try noArgument(.proofURL)
        case "counter":
            guard let argument else { return .counter(digits: 0) }
            guard let digits = Int(argument), (1...12).contains(digits) else {
                throw PresetError(
                    .badTemplate, "counter width must be a number from 1 to 12 in '{\(body)}'",
                    hint: "write e.g. {counter:4}")
            }
            return .counter(digits: digits)
        case "exif":
            let spec = argument ?? ""
            let tag: String, fallback: String?
            if let bar = spec.firstIndex(of: "|") {
                tag = String(spec[..<bar])
                fallback = String(spec[spec.index(after: bar)...])
            } else {
                tag = spec
                fallback = nil
            }
            guard !tag.isEmpty, tag.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
                throw PresetError(
                    .badTemplate, "'{\(body)}' needs an EXIF tag name",
                    hint: "write e.g. {exif:Model} or {exif:Model|unknown}")
            }
            return .exif(tag: tag, fallback: fallback)
        default:
            if let variables, !variables.contains(name) {
                let hint =
                    didYouMean(name, in: builtinNames + variables.sorted())
                    ?? "define it in the preset's \"variables\" or pass --var \(name)=VALUE"
                throw PresetError(.unknownVariable, "unknown variable '{\(body)}'", hint: hint)
            }
            return try noArgument(.variable(name))
        }
    }
}
