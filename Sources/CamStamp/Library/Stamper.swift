// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import Media
import Presets

/// Stamps photos and video frames in memory: the library's way in, for programs that hold their
/// images themselves rather than in folders.
///
/// A stamper is set up once with its marks (presets by name, JSON or value, a quick `text`,
/// and variables), all checked up front; then `stamp(_:filename:date:)` turns one JPEG or PNG
/// into a marked file in memory, and `mark(_:date:frameNumber:fps:cancellation:)` marks a raw
/// frame in place. It works exactly as `camstamp batch` does: upright pixels, the photo's own
/// quality and chroma, EXIF/ICC/XMP/IPTC carried, the same warnings.
///
/// Not thread-safe: it keeps a photo pipeline and a renderer (with its own font map) warm between
/// calls. Use one stamper per thread; several may share nothing and run at once.
///
/// ```swift
/// let stamper = try Stamper(presets: [.named("credit")], variables: ["author": "Studio"])
/// let marked = try stamper.stamp(try Data(contentsOf: photo))
/// try marked.data.write(to: output)
/// ```
public final class Stamper {
    /// How photos are encoded and what of their metadata is kept; the defaults are `camstamp batch`'s.
    public struct Settings: Sendable, Equatable {
        /// Each photo in its own format (`.keep`), or all as JPEG or PNG.
        public var format: BatchFormat
        /// The JPEG quality (1…100); nil re-encodes a JPEG at its own estimated quality (kept
        /// within 70…98) and writes PNG sources at 90.
        public var quality: Int?
        /// The longest side of the output in pixels; larger photos are shrunk (Lanczos3). nil keeps the size.
        public var maxSize: Int?
        /// What is kept of each photo's metadata.
        public var metadata: MetadataPolicy
        /// Metadata written into every output (EXIF Artist/Copyright, XMP, IPTC), as templates.
        public var setMetadata: [MetadataAssignment]
        /// Damaged picture data or metadata fails the photo instead of a warning.
        public var strict: Bool
        /// The most pixels a photo decoded into memory may have, as `camstamp batch --max-pixels`.
        public var maxDecodedPixels = BatchOptions.defaultMaxDecodedPixels

        /// Settings with `camstamp batch`'s defaults unless given.
        public init(
            format: BatchFormat = .keep, quality: Int? = nil, maxSize: Int? = nil, metadata: MetadataPolicy = .keep,
            setMetadata: [MetadataAssignment] = [], strict: Bool = false
        ) {
            self.format = format
            self.quality = quality
            self.maxSize = maxSize
            self.metadata = metadata
            self.setMetadata = setMetadata
            self.strict = strict
        }
    }

    /// An image to stamp in a run of several (`stampAll(_:cancellation:each:)`).
    public enum Input: Sendable, Equatable {
        /// An encoded JPEG or PNG in memory; `filename` feeds `{filename}` and `{stem}`.
        case data(Data, filename: String? = nil)
        /// A JPEG or PNG file, read whole (never modified).
        case file(URL)
    }

    /// The marks, stacked in the order given (a `text` comes last).
    public let preset: Preset
    /// The template variables the marks see: the presets' own, overridden by those given.
    public let variables: [String: String]
    /// The settings photos are stamped with.
    public let settings: Settings
    private let marker: FrameMarker
    private let setMetadata: MetadataTemplates
    private let resources: Resources?
    /// Made on the first photo: marking raw frames needs no photo pipelines (nor the shipped files).
    private var worker: PhotoWorker?
    private var counter = 0

    /// Loads and checks the marks; the shipped photo pipelines are loaded from `resources` with the
    /// first photo, so a program that only marks raw frames needs none of the shipped files.
    ///
    /// - Parameters:
    ///   - presets: presets by name (shipped or a JSON file's path), JSON or value, stacked in order.
    ///   - text: a quick mark in the default style (bottom-right, white with a dark outline).
    ///   - variables: values for `{name}` in the marks and in `settings.setMetadata`.
    ///   - settings: encoding and metadata choices.
    ///   - resources: where the shipped presets, fonts and pipelines are.
    /// - Throws: `CamStampError` of kind `.usage` naming the preset, JSON path and fix for a bad
    ///   preset or variable, or nothing to stamp.
    public init(
        presets: [PresetSource] = [], text: String? = nil, variables: [String: String] = [:],
        settings: Settings = Settings(), resources: Resources? = Resources.locate()
    ) throws(CamStampError) {
        if let quality = settings.quality, !(1...100).contains(quality) {
            throw .usage("quality \(quality) is out of range; give 1…100")
        }
        if let maxSize = settings.maxSize, maxSize < 1 {
            throw .usage("maximum size \(maxSize) is out of range; give at least 1 pixel")
        }
        if settings.maxDecodedPixels < 1 {
            throw .usage("maximum pixel count \(settings.maxDecodedPixels) is out of range; give at least 1 pixel")
        }
        let assignments = variables.sorted { $0.key < $1.key }.map { VariableAssignment(key: $0.key, value: $0.value) }
        let (preset, overrides) = try MarkSetup.preset(
            sources: presets, text: text, variables: assignments, resources: resources)
        let marker = FrameMarker(preset: preset, variables: overrides)
        setMetadata = try MetadataTemplates(settings.setMetadata, variables: Set(marker.variables.keys))
        self.marker = marker
        self.resources = resources
        self.preset = preset
        self.variables = marker.variables
        self.settings = settings
    }

