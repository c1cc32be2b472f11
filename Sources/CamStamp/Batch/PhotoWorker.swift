import Foundation
import Media
import PhotoMetadata
import Presets

/// One batch worker: its own decoders, encoders and marker (renderers are per thread), reused
/// for every photo it takes, so a photo costs decode + blend + encode and nothing else.
final class PhotoWorker {
    struct Settings {
        /// The JPEG quality; nil re-encodes at each source's own (see `PhotoFacts.sourceQuality`).
        var quality: Int?
        var maxSize: Int?
        /// `--format keep`: each output in its input's format, by content.
        var keepsFormat: Bool
        /// `--strict`: a photo with damaged data fails instead of being stamped with a warning.
        var strict: Bool
        var existing: ExistingFilePolicy
        var metadata: MetadataPolicy
        var templates: [String: PipelineTemplate]
        /// `--set-metadata`, expanded per photo.
        var setMetadata: MetadataTemplates
    }

    enum Status: String, Sendable { case marked, failed, skipped }

    struct Outcome: Sendable {
        var item: BatchPlan.Item
        var status: Status
        var reason: String?
        var milliseconds: Int
    }

    private let settings: Settings
    private let marker: Marker
    /// One pipeline per (input, output) kind pair met so far, each reused photo after photo.
    private var pipelines: [PipelineKey: PhotoPipeline] = [:]
    private struct PipelineKey: Hashable {
        var input: PhotoCodec
        var output: BatchPlan.Kind
        /// webpenc reads its quality and lossless settings only when its caps are set, so each
        /// combination has a pipeline of its own; nil for the other encoders.
        var webp: WebPSettings?
    }
    private struct WebPSettings: Hashable { var quality: Int; var lossless: Bool }

    /// The quality PNG sources are written at as JPEG when --quality is not given.
    static let pngSourceQuality = ShootOptions.defaultQuality
    /// The largest side a JPEG can have (the format's 16-bit size less libjpeg's margin).
    static let maxJPEGSide = 65500

    init(settings: Settings, marker: Marker) {
        self.settings = settings
        self.marker = marker
    }

