// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// The command tables of camstamp and the raw-arguments → validated-options step.
//
// Flag names here are a contract (documented in docs/, one page per command): scripts and tests
// outside the project type them.
import CamStamp
import Presets
import Foundation

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
    case presetsRender(PresetRenderOptions)
    case presetsPictures(PresetPicturesOptions)
    case inspect(InspectOptions)
    case verify(VerifyOptions)
    case keysNew(KeysOptions)
    /// `camstamp config show | path | check`.
    case config(ConfigRequest)
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

/// `parseCommandLine`, with the global options kept and, when `defaults` is given, the values of
/// that defaults file under the command line (`runCommandLine` reads the user's; nil reads none).
public func parseInvocation(_ arguments: [String], defaults: DefaultsFile? = nil) throws(UsageError) -> Invocation {
    func settings(path: [String], command: CommandSpec) throws(UsageError) -> [DefaultSetting] {
        guard let defaults, DefaultsKeys.readsDefaults(path: path, command: command) else { return [] }
        return try defaults.settings()
    }
    let parsed = try CommandLineParser.parse(arguments, root: Commands.root, defaults: settings)
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
        default: "auto"
    ) { text, option in
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
        help: "Sets the template variable K, e.g. --var job=A-113. Repeatable; the last one wins."
    ) { text, _ in
        try VariableAssignment(parsing: text)
    }
    static let size = Single<FrameSize>(
        "size", value: "WxH", help: "The frame size to ask the source for, e.g. 1280x720."
    ) { try FrameSize(parsing: $0, option: $1) }
    static let fps = Single<Int>("fps", value: "N", help: "The frame rate to ask the source for.") {
        try NumberOption.integer($0, option: $1, in: 1...Int.max)
    }
    static let quality = Single<Int>(
        "quality", value: "Q", help: "JPEG quality, 1 to 100.", default: "\(ShootOptions.defaultQuality)"
    ) {
        try NumberOption.quality($0, option: $1)
    }
    static let pipeline = Single<URL>(
        "pipeline", value: "FILE",
        help: "A capture template of your own instead of pipelines/capture.pipeline (gst-launch syntax "
            + "ending in appsink name=frames; {source} and {caps} are filled in if present)."
    ) { try existingFile($0, option: $1) }

    static let progress = Single<Bool>(
        "progress", value: "bar|json",
        help: "bar: the progress line, on a terminal. json: one JSON object a line on stderr, every 0.5 s "
            + "whatever stderr is, for scripts and GUIs (as ffmpeg's -progress); the last says \"progress\": \"end\".",
        default: "bar"
    ) { text, option in
        guard let json = ["bar": false, "json": true][text] else {
            throw OptionValueError.invalid(text, for: option, expected: "bar or json")
        }
        return json
    }

    /// What every job that marks frames from a source starts its table with.
    static let markedCapture: [any OptionKey] = [source, preset, text, variable]

    // MARK: Commands (shoot, batch, stream, camera and devices each have a file in Commands/)

    /// `camstamp presets list`.
    enum PresetsList {
        static let json = Flag(
            "json", help: "Print the presets as JSON (name, description, origin, file), for scripts.")
        static let previews = Single<String>(
            "previews", value: "DIR",
            help: "Draw each preset on the sample photos (as presets render does) into DIR/NAME.jpg, "
                + "replacing those files, and print their paths.")
        static let pictures = Flag(
            "pictures",
            help: "Show each preset's preview under its line, in a terminal that displays pictures "
                + "(kitty, WezTerm, Ghostty, Konsole, iTerm2, foot, mlterm; or as CAMSTAMP_PICTURES=kitty|iterm2|sixel says); "
                + "elsewhere, or into a pipe, write the previews "
                + "to ~/.cache/camstamp/previews and print their paths.")

        static let spec = CommandSpec(
            "list",
            overview: "List your presets and the shipped ones, with their descriptions and where each comes from.",
            keys: [json, previews, pictures], discussion: PresetFolders.discussion)
    }

    static let presetsShow = CommandSpec(
        "show", overview: "Print a preset as JSON.",
        arguments: [ArgumentSpec("NAME", help: "A preset name or a path to a preset JSON file.")])
    static let presetsCheck = CommandSpec(
        "check", overview: "Check preset files and report every problem.",
        arguments: [ArgumentSpec("FILE", arity: .oneOrMore, help: "Preset JSON files.")])

    static let presets = CommandSpec(
        "presets",
        overview: "List, show, check and render presets.",
        usage: "camstamp presets [list | show NAME | check FILE... | render NAME]",
        subcommands: [PresetsList.spec, presetsShow, presetsCheck, PresetsRender.spec],
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
        subcommands: [
            Shoot.spec, Batch.spec, Stream.spec, Camera.spec, Devices.spec, presets, Inspect.spec, Verify.spec,
            Keys.spec, ConfigCommand.spec, help,
        ],
        discussion: "Run 'camstamp COMMAND --help' for the options of a command.\n"
            + "Exit status: 0 all done, 1 some inputs or the pipeline failed, 64 usage or preset error, "
            + "130 interrupted (143 by SIGTERM).")

    // MARK: Raw arguments → validated options

    /// The command and the global options (`-q`, `-v`, and `--json` where the command has it).
    static func invocation(from values: OptionValues) throws -> Invocation {
        let quiet = values.get(CommandSpec.quiet), verbose = values.get(CommandSpec.verbose)
        if quiet && verbose {
            throw UsageError("'--quiet' and '--verbose' cannot be used together")
        }
        let verbosity: Verbosity = quiet ? .quiet : verbose ? .verbose : .normal
        let command = try command(from: values)
        let json =
            switch command {
            case .batch(let options): options.json
            case .devices(let options): options.json
            case .shoot(let options): options.json
            case .stream(let options): options.json
            case .presetsList: values.get(PresetsList.json)
            case .inspect(let options): options.json
            case .verify(let options): options.json
            case .config(.show(_, let json)): json
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
        case [presets.name, PresetsList.spec.name]: return try presetsListCommand(values)
        case [presets.name, presetsShow.name]: return .presetsShow(values.positionals[0])
        case [presets.name, presetsCheck.name]: return .presetsCheck(values.positionals)
        case [presets.name, PresetsRender.spec.name]: return .presetsRender(try presetRenderOptions(values))
        case [Inspect.spec.name]: return .inspect(try inspectOptions(values))
        case [Verify.spec.name]: return .verify(try Verify.options(values))
        case [Keys.spec.name, Keys.new.name]: return .keysNew(try Keys.options(values))
        case [ConfigCommand.spec.name, values.path.last]: return .config(try ConfigCommand.request(values))
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

}
