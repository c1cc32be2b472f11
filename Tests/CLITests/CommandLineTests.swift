// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import CamStamp
@testable import CLI
import Foundation
import Testing

/// camstamp's own command line: tables, validation, exact messages and help.
@Suite struct CommandLineTests {
    static let allCommands: [[String]] = [
        [], ["shoot"], ["batch"], ["stream"], ["devices"], ["presets"],
        ["presets", "list"], ["presets", "show"], ["presets", "check"], ["help"],
    ]

    func parse(_ arguments: String...) throws(UsageError) -> ParsedCommand {
        try parseCommandLine(arguments)
    }

    func error(_ arguments: String...) -> String? {
        do {
            let command = try parseCommandLine(arguments)
            return "no error: \(command)"
        } catch {
            return error.message
        }
    }

    // MARK: Errors from the brief, word for word

    @Test func usageErrorsAreExact() {
        #expect(
            error("shoot", "--qualty", "80")
                == "unknown option '--qualty' for 'camstamp shoot'; did you mean '--quality'?")
        // One suggester for the CLI and the presets: two of four letters changed is another word
        // (the CLI's own threshold allowed 2 edits for any name of 4 to 7 letters).
        #expect(
            error("shoot", "--taxi", "x") == "unknown option '--taxi' for 'camstamp shoot'; see 'camstamp shoot --help'"
        )
        #expect(error("shoot", "--size") == "missing value for '--size'")
        #expect(
            error("batch", "in", "-o", "out", "--skip-existing", "--overwrite")
                == "'--skip-existing' and '--overwrite' cannot be used together")
        #expect(
            error("batch", "in", "-o", "out", "--strip-gps", "--strip-metadata")
                == "'--strip-gps' and '--strip-metadata' cannot be used together")
        #expect(error("shot") == "unknown command 'shot'; did you mean 'shoot'?")
        #expect(error("strem", "--to", "x.mp4") == "unknown command 'strem'; did you mean 'stream'?")
        #expect(
            error("presets", "sho", "credit")
                == "unknown subcommand 'sho' for 'camstamp presets'; did you mean 'show'?")
        #expect(error("frobnicate") == "unknown command 'frobnicate'; see 'camstamp --help'")
    }

    @Test func valueErrorsAreExact() {
        #expect(
            error("stream", "--to", "out.mkv", "--whip-token", "k")
                == "'--whip-token' is for whip:// and whips:// targets; give one with --to")
        #expect(
            error("stream", "--to", "whip://127.0.0.1:1/w", "--whip-token", "a b")
                == "'--whip-token' must be letters, digits and - . _ ~ + / = only (a Bearer token)")
        #expect(
            error("shoot", "--size", "abc") == "invalid value 'abc' for '--size': expected WIDTHxHEIGHT, e.g. 1280x720")
        #expect(error("shoot", "--quality", "120") == "'--quality' must be between 1 and 100 (got 120)")
        #expect(error("batch", "in", "-o", "out", "--quality=0") == "'--quality' must be between 1 and 100 (got 0)")
        #expect(
            error("stream", "--to", "ftp://x")
                == "unsupported target 'ftp://x' for '--to': use a .mp4 or .mkv file, rtp://HOST:PORT, rtmp://HOST/APP/KEY, srt://HOST:PORT, hls:DIR, whip://HOST:PORT/PATH or v4l2:/dev/videoN"
        )
        #expect(error("stream", "--to", "/nope/out.mp4") == "'--to' folder '/nope' does not exist")
        #expect(error("shoot", "--var", "job") == "--var expects KEY=VALUE")
        #expect(error("stream", "--to", "rtp://h:5000", "--var", "=x") == "--var expects KEY=VALUE")
        #expect(error("batch", "in", "-o", "out", "--jobs", "0") == "--jobs must be at least 1")
        #expect(
            error("shoot", "--source", "v4l2:video0")
                == "invalid value 'v4l2:video0' for '--source': expected auto, test, /dev/videoN, v4l2:/dev/videoN, file:PATH or a camera name"
        )
        #expect(error("shoot", "--source", "file:/nope/clip.mp4") == "'--source' file '/nope/clip.mp4' does not exist")
        #expect(error("shoot", "--pipeline", "/nope.txt") == "'--pipeline' file '/nope.txt' does not exist")
        #expect(error("shoot", "--format", "gif") == "invalid value 'gif' for '--format': expected jpg or png")
        #expect(error("shoot", "--fps", "0") == "'--fps' must be at least 1 (got 0)")
        #expect(error("shoot", "--warmup", "-1") == "'--warmup' must be at least 0 (got -1)")
        #expect(error("batch", "in", "-o", "out", "--max-size", "0") == "'--max-size' must be at least 1 (got 0)")
        #expect(error("batch", "in", "-o", "out", "--name=") == "'--name' must not be empty; the default is {stem}")
        #expect(
            error("stream", "--to", "rtp://h:5000", "--bitrate", "0")
                == "'--bitrate' must be between 1 and 2048000 (got 0)")
        #expect(
            error("shoot", "-o", "a.webp")
                == "invalid value 'a.webp' for '-o': expected a .jpg, .jpeg or .png file, a folder (end it with /) or - for stdout"
        )
        // No extension, no such folder: neither a photo name nor a folder (a JPEG named "shots" was written).
        #expect(
            error("shoot", "-o", "/nonexistent-camstamp-shots")
                == "invalid value '/nonexistent-camstamp-shots' for '-o': expected a .jpg, .jpeg or .png file, a folder (end it with /) or - for stdout"
        )
        #expect(
            error("stream", "--to", "rtp://h:5000", "--duration", "-3")
                == "'--duration' must be more than 0 seconds (got -3)")
        #expect(
            error("shoot", "-o", "a.png", "--format", "jpg")
                == "'--format jpg' does not match the output 'a.png'; drop one or make them agree")
    }

    @Test func requiredPartsAreNamed() {
        #expect(error("batch", "-o", "out") == "missing at least one INPUT for 'camstamp batch'")
        #expect(error("batch", "photos") == "missing required option '-o OUTDIR' for 'camstamp batch'")
        #expect(error("stream") == "missing required option '--to TARGET' for 'camstamp stream'")
        #expect(error("presets", "show") == "missing NAME for 'camstamp presets show'")
        #expect(error("presets", "check") == "missing at least one FILE for 'camstamp presets check'")
        #expect(error("devices", "extra") == "unexpected argument 'extra' for 'camstamp devices'")
        #expect(
            error("shoot", "--to", "x.mp4")
                == "unknown option '--to' for 'camstamp shoot'; it is an option of 'camstamp stream'")
        #expect(
            error("shoot", "--recursive")
                == "unknown option '--recursive' for 'camstamp shoot'; it is an option of 'camstamp batch'")
        #expect(
            error("devices", "--zebra")
                == "unknown option '--zebra' for 'camstamp devices'; see 'camstamp devices --help'")
    }

    @Test func everyErrorIsOneLine() {
        let lines: [[String]] = [
            ["shoot", "--qualty"], ["batch"], ["stream", "--to", "ftp://x"], ["x"],
            ["shoot", "--size", "1x"], ["batch", "a", "-o", "b", "--jobs", "-1"],
        ]
        for arguments in lines {
            do {
                _ = try parseCommandLine(arguments)
                Issue.record("\(arguments) parsed")
            } catch {
                #expect(!error.message.contains("\n"), "\(arguments)")
                #expect(error.exitCode == .usage)
            }
        }
    }

    // MARK: Defaults

    @Test func shootDefaults() throws {
        #expect(try parse("shoot") == .shoot(ShootOptions()))
        let options = ShootOptions()
        #expect(options.source == .auto)
        #expect(options.output == nil)
        #expect(options.quality == 90)
        #expect(options.format == .jpg)
        #expect(options.warmup == nil && options.effectiveWarmup == 15)
        #expect(options.presets.isEmpty && options.variables.isEmpty && options.text == nil)
    }

    @Test func batchDefaults() throws {
        guard case .batch(let options) = try parse("batch", "in", "-o", "out") else {
            Issue.record("not batch")
            return
        }
        #expect(options.inputs == [URL(fileURLWithPath: "in")])
        #expect(options.outputFolder == URL(fileURLWithPath: "out"))
        #expect(options.jobs == ProcessInfo.processInfo.activeProcessorCount)
        #expect(options.format == .keep)
        #expect(options.quality == nil, "nil: each JPEG at its own quality")
        #expect(!options.strict)
        #expect(options.namePattern == "{stem}")
        #expect(options.existing == .refuse)
        #expect(options.metadata == .keep)
        #expect(!options.recursive && !options.dryRun && !options.json)
        #expect(options.maxSize == nil)
    }

    @Test func streamDefaults() throws {
        guard case .stream(let options) = try parse("stream", "--to", "rtp://127.0.0.1:5000") else {
            Issue.record("not stream")
            return
        }
        #expect(options == StreamOptions(target: .rtp(host: "127.0.0.1", port: 5000)))
        #expect(options.bitrate == 4000)
        #expect(options.duration == nil && options.sdp == nil && options.snapshotFolder == nil)
        #expect(options.source == .auto)
    }

    @Test func streamToSeveralTargetsAndServe() throws {
        guard
            case .stream(let options) = try parse(
                "stream", "--to", "rtp://127.0.0.1:5000", "--to", "rtmp://h/live/k",
                "--serve", "rtsp://0.0.0.0:8554/live", "--audio", "none")
        else {
            Issue.record("not stream")
            return
        }
        #expect(
            options.targets == [
                .rtp(host: "127.0.0.1", port: 5000), .rtmp(url: "rtmp://h/live/k"),
                .serve(RTSPServe(address: "0.0.0.0", port: 8554, path: "/live")),
            ])
        #expect(options.audio == AudioChoice.none)
        guard case .stream(let served) = try parse("stream", "--serve", "rtsp://127.0.0.1:8554/live") else {
            Issue.record("not stream")
            return
        }
        #expect(served.targets == [.serve(RTSPServe(address: "127.0.0.1", port: 8554, path: "/live"))])
        #expect(served.audio == nil)
    }

    // MARK: Every flag reaches its option

    @Test func shootTakesEveryFlag() throws {
        let folder = FileManager.default.temporaryDirectory
        let template = folder.appendingPathComponent("camstamp-cli-test-\(UUID().uuidString).txt")
        try "videotestsrc ! appsink name=frames".write(to: template, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: template) }
        let command = try parseCommandLine([
            "shoot", "--source", "v4l2:/dev/video1", "--preset", "credit", "--preset=./mine.json",
            "--text", "© 2026", "--var", "job=A-113", "--var=site=North", "-o", "shots/",
            "--size", "1920x1080", "--fps", "30", "--warmup=5", "--format", "png", "--quality", "75",
            "--pipeline", template.path,
        ])
        #expect(
            command
                == .shoot(
                    ShootOptions(
                        source: .v4l2(device: "/dev/video1"), presets: ["credit", "./mine.json"], text: "© 2026",
                        variables: [
                            VariableAssignment(key: "job", value: "A-113"),
                            VariableAssignment(key: "site", value: "North"),
                        ],
                        output: URL(fileURLWithPath: "shots/"), size: FrameSize(width: 1920, height: 1080), fps: 30,
                        warmup: 5, format: .png, quality: 75, pipeline: URL(fileURLWithPath: template.path))))
    }

    @Test func shootTakesTheBurstDelayAndControlFlags() throws {
        guard
            case .shoot(let options) = try parse(
                "shoot", "--source", "HD Webcam", "--delay", "2.5", "--count", "10", "--interval", "60",
                "--control", "brightness=-10", "--control", "focus_automatic_continuous=false",
                "--control", "power_line_frequency=\"50 Hz\"", "-o", "site-{date:%Y%m%d}-{counter:3}.jpg")
        else {
            Issue.record("not a shoot command")
            return
        }
        #expect(options.source == .named("HD Webcam"))
        #expect(options.delay == 2.5 && options.count == 10 && options.interval == 60)
        #expect(
            options.controls.map(\.description) == [
                "brightness=-10", "focus_automatic_continuous=false", "power_line_frequency=50 Hz",
            ])
        #expect(options.output?.lastPathComponent == "site-{date:%Y%m%d}-{counter:3}.jpg")
        #expect(options.format == .jpg)
        guard case .shoot(let plain) = try parse("shoot") else { return }
        #expect(plain.delay == 0 && plain.count == 1 && plain.interval == 0 && plain.controls.isEmpty)
    }

    @Test func burstAndControlErrorsAreExact() {
        #expect(error("shoot", "--delay", "-1") == "'--delay' must be at least 0 seconds (got -1)")
        #expect(
            error("shoot", "--delay", "soon")
                == "invalid value 'soon' for '--delay': expected a number of seconds, e.g. 10 or 2.5")
        #expect(error("shoot", "--count", "0") == "'--count' must be at least 1 (got 0)")
        #expect(error("shoot", "--interval", "5") == "'--interval' spaces the photos of --count N; add --count")
        #expect(
            error("shoot", "--count", "3", "--interval", "nan")
                == "invalid value 'nan' for '--interval': expected a number of seconds, e.g. 10 or 2.5")
        #expect(
            error("shoot", "--control", "brightness") == "--control expects NAME=VALUE, e.g. --control brightness=10")
        #expect(error("shoot", "--control", "=3") == "--control expects NAME=VALUE, e.g. --control brightness=10")
        #expect(
            error("shoot", "--control", "brightness=")
                == "--control brightness: the value is empty; give a number, true/false or a menu item")
        #expect(
            error("shoot", "--control", "Exposure (Absolute)=100")
                == "--control: 'Exposure (Absolute)' is not a control name as v4l2src spells it; did you mean 'exposure_absolute'? (`camstamp devices` lists them)"
        )
        #expect(
            error("shoot", "--control", "brightness=1 0")
                == "--control brightness=1 0: GStreamer cannot read '1 0' as one value; give a whole number, true/false or a menu item (quote text with spaces as \"50 Hz\")"
        )
        #expect(
            error("shoot", "--control", "brightness=0.5")
                == "--control brightness=0.5: GStreamer cannot read '0.5' as one value; give a whole number, true/false or a menu item (quote text with spaces as \"50 Hz\")"
        )
        #expect(
            error("shoot", "--control", "brightness=1,contrast=2")
                == "--control brightness=1,contrast=2: one control per --control; repeat the option for more")
        #expect(
            error("shoot", "--control", "gain=1", "--control", "gain=2")
                == "--control gain is given more than once; keep one")
    }

    @Test func shootFormatFollowsTheOutputExtension() throws {
        guard case .shoot(let options) = try parse("shoot", "-o", "photo.PNG") else { return }
        #expect(options.format == .png)
        guard case .shoot(let same) = try parse("shoot", "-o", "photo.jpeg", "--format", "jpg") else { return }
        #expect(same.format == .jpg)
    }

    @Test func batchTakesEveryFlag() throws {
        let command = try parseCommandLine([
            "batch", "a.jpg", "folder", "-o", "out", "--preset", "credit", "--text", "x", "--var", "k=v",
            "--recursive", "--jobs", "3", "--format", "jpg", "--quality", "80", "--max-size", "2048",
            "--name", "{date:%Y}-{counter}", "--overwrite", "--strip-gps", "--dry-run", "--json", "--", "-odd.jpg",
        ])
        #expect(
            command
                == .batch(
                    BatchOptions(
                        inputs: ["a.jpg", "folder", "-odd.jpg"].map { URL(fileURLWithPath: $0) },
                        outputFolder: URL(fileURLWithPath: "out"), presets: ["credit"], text: "x",
                        variables: [VariableAssignment(key: "k", value: "v")], recursive: true, jobs: 3,
                        format: .convert(.jpg), quality: 80, maxSize: 2048, namePattern: "{date:%Y}-{counter}",
                        existing: .overwrite, metadata: .stripGPS, dryRun: true, json: true)))
        guard case .batch(let other) = try parse("batch", "in", "--output=out", "--skip-existing", "--strip-metadata")
        else { return }
        #expect(other.existing == .skip)
        #expect(other.metadata == .stripAll)
        #expect(other.outputFolder == URL(fileURLWithPath: "out"))
    }

    @Test func streamTakesEveryFlag() throws {
        let command = try parseCommandLine([
            "stream", "--source", "test", "--preset", "timestamp", "--text", "LIVE", "--var", "cam=1",
            "--to", "rtp://10.0.0.2:5004", "--duration", "12.5", "--size", "640x480", "--fps", "25",
            "--bitrate", "2500", "--sdp", "s.sdp", "--snapshot-dir", "snaps",
        ])
        #expect(
            command
                == .stream(
                    StreamOptions(
                        source: .test, presets: ["timestamp"], text: "LIVE",
                        variables: [VariableAssignment(key: "cam", value: "1")],
                        target: .rtp(host: "10.0.0.2", port: 5004), duration: 12.5,
                        size: FrameSize(width: 640, height: 480),
                        fps: 25, bitrate: 2500, sdp: URL(fileURLWithPath: "s.sdp"),
                        snapshotFolder: URL(fileURLWithPath: "snaps", isDirectory: true))))
    }

    @Test func devicesAndPresets() throws {
        #expect(try parse("devices") == .devices(DevicesOptions(json: false)))
        #expect(try parse("devices", "--json") == .devices(DevicesOptions(json: true)))
        #expect(try parse("presets") == .presetsList)
        #expect(try parse("presets", "list") == .presetsList)
        #expect(try parse("presets", "show", "credit") == .presetsShow("credit"))
        #expect(try parse("presets", "check", "a.json", "b.json") == .presetsCheck(["a.json", "b.json"]))
    }

    @Test func versionAndTopLevel() throws {
        #expect(try parse("--version") == .version)
        #expect(camstampVersion == "0.2.0")
        #expect(try parse() == .help(helpText(for: [])!))
        #expect(error("--version", "shoot") == "'--version' cannot be used with 'camstamp shoot'")
        #expect(try parse("-V") == .version)
        #expect(
            error("-q", "--generate-man")
                == "'--generate-man' and '--generate-completion SHELL' take no other option; give them alone")
    }
}