    /// Stamps one encoded photo: JPEG, PNG, WebP, HEIC/AVIF or TIFF, read by content whatever its
    /// name says.
    ///
    /// - Parameters:
    ///   - image: the file's bytes.
    ///   - filename: the name `{filename}` and `{stem}` expand to.
    ///   - date: when the photo was taken if its EXIF does not say (now when nil).
    /// - Returns: the marked file, its format and size, and a report.
    /// - Throws: `CamStampError` of kind `.failure` saying why the image cannot be stamped, or
    ///   that the shipped pipelines were not found (set `CAMSTAMP_HOME`, or pass `resources`).
    public func stamp(_ image: Data, filename: String? = nil, date: Date? = nil) throws(CamStampError) -> StampedImage {
        let worker = try photoWorker()
        counter += 1
        let kind: ImageFormat? =
            switch settings.format {
            case .keep: nil
            case .convert(let format): format
            }
        let stamped = try worker.stamp(
            image, outputKind: kind, filename: filename, fallbackDate: date, counter: counter)
        // Joined once: `data` puts the parts together each time it is asked.
        let data = stamped.data
        return StampedImage(
            data: data, format: stamped.kind,
            width: stamped.width, height: stamped.height,
            report: StampReport(warnings: stamped.warnings, metadata: CarriedMetadata(reading: data)))
    }

    /// Stamps the photo file at `url` (read, never modified), dated by its modification
    /// time when its EXIF has no date.
    public func stamp(contentsOf url: URL) throws(CamStampError) -> StampedImage {
        let data: Data
        do { data = try PhotoWorker.read(url) } catch {
            throw CamStampError(error.kind, "\(url.path): \(error.message)")
        }
        let modified = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
        do {
            return try stamp(data, filename: url.lastPathComponent, date: modified)
        } catch {
            throw CamStampError(error.kind, "\(url.path): \(error.message)")
        }
    }

    /// Stamps `inputs` one after another. One image failing does not stop the others: each gets
    /// its own result. `cancellation` is checked before each image.
    ///
    /// - Parameters:
    ///   - inputs: the images, stamped in this order.
    ///   - cancellation: checked before each image.
    ///   - each: called with each image's index and result as soon as it is done, so a caller
    ///     keeps what was finished before a cancellation.
    /// - Returns: one result per input, in order.
    /// - Throws: `CamStampError.cancelled(_:)` (kind `.interrupted`) when `cancellation` is
    ///   cancelled before the last image, saying how many were done.
    public func stampAll(
        _ inputs: [Input], cancellation: CancellationToken? = nil,
        each: ((Int, Result<StampedImage, CamStampError>) -> Void)? = nil
    ) throws(CamStampError)
        -> [Result<StampedImage, CamStampError>]
    {
        var results: [Result<StampedImage, CamStampError>] = []
        for (index, input) in inputs.enumerated() {
            try cancellation?.check("\(index) of \(inputs.count) images stamped")
            let result: Result<StampedImage, CamStampError>
            do throws(CamStampError) {
                switch input {
                case .data(let data, let filename): result = .success(try stamp(data, filename: filename))
                case .file(let url): result = .success(try stamp(contentsOf: url))
                }
            } catch {
                result = .failure(error)
            }
            each?(index, result)
            results.append(result)
        }
        return results
    }

    /// The photo worker, made on first use with the shipped photo pipelines.
    private func photoWorker() throws(CamStampError) -> PhotoWorker {
        if let worker { return worker }
        var templates: [String: PipelineTemplate] = [:]
        for name in ["photo-jpeg", "photo-png"] {
            templates[name] = try Templates.load(nil, builtIn: name, resources: resources)
        }
        let made = PhotoWorker(
            settings: .init(
                quality: settings.quality, maxSize: settings.maxSize,
                maxDecodedPixels: settings.maxDecodedPixels,
                keepsFormat: settings.format == .keep,
                strict: settings.strict, existing: .refuse, metadata: settings.metadata,
                templates: templates, setMetadata: setMetadata),
            marker: marker)
        worker = made
        return made
    }

    /// Marks a raw video frame in place, in its own pixel format.
    ///
    /// - Parameters:
    ///   - frame: the frame; only the pixels under the marks change.
    ///   - date: the time `{date}`, `{time}` and a clock show.
    ///   - frameNumber: what `{frame}` expands to.
    ///   - fps: what `{fps}` expands to.
    ///   - cancellation: checked first: a cancelled token leaves the frame untouched.
    /// - Throws: `CamStampError.cancelled(_:)` when cancelled; `.failure` when the marks cannot be
    ///   drawn or blended.
    public func mark(
        _ frame: inout PixelBuffer, date: Date = Date(), frameNumber: Int? = nil, fps: Double? = nil,
        cancellation: CancellationToken? = nil
    ) throws(CamStampError) {
        try cancellation?.check(frameNumber.map { "frame \($0) not marked" } ?? "frame not marked")
        try marker.mark(
            &frame,
            context: marker.context(
                width: frame.width, height: frame.height, captureDate: date,
                frame: frameNumber, fps: fps))
    }
}
