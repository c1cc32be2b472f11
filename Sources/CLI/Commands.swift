// The command tables of camstamp and the raw-arguments → validated-options step.
//
// Flag names here are a contract (documented in docs/, one page per command): scripts and tests
// outside the project type them.
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
    /// `--json` was given (`presets list --json`; the jobs and devices also carry it in their options).
    public var json: Bool
    /// `--progress json` (batch, stream): the progress as JSON lines on stderr.
    public var progressJSON = false
}

/// `parseCommandLine`, with the global options kept.
public func parseInvocation(_ arguments: [String]) throws(UsageError) -> Invocation {
    let parsed = try CommandLineParser.parse(arguments, root: Commands.root)
    do {
        return try Commands.invocation(from: OptionValues(parsed))
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

/// The tables, one per command, built from typed keys, and the builders that read the keys.
enum Commands {
    // MARK: Options shared by several commands

    static let source = Single<SourceSpec>(
        "source", value: "SPEC",
        help: "Where frames come from: auto (the first camera), test (a moving test pattern, 30 fps), "
            + "/dev/videoN, v4l2:/dev/videoN, file:PATH (a video file played as if it were a camera), "
            + "or a camera's name as `camstamp devices` prints it (\"HD Webcam\"; a unique start or part of it will do).",
        default: "auto") { text, option in
            let source = try SourceSpec(parsing: text, option: option)
            if case .file(let url) = source { _ = try existingFile(url.path, option: option) }
            return source
        }
    static let preset = Repeated<String>(
        "preset", value: "P",
        help: "A preset name from presets/ (such as credit) or a path to a preset JSON file. "
            + "Repeat to stack several, in order.")
    static let text = Single<String>(
        "text", value: "T",
        help: "A quick mark in the default style: bottom-right, white with a dark outline, "
            + "4% of the short side.")
    static let variable = Repeated<VariableAssignment>(
        "var", value: "K=V",
        help: "Sets the template variable K, e.g. --var job=A-113. Repeatable; the last one wins.") { text, _ in
            try VariableAssignment(parsing: text)
        }
    static let size = Single<FrameSize>(
        "size", value: "WxH", help: "The frame size to ask the source for, e.g. 1280x720.") { try FrameSize(parsing: $0, option: $1) }
    static let fps = Single<Int>("fps", value: "N", help: "The frame rate to ask the source for.") {
        try NumberOption.integer($0, option: $1, in: 1...Int.max)
    }
    static let quality = Single<Int>(
        "quality", value: "Q", help: "JPEG quality, 1 to 100.", default: "\(ShootOptions.defaultQuality)") {
            try NumberOption.quality($0, option: $1)
        }
    static let pipeline = Single<URL>(
        "pipeline", value: "FILE",
        help: "A capture template of your own instead of pipelines/capture.pipeline (gst-launch syntax "
            + "ending in appsink name=frames; {source} and {caps} are filled in if present).") { try existingFile($0, option: $1) }

    static let progress = Single<Bool>(
        "progress", value: "bar|json",
        help: "bar: the progress line, on a terminal. json: one JSON object a line on stderr, every 0.5 s "
            + "whatever stderr is, for scripts and GUIs (as ffmpeg's -progress); the last says \"progress\": \"end\".",
        default: "bar") { text, option in
            guard let json = ["bar": false, "json": true][text] else {
                throw OptionValueError.invalid(text, for: option, expected: "bar or json")
            }
            return json
        }

    /// What every job that marks frames from a source starts its table with.
    static let markedCapture: [any OptionKey] = [source, preset, text, variable]

    // MARK: Commands

    /// `camstamp shoot`.
    enum Shoot {
        static let output = Single<String>(
            "output", short: "o", value: "PATH",
            help: "A file (photo.jpg, photo.png), a folder (photos named camstamp-YYYYMMDD-HHMMSS-N.jpg; "
                + "created if missing), or - for stdout. The file name may use {date:FORMAT}, {time}, "
                + "{counter} (the photo's number, {counter:3} zero-padded) and --var names, "
                + "e.g. site-{date:%Y%m%d-%H%M%S}-{counter:3}.jpg.",
            default: "the current folder")
        static let overwrite = Flag("overwrite", help: "Replace the -o file if it exists (otherwise it is refused).")
        static let warmup = Single<Int>(
            "warmup", value: "N", help: "Frames thrown away first so that auto-exposure settles.",
            default: "15 for a camera, 0 for test") { try NumberOption.integer($0, option: $1, in: 0...Int.max) }
        static let format = Single<ImageFormat>(
            "format", value: "jpg|png", help: "The image format; taken from the extension of -o when it has one.",
            default: "jpg") { try ImageFormat(parsing: $0, option: $1) }
        static let delay = Single<Double>(
            "delay", value: "SEC",
            help: "Wait SEC seconds, with the camera running, before the photo (a countdown on a terminal).") {
                try NumberOption.nonNegativeSeconds($0, option: $1)
            }
        static let count = Single<Int>(
            "count", value: "N",
            help: "Take N photos (a burst, or a time-lapse with --interval); each is written whole as it is "
                + "taken and Ctrl-C keeps those written. -o must then be a folder or a name with {counter}.",
            default: "1") { try NumberOption.integer($0, option: $1, in: 1...Int.max) }
        static let interval = Single<Double>(
            "interval", value: "SEC", help: "Seconds from the start of one photo to the start of the next, with --count.",
            default: "0: one frame after the other") { try NumberOption.nonNegativeSeconds($0, option: $1) }
        static let rotate = Single<Int>(
            "rotate", value: "90|180|270",
            help: "Turn the photo clockwise first (a camera mounted on its side); the marks are laid out on the turned photo.") { text, option in
                guard let degrees = Int(text), [0, 90, 180, 270].contains(degrees) else {
                    throw OptionValueError.invalid(text, for: option, expected: "90, 180 or 270 (degrees clockwise)")
                }
                return degrees
            }
        static let square = Flag("square", help: "Keep the centre square of the frame (1:1); the marks sit where the preset puts them in the square.")
        static let mirror = Flag("mirror", help: "Mirror the photo left to right, as a selfie preview shows it.")
        static let control = Repeated<ControlOption.Setting>(
            "control", value: "NAME=VALUE",
            help: "Set a V4L2 camera control as the camera opens: a number, true/false, or a menu "
                + "item by index or label (--control brightness=10, --control focus_automatic_continuous=false, "
                + "--control 'power_line_frequency=\"50 Hz\"'). Repeatable; `camstamp devices` lists each "
                + "camera's controls and ranges.") { text, _ in try ControlOption.parse(text) }

        static let json = Flag(
            "json", help: "Print each photo as a JSON line on stdout as it is written (output, number, "
                + "width, height, format), then {\"summary\": {written, requested, interrupted}}, for scripts.")

        static let spec = CommandSpec(
            "shoot",
            overview: "Take a photo from a camera and stamp it.",
            keys: markedCapture + [output, overwrite, size, fps, warmup, format, quality, pipeline, delay, count, interval,
                                   rotate, square, mirror, control, json])
    }

    /// `camstamp batch`.
    enum Batch {
        static let output = Single<String>(
            "output", short: "o", value: "OUTDIR",
            help: "The folder to write into. With one photo, a file instead (one-marked.jpg, .png, .webp, .heic, "
                + ".tif, .avif: its format from the extension unless --format says otherwise), or - for stdout.",
            required: true)
        static let recursive = Flag("recursive", help: "Also stamp the photos in subfolders of each INPUT folder.")
        static let jobs = Single<Int>("jobs", value: "N", help: "How many photos to stamp at once.",
                                      default: "one per CPU, \(BatchOptions.defaultJobs) here") { try NumberOption.jobs($0, option: $1) }
        static let format = Single<BatchFormat>(
            "format", value: "keep|jpg|png|webp|heic|tiff", help: "The output format; keep writes each photo "
                + "in its own format (HEIC as JPEG where libheif has no HEVC encoder).", default: "keep") {
                    try BatchFormat(parsing: $0, option: $1)
                }
        static let quality = Single<Int>(
            "quality", value: "Q", help: "Quality, 1 to 100, of JPEG, WebP, HEIC and AVIF outputs.",
            default: "each JPEG's own, estimated from its quantisation tables and kept within 70 to 98, and "
                + "\(ShootOptions.defaultQuality) for a JPEG from a PNG; 90 for WebP, 80 for HEIC and AVIF") {
                    try NumberOption.quality($0, option: $1)
                }
        static let maxSize = Single<Int>(
            "max-size", value: "PX", help: "Scale each photo down (Lanczos3) so that its longer side is at most PX pixels.") {
                try NumberOption.integer($0, option: $1, in: 1...Int.max)
            }
        static let maxPixels = Single<Int>(
            "max-pixels", value: "N",
            help: "Refuse a photo of more than N pixels (e.g. 50000000 or 50M) that has to be decoded: decoded, marked "
                + "and encoded again, a photo takes up to about 10 bytes of memory a pixel. A JPEG written as a JPEG "
                + "at its own size and quality is stamped without decoding and is not held to it.",
            default: "\(BatchOptions.defaultMaxDecodedPixels / 1_000_000)M, about 1 GB a job") {
                try NumberOption.pixels($0, option: $1)
            }
        static let reencode = Flag("reencode", help: "Decode, turn upright and encode every JPEG again. By default a JPEG written as a "
                + "JPEG at its own size and quality is stamped without re-encoding: only the 8×8 blocks under "
                + "the marks change, the rest stays bit-identical, and its EXIF orientation is kept (the marks "
                + "are drawn turned so that they show upright). Arithmetic-coded, 12-bit, CMYK and damaged "
                + "JPEGs are re-encoded anyway, with a note.")
        static let strict = Flag("strict", help: "Count a photo whose data is damaged as failed; by default it is stamped as far "
                + "as it decodes, with a warning.")
        static let name = Single<String>(
            "name", value: "PATTERN",
            help: "Names each output from {stem}, {filename} and {counter}, e.g. {stem}-marked "
                + "or trip-{counter:4}; the extension is added.",
            default: BatchOptions.defaultNamePattern) { pattern, option in
                guard !pattern.isEmpty else {
                    throw OptionValueError("'\(option)' must not be empty; the default is \(BatchOptions.defaultNamePattern)")
                }
                return pattern
            }
        static let skipExisting = Flag("skip-existing", help: "Leave outputs that already exist alone and go on.")
        static let overwrite = Flag("overwrite", help: "Replace outputs that already exist.")
        static let stripGPS = Flag("strip-gps", help: "Keep the metadata but drop the location: GPS in EXIF and XMP (DJI drone "
                + "tags too) and place names in XMP and IPTC.")
        static let stripMetadata = Flag("strip-metadata", help: "Write no EXIF, XMP or IPTC metadata at all.")
        static let setMetadata = Repeated<MetadataAssignment>(
            "set-metadata", value: "K=V",
            help: "Write Artist or Copyright into every photo (EXIF, XMP dc:creator/dc:rights, and "
                + "IPTC where the photo has it), expanded like a mark's text, e.g. "
                + "Copyright='© {date:%Y} {author}'. Repeatable.") { try MetadataAssignment(parsing: $0, option: $1) }
        static let videoCodec = Single<VideoCodecChoice>(
            "video-codec", value: "h264|hevc|vp9|keep",
            help: "How video clips (MP4, MOV, MKV, WebM) are re-encoded; keep uses the source's codec "
                + "where it is one of these. Their audio is copied, not re-encoded.", default: "h264") {
                    try VideoCodecChoice(parsing: $0, option: $1)
                }
        static let dryRun = Flag("dry-run", help: "Show what would be written without writing anything.")
        static let json = Flag("json", help: "Print one JSON object per photo on stdout (input, output, status, reason, milliseconds, "
                + "path: spliced, coefficients or reencoded), then a summary object ({\"summary\": {marked, failed, skipped, not_started, …}}), for scripts.")
        static let shard = Single<Shard>(
            "shard", value: "K/N",
            help: "Stamp only share K of N (1 ≤ K ≤ N), chosen by a stable hash of each photo's path under its "
                + "INPUT: N processes on one or many machines share a corpus, each photo done once, into one "
                + "OUTDIR tree. With --skip-existing a rerun finishes what a killed one left (docs/scale.md).") { text, _ in
                    try Shard(parsing: text)
                }

        static let spec = CommandSpec(
            "batch",
            overview: "Stamp photos (JPEG, PNG, WebP, HEIC/HEIF, AVIF, TIFF) into a folder, keeping their EXIF and orientation.",
            arguments: [
                ArgumentSpec("INPUT", arity: .oneOrMore,
                             help: "Photos and folders; the output mirrors their relative layout under OUTDIR."),
            ],
            keys: [output, preset, text, variable, recursive, jobs, format, quality, maxSize, maxPixels, reencode,
                   strict, name, skipExisting, overwrite, stripGPS, stripMetadata, setMetadata, videoCodec,
                   dryRun, json, shard, progress],
            exclusive: [[skipExisting, overwrite], [stripGPS, stripMetadata]],
            discussion: "Without --skip-existing or --overwrite, an output that already exists is an "
                + "error for that photo; the others are still stamped. Photos are read by content, not by "
                + "extension; a photo over \(BatchOptions.maxPixels / 1_000_000) megapixels (or --max-pixels, if more) "
                + "is refused before it is read. "
                + "Embedded previews (the EXIF thumbnail, maker-note and XMP previews, MPF images, a motion photo's "
                + "video) are left out: they show the photo unmarked.")
    }

    /// `camstamp stream`.
    enum Stream {
        static let to = Repeated<StreamTarget>(
            "to", value: "TARGET",
            help: "out.mp4, out.mkv, or rtp://HOST:PORT (H.264 over RTP/UDP; the SDP a receiver "
                + "needs is printed on stdout); rtmp://HOST/APP/KEY (FLV, H.264 + AAC), srt://HOST:PORT "
                + "(MPEG-TS, caller) or srt://:PORT?mode=listener, hls:DIR (2 s segments and index.m3u8). "
                + "Repeatable: every target gets the same encode; a network target that drops is "
                + "retried while the others go on. Required unless --serve is given.") { try StreamTarget(parsing: $0, option: $1) }
        static let serve = Single<RTSPServe>(
            "serve", value: "URL",
            help: "Serve the stream over RTSP, e.g. rtsp://0.0.0.0:8554/live: any number of viewers, one encode.") {
                try RTSPServe(parsing: $0, option: $1)
            }
        static let audio = Single<AudioChoice>(
            "audio", value: "SOURCE",
            help: "auto (the test source's tone, a clip's own sound, or the microphone), none, or a PulseAudio "
                + "source / ALSA device such as hw:1,0; AAC (Opus in MKV). Default: auto when publishing (RTMP, "
                + "SRT, HLS, RTSP) and for --source file:, none for a camera into files and RTP alone.") { try AudioChoice(parsing: $0, option: $1) }
        static let duration = Single<Double>(
            "duration", value: "SEC",
            help: "Stop by itself after SEC seconds of wall time, even when the source cannot keep up; "
                + "otherwise run until Ctrl-C or SIGTERM.") { try NumberOption.seconds($0, option: $1) }
        static let bitrate = Single<Int>(
            "bitrate", value: "KBPS", help: "H.264 bitrate, kbit/s, up to \(H264Limits.bitrate.upperBound).",
            default: "\(StreamOptions.defaultBitrate)") { try NumberOption.integer($0, option: $1, in: H264Limits.bitrate) }
        static let sdp = Single<String>("sdp", value: "FILE", help: "Also write the SDP of an RTP stream to FILE.")
        static let snapshotFolder = Single<String>(
            "snapshot-dir", value: "DIR",
            help: "Each SIGUSR1 (kill -USR1 PID) writes the current frame, marked, there as a full-size JPEG (the folder is created if missing; no file is ever replaced); the stream goes on.")
        static let overwrite = Flag("overwrite", help: "Replace the --to file and the --sdp file if they exist (otherwise they are refused).")
        static let json = Flag(
            "json", help: "Print the summary as one JSON object on stdout when the stream ends, Ctrl-C "
                + "too: {\"summary\": {targets, frames, dropped, seconds, snapshots, outages, interrupted}}.")

        static let spec = CommandSpec(
            "stream",
            overview: "Stamp live video and record it to files or publish it: RTP, RTMP, SRT, HLS, an RTSP server.",
            keys: markedCapture + [to, serve, audio, duration, size, fps, bitrate, sdp, snapshotFolder, overwrite,
                                   pipeline, json, progress],
            discussion: "The file is finalized and playable however the stream stops.")
    }

    /// `camstamp camera`.
    enum Camera {
        static let output = Single<String>(
            "output", short: "o", value: "DIR",
            help: "The folder photos go to, named camstamp-YYYYMMDD-HHMMSS-N.jpg (created if missing).",
            default: "the current folder")
        static let web = Single<WebAddress>(
            "web", value: "[ADDR:]PORT",
            help: "Serve the viewfinder page on ADDR:PORT (0 picks a free port). Any address but "
                + "127.0.0.1 or ::1 requires the token.",
            default: "127.0.0.1:8080 unless --window") { try WebAddress(parsing: $0, option: $1) }
        static let window = Flag("window", help: "Open a native X11 window instead (keys: Space shoot, G grid, S square, "
                + "M mirror, T timer, Q or Esc quit).")
        static let token = Single<String>(
            "token", value: "TOKEN",
            help: "Required on every web request (?token=, then a cookie). Default on a non-loopback "
                + "address: a random one, printed in the URL.") { token, option in
                    guard token.count >= 8, token.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.~".contains($0)) }) else {
                        throw OptionValueError("'\(option)' must be at least 8 letters, digits or -_.~ (it goes in URLs and cookies)")
                    }
                    return token
                }
        static let mirrorPhotos = Flag("mirror-photos", help: "Mirror the photos too, not only the preview, when Mirror is on.")

        static let spec = CommandSpec(
            "camera",
            overview: "The watermark camera: a live viewfinder with the marks, in a browser or a window.",
            keys: markedCapture + [output, web, window, token, size, fps, quality, mirrorPhotos, pipeline],
            discussion: "Photos are full camera resolution; the grid and the square frame are drawn on the preview only. "
                + "Runs until Ctrl-C or SIGTERM (exit 130, every photo written).")
    }

    /// `camstamp devices`.
    enum Devices {
        static let json = Flag("json", help: "Print the cameras as JSON (with each control's range, default, value, menu items and flags), for scripts.")

        static let spec = CommandSpec(
            "devices", overview: "List the cameras that --source can use, with their modes and V4L2 controls.", keys: [json])
    }

    /// `camstamp presets list`.
    enum PresetsList {
        static let json = Flag("json", help: "Print the presets as JSON (name, description, origin, file), for scripts.")

        static let spec = CommandSpec(
            "list", overview: "List your presets and the shipped ones, with their descriptions and where each comes from.",
            keys: [json], discussion: PresetFolders.discussion)
    }

    static let presetsShow = CommandSpec("show", overview: "Print a preset as JSON.",
                                         arguments: [ArgumentSpec("NAME", help: "A preset name or a path to a preset JSON file.")])
    static let presetsCheck = CommandSpec("check", overview: "Check preset files and report every problem.",
                                          arguments: [ArgumentSpec("FILE", arity: .oneOrMore, help: "Preset JSON files.")])

    static let presets = CommandSpec(
        "presets",
        overview: "List, show and check presets.",
        usage: "camstamp presets [list | show NAME | check FILE...]",
        subcommands: [PresetsList.spec, presetsShow, presetsCheck],
        defaultSubcommand: "list")

    static let help = CommandSpec(
        "help",
        overview: "Show the help of a command.",
        arguments: [ArgumentSpec("COMMAND", arity: .zeroOrMore, help: "A command, such as shoot or presets show.")])

    static let version = Flag("version", short: "V", help: "Show the version.")
    /// Handled before the tables are parsed (`Generated`); here so that --help and the man page list them.
    static let generateMan = Flag(
        "generate-man", help: "Print the man page, camstamp(1), in roff (make install writes it).")
    static let generateCompletion = Single<String>(
        "generate-completion", value: "bash|zsh|fish",
        help: "Print the completion script of a shell, e.g. camstamp --generate-completion bash "
            + "> /etc/bash_completion.d/camstamp (make install writes all three).")

    static let root = CommandSpec(
        "camstamp",
        overview: "Burn text, logos, dates and EXIF into photos and live video.",
        usage: "camstamp COMMAND [OPTIONS]\ncamstamp --help | --version\n"
            + "camstamp --generate-man | --generate-completion bash|zsh|fish",
        options: [version.spec, generateMan.spec, generateCompletion.spec],
        subcommands: [Shoot.spec, Batch.spec, Stream.spec, Camera.spec, Devices.spec, presets, help],
        discussion: "Run 'camstamp COMMAND --help' for the options of a command.\n"
            + "Exit status: 0 all done, 1 some inputs or the pipeline failed, 64 usage or preset error, "
            + "130 interrupted.")

    // MARK: Raw arguments → validated options

    /// The command and the global options (`-q`, `-v`, and `--json` where the command has it).
    static func invocation(from values: OptionValues) throws -> Invocation {
        let quiet = values.get(CommandSpec.quiet), verbose = values.get(CommandSpec.verbose)
        if quiet && verbose {
            throw UsageError("'--quiet' and '--verbose' cannot be used together")
        }
        let verbosity: Verbosity = quiet ? .quiet : verbose ? .verbose : .normal
        let command = try command(from: values)
        let json = switch command {
        case .batch(let options): options.json
        case .devices(let options): options.json
        case .shoot(let options): options.json
        case .stream(let options): options.json
        case .presetsList: values.get(PresetsList.json)
        default: false
        }
        let reportsProgress = values.path == [Batch.spec.name] || values.path == [Stream.spec.name]
        let progressJSON = reportsProgress ? try values.get(progress) ?? false : false
        return Invocation(command: command, verbosity: verbosity, json: json, progressJSON: progressJSON)
    }

    static func command(from values: OptionValues) throws -> ParsedCommand {
        if values.helpRequested {
            return .help(helpText(for: values.path) ?? helpText(for: [])!)
        }
        switch values.path {
        case []:
            // Reached only when another option came with them: they are handled before parsing, alone.
            let completion = try values.get(generateCompletion)
            if values.get(generateMan) || completion != nil {
                throw UsageError(
                    "'--generate-man' and '--generate-completion SHELL' take no other option; give them alone")
            }
            return values.get(version) ? .version : .help(helpText(for: [])!)
        case [Shoot.spec.name]: return .shoot(try shootOptions(values))
        case [Batch.spec.name]: return .batch(try batchOptions(values))
        case [Stream.spec.name]: return .stream(try streamOptions(values))
        case [Camera.spec.name]: return .camera(try cameraOptions(values))
        case [Devices.spec.name]: return .devices(DevicesOptions(json: values.get(Devices.json)))
        case [presets.name, PresetsList.spec.name]: return .presetsList
        case [presets.name, presetsShow.name]: return .presetsShow(values.positionals[0])
        case [presets.name, presetsCheck.name]: return .presetsCheck(values.positionals)
        case [help.name]:
            return .help(try helpForHelpCommand(values.positionals))
        default:
            preconditionFailure("no builder for command \(values.path)")
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

    static func shootOptions(_ values: OptionValues) throws -> ShootOptions {
        var options = ShootOptions()
        try applyMarkedCapture(values, to: &options)
        let output = try values.get(Shoot.output)
        if let output {
            if output == "-" { options.toStandardOutput = true } else { options.output = URL(fileURLWithPath: output) }
        }
        options.overwrite = values.get(Shoot.overwrite)
        options.json = values.get(Shoot.json)
        if options.json, options.toStandardOutput {
            throw OptionValueError("'--json' and '-o -' cannot be used together: stdout holds the photo")
        }
        options.size = try values.get(size)
        options.fps = try values.get(fps)
        options.warmup = try values.get(Shoot.warmup)
        // `-o photo.png` implies PNG; a folder has no extension and implies nothing. Any other
        // extension is refused: `-o a.webp` would otherwise hold JPEG bytes. So is a name with none
        // that is not a folder: `-o shots` wrote a JPEG called "shots".
        var extensionFormat: ImageFormat?
        if let file = options.output, !isFolder(file) {
            guard let format = try? ImageFormat(parsing: file.pathExtension) else {
                throw OptionValueError("invalid value '\(output!)' for '-o': expected a .jpg, .jpeg "
                    + "or .png file, a folder (end it with /) or - for stdout")
            }
            extensionFormat = format
        }
        if let format = try values.get(Shoot.format) {
            options.format = format
            if let implied = extensionFormat, implied != format {
                throw OptionValueError("'--format \(values.text(Shoot.format)!)' does not match the output "
                    + "'\(options.output!.lastPathComponent)'; drop one or make them agree")
            }
        } else if let implied = extensionFormat {
            options.format = implied
        }
        options.quality = try values.get(quality) ?? options.quality
        options.pipeline = try values.get(pipeline)
        options.delay = try values.get(Shoot.delay) ?? 0
        let count = try values.get(Shoot.count)
        options.count = count ?? 1
        if let interval = try values.get(Shoot.interval) {
            guard count != nil else {
                throw OptionValueError("'--interval' spaces the photos of --count N; add --count")
            }
            options.interval = interval
        }
        if let degrees = try values.get(Shoot.rotate) { options.geometry.rotate = degrees }
        options.geometry.square = values.get(Shoot.square)
        options.geometry.mirror = values.get(Shoot.mirror)
        options.controls = try values.get(Shoot.control)
        if let duplicate = Dictionary(grouping: options.controls, by: \.name).first(where: { $0.value.count > 1 })?.key {
            throw OptionValueError("--control \(duplicate) is given more than once; keep one")
        }
        return options
    }

    static func batchOptions(_ values: OptionValues) throws -> BatchOptions {
        let output = try values.get(Batch.output)!
        let single = BatchSingleOutput(output: output)
        var options = BatchOptions(inputs: values.positionals.map { URL(fileURLWithPath: $0) },
                                   outputFolder: URL(fileURLWithPath: output).deletingLastPathComponent())
        if single == nil { options.outputFolder = URL(fileURLWithPath: output) }
        options.single = single
        try applyMarks(values, to: &options)
        options.recursive = values.get(Batch.recursive)
        options.jobs = try values.get(Batch.jobs) ?? options.jobs
        options.format = try values.get(Batch.format) ?? single?.format.map { .convert($0) } ?? .keep
        options.quality = try values.get(Batch.quality) ?? options.quality
        options.maxSize = try values.get(Batch.maxSize)
        options.maxDecodedPixels = try values.get(Batch.maxPixels) ?? options.maxDecodedPixels
        options.reencode = values.get(Batch.reencode)
        options.strict = values.get(Batch.strict)
        options.namePattern = try values.get(Batch.name) ?? options.namePattern
        if values.get(Batch.skipExisting) { options.existing = .skip }
        if values.get(Batch.overwrite) { options.existing = .overwrite }
        if values.get(Batch.stripGPS) { options.metadata = .stripGPS }
        if values.get(Batch.stripMetadata) { options.metadata = .stripAll }
        options.setMetadata = try values.get(Batch.setMetadata)
        if !options.setMetadata.isEmpty && options.metadata == .stripAll {
            throw OptionValueError("'--set-metadata' and '--strip-metadata' cannot be used together")
        }
        options.dryRun = values.get(Batch.dryRun)
        options.json = values.get(Batch.json)
        if single == .standardOutput, options.json {
            throw OptionValueError("'--json' and '-o -' cannot be used together: stdout holds the photo")
        }
        options.shard = try values.get(Batch.shard)
        options.videoCodec = try values.get(Batch.videoCodec) ?? .h264
        return options
    }

    static func streamOptions(_ values: OptionValues) throws -> StreamOptions {
        var targets = try values.get(Stream.to)
        if let serve = try values.get(Stream.serve) { targets.append(.serve(serve)) }
        guard let first = targets.first else {
            throw OptionValueError("missing required option '--to TARGET' for 'camstamp stream'")
        }
        var options = StreamOptions(target: first)
        options.moreTargets = Array(targets.dropFirst())
        options.audio = try values.get(Stream.audio)
        try applyMarkedCapture(values, to: &options)
        options.duration = try values.get(Stream.duration)
        options.size = try values.get(size)
        options.fps = try values.get(fps)
        // What x264 cannot take is refused here rather than failing (or crawling) once running.
        if let size = options.size { try H264Limits.check(size: size, mp4: options.recordsMP4) }
        if let fps = options.fps, let size = options.size ?? (options.source == .test ? H264Limits.testCameraSize : nil) {
            try H264Limits.check(fps: fps, size: size)
        }
        options.bitrate = try values.get(Stream.bitrate) ?? options.bitrate
        options.sdp = try values.get(Stream.sdp).map { URL(fileURLWithPath: $0) }
        options.snapshotFolder = try values.get(Stream.snapshotFolder).map { URL(fileURLWithPath: $0, isDirectory: true) }
        options.overwrite = values.get(Stream.overwrite)
        options.json = values.get(Stream.json)
        options.pipeline = try values.get(pipeline)
        return options
    }

    static func cameraOptions(_ values: OptionValues) throws -> CameraOptions {
        var options = CameraOptions()
        try applyMarkedCapture(values, to: &options)
        options.output = try values.get(Camera.output).map { URL(fileURLWithPath: $0, isDirectory: true) }
        let web = try values.get(Camera.web)
        options.window = values.get(Camera.window)
        // The window replaces the default web address; both run when both are asked for.
        options.web = web ?? (options.window ? nil : .default)
        options.token = try values.get(Camera.token)
        options.size = try values.get(size)
        options.fps = try values.get(fps)
        options.quality = try values.get(quality) ?? options.quality
        options.mirrorPhotos = values.get(Camera.mirrorPhotos)
        options.pipeline = try values.get(pipeline)
        return options
    }

    /// `--preset`, `--text` and `--var`, which every job takes.
    static func applyMarks(_ values: OptionValues, to options: inout some MarkedOptions) throws {
        options.presets = try values.get(preset)
        options.text = try values.get(text)
        options.variables = try values.get(variable)
    }

    /// `--source` and the marks: the start of shoot's, stream's and camera's tables (`markedCapture`).
    static func applyMarkedCapture(_ values: OptionValues, to options: inout some CapturedOptions) throws {
        if let source = try values.get(source) { options.source = source }
        try applyMarks(values, to: &options)
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

/// The options of a job that marks: what `applyMarks` sets.
protocol MarkedOptions {
    var presets: [String] { get set }
    var text: String? { get set }
    var variables: [VariableAssignment] { get set }
}

/// The options of a job that marks frames from a source: what `applyMarkedCapture` sets.
protocol CapturedOptions: MarkedOptions {
    var source: SourceSpec { get set }
}

extension BatchOptions: MarkedOptions {}
extension ShootOptions: CapturedOptions {}
extension StreamOptions: CapturedOptions {}
extension CameraOptions: CapturedOptions {}
