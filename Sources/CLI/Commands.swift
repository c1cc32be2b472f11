// The command tables of camstamp and the raw-arguments → validated-options step.
//
// Flag names here are a contract (docs/product.md): tests outside the project type them.
import CamStamp
import Presets
import Foundation

/// The version `camstamp --version` prints.
public let camstampVersion = "0.1.0"

/// What the command line asks for, with every value validated.
public enum ParsedCommand: Sendable, Equatable {
    case shoot(ShootOptions)
    case batch(BatchOptions)
    case stream(StreamOptions)
    case camera(CameraOptions)
    case devices(DevicesOptions)
    case presetsList
    case presetsShow(String)
    case presetsCheck([String])
    /// Help text to print on stdout; exit 0.
    case help(String)
    /// Print `camstamp <version>` on stdout; exit 0.
    case version
}

/// Parses `arguments` (without the program name) into a validated command. Throws a one-line
/// `UsageError` (exit 64) for anything that cannot run.
public func parseCommandLine(_ arguments: [String]) throws(UsageError) -> ParsedCommand {
    try parseInvocation(arguments).command
}

/// A validated command with what the whole line says about output: `-q`, `-v`, `--json`.
public struct Invocation: Sendable, Equatable {
    public var command: ParsedCommand
    public var verbosity: Verbosity
    /// `--json` was given (`presets list --json`; batch and devices also carry it in their options).
    public var json: Bool
}

/// `parseCommandLine`, with the global options kept.
public func parseInvocation(_ arguments: [String]) throws(UsageError) -> Invocation {
    let parsed = try CommandLineParser.parse(arguments, root: Commands.root)
    if parsed.has("quiet") && parsed.has("verbose") {
        throw UsageError("'--quiet' and '--verbose' cannot be used together")
    }
    let verbosity: Verbosity = parsed.has("quiet") ? .quiet : parsed.has("verbose") ? .verbose : .normal
    do {
        return Invocation(command: try Commands.command(from: parsed), verbosity: verbosity, json: parsed.has("json"))
    } catch let error as UsageError {
        throw error
    } catch let error as OptionValueError {
        throw UsageError(error.message)
    } catch {
        throw UsageError("\(error)")
    }
}

/// The help text of the command at `path` (`[]` for the top level, `["presets", "show"]`), or nil
/// when there is no such command.
public func helpText(for path: [String]) -> String? {
    guard let command = Commands.root.find(path) else { return nil }
    return HelpFormatter.help(for: command, name: (["camstamp"] + path).joined(separator: " "))
}

/// The tables, one per command, and the builders that turn parsed arguments into options.
enum Commands {
    // MARK: Options shared by several commands

    static let source = OptionSpec.single(
        "source", value: "SPEC",
        help: "Where frames come from: auto (the first camera), test (a moving test pattern, 30 fps), "
            + "/dev/videoN, v4l2:/dev/videoN, file:PATH (a video file played as if it were a camera), "
            + "or a camera's name as `camstamp devices` prints it (\"HD Webcam\"; a unique start or part of it will do).",
        default: "auto")
    static let preset = OptionSpec.repeatable(
        "preset", value: "P",
        help: "A preset name from presets/ (such as credit) or a path to a preset JSON file. "
            + "Repeat to stack several, in order.")
    static let text = OptionSpec.single(
        "text", value: "T",
        help: "A quick mark in the default style: bottom-right, white with a dark outline, "
            + "4% of the short side.")
    static let variable = OptionSpec.repeatable(
        "var", value: "K=V",
        help: "Sets the template variable K, e.g. --var job=A-113. Repeatable; the last one wins.")
    static let size = OptionSpec.single(
        "size", value: "WxH", help: "The frame size to ask the source for, e.g. 1280x720.")
    static let fps = OptionSpec.single("fps", value: "N", help: "The frame rate to ask the source for.")
    static let quality = OptionSpec.single(
        "quality", value: "Q", help: "JPEG quality, 1 to 100.", default: "\(ShootOptions.defaultQuality)")
    static let pipeline = OptionSpec.single(
        "pipeline", value: "FILE",
        help: "A capture template of your own instead of pipelines/capture.pipeline (gst-launch syntax "
            + "ending in appsink name=frames; {source} and {caps} are filled in if present).")
    static let json = OptionSpec.flag("json", help: "Print results as JSON, for scripts.")

