// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// `camstamp presets render`: its table and the options it builds.
import CamStamp
import Foundation
import Presets

extension Commands {
    /// `camstamp presets render NAME`.
    enum PresetsRender {
        static let output = Single<String>(
            "output", short: "o", value: "FILE",
            help: "The JPEG to write, a folder to write NAME.jpg into, or - for stdout.",
            default: "NAME.jpg in the current folder")
        static let size = Single<FrameSize>(
            "size", value: "WxH",
            help: "The size of the sample photo; the portrait one is the same turned a quarter "
                + "(at most \(maxSide) pixels a side).",
            default: "\(PresetPreview.defaultSize.width)x\(PresetPreview.defaultSize.height)"
        ) { try FrameSize(parsing: $0, option: $1) }
        static let orientation = Single<PresetPreview.Layout>(
            "orientation", value: "both|landscape|portrait",
            help: "Which sample photos to draw on: both side by side, or one of them.", default: "both"
        ) { text, option in
            guard let layout = PresetPreview.Layout(rawValue: text) else {
                throw OptionValueError.invalid(text, for: option, expected: "both, landscape or portrait")
            }
            return layout
        }
        static let overwrite = Flag("overwrite", help: "Replace the -o file if it exists (otherwise it is refused).")

        /// A preview is for looking at: larger only costs memory.
        static let maxSide = 8000

        static let spec = CommandSpec(
            "render",
            overview: "Draw a preset on a sample photo, in landscape and portrait, to see what it looks like.",
            arguments: [ArgumentSpec("NAME", help: "A preset name or a path to a preset JSON file.")],
            keys: [output, size, orientation, variable, quality, overwrite],
            discussion: "What only a photo has gets sample values: {exif:Model} is \"Sample S1\", {date} "
                + "2026-05-14, {time} 17:42, {filename} IMG_2041.jpg; preset variables keep their values "
                + "unless --var sets them.")
    }

    static func presetRenderOptions(_ values: OptionValues) throws -> PresetRenderOptions {
        var options = PresetRenderOptions(preset: values.positionals[0])
        if let output = try values.get(PresetsRender.output) {
            if output == "-" {
                options.toStandardOutput = true
            } else {
                options.output = URL(fileURLWithPath: output)
            }
        }
        if let size = try values.get(PresetsRender.size) {
            guard max(size.width, size.height) <= PresetsRender.maxSide else {
                throw OptionValueError(
                    "'--size \(size.width)x\(size.height)' is larger than a preview needs; "
                        + "give at most \(PresetsRender.maxSide) pixels a side")
            }
            options.size = size
        }
        options.layout = try values.get(PresetsRender.orientation) ?? .both
        options.variables = try values.get(variable)
        options.quality = try values.get(quality) ?? options.quality
        options.overwrite = values.get(PresetsRender.overwrite)
        return options
    }

    /// `presets list`, or with --previews/--pictures the previews too.
    static func presetsListCommand(_ values: OptionValues) throws -> ParsedCommand {
        let folder = try values.get(PresetsList.previews), inline = values.get(PresetsList.pictures)
        guard folder != nil || inline else { return .presetsList }
        if values.get(PresetsList.json) {
            throw OptionValueError("'--json' lists the presets for scripts; give it without --previews and --pictures")
        }
        return .presetsPictures(
            PresetPicturesOptions(folder: folder.map { URL(fileURLWithPath: $0, isDirectory: true) }, inline: inline))
    }
}
