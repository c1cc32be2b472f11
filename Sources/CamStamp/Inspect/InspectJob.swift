// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import Media
internal import PhotoMetadata
import Presets

/// `camstamp inspect FILE...`: what to look at, and with which marks.
public struct InspectOptions: Sendable, Equatable {
    /// The photos and clips, in the order they are reported.
    public var files: [URL]
    /// One JSON array instead of a block per file.
    public var json = false
    /// The marks batch would draw (they decide which blocks a splice codes again); nil: `timestamp`.
    public var presets: [String] = []
    /// `--var K=V` for the marks.
    public var variables: [VariableAssignment] = []
    /// Batch's options that decide a photo's path, as `batch` takes them: the output format
    /// (`--format`; `keep` by default).
    public var format: BatchFormat = .keep
    /// `--quality`: another quality than the photo's own, which re-encodes it.
    public var quality: Int?
    /// `--max-size`: the longer side a photo is scaled down to.
    public var maxSize: Int?
    /// `--reencode`: no JPEG stamped in its DCT coefficients.
    public var reencode = false
    /// `--invisible`: an invisible mark, which changes every block.
    public var invisible = false

    /// Options for `files` with the defaults.
    public init(files: [URL]) { self.files = files }
}

/// Reads each file as batch does and says what batch would do with it, without writing anything.
public struct InspectJob {
    /// What to inspect, with which marks.
    public let options: InspectOptions

    /// A job for `options`.
    public init(options: InspectOptions) { self.options = options }

    /// The preset inspect assumes when none is given: the one the camera starts with.
    public static let defaultPreset = "timestamp"

    /// Inspects every file in order, handing each result to `each` as it comes. Throws (before
    /// any file) only for marks that cannot be loaded.
    public func run(
        resources: Resources? = Resources.locate(),
        each: (URL, Result<Inspection, CamStampError>) -> Void
    ) throws(CamStampError) {
        let names = options.presets.isEmpty ? [Self.defaultPreset] : options.presets
        let (preset, overrides) = try MarkSetup.preset(
            names: names, text: nil, variables: options.variables, resources: resources)
        let worker = PhotoWorker(
            settings: .init(
                quality: options.quality, maxSize: options.maxSize, keepsFormat: options.format == .keep,
                strict: false, existing: .refuse, metadata: .keep, templates: [:],
                setMetadata: try MetadataTemplates([], variables: []), reencode: options.reencode,
                invisible: options.invisible),
            marker: FrameMarker(preset: preset, variables: overrides))
        for url in options.files {
            do throws(CamStampError) {
                each(url, .success(try inspect(url, worker: worker)))
            } catch {
                each(url, .failure(error))
            }
        }
    }

    /// One file: a clip by its content, else a photo (whose reading says why it is none).
    func inspect(_ url: URL, worker: PhotoWorker) throws(CamStampError) -> Inspection {
        guard FileManager.default.fileExists(atPath: url.path) else { throw .failure("no such file; check the path") }
        if let reason = BatchPlan.notRegular(url) { throw .failure(reason) }
        // As BatchPlan tells them apart: a photo by content first (a HEIC is an ISO BMFF file too).
        if BatchPlan.sniff(url) == nil,
            let clip = ClipItem.Format(sniffing: url, codec: BatchOptions(inputs: [url], outputFolder: url).videoCodec)
        {
            return try inspectClip(url, format: clip, marker: worker.marker)
        }
        return try inspectPhoto(url, data: PhotoWorker.read(url), worker: worker)
    }
}