    // MARK: Commands

    static let shoot = CommandSpec(
        "shoot",
        overview: "Take a photo from a camera and stamp it.",
        options: [
            source, preset, text, variable,
            .single("output", short: "o", value: "PATH",
                    help: "A file (photo.jpg, photo.png), a folder (photos named camstamp-YYYYMMDD-HHMMSS-N.jpg; "
                        + "created if missing), or - for stdout. The file name may use {date:FORMAT}, {time}, "
                        + "{counter} (the photo's number, {counter:3} zero-padded) and --var names, "
                        + "e.g. site-{date:%Y%m%d-%H%M%S}-{counter:3}.jpg.",
                    default: "the current folder"),
            .flag("overwrite", help: "Replace the -o file if it exists (otherwise it is refused)."),
            size, fps,
            .single("warmup", value: "N",
                    help: "Frames thrown away first so that auto-exposure settles.",
                    default: "15 for a camera, 0 for test"),
            .single("format", value: "jpg|png",
                    help: "The image format; taken from the extension of -o when it has one.",
                    default: "jpg"),
            quality, pipeline,
            .single("delay", value: "SEC",
                    help: "Wait SEC seconds, with the camera running, before the photo (a countdown on a terminal)."),
            .single("count", value: "N",
                    help: "Take N photos (a burst, or a time-lapse with --interval); each is written whole as it is "
                        + "taken and Ctrl-C keeps those written. -o must then be a folder or a name with {counter}.",
                    default: "1"),
            .single("interval", value: "SEC",
                    help: "Seconds from the start of one photo to the start of the next, with --count.",
                    default: "0: one frame after the other"),
            .single("rotate", value: "90|180|270",
                    help: "Turn the photo clockwise first (a camera mounted on its side); the marks are laid out on the turned photo."),
            .flag("square", help: "Keep the centre square of the frame (1:1); the marks sit where the preset puts them in the square."),
            .flag("mirror", help: "Mirror the photo left to right, as a selfie preview shows it."),
            .repeatable("control", value: "NAME=VALUE",
                        help: "Set a V4L2 camera control as the camera opens: a number, true/false, or a menu "
                            + "item by index or label (--control brightness=10, --control focus_automatic_continuous=false, "
                            + "--control 'power_line_frequency=\"50 Hz\"'). Repeatable; `camstamp devices` lists each "
                            + "camera's controls and ranges."),
        ])

