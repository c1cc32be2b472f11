// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import Media
internal import PhotoMetadata
import Presets

/// One batch worker: its own decoders, encoders and marker (renderers are per thread), reused
/// for every photo it takes, so a photo costs decode + blend + encode and nothing else.
final class PhotoWorker {
    struct Settings {
        /// The JPEG quality; nil re-encodes at each source's own (see `PhotoFacts.sourceQuality`).
        var quality: Int?
        var maxSize: Int?
        /// `--max-pixels`: the most pixels a photo decoded into memory may have.
        var maxDecodedPixels = BatchOptions.defaultMaxDecodedPixels
        /// `--format keep`: each output in its input's format, by content.
        var keepsFormat: Bool
        /// `--strict`: a photo with damaged data fails instead of being stamped with a warning.
        var strict: Bool
        var existing: ExistingFilePolicy
        var metadata: MetadataPolicy
        var templates: [String: PipelineTemplate]
        /// `--set-metadata`, expanded per photo.
        var setMetadata: MetadataTemplates
        /// `--reencode`: no JPEG is stamped in its DCT coefficients.
        var reencode = false
        /// `--invisible`: each photo gets an invisible mark after its visible ones.
        var invisible = false
        /// `batch PHOTO -o -`: the one photo's bytes go to stdout, not to a file.
        var toStandardOutput = false
        /// Baseline JPEGs get their entropy-coded data spliced (tier 2) rather than every
        /// coefficient written again (tier 1). On unless CAMSTAMP_SPLICE=0 (for the bench and the
        /// tests, which compare the two).
        var splice = ProcessInfo.processInfo.environment["CAMSTAMP_SPLICE"] != "0"
        /// What the manifest says of `--strip-gps`/`--set-metadata`, nil when neither edits metadata.
        var metadataEdit: String?
        /// `--sign`: each output signed, the last write before it is put in place.
        var credentials: ContentCredentials?
    }

    /// How a marked photo was written, for `--json`.
    enum WritePath: String, Sendable {
        /// Stamped in its DCT coefficients: only the blocks under the marks changed.
        case coefficients
        /// Stamped in its DCT coefficients with the entropy-coded data spliced: only the MCUs
        /// under the marks (and the one after each) coded again, the rest copied as they were.
        case spliced
        /// Decoded, turned upright, marked and encoded again.
        case reencoded
    }

    /// `exists`: its output was there already, without --skip-existing or --overwrite (counted
    /// apart from failures, and said once for the whole batch).
    enum Status: String, Sendable { case marked, failed, skipped, exists }

    struct Outcome: Sendable {
        var item: BatchPlan.Item
        var status: Status
        var reason: String?
        var milliseconds: Int
        var path: WritePath?
        var invisible: InvisibleMarkInfo? = nil
    }

    let settings: Settings
    let marker: FrameMarker
    /// Keeps the marks in each component's plane from photo to photo of one size and orientation.
    let stamper = JPEGCoefficientStamp()
    /// One pipeline per (input, output) kind pair met so far, each reused photo after photo.
    var pipelines: [PipelineKey: PhotoPipeline] = [:]
    struct PipelineKey: Hashable {
        var input: PhotoCodec
        var output: ImageFormat
        /// webpenc reads its quality and lossless settings only when its caps are set, and fails on
        /// a frame of another format than its first, so each combination has a pipeline of its
        /// own; nil for the other encoders.
        var webp: WebPSettings?
    }
    struct WebPSettings: Hashable {
        var quality: Int
        var lossless: Bool
        var format: String
    }

    /// The quality PNG sources are written at as JPEG when --quality is not given.
    static let pngSourceQuality = ShootOptions.defaultQuality
    /// The largest side a JPEG can have (the format's 16-bit size less libjpeg's margin).
    static let maxJPEGSide = JPEGPicture.maxSide

    init(settings: Settings, marker: FrameMarker) {
        self.settings = settings
        self.marker = marker
    }

