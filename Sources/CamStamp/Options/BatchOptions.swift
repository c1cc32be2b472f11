// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Presets

/// Options of `camstamp batch`: stamp many photos into a folder.
public struct BatchOptions: Sendable, Equatable {
    /// Files and folders, as given.
    public var inputs: [URL]
    /// The folder the outputs go into (`-o`), mirroring the inputs' layout.
    public var outputFolder: URL
    /// One photo into one file or onto stdout instead (`-o one.jpg`, `-o -`); `outputFolder` is
    /// then the file's folder.
    public var single: BatchSingleOutput?
    /// Preset names or JSON paths, stacked in order.
    public var presets: [String]
    /// A quick mark in the default style (`--text`).
    public var text: String?
    /// `--var` values, in command-line order (a later one wins).
    public var variables: [VariableAssignment]
    /// Whether folders are searched in their subfolders too (`--recursive`).
    public var recursive: Bool
    /// How many photos are stamped at once (`--jobs`).
    public var jobs: Int
    /// The output format (`--format keep|jpg|png`).
    public var format: BatchFormat
    /// The JPEG quality; nil re-encodes each JPEG at its own quality, estimated from its
    /// quantisation tables (70…98), and PNG sources at ShootOptions.defaultQuality.
    public var quality: Int?
    /// A photo whose data is damaged fails instead of being stamped with a warning.
    public var strict: Bool = false
    /// The longest side of an output in pixels; nil keeps the size.
    public var maxSize: Int?
    /// `--max-pixels`: the most pixels a photo decoded into memory may have (see `defaultMaxDecodedPixels`).
    public var maxDecodedPixels = BatchOptions.defaultMaxDecodedPixels
    /// `--reencode`: every JPEG decoded, turned upright and encoded again, never stamped in its
    /// DCT coefficients (the default for JPEG → JPEG at the same size and quality).
    public var reencode: Bool = false
    /// `--invisible`: an invisible mark carrying the photo's instance id is written into every
    /// photo after the visible marks (so a JPEG is re-encoded, never spliced).
    public var invisible: Bool = false
    /// Output name from template variables, without extension.
    public var namePattern: String
    /// What happens when an output exists (`--skip-existing`, `--overwrite`).
    public var existing: ExistingFilePolicy
    /// What is kept of each photo's metadata (`--strip-gps`, `--strip-metadata`).
    public var metadata: MetadataPolicy
    /// Values written into every output's metadata (`--set-metadata`), in command-line order.
    public var setMetadata: [MetadataAssignment] = []
    /// List what would be done without doing it (`--dry-run`).
    public var dryRun: Bool
    /// Results as JSON lines on stdout, for scripts.
    public var json: Bool
    /// `--shard K/N`: only this share of the photos (by a stable hash of their relative path).
    public var shard: Shard?
    /// `--list FILE`: the names under the one INPUT folder, from a listing made once, instead of
    /// walking the folder (each shard then opens only its own files).
    public var list: URL?
    /// The codec video clips are re-encoded with.
    public var videoCodec: VideoCodecChoice = .h264
    /// `--sign`: every output signed with Content Credentials; nil signs nothing.
    public var signing: SigningOptions?

    /// The output name when `--name` is not given: the input's stem.
    public static let defaultNamePattern = "{stem}"
    /// The most pixels a photo may have: 250 megapixels (a 200 MP phone sensor is 16320×12240).
    /// Larger pictures are refused before decoding: one frame alone would take gigabytes.
    public static let maxPixels = 250_000_000
    /// The most pixels a photo is decoded at by default: 100 megapixels. Decoded, marked and
    /// encoded again, a picture takes up to about 10 bytes of memory a pixel at its peak (a
    /// 100 MP TIFF about 1 GB), so two jobs stay within a 4 GB machine. A JPEG stamped in its
    /// coefficients is not decoded into pixels and is bounded by `maxPixels` alone.
    public static let defaultMaxDecodedPixels = 100_000_000
    /// One job per active processor.
    public static var defaultJobs: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// Options with the defaults `camstamp batch` has.
    public init(
        inputs: [URL], outputFolder: URL, presets: [String] = [], text: String? = nil,
        variables: [VariableAssignment] = [], recursive: Bool = false,
        jobs: Int = BatchOptions.defaultJobs, format: BatchFormat = .keep,
        quality: Int? = nil, maxSize: Int? = nil,
        namePattern: String = BatchOptions.defaultNamePattern,
        existing: ExistingFilePolicy = .refuse, metadata: MetadataPolicy = .keep,
        dryRun: Bool = false, json: Bool = false
    ) {
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