    static let batch = CommandSpec(
        "batch",
        overview: "Stamp photos (JPEG, PNG, WebP, HEIC/HEIF, AVIF, TIFF) into a folder, keeping their EXIF and orientation.",
        arguments: [
            ArgumentSpec("INPUT", arity: .oneOrMore,
                         help: "Photos and folders; the output mirrors their relative layout under OUTDIR."),
        ],
        options: [
            .single("output", short: "o", value: "OUTDIR", help: "The folder to write into.", required: true),
            preset, text, variable,
            .flag("recursive", help: "Also stamp the photos in subfolders of each INPUT folder."),
            .single("jobs", value: "N", help: "How many photos to stamp at once.",
                    default: "one per CPU, \(BatchOptions.defaultJobs) here"),
            .single("format", value: "keep|jpg|png|webp|heic|tiff", help: "The output format; keep writes each photo "
                    + "in its own format (HEIC as JPEG where libheif has no HEVC encoder).", default: "keep"),
            .single("quality", value: "Q", help: "JPEG quality, 1 to 100.",
                    default: "each JPEG's own, estimated from its quantisation tables and kept within 70 to 98; "
                        + "\(ShootOptions.defaultQuality) for PNG sources"),
            .single("max-size", value: "PX",
                    help: "Scale each photo down (Lanczos3) so that its longer side is at most PX pixels."),
            .flag("reencode", help: "Decode, turn upright and encode every JPEG again. By default a JPEG written as a "
                    + "JPEG at its own size and quality is stamped without re-encoding: only the 8×8 blocks under "
                    + "the marks change, the rest stays bit-identical, and its EXIF orientation is kept (the marks "
                    + "are drawn turned so that they show upright). Arithmetic-coded, 12-bit, CMYK and damaged "
                    + "JPEGs are re-encoded anyway, with a note."),
            .flag("strict", help: "Count a photo whose data is damaged as failed; by default it is stamped as far "
                    + "as it decodes, with a warning."),
            .single("name", value: "PATTERN",
                    help: "Names each output from {stem}, {filename} and {counter}, e.g. {stem}-marked "
                        + "or trip-{counter:4}; the extension is added.",
                    default: BatchOptions.defaultNamePattern),
            .flag("skip-existing", help: "Leave outputs that already exist alone and go on."),
            .flag("overwrite", help: "Replace outputs that already exist."),
            .flag("strip-gps", help: "Keep the metadata but drop the location: GPS in EXIF and XMP (DJI drone "
                  + "tags too) and place names in XMP and IPTC."),
            .flag("strip-metadata", help: "Write no EXIF, XMP or IPTC metadata at all."),
            .repeatable("set-metadata", value: "K=V",
                        help: "Write Artist or Copyright into every photo (EXIF, XMP dc:creator/dc:rights, and "
                            + "IPTC where the photo has it), expanded like a mark's text, e.g. "
                            + "Copyright='© {date:%Y} {author}'. Repeatable."),
            .single("video-codec", value: "h264|hevc|vp9|keep",
                    help: "How video clips (MP4, MOV, MKV, WebM) are re-encoded; keep uses the source's codec "
                        + "where it is one of these. Their audio is copied, not re-encoded.", default: "h264"),
            .flag("dry-run", help: "Show what would be written without writing anything."),
            .flag("json", help: "Print one JSON object per photo on stdout (input, output, status, reason, milliseconds, "
                  + "path: spliced, coefficients or reencoded), then a summary object ({\"summary\": {marked, failed, skipped, not_started, …}}), for scripts."),
            .single("shard", value: "K/N",
                    help: "Stamp only share K of N (1 ≤ K ≤ N), chosen by a stable hash of each photo's path under its "
                        + "INPUT: N processes on one or many machines share a corpus, each photo done once, into one "
                        + "OUTDIR tree. With --skip-existing a rerun finishes what a killed one left (docs/scale.md)."),
        ],
        exclusive: [["skip-existing", "overwrite"], ["strip-gps", "strip-metadata"]],
        discussion: "Without --skip-existing or --overwrite, an output that already exists is an "
            + "error for that photo; the others are still stamped. Photos are read by content, not by "
            + "extension; a photo over \(BatchOptions.maxPixels / 1_000_000) megapixels is refused before decoding. "
            + "Embedded previews (the EXIF thumbnail, maker-note and XMP previews, MPF images, a motion photo's "
            + "video) are left out: they show the photo unmarked.")

