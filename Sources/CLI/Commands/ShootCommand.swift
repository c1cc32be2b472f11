// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// `camstamp shoot`: its table and the options it builds.
import CamStamp
import Foundation
import Presets

extension Commands {
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
            default: "15 for a camera, 0 for test"
        ) { try NumberOption.integer($0, option: $1, in: 0...Int.max) }
        static let format = Single<ImageFormat>(
            "format", value: "jpg|png", help: "The image format; taken from the extension of -o when it has one.",
            default: "jpg"
        ) { try ImageFormat(parsing: $0, option: $1) }
        static let delay = Single<Double>(
            "delay", value: "SEC",
            help: "Wait SEC seconds, with the camera running, before the photo (a countdown on a terminal)."
        ) {
            try NumberOption.nonNegativeSeconds($0, option: $1)
        }
        static let count = Single<Int>(
            "count", value: "N",
            help: "Take N photos (a burst, or a time-lapse with --interval); each is written whole as it is "
                + "taken and Ctrl-C keeps those written. -o must then be a folder or a name with {counter}.",
            default: "1"
        ) { try NumberOption.integer($0, option: $1, in: 1...Int.max) }
        static let interval = Single<Double>(
            "interval", value: "SEC",
            help: "Seconds from the start of one photo to the start of the next, with --count.",
            default: "0: one frame after the other"
        ) { try NumberOption.nonNegativeSeconds($0, option: $1) }
        static let rotate = Single<Int>(
            "rotate", value: "90|180|270",
            help:
                "Turn the photo clockwise first (a camera mounted on its side); the marks are laid out on the turned photo."
        ) { text, option in
            guard let degrees = Int(text), [0, 90, 180, 270].contains(degrees) else {
                throw OptionValueError.invalid(text, for: option, expected: "90, 180 or 270 (degrees clockwise)")
            }
            return degrees
        }
        static let square = Flag(
            "square",
            help: "Keep the centre square of the frame (1:1); the marks sit where the preset puts them in the square.")
        static let mirror = Flag("mirror", help: "Mirror the photo left to right, as a selfie preview shows it.")
        static let control = Repeated<ControlOption.Setting>(
            "control", value: "NAME=VALUE",
            help: "Set a V4L2 camera control as the camera opens: a number, true/false, or a menu "
                + "item by index or label (--control brightness=10, --control focus_automatic_continuous=false, "
                + "--control 'power_line_frequency=\"50 Hz\"'). Repeatable; `camstamp devices` lists each "
                + "camera's controls and ranges."
        ) { text, _ in try ControlOption.parse(text) }

        static let invisible = Flag(
            "invisible",
            help: "Also write an invisible mark into every photo, after the visible ones: 64 bits derived from "
                + "the photo's instance id (a new one per photo, given by --json; with --sign, the manifest's), "
                + "read back by camstamp verify and by invisible-watermark's dwtDct after JPEG re-compression "
                + "down to quality 75.")
        static let json = Flag(
            "json",
            help: "Print each photo as a JSON line on stdout as it is written (output, number, "
                + "width, height, format; with --invisible, invisible: {algorithm, instance_id, payload}), "
                + "then {\"summary\": {written, requested, interrupted}}, for scripts.")

        static let spec = CommandSpec(
            "shoot",
            overview: "Take a photo from a camera and stamp it.",
            keys: markedCapture + [
                output, overwrite, size, fps, warmup, format, quality, pipeline, delay, count, interval,
                rotate, square, mirror, control, invisible, json,
            ] + photoLocation + Signing.keys)
    }

    static func shootOptions(_ values: OptionValues) throws -> ShootOptions {
        var options = ShootOptions()
        try applyMarkedCapture(values, to: &options)
        options.location = try locationOptions(values, photos: true)
        let output = try values.get(Shoot.output)
        if let output {
            // The defaults file's output is the folder the photos go into (batch's and camera's too).
            let folder = values.origin(Shoot.output) != nil
            if output == "-" {
                options.toStandardOutput = true
            } else {
                options.output = folder ? URL(fileURLWithPath: output, isDirectory: true) : URL(fileURLWithPath: output)
            }
        }
        options.overwrite = values.get(Shoot.overwrite)
        options.json = values.get(Shoot.json)
        options.invisible = values.get(Shoot.invisible)
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
                throw OptionValueError(
                    "invalid value '\(output!)' for '-o': expected a .jpg, .jpeg "
                        + "or .png file, a folder (end it with /) or - for stdout")
            }
            extensionFormat = format
        }
        if let format = try values.get(Shoot.format) {
            options.format = format
            if let implied = extensionFormat, implied != format {
                throw OptionValueError(
                    "'--format \(values.text(Shoot.format)!)' does not match the output "
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
        if let duplicate = Dictionary(grouping: options.controls, by: \.name).first(where: { $0.value.count > 1 })?.key
        {
            throw OptionValueError("--control \(duplicate) is given more than once; keep one")
        }
        options.signing = try Signing.options(values)
        return options
    }
}
