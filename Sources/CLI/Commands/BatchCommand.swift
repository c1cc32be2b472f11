// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// `camstamp batch`: its table and the options it builds.
import CamStamp
import Foundation
import Presets

extension Commands {
    /// `camstamp batch`.
    enum Batch {
        static let output = Single<String>(
            "output", short: "o", value: "OUTDIR",
            help: "The folder to write into. With one photo, a file instead (one-marked.jpg, .png, .webp, .heic, "
                + ".tif, .avif: its format from the extension unless --format says otherwise), or - for stdout.",
            required: true)
        static let recursive = Flag("recursive", help: "Also stamp the photos in subfolders of each INPUT folder.")
        static let jobs = Single<Int>(
            "jobs", value: "N", help: "How many photos to stamp at once.",
            default: "one per CPU, \(BatchOptions.defaultJobs) here"
        ) { try NumberOption.jobs($0, option: $1) }
        static let format = Single<BatchFormat>(
            "format", value: "keep|jpg|png|webp|heic|tiff",
            help: "The output format; keep writes each photo "
                + "in its own format (HEIC as JPEG where libheif has no HEVC encoder).", default: "keep"
        ) {
            try BatchFormat(parsing: $0, option: $1)
        }
        static let quality = Single<Int>(
            "quality", value: "Q", help: "Quality, 1 to 100, of JPEG, WebP, HEIC and AVIF outputs.",
            default: "each JPEG's own, estimated from its quantisation tables and kept within 70 to 98, and "
                + "\(ShootOptions.defaultQuality) for a JPEG from a PNG; 90 for WebP, 80 for HEIC and AVIF"
        ) {
            try NumberOption.quality($0, option: $1)
        }
        static let maxSize = Single<Int>(
            "max-size", value: "PX",
            help: "Scale each photo down (Lanczos3) so that its longer side is at most PX pixels."
        ) {
            try NumberOption.integer($0, option: $1, in: 1...Int.max)
        }
        static let maxPixels = Single<Int>(
            "max-pixels", value: "N",
            help: "Refuse a photo of more than N pixels (e.g. 50000000 or 50M) that has to be decoded: decoded, marked "
                + "and encoded again, a photo takes up to about 10 bytes of memory a pixel. A JPEG written as a JPEG "
                + "at its own size and quality is stamped without decoding and is not held to it.",
            default: "\(BatchOptions.defaultMaxDecodedPixels / 1_000_000)M, about 1 GB a job"
        ) {
            try NumberOption.pixels($0, option: $1)
        }
        static let reencode = Flag(
            "reencode",
            help: "Decode, turn upright and encode every JPEG again. By default a JPEG written as a "
                + "JPEG at its own size and quality is stamped without re-encoding: only the 8×8 blocks under "
                + "the marks change, the rest stays bit-identical, and its EXIF orientation is kept (the marks "
                + "are drawn turned so that they show upright). Arithmetic-coded, 12-bit, CMYK and damaged "
                + "JPEGs are re-encoded anyway, with a note.")
        static let invisible = Flag(
            "invisible",
            help: "Also write an invisible mark into every photo, after the visible ones: 64 bits derived from "
                + "the photo's instance id (a new one per photo, given by --json), read back by camstamp and by "
                + "invisible-watermark's dwtDct after JPEG re-compression down to quality 75. A JPEG is then "
                + "decoded and encoded again, never stamped in its coefficients.")
        static let strict = Flag(
            "strict",
            help: "Count a photo whose data is damaged as failed; by default it is stamped as far "
                + "as it decodes, with a warning.")
        static let name = Single<String>(
            "name", value: "PATTERN",
            help: "Names each output from {stem}, {filename} and {counter}, e.g. {stem}-marked "
                + "or trip-{counter:4}; the extension is added.",
            default: BatchOptions.defaultNamePattern
        ) { pattern, option in
            guard !pattern.isEmpty else {
                throw OptionValueError(
                    "'\(option)' must not be empty; the default is \(BatchOptions.defaultNamePattern)")
            }
            return pattern
        }
        static let skipExisting = Flag("skip-existing", help: "Leave outputs that already exist alone and go on.")
        static let overwrite = Flag("overwrite", help: "Replace outputs that already exist.")
        static let stripGPS = Flag(
            "strip-gps",
            help: "Keep the metadata but drop the location: GPS in EXIF and XMP (DJI drone "
                + "tags too) and place names in XMP and IPTC.")
        static let stripMetadata = Flag("strip-metadata", help: "Write no EXIF, XMP or IPTC metadata at all.")
        static let setMetadata = Repeated<MetadataAssignment>(
            "set-metadata", value: "K=V",
            help: "Write Artist or Copyright into every photo (EXIF, XMP dc:creator/dc:rights, and "
                + "IPTC where the photo has it), expanded like a mark's text, e.g. "
                + "Copyright='© {date:%Y} {author}'. Repeatable."
        ) { try MetadataAssignment(parsing: $0, option: $1) }
        static let videoCodec = Single<VideoCodecChoice>(
            "video-codec", value: "h264|hevc|vp9|keep",
            help: "How video clips (MP4, MOV, MKV, WebM) are re-encoded; keep uses the source's codec "
                + "where it is one of these. Their audio is copied, not re-encoded.", default: "h264"
        ) {
            try VideoCodecChoice(parsing: $0, option: $1)
        }
        static let dryRun = Flag("dry-run", help: "Show what would be written without writing anything.")
        static let json = Flag(
            "json",
            help: "Print one JSON object per photo on stdout (input, output, status, reason, milliseconds, "
                + "path: spliced, coefficients or reencoded; with --invisible, invisible: {algorithm, instance_id, payload}), then a summary object ({\"summary\": {marked, failed, skipped, not_started, …}}), for scripts."
        )
        static let shard = Single<Shard>(
            "shard", value: "K/N",
            help: "Stamp only share K of N (1 ≤ K ≤ N), chosen by a stable hash of each photo's path under its "
                + "INPUT: N processes on one or many machines share a corpus, each photo done once, into one "
                + "OUTDIR tree. With --skip-existing a rerun finishes what a killed one left (docs/scale.md)."
        ) { text, _ in
            try Shard(parsing: text)
        }