    static let stream = CommandSpec(
        "stream",
        overview: "Stamp live video and record it to a file or send it over RTP.",
        options: [
            source, preset, text, variable,
            .repeatable("to", value: "TARGET",
                    help: "out.mp4, out.mkv, or rtp://HOST:PORT (H.264 over RTP/UDP; the SDP a receiver "
                        + "needs is printed on stdout); rtmp://HOST/APP/KEY (FLV, H.264 + AAC), srt://HOST:PORT "
                        + "(MPEG-TS, caller) or srt://:PORT?mode=listener, hls:DIR (2 s segments and index.m3u8). "
                        + "Repeatable: every target gets the same encode; a network target that drops is "
                        + "retried while the others go on. Required unless --serve is given."),
            .single("serve", value: "URL",
                    help: "Serve the stream over RTSP, e.g. rtsp://0.0.0.0:8554/live: any number of viewers, one encode."),
            .single("audio", value: "SOURCE",
                    help: "auto (the test source's tone, or the microphone), none, or a PulseAudio source / ALSA "
                        + "device such as hw:1,0; AAC (Opus in MKV). Default: auto when publishing (RTMP, SRT, HLS, "
                        + "RTSP), none for files and RTP alone."),
            .single("duration", value: "SEC",
                    help: "Stop by itself after SEC seconds of wall time, even when the source cannot keep up; "
                        + "otherwise run until Ctrl-C or SIGTERM."),
            size, fps,
            .single("bitrate", value: "KBPS", help: "H.264 bitrate, kbit/s, up to \(H264Limits.bitrate.upperBound).",
                    default: "\(StreamOptions.defaultBitrate)"),
            .single("sdp", value: "FILE", help: "Also write the SDP of an RTP stream to FILE."),
            .single("snapshot-dir", value: "DIR", help: "Each SIGUSR1 (kill -USR1 PID) writes the current frame, marked, there as a full-size JPEG (the folder is created if missing; no file is ever replaced); the stream goes on."),
            .flag("overwrite", help: "Replace the --to file and the --sdp file if they exist (otherwise they are refused)."),
            pipeline,
        ],
        discussion: "The file is finalized and playable however the stream stops.")

    static let camera = CommandSpec(
        "camera",
        overview: "The watermark camera: a live viewfinder with the marks, in a browser or a window.",
        options: [
            source, preset, text, variable,
            .single("output", short: "o", value: "DIR",
                    help: "The folder photos go to, named camstamp-YYYYMMDD-HHMMSS-N.jpg (created if missing).",
                    default: "the current folder"),
            .single("web", value: "[ADDR:]PORT",
                    help: "Serve the viewfinder page on ADDR:PORT (0 picks a free port). Any address but "
                        + "127.0.0.1 or ::1 requires the token.",
                    default: "127.0.0.1:8080 unless --window"),
            .flag("window", help: "Open a native X11 window instead (keys: Space shoot, G grid, S square, "
                    + "M mirror, T timer, Q or Esc quit)."),
            .single("token", value: "TOKEN",
                    help: "Required on every web request (?token=, then a cookie). Default on a non-loopback "
                        + "address: a random one, printed in the URL."),
            size, fps, quality,
            .flag("mirror-photos", help: "Mirror the photos too, not only the preview, when Mirror is on."),
            pipeline,
        ],
        discussion: "Photos are full camera resolution; the grid and the square frame are drawn on the preview only. "
            + "Runs until Ctrl-C or SIGTERM (exit 130, every photo written).")

    static let devices = CommandSpec(
        "devices",
        overview: "List the cameras that --source can use, with their modes and V4L2 controls.",
        options: [.flag("json", help: "Print the cameras as JSON (with each control's range, default, value, menu items and flags), for scripts.")])

    static let presets = CommandSpec(
        "presets",
        overview: "List, show and check presets.",
        usage: "camstamp presets [list | show NAME | check FILE...]",
        subcommands: [
            CommandSpec("list", overview: "List your presets and the shipped ones, with their descriptions and where each comes from.",
                        options: [.flag("json", help: "Print the presets as JSON (name, description, origin, file), for scripts.")],
                        discussion: PresetFolders.discussion),
            CommandSpec("show", overview: "Print a preset as JSON.",
                        arguments: [ArgumentSpec("NAME", help: "A preset name or a path to a preset JSON file.")]),
            CommandSpec("check", overview: "Check preset files and report every problem.",
                        arguments: [ArgumentSpec("FILE", arity: .oneOrMore, help: "Preset JSON files.")]),
        ],
        defaultSubcommand: "list")

    static let help = CommandSpec(
        "help",
        overview: "Show the help of a command.",
        arguments: [ArgumentSpec("COMMAND", arity: .zeroOrMore, help: "A command, such as shoot or presets show.")])