    func process(_ item: BatchPlan.Item) -> Outcome {
        let start = ContinuousClock.now
        func outcome(_ status: Status, _ reason: String? = nil) -> Outcome {
            let elapsed = ContinuousClock.now - start
            return Outcome(item: item, status: status, reason: reason,
                           milliseconds: Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000))
        }
        if FileManager.default.fileExists(atPath: item.output.path) {
            switch settings.existing {
            case .skip: return outcome(.skipped, "output exists")
            case .refuse: return outcome(.failed, "\(item.output.path) already exists; use --skip-existing to keep it or --overwrite to replace it")
            case .overwrite: break
            }
        }
        do throws(CamStampError) {
            let data = try read(item.input)
            let photo = try PhotoFacts(data)
            // Notes are said in the warning line; damage also fails the photo under --strict.
            var notes = photo.notes, damage: [String] = []
            let outputKind = settings.keepsFormat ? BatchPlan.keptKind(photo.kind) : item.outputKind
            if let named = BatchPlan.photoExtensions[item.input.pathExtension.lowercased()], named != photo.kind {
                let name = photo.kind.name
                notes.append("the file is a \(name) despite its .\(item.input.pathExtension) name; read as \(name)"
                    + (settings.keepsFormat && outputKind == photo.kind ? " and written as \(name) under the name the input has" : ""))
            }
            if outputKind != photo.kind, settings.keepsFormat {
                notes.append("written as JPEG: this machine's libheif has no \(photo.kind.name) encoder")
            }
            if photo.hasAlpha, outputKind == .jpeg { notes.append("its transparency is not kept (a JPEG has none)") }
            if data[photo.pictureBytes.upperBound...].contains(where: { $0 != 0 && $0 != 0xFF }) {
                notes.append("\(data.count - photo.pictureBytes.upperBound) bytes after the picture's end (such as a motion photo's video) are not carried to the output")
            }
            damage += photo.metadataDamage
            let captureDate = photo.dateTaken ?? modificationDate(item.input) ?? Date()
            let marker = self.marker
            // What a mark (and a --set-metadata value) can refer to, for this photo at this size.
            let context = { (width: Int, height: Int) -> TemplateContext in
                var context = marker.context(width: width, height: height, captureDate: captureDate)
                context.filename = item.input.lastPathComponent
                context.stem = item.input.deletingPathExtension().lastPathComponent
                context.counter = item.counter
                context.exif = photo.exifValues
                return context
            }
            // Runs on the pipeline's streaming thread, while this thread waits for the result.
            let decoded = try run(data, photo: photo, outputKind: outputKind) { (frame: VideoFrame) -> Error? in
                do { try marker.mark(frame, context: context(frame.width, frame.height)) } catch { return MarkFailure(error: error) }
                return nil
            }
            if let warning = decoded.warning { damage.insert("the picture data is damaged (\(warning))", at: 0) }
            if settings.strict, !damage.isEmpty {
                return outcome(.failed, damage.joined(separator: "; ") + "; not stamped (--strict)")
            }
            if decoded.warning != nil { damage[0] += "; stamped as far as it decodes" }
            let size = outputSize(photo)
            let edits = settings.setMetadata.edits(for: context(size.width, size.height))
            let output: (data: Data, warnings: [String])
            switch decoded.output {
            case .encoded(let encoded):
                output = try photo.withMetadata(encoded, kind: outputKind, policy: settings.metadata, edits: edits)
            case .raw(let image):
                output = try encode(image, as: outputKind, photo: photo, edits: edits)
            }
            try write(output.data, to: item.output)
            let warnings = damage + notes + output.warnings
            return outcome(.marked, warnings.isEmpty ? nil : warnings.joined(separator: "; "))
        } catch {
            return outcome(.failed, error.message)
        }
    }

    /// An error from the marks, kept apart from decoder failures (which retry with libjpeg-turbo).
    private struct MarkFailure: Error, CustomStringConvertible {
        var error: Error
        var description: String { "\(error)" }
    }

    private func read(_ url: URL) throws(CamStampError) -> Data {
        do { return try Data(contentsOf: url, options: .mappedIfSafe) } catch {
            throw .failure("cannot read the file (\((error as NSError).localizedFailureReason ?? error.localizedDescription))")
        }
    }

    private func modificationDate(_ url: URL) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
    }

    /// The upright size of the output: the photo's, or shrunk to --max-size on its long side.
    private func outputSize(_ photo: PhotoFacts) -> (width: Int, height: Int) {
        let upright = photo.orientation.swapsAxes ? (width: photo.height, height: photo.width) : (width: photo.width, height: photo.height)
        guard let limit = settings.maxSize, max(upright.width, upright.height) > limit else { return upright }
        let scale = Double(limit) / Double(max(upright.width, upright.height))
        return (max(1, Int((Double(upright.width) * scale).rounded())), max(1, Int((Double(upright.height) * scale).rounded())))
    }

    /// What a photo pipeline gives: a file from a GStreamer encoder (JPEG, PNG, WebP), or raw
    /// pixels for libheif or libtiff to encode.
    private enum PipelineOutput {
        case encoded(Data)
        case raw(RawImage)
    }

    /// A lossless WebP written back under --format keep stays lossless.
    private func webpLossless(_ photo: PhotoFacts) -> Bool { settings.keepsFormat && photo.isLosslessWebP }

    /// The quality HEIC and AVIF are written at without --quality: about what phones write.
    static let heifQuality = 80
    /// The WebP quality for lossy sources without --quality.
    static let webpQuality = 90

    /// `image` written as HEIC, AVIF or TIFF, with the photo's metadata in the format's own places.
    private func encode(_ image: RawImage, as kind: BatchPlan.Kind, photo: PhotoFacts,
                        edits: MetadataEdits) throws(CamStampError) -> (data: Data, warnings: [String]) {
        let pieces = photo.metadataPieces(size: PixelSize(width: image.width, height: image.height), policy: settings.metadata, edits: edits)
        do {
            switch kind {
            case .heif, .avif:
                let data = try HEIFEncoder.encode(image, codec: kind == .heif ? .hevc : .av1, quality: settings.quality ?? Self.heifQuality,
                                                  icc: pieces.icc, exif: pieces.exifTIFF, xmp: pieces.xmp)
                return (data, pieces.warnings)
            default:
                let data = try TIFFFile.encode(image, icc: pieces.icc, xmp: pieces.xmp)
                return (data, pieces.warnings + (pieces.exifTIFF == nil ? [] : ["EXIF left out: camstamp does not write EXIF into TIFF"]))
            }
        } catch {
            throw .failure("cannot encode the \(kind.name) file: \(error.description)")
        }
    }

    /// The template that ends in `kind`'s encoder (raw for the formats encoded in Swift).
    static func templateName(_ kind: BatchPlan.Kind) -> String {
        switch kind {
        case .jpeg: "photo-jpeg"
        case .png: "photo-png"
        case .webp: "photo-webp"
        case .heif, .avif, .tiff: "photo-raw"
        }
    }

    /// Decodes, orients, scales, marks (through `mark`) and encodes one photo. JPEGs go through
    /// jpegdec, except those it cannot give (CMYK/YCCK, data cut short, or a failure in jpegdec):
    /// those are decoded by libjpeg-turbo, which recovers damaged data with a warning. HEIC, AVIF
    /// and TIFF are decoded by libheif and libtiff, then go through the same pipeline raw.
    private func run(_ data: Data, photo: PhotoFacts, outputKind: BatchPlan.Kind,
                     mark: @escaping (VideoFrame) -> Error?) throws(CamStampError) -> (output: PipelineOutput, warning: String?) {
        let upright = photo.orientation.swapsAxes ? (width: photo.height, height: photo.width) : (width: photo.width, height: photo.height)
        let final = outputSize(photo)
        let size = final == upright ? nil : final
        if outputKind == .jpeg, max(final.width, final.height) > Self.maxJPEGSide {
            throw .failure("the picture is \(final.width)×\(final.height) and a JPEG holds at most \(Self.maxJPEGSide) pixels a side; "
                + "use --max-size \(Self.maxJPEGSide) or --format png")
        }
        let picture = data[photo.pictureBytes]
        var request = PhotoRequest(orientation: photo.orientation, size: size)
        switch outputKind {
        case .jpeg:
            request.quality = settings.quality ?? photo.sourceQuality(pngDefault: Self.pngSourceQuality)
            request.encodingFormat = encodingFormat(photo)
        case .webp:
            // Quality and lossless are set as the pipeline is built (see `pipeline`).
            if photo.hasAlpha || webpLossless(photo) { request.encodingFormat = "RGBA" }
        case .heif, .avif, .tiff:
            request.encodingFormat = photo.hasAlpha ? "RGBA" : "RGB"
        case .png: break
        }
        if let jpeg = photo.jpeg, photo.truncated || jpeg.colourModel == .cmyk || jpeg.colourModel == .ycck {
            return try decodeApart(picture, photo: photo, outputKind: outputKind, request: request, mark: mark)
        }
        // A colour format before the marks: a grey frame would turn a red mark grey. And 4:2:2/4:1:1
        // become 4:4:4 there, which videoflip takes (it has no Y42B) without losing chroma.
        if photo.isGrey {
            request.workFormat = outputKind == .jpeg ? "I420" : "RGBA"
        } else if let chroma = photo.jpeg?.chroma, chroma == .s422 || chroma == .s411 {
            request.workFormat = "Y444"
        }
        if photo.heif != nil || photo.tiff != nil {
            return try decodeOutside(photo, outputKind: outputKind, request: request, mark: mark)
        }
        do {
            let codec: PhotoCodec = switch photo.kind {
            case .jpeg: .jpeg
            case .webp: .webp
            default: .png
            }
            return (try output(of: pipeline(codec, outputKind, photo), outputKind) { pipeline throws in
                try pipeline.process(picture, request: request, mark: mark)
            } raw: { pipeline throws in
                try pipeline.processToRaw(picture, request: request, mark: mark)
            }, nil)
        } catch let failure as MarkFailure {
            throw .failure("cannot mark the image: \(failure.error)")
        } catch {
            guard photo.kind == .jpeg else { throw .failure("cannot decode, mark or encode the image: \(error)") }
            return try decodeApart(picture, photo: photo, outputKind: outputKind, request: request, mark: mark)
        }
    }

    /// The libjpeg-turbo path: decoded to RGB here, then the same marking pipeline from raw input.
    private func decodeApart(_ data: Data, photo: PhotoFacts, outputKind: BatchPlan.Kind, request: PhotoRequest,
                             mark: @escaping (VideoFrame) -> Error?) throws(CamStampError) -> (output: PipelineOutput, warning: String?) {
        let picture: DecodedPicture
        do { picture = try JPEGDecoder.decode(data, adobeInverted: photo.jpeg?.adobeTransform != nil) } catch {
            throw .failure("the picture data is damaged beyond repair (\(error.description))")
        }
        return try runDecoded(picture, photo: photo, outputKind: outputKind, request: request, mark: mark)
    }

    /// The libheif/libtiff path: the picture decoded here (upright for HEIF), then marked raw.
    private func decodeOutside(_ photo: PhotoFacts, outputKind: BatchPlan.Kind, request: PhotoRequest,
                               mark: @escaping (VideoFrame) -> Error?) throws(CamStampError) -> (output: PipelineOutput, warning: String?) {
        let picture: DecodedPicture
        do throws(MediaError) {
            if let heif = photo.heif { picture = try heif.decode() } else if let tiff = photo.tiff { picture = try tiff.decode() } else {
                throw MediaError.stream(element: "decoder", domain: "camstamp", code: 0, message: "no decoder for \(photo.kind.name)", debug: nil)
            }
        } catch {
            throw .failure("cannot decode the \(photo.kind.name) picture (\(error.description))")
        }
        return try runDecoded(picture, photo: photo, outputKind: outputKind, request: request, mark: mark)
    }

    /// Marks and encodes a picture decoded outside GStreamer, through a raw-input pipeline.
    private func runDecoded(_ picture: DecodedPicture, photo: PhotoFacts, outputKind: BatchPlan.Kind, request: PhotoRequest,
                            mark: @escaping (VideoFrame) -> Error?) throws(CamStampError) -> (output: PipelineOutput, warning: String?) {
        let warning = picture.warning
        do {
            return (try output(of: pipeline(.raw, outputKind, photo), outputKind) { pipeline throws in
                try pipeline.process(picture, request: request, mark: mark)
            } raw: { pipeline throws in
                try pipeline.processToRaw(picture, request: request, mark: mark)
            }, warning)
        } catch let failure as MarkFailure {
            throw .failure("cannot mark the image: \(failure.error)")
        } catch {
            throw .failure("cannot mark or encode the image: \(error)")
        }
    }

    /// Runs `pipeline` for an encoded file, or for raw pixels when `kind` is encoded in Swift.
    private func output(of pipeline: PhotoPipeline, _ kind: BatchPlan.Kind, encoded: (PhotoPipeline) throws -> Data,
                        raw: (PhotoPipeline) throws -> RawImage) throws -> PipelineOutput {
        Self.templateName(kind) == "photo-raw" ? .raw(try raw(pipeline)) : .encoded(try encoded(pipeline))
    }

    /// The raw format jpegenc gets: the source's chroma sampling, so 4:4:4 and 4:2:2 photos keep
    /// their colour resolution. 4:2:2 turned a quarter becomes 4:4:0, which jpegenc cannot write:
    /// 4:4:4 then. Grey, PNG and 4:2:0 sources get 4:2:0.
    private func encodingFormat(_ photo: PhotoFacts) -> String {
        guard let jpeg = photo.jpeg, !photo.isGrey else { return "I420" }
        switch jpeg.chroma {
        case .s420: return "I420"
        case .s422: return photo.orientation.swapsAxes ? "Y444" : "Y42B"
        case .s411: return photo.orientation.swapsAxes ? "Y444" : "Y41B"
        case .s444, .other: return "Y444"
        }
    }

    /// This worker's pipeline for `input` → `output`, built on first use and kept.
    private func pipeline(_ input: PhotoCodec, _ output: BatchPlan.Kind, _ photo: PhotoFacts) throws(CamStampError) -> PhotoPipeline {
        let webp = output == .webp ? WebPSettings(quality: settings.quality ?? Self.webpQuality, lossless: webpLossless(photo)) : nil
        let key = PipelineKey(input: input, output: output, webp: webp)
        if let existing = pipelines[key] { return existing }
        let name = Self.templateName(output)
        guard let template = settings.templates[name] else { throw .failure("missing pipeline template \(name)") }
        var values: [String: PipelineTemplate.Value] = ["quality": .integer(webp?.quality ?? settings.quality ?? Self.pngSourceQuality)]
        if let webp { values["lossless"] = .word(webp.lossless ? "true" : "false") }
        let pipeline = PhotoPipeline(template: template, input: input, values: values)
        pipelines[key] = pipeline
        return pipeline
    }

    /// Writes `data` to a temporary file beside `target` and moves it into place, so a crash or
    /// Ctrl-C never leaves half a photo; without --overwrite an existing file is never replaced.
    private func write(_ data: Data, to target: URL) throws(CamStampError) {
        let folder = target.deletingLastPathComponent()
        let temporary = TemporaryFiles.temporaryURL(in: folder, for: target.lastPathComponent)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            TemporaryFiles.shared.add(temporary)
            defer { TemporaryFiles.shared.remove(temporary) }
            try data.write(to: temporary)
            if settings.existing == .overwrite {
                guard rename(temporary.path, target.path) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            } else {
                // link(2) fails if the target appeared meanwhile: nothing is replaced by surprise.
                defer { unlink(temporary.path) }
                guard link(temporary.path, target.path) == 0 else {
                    if errno == EEXIST { throw CamStampError.failure("\(target.path) already exists; use --skip-existing to keep it or --overwrite to replace it") }
                    throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                }
            }
        } catch let error as CamStampError {
            throw error
        } catch {
            throw .failure("cannot write \(target.path): \(error.localizedDescription)")
        }
    }
}