        static let list = Single<String>(
            "list", value: "FILE",
            help: "Read the names of the files under the one INPUT folder from FILE (one a line, or NUL-separated: "
                + "cd INPUT && find . -type f -print0 > FILE) instead of listing the folder: a listing made once, "
                + "so each --shard opens only its own files (docs/scale.md).")

        static let spec = CommandSpec(
            "batch",
            overview:
                "Stamp photos (JPEG, PNG, WebP, HEIC/HEIF, AVIF, TIFF) into a folder, keeping their EXIF and orientation.",
            arguments: [
                ArgumentSpec(
                    "INPUT", arity: .oneOrMore,
                    help: "Photos and folders; the output mirrors their relative layout under OUTDIR.")
            ],
            keys: [
                output, preset, text, variable, recursive, jobs, format, quality, maxSize, maxPixels, reencode,
                invisible, strict, name, skipExisting, overwrite, stripGPS, stripMetadata, setMetadata, videoCodec,
                dryRun, json, shard, list, progress,
            ] + Signing.keys,
            exclusive: [[skipExisting, overwrite], [stripGPS, stripMetadata]],
            discussion: "Without --skip-existing or --overwrite, an output that already exists is an "
                + "error for that photo; the others are still stamped. Photos are read by content, not by "
                + "extension; a photo over \(BatchOptions.maxPixels / 1_000_000) megapixels (or --max-pixels, if more) "
                + "is refused before it is read. "
                + "Embedded previews (the EXIF thumbnail, maker-note and XMP previews, MPF images, a motion photo's "
                + "video) are left out: they show the photo unmarked.")
    }

    static func batchOptions(_ values: OptionValues) throws -> BatchOptions {
        let output = try values.get(Batch.output)!
        let single = BatchSingleOutput(output: output)
        var options = BatchOptions(
            inputs: values.positionals.map { URL(fileURLWithPath: $0) },
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
        options.invisible = values.get(Batch.invisible)
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
        options.list = try values.get(Batch.list).map { URL(fileURLWithPath: $0) }
        options.videoCodec = try values.get(Batch.videoCodec) ?? .h264
        options.signing = try Signing.options(values)
        return options
    }
}