    static let root = CommandSpec(
        "camstamp",
        overview: "Burn text, logos, dates and EXIF into photos and live video.",
        usage: "camstamp COMMAND [OPTIONS]\ncamstamp --help | --version",
        options: [.flag("version", help: "Show the version.")],
        subcommands: [shoot, batch, stream, camera, devices, presets, help],
        discussion: "Run 'camstamp COMMAND --help' for the options of a command.\n"
            + "Exit status: 0 all done, 1 some inputs or the pipeline failed, 64 usage or preset error, "
            + "130 interrupted.")

    // MARK: Raw arguments → validated options

    static func command(from parsed: ParsedArguments) throws -> ParsedCommand {
        if parsed.helpRequested {
            return .help(helpText(for: parsed.path) ?? helpText(for: [])!)
        }
        switch parsed.path {
        case []:
            return parsed.has("version") ? .version : .help(helpText(for: [])!)
        case ["shoot"]: return .shoot(try shootOptions(parsed))
        case ["batch"]: return .batch(try batchOptions(parsed))
        case ["stream"]: return .stream(try streamOptions(parsed))
        case ["camera"]: return .camera(try cameraOptions(parsed))
        case ["devices"]: return .devices(DevicesOptions(json: parsed.has("json")))
        case ["presets", "list"]: return .presetsList
        case ["presets", "show"]: return .presetsShow(parsed.positionals[0])
        case ["presets", "check"]: return .presetsCheck(parsed.positionals)
        case ["help"]:
            return .help(try helpForHelpCommand(parsed.positionals))
        default:
            preconditionFailure("no builder for command \(parsed.path)")
        }
    }

    /// `camstamp help presets show` shows the help of `presets show`.
    static func helpForHelpCommand(_ words: [String]) throws(UsageError) -> String {
        var command = root
        for (index, word) in words.enumerated() {
            guard let next = command.subcommand(named: word) else {
                let parent = (["camstamp"] + words.prefix(index)).joined(separator: " ")
                let what = index == 0 ? "command" : "subcommand"
                let suffix = index == 0 ? "" : " for '\(parent)'"
                if let match = closest(to: word, in: command.subcommands.map(\.name)) {
                    throw UsageError("unknown \(what) '\(word)'\(suffix); did you mean '\(match)'?")
                }
                throw UsageError("unknown \(what) '\(word)'\(suffix); see '\(parent) --help'")
            }
            command = next
        }
        return helpText(for: words)!
    }

    static func shootOptions(_ parsed: ParsedArguments) throws -> ShootOptions {
        var options = ShootOptions()
        try applyCommon(parsed, source: &options.source, presets: &options.presets,
                        text: &options.text, variables: &options.variables)
        if let output = parsed.value("output") {
            if output == "-" { options.toStandardOutput = true } else { options.output = URL(fileURLWithPath: output) }
        }
        options.overwrite = parsed.has("overwrite")
        options.size = try parsed.value("size").map { try FrameSize(parsing: $0) }
        options.fps = try parsed.value("fps").map { try NumberOption.integer($0, option: "--fps", in: 1...Int.max) }
        options.warmup = try parsed.value("warmup").map {
            try NumberOption.integer($0, option: "--warmup", in: 0...Int.max)
        }
        // `-o photo.png` implies PNG; a folder has no extension and implies nothing. Any other
        // extension is refused: `-o a.webp` would otherwise hold JPEG bytes. So is a name with none
        // that is not a folder: `-o shots` wrote a JPEG called "shots".
        var extensionFormat: ImageFormat?
        if let output = options.output, !isFolder(output) {
            guard let format = try? ImageFormat(parsing: output.pathExtension) else {
                throw OptionValueError("invalid value '\(parsed.value("output")!)' for '-o': expected a .jpg, .jpeg "
                    + "or .png file, a folder (end it with /) or - for stdout")
            }
            extensionFormat = format
        }
        if let text = parsed.value("format") {
            options.format = try ImageFormat(parsing: text)
            if let implied = extensionFormat, implied != options.format {
                throw OptionValueError("'--format \(text)' does not match the output "
                    + "'\(options.output!.lastPathComponent)'; drop one or make them agree")
            }
        } else if let implied = extensionFormat {
            options.format = implied
        }
        options.quality = try parsed.value("quality").map { try NumberOption.quality($0) } ?? options.quality
        options.pipeline = try parsed.value("pipeline").map { try existingFile($0, option: "--pipeline") }
        options.delay = try parsed.value("delay").map { try NumberOption.nonNegativeSeconds($0, option: "--delay") } ?? 0
        options.count = try parsed.value("count").map { try NumberOption.integer($0, option: "--count", in: 1...Int.max) } ?? 1
        if let interval = parsed.value("interval") {
            guard parsed.value("count") != nil else {
                throw OptionValueError("'--interval' spaces the photos of --count N; add --count")
            }
            options.interval = try NumberOption.nonNegativeSeconds(interval, option: "--interval")
        }
        if let rotate = parsed.value("rotate") {
            guard let degrees = Int(rotate), [0, 90, 180, 270].contains(degrees) else {
                throw OptionValueError.invalid(rotate, for: "--rotate", expected: "90, 180 or 270 (degrees clockwise)")
            }
            options.geometry.rotate = degrees
        }
        options.geometry.square = parsed.has("square")
        options.geometry.mirror = parsed.has("mirror")
        options.controls = try parsed.values("control").map { try ControlOption.parse($0) }
        if let duplicate = Dictionary(grouping: options.controls, by: \.name).first(where: { $0.value.count > 1 })?.key {
            throw OptionValueError("--control \(duplicate) is given more than once; keep one")
        }
        return options
    }