    /// What becomes of an input whose output already exists, by `--skip-existing`/`--overwrite`:
    /// nil to go on (overwrite, or no file there). One rule for photos and clips.
    static func existingOutput(_ output: URL, _ policy: ExistingFilePolicy) -> (Status, String)? {
        guard FileManager.default.fileExists(atPath: output.path) else { return nil }
        switch policy {
        case .skip: return (.skipped, "output exists")
        case .refuse: return (.exists, alreadyExists(output))
        case .overwrite: return nil
        }
    }

    /// An output that is there without `--skip-existing` or `--overwrite`, found before the work or
    /// appearing during it.
    static func alreadyExists(_ output: URL) -> String {
        "\(output.path) already exists; use --skip-existing to keep it or --overwrite to replace it"
    }

    /// `duration` in whole milliseconds, for `--json`.
    static func milliseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }

    func process(_ item: BatchPlan.Item) -> Outcome {
        let start = ContinuousClock.now
        func outcome(
            _ status: Status, _ reason: String? = nil, path: WritePath? = nil, invisible: InvisibleMarkInfo? = nil
        ) -> Outcome {
            let elapsed = ContinuousClock.now - start
            return Outcome(
                item: item, status: status, reason: reason,
                milliseconds: PhotoWorker.milliseconds(elapsed),
                path: path, invisible: invisible)
        }
        if !settings.toStandardOutput, let (status, reason) = PhotoWorker.existingOutput(item.output, settings.existing)
        {
            return outcome(status, reason)
        }
        do throws(CamStampError) {
            let data = try Self.read(item.input)
            let stamped = try stamp(
                data, outputKind: settings.keepsFormat ? nil : item.outputKind,
                filename: item.input.lastPathComponent, fallbackDate: modificationDate(item.input),
                counter: item.counter,
                named: BatchPlan.photoExtensions[item.input.pathExtension.lowercased()].map {
                    ($0, item.input.pathExtension)
                },
                strictOption: "--strict")
            var warnings = stamped.warnings
            try place(stamped, source: data, item: item, warnings: &warnings)
            return outcome(
                .marked, warnings.isEmpty ? nil : warnings.joined(separator: "; "), path: stamped.path,
                invisible: stamped.invisible)
        } catch {
            return outcome(.failed, error.message)
        }
    }

    /// The stamped photo written to its output or stdout; with `--sign`, signed as it is written
    /// (straight into the temporary file: no second copy of it is held); unsigned, with a warning
    /// when its source's manifest is left out.
    private func place(
        _ stamped: Stamped, source: Data, item: BatchPlan.Item, warnings: inout [String]
    )
        throws(CamStampError)
    {
        guard let credentials = settings.credentials else {
            if ContentCredentials.carriesManifest(source, skipping: stamped.sourceScan) {
                warnings.append(ContentCredentials.manifestDropped)
            }
            try settings.toStandardOutput ? writeStandardOutput(stamped.parts) : write(stamped.parts, to: item.output)
            return
        }
        let marks = ContentCredentials.marks(marker.drawnContents)
        let edit = settings.metadataEdit
        let sign = { (file: URL?) throws(CamStampError) -> ContentCredentials.Signed in
            try credentials.sign(
                stamped.parts, format: stamped.kind, source: source, sourceName: item.input.lastPathComponent,
                sourceFormat: ImageFormat.sniff(source) ?? stamped.kind, marks: marks, metadataEdit: edit,
                instanceID: stamped.instanceID, invisible: stamped.invisible != nil, blocks: stamped.blocks,
                sourceScan: stamped.sourceScan, into: file)
        }
        var warning: String?
        if settings.toStandardOutput {
            let signed = try sign(nil)
            warning = signed.warning
            try writeStandardOutput([signed.data ?? Data()])
        } else {
            try write(to: item.output) { (temporary) throws(CamStampError) in warning = try sign(temporary).warning }
        }
        if let warning { warnings.append(warning) }
    }

    /// How a failure of the marks starts, told apart from the decoders' failures.
    static let cannotMark = "cannot mark the image"

    /// An error from the marks, kept apart from decoder failures (which retry with libjpeg-turbo).
    struct MarkFailure: Error, CustomStringConvertible {
        var error: Error
        var description: String { "\(error)" }
    }

    /// The photo's bytes. A file whose first bytes are no photo's is not read further: a named
    /// INPUT may be any file (a 10 GB video given by mistake), and reading it whole to say so
    /// took its size in memory. Opened as a regular file: not one swapped for a FIFO since the plan.
    /// The library's `Stamper.stamp(contentsOf:)` reads its file the same way.
    static func read(_ url: URL) throws(CamStampError) -> Data {
        func failure(_ error: RegularFile.Failure) -> CamStampError {
            if case .failed(let reason) = error { return .failure("cannot read the file (\(reason))") }
            return .failure("cannot read the file: it \(error)")
        }
        let file: RegularFile
        let head: Data
        do throws(RegularFile.Failure) {
            file = try RegularFile(opening: url)
            head = try file.read(upTo: 64)
        } catch { throw failure(error) }
        // PhotoFacts says why, from these bytes alone.
        if head.count == 64, ImageFormat.sniff(head) == nil { _ = try PhotoFacts(head) }
        // Read whole or not at all: more than the machine's memory would trap or meet the OOM killer.
        let memory = ProcessInfo.processInfo.physicalMemory
        if UInt64(file.size) > memory {
            throw .failure(
                "the file is \(file.size >> 20) MB, more than this machine's memory "
                    + "(\(memory >> 20) MB); is it a photo?")
        }
        do throws(RegularFile.Failure) { return try file.readAll(after: head) } catch { throw failure(error) }
    }

    /// stat(2)'s, not FileManager's attributes: those look up the owner's and group's names
    /// (reading /etc/passwd and /etc/group) and the extended attributes, for every photo.
    private func modificationDate(_ url: URL) -> Date? {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return nil }
        return Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
    }

    /// The upright size of the output: the photo's, or shrunk to --max-size on its long side.
    func outputSize(_ photo: PhotoFacts) -> (width: Int, height: Int) {
        let upright =
            photo.orientation.swapsAxes
            ? (width: photo.height, height: photo.width) : (width: photo.width, height: photo.height)
        guard let limit = settings.maxSize, max(upright.width, upright.height) > limit else { return upright }
        let scale = Double(limit) / Double(max(upright.width, upright.height))
        return (
            max(1, Int((Double(upright.width) * scale).rounded())),
            max(1, Int((Double(upright.height) * scale).rounded()))
        )
    }

    /// The photo stamped in its DCT coefficients (a bare JPEG, stored orientation kept), when
    /// that path applies: JPEG to JPEG, no --reencode, no --quality, nothing to scale. nil sends
    /// the photo down the re-encoding path; a photo that could not be stamped so (arithmetic
    /// coding, 12-bit, CMYK/YCCK) gets a note saying why; damaged data (libjpeg's warning) goes
    /// in `damage` instead, for the photo's damage warning, which --strict fails.
    /// `spliceSkipped`: why a coefficient-stamped photo was not spliced (`camstamp inspect` says it).
    func stampInCoefficients(
        _ data: Data, photo: PhotoFacts, outputKind: ImageFormat,
        context: (Int, Int) -> TemplateContext, notes: inout [String],
        damage: inout String?
    ) throws(CamStampError) -> (data: Data, path: WritePath, spliceSkipped: String?, blocks: JPEGBlockRecord?)? {
        let upright =
            photo.orientation.swapsAxes
            ? (width: photo.height, height: photo.width) : (width: photo.width, height: photo.height)
        guard coefficientPathRefusal(photo, outputKind: outputKind) == nil else {
            // The decoding path's jpegdec says nothing of damaged data: it is looked for here.
            if photo.kind == .jpg, !photo.truncated { damage = JPEGDamage.warning(in: data[photo.pictureBytes]) }
            return nil
        }
        let composition: OverlayComposition
        do {
            composition = try marker.composition(
                width: upright.width, height: upright.height,
                context: context(upright.width, upright.height))
        } catch {
            throw .failure("\(Self.cannotMark): \(error)")
        }
        do {
            let result = try stamper.stamp(
                data[photo.pictureBytes], composition: composition, orientation: photo.orientation,
                splice: settings.splice, recordingBlocks: settings.credentials != nil)
            if let warning = result.damage { damage = warning }
            let skipped = settings.splice ? result.spliceSkipped : "CAMSTAMP_SPLICE=0"
            let stamped = (result.data, result.spliced ? WritePath.spliced : .coefficients, skipped, result.blocks)
            // Quantised this coarsely (a quality of 1 or 2), the marks' change rounds away in every
            // block: the photo would come out as it went in, said to be marked. Re-encoded, it is.
            if result.blocksAltered == 0, !composition.isEmpty {
                do throws(CamStampError) { try checkDecodable(photo) } catch {
                    notes.append("\(Self.quantisedAway), and it is too large to decode: it is written unmarked")
                    return stamped
                }
                notes.append("re-encoded, not stamped in its DCT coefficients: \(Self.quantisedAway)")
                return nil
            }
            return stamped
        } catch {
            if let warning = error.damage {
                damage = warning
            } else {
                notes.append("re-encoded, not stamped in its DCT coefficients: \(error.description)")
            }
            return nil
        }
    }

    static let quantisedAway = "at the photo's own quantisation the marks changed no block"

    /// Why `photo` goes down the re-encoding path whatever its data holds, or nil when it may be
    /// stamped in its DCT coefficients (`stampInCoefficients` still tries, and may say otherwise).
    func coefficientPathRefusal(_ photo: PhotoFacts, outputKind: ImageFormat) -> String? {
        let upright =
            photo.orientation.swapsAxes
            ? (width: photo.height, height: photo.width) : (width: photo.width, height: photo.height)
        if photo.kind != .jpg { return "a \(photo.kind.name): only a JPEG is stamped in its DCT coefficients" }
        if outputKind != .jpg { return "written as \(outputKind.name), not as the JPEG it is" }
        if settings.reencode { return "--reencode asks for it" }
        // The invisible mark changes every block's chroma: nothing is left to splice.
        if settings.invisible { return "--invisible marks every block" }
        if settings.quality != nil { return "--quality asks for another quality than the photo's own" }
        // A picture cut short is damaged: the decoder's warning on the other path says so.
        if photo.truncated { return "its data ends before the picture does: decoded as far as it goes" }
        if outputSize(photo) != upright { return "--max-size scales it" }
        return nil
    }

    /// What a photo or clip whose output `target` did not fit on its disk says.
    static func diskFull(_ target: URL) -> String {
        "cannot write \(target.path) (the disk is full); free some space or choose another -o folder"
    }

    /// Writes `parts`, one after the other, to a temporary file beside `target` and moves it into
    /// place, so a crash or Ctrl-C never leaves half a photo; without --overwrite an existing file
    /// is never replaced.
    private func write(_ parts: [Data], to target: URL) throws(CamStampError) {
        try write(to: target) { (temporary) throws(CamStampError) in
            do throws(POSIXError) { try TemporaryFiles.write(parts, to: temporary) } catch {
                throw Self.writeFailure(error, target)
            }
        }
    }

    /// Runs `produce` on a temporary path beside `target` (it creates the file), then moves the
    /// file into place; what it left is removed if it fails.
    private func write(to target: URL, _ produce: (URL) throws(CamStampError) -> Void) throws(CamStampError) {
        let folder = target.deletingLastPathComponent()
        let temporary = TemporaryFiles.temporaryURL(in: folder, for: target.lastPathComponent)
        TemporaryFiles.shared.add(temporary)
        defer { TemporaryFiles.shared.remove(temporary) }
        do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
            throw Self.writeFailure(error, target)
        }
        do { try produce(temporary) } catch {
            unlink(temporary.path)
            throw error
        }
        try TemporaryFiles.moveIntoPlace(
            temporary, at: target, replacing: settings.existing == .overwrite,
            exists: .failure(Self.alreadyExists(target)))
    }

    private static func writeFailure(_ error: Error, _ target: URL) -> CamStampError {
        let full = (error as? CocoaError)?.code == .fileWriteOutOfSpace || (error as? POSIXError)?.code == .ENOSPC
        if full { return .failure(diskFull(target)) }
        let reason =
            (error as? POSIXError).map { String(cString: strerror($0.code.rawValue)) } ?? error.localizedDescription
        return .failure("cannot write \(target.path): \(reason)")
    }
}