    static func batchOptions(_ parsed: ParsedArguments) throws -> BatchOptions {
        var options = BatchOptions(inputs: parsed.positionals.map { URL(fileURLWithPath: $0) },
                                   outputFolder: URL(fileURLWithPath: parsed.value("output")!))
        var source = SourceSpec.auto
        try applyCommon(parsed, source: &source, presets: &options.presets,
                        text: &options.text, variables: &options.variables)
        options.recursive = parsed.has("recursive")
        options.jobs = try parsed.value("jobs").map { try NumberOption.jobs($0) } ?? options.jobs
        options.format = try parsed.value("format").map { try BatchFormat(parsing: $0) } ?? .keep
        options.quality = try parsed.value("quality").map { try NumberOption.quality($0) } ?? options.quality
        options.maxSize = try parsed.value("max-size").map {
            try NumberOption.integer($0, option: "--max-size", in: 1...Int.max)
        }
        if let pattern = parsed.value("name") {
            guard !pattern.isEmpty else {
                throw OptionValueError("'--name' must not be empty; the default is \(BatchOptions.defaultNamePattern)")
            }
            options.namePattern = pattern
        }
        if parsed.has("skip-existing") { options.existing = .skip }
        if parsed.has("overwrite") { options.existing = .overwrite }
        if parsed.has("strip-gps") { options.metadata = .stripGPS }
        if parsed.has("strip-metadata") { options.metadata = .stripAll }
        options.strict = parsed.has("strict")
        options.reencode = parsed.has("reencode")
        options.setMetadata = try parsed.values("set-metadata").map { try MetadataAssignment(parsing: $0) }
        if !options.setMetadata.isEmpty && options.metadata == .stripAll {
            throw OptionValueError("'--set-metadata' and '--strip-metadata' cannot be used together")
        }
        options.dryRun = parsed.has("dry-run")
        options.json = parsed.has("json")
        options.shard = try parsed.value("shard").map { try Shard(parsing: $0) }
        options.videoCodec = try parsed.value("video-codec").map { try VideoCodecChoice(parsing: $0) } ?? .h264
        return options
    }

    static func streamOptions(_ parsed: ParsedArguments) throws -> StreamOptions {
        var targets = try parsed.values("to").map { try StreamTarget(parsing: $0) }
        if let serve = parsed.value("serve") { targets.append(.serve(try RTSPServe(parsing: serve))) }
        guard let first = targets.first else {
            throw OptionValueError("missing required option '--to TARGET' for 'camstamp stream'")
        }
        var options = StreamOptions(target: first)
        options.moreTargets = Array(targets.dropFirst())
        options.audio = try parsed.value("audio").map { try AudioChoice(parsing: $0) }
        try applyCommon(parsed, source: &options.source, presets: &options.presets,
                        text: &options.text, variables: &options.variables)
        options.duration = try parsed.value("duration").map { try NumberOption.seconds($0) }
        options.size = try parsed.value("size").map { try FrameSize(parsing: $0) }
        options.fps = try parsed.value("fps").map { try NumberOption.integer($0, option: "--fps", in: 1...Int.max) }
        // What x264 cannot take is refused here rather than failing (or crawling) once running.
        if let size = options.size { try H264Limits.check(size: size) }
        if let fps = options.fps, let size = options.size ?? (options.source == .test ? H264Limits.testCameraSize : nil) {
            try H264Limits.check(fps: fps, size: size)
        }
        options.bitrate = try parsed.value("bitrate").map {
            try NumberOption.integer($0, option: "--bitrate", in: H264Limits.bitrate)
        } ?? options.bitrate
        options.overwrite = parsed.has("overwrite")
        options.sdp = parsed.value("sdp").map { URL(fileURLWithPath: $0) }
        options.snapshotFolder = parsed.value("snapshot-dir").map { URL(fileURLWithPath: $0, isDirectory: true) }
        options.pipeline = try parsed.value("pipeline").map { try existingFile($0, option: "--pipeline") }
        return options
    }

    static func cameraOptions(_ parsed: ParsedArguments) throws -> CameraOptions {
        var options = CameraOptions()
        try applyCommon(parsed, source: &options.source, presets: &options.presets,
                        text: &options.text, variables: &options.variables)
        options.output = parsed.value("output").map { URL(fileURLWithPath: $0, isDirectory: true) }
        options.window = parsed.has("window")
        // The window replaces the default web address; both run when both are asked for.
        options.web = try parsed.value("web").map { try WebAddress(parsing: $0) } ?? (options.window ? nil : .default)
        if let token = parsed.value("token") {
            guard token.count >= 8, token.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.~".contains($0)) }) else {
                throw OptionValueError("'--token' must be at least 8 letters, digits or -_.~ (it goes in URLs and cookies)")
            }
            options.token = token
        }
        options.size = try parsed.value("size").map { try FrameSize(parsing: $0) }
        options.fps = try parsed.value("fps").map { try NumberOption.integer($0, option: "--fps", in: 1...Int.max) }
        options.quality = try parsed.value("quality").map { try NumberOption.quality($0) } ?? options.quality
        options.mirrorPhotos = parsed.has("mirror-photos")
        options.pipeline = try parsed.value("pipeline").map { try existingFile($0, option: "--pipeline") }
        return options
    }

    /// `--source`, `--preset`, `--text` and `--var`, which the jobs share; options a command's
    /// table lacks are never in `parsed`.
    static func applyCommon(_ parsed: ParsedArguments, source: inout SourceSpec, presets: inout [String],
                            text: inout String?, variables: inout [VariableAssignment]) throws {
        if let spec = parsed.value("source") {
            source = try SourceSpec(parsing: spec)
            if case .file(let url) = source { _ = try existingFile(url.path, option: "--source") }
        }
        presets = parsed.values("preset")
        text = parsed.value("text")
        variables = try parsed.values("var").map { try VariableAssignment(parsing: $0) }
    }

    /// Whether `url` names a folder: an existing one, or a path ending in `/`.
    static func isFolder(_ url: URL) -> Bool {
        url.hasDirectoryPath || PathKind(of: url) == .folder
    }

    /// A path that must name an existing file.
    static func existingFile(_ path: String, option: String) throws -> URL {
        guard PathKind(atPath: path) == .file else {
            throw OptionValueError("'\(option)' file '\(path)' does not exist")
        }
        return URL(fileURLWithPath: path)
    }
}
