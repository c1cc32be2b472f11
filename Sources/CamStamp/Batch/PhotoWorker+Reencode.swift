// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import Media
internal import PhotoMetadata
internal import Render

/// The re-encoding path: a photo decoded, turned upright, scaled, marked and encoded again, through
/// a GStreamer pipeline kept per kind of input and output.
extension PhotoWorker {
    /// What a photo pipeline gives: a file from a GStreamer encoder (JPEG, PNG, WebP), or raw
    /// pixels for libheif or libtiff to encode.
    enum PipelineOutput {
        case encoded(Data)
        case raw(RawImage)
    }

    /// A lossless WebP written back under --format keep stays lossless.
    private func webpLossless(_ photo: PhotoFacts) -> Bool { settings.keepsFormat && photo.isLosslessWebP }
    /// The raw format webpenc gets: RGBA where alpha or every sample must survive.
    private func webpFormat(_ photo: PhotoFacts) -> String {
        photo.hasAlpha || webpLossless(photo) ? "RGBA" : "I420"
    }

    /// The quality HEIC and AVIF are written at without --quality: about what phones write.
    static let heifQuality = 80
    /// The WebP quality for lossy sources without --quality.
    static let webpQuality = 90

    /// `image` written as HEIC, AVIF or TIFF, with the photo's metadata in the format's own places.
    func encode(
        _ image: RawImage, as kind: ImageFormat, photo: PhotoFacts,
        edits: MetadataEdits
    ) throws(CamStampError) -> (data: Data, warnings: [String]) {
        let pieces = photo.metadataPieces(
            size: PixelSize(width: image.width, height: image.height), policy: settings.metadata, edits: edits)
        do {
            switch kind {
            case .heic, .avif:
                let data = try HEIFEncoder.encode(
                    image, codec: kind == .heic ? .hevc : .av1, quality: settings.quality ?? Self.heifQuality,
                    icc: pieces.icc, exif: pieces.exifTIFF, xmp: pieces.xmp)
                return (data, pieces.warnings)
            default:
                // libtiff writes the picture and its ICC profile; EXIF (and then the XMP beside it)
                // goes in through exiv2, which lays out the EXIF and GPS directories.
                let data = try TIFFFile.encode(image, icc: pieces.icc, xmp: pieces.exifTIFF == nil ? pieces.xmp : nil)
                guard let exif = pieces.exifTIFF else { return (data, pieces.warnings) }
                return (try TIFFMetadata.insert(exifTIFF: exif, xmp: pieces.xmp, into: data), pieces.warnings)
            }
        } catch {
            throw .failure("cannot encode the \(kind.name) file: \(error)")
        }
    }

    /// The template that ends in `kind`'s encoder (raw for the formats encoded in Swift).
    static func templateName(_ kind: ImageFormat) -> String {
        switch kind {
        case .jpg: "photo-jpeg"
        case .png: "photo-png"
        case .webp: "photo-webp"
        case .heic, .avif, .tiff: "photo-raw"
        }
    }

    /// Decodes, orients, scales, marks (through `mark`) and encodes one photo. JPEGs go through
    /// jpegdec, except those it cannot give (CMYK/YCCK, data cut short, or a failure in jpegdec):
    /// those are decoded by libjpeg-turbo, which recovers damaged data with a warning. HEIC, AVIF
    /// and TIFF are decoded by libheif and libtiff, then go through the same pipeline raw.
    func run(
        _ data: Data, photo: PhotoFacts, outputKind: ImageFormat,
        mark: @escaping (VideoFrame) -> Error?
    ) throws(CamStampError) -> (output: PipelineOutput, warning: String?) {
        let upright =
            photo.orientation.swapsAxes
            ? (width: photo.height, height: photo.width) : (width: photo.width, height: photo.height)
        let final = outputSize(photo)
        let size = final == upright ? nil : final
        try checkDecodable(photo)
        if outputKind == .jpg, max(final.width, final.height) > Self.maxJPEGSide {
            throw .failure(
                "the picture is \(final.width)×\(final.height) and a JPEG holds at most \(Self.maxJPEGSide) pixels a side; "
                    + "use --max-size \(Self.maxJPEGSide) or --format png")
        }
        let picture = data[photo.pictureBytes]
        var request = PhotoRequest(orientation: photo.orientation, size: size)
        switch outputKind {
        case .jpg:
            request.quality = settings.quality ?? photo.sourceQuality(pngDefault: Self.pngSourceQuality)
            request.encodingFormat = encodingFormat(photo)
        case .webp:
            // Quality and lossless are set as the pipeline is built (see `pipeline`), and so is
            // the format webpenc gets: it fails on a frame of another one than its first.
            request.encodingFormat = webpFormat(photo)
        case .heic, .avif, .tiff:
            request.encodingFormat = photo.hasAlpha ? "RGBA" : "RGB"
        case .png: break
        }
        if let jpeg = photo.jpeg,
            photo.truncated || jpeg.colourModel == .cmyk || jpeg.colourModel == .ycck || Self.jpegdecMiscolours(jpeg)
        {
            return try decodeApart(picture, photo: photo, outputKind: outputKind, request: request, mark: mark)
        }
        if photo.isWidePNG {
            return try runDecoded(
                try widePNG(picture), photo: photo, outputKind: outputKind, request: request, mark: mark)
        }
        // A colour format before the marks: a grey frame would turn a red mark grey. And 4:2:2/4:1:1
        // become 4:4:4 there, which videoflip takes (it has no Y42B) without losing chroma.
        if photo.isGrey {
            request.workFormat = outputKind == .jpg ? "I420" : "RGBA"
        } else if let chroma = photo.jpeg?.chroma, chroma == .s422 || chroma == .s411 {
            request.workFormat = "Y444"
        }
        if photo.heif != nil || photo.tiff != nil {
            return try decodeOutside(photo, outputKind: outputKind, request: request, mark: mark)
        }
        if let decoded = try decodeHere(picture, photo: photo, outputKind: outputKind, request: request, mark: mark) {
            return decoded
        }
        do {
            let codec: PhotoCodec =
                switch photo.kind {
                case .jpg: .jpeg
                case .webp: .webp
                default: .png
                }
            return (
                try output(of: pipeline(codec, outputKind, photo), outputKind) { pipeline throws in
                    try pipeline.process(picture, request: request, mark: mark)
                } raw: { pipeline throws in
                    try pipeline.processToRaw(picture, request: request, mark: mark)
                }, nil
            )
        } catch let failure as MarkFailure {
            throw .failure("\(Self.cannotMark): \(failure.error)")
        } catch {
            guard photo.kind == .jpg else { throw .failure("cannot decode, mark or encode the image: \(error)") }
            return try decodeApart(picture, photo: photo, outputKind: outputKind, request: request, mark: mark)
        }
    }

    /// A 4:2:0 JPEG decoded by libjpeg-turbo here: re-encoded without a pipeline when it stays a
    /// 4:2:0 JPEG of its own size; else, turned, turned here (faster than videoflip turns it),
    /// then marked raw. nil for any other photo, or data libjpeg warns about, which take the
    /// usual path.
    private func decodeHere(
        _ picture: Data, photo: PhotoFacts, outputKind: ImageFormat, request: PhotoRequest,
        mark: @escaping (VideoFrame) -> Error?
    ) throws(CamStampError) -> (output: PipelineOutput, warning: String?)? {
        if let direct = try reencodeDirectly(
            picture, photo: photo, outputKind: outputKind, request: request, mark: mark)
        {
            return direct
        }
        guard photo.kind == .jpg, photo.orientation != .normal, request.workFormat == nil,
            let upright = JPEGDecoder.decodeUpright(picture, orientation: photo.orientation)
        else { return nil }
        var turned = request
        turned.orientation = .normal
        return try runDecoded(upright, photo: photo, outputKind: outputKind, request: turned, mark: mark)
    }

    /// A 16-bit PNG, read by Cairo (GStreamer 1.22's pngdec shifts its colour or alpha by a sample).
    private func widePNG(_ picture: Data) throws(CamStampError) -> DecodedPicture {
        do {
            let png = try PhotoPNGDecoder.decode(picture)
            return try DecodedPicture.packed(
                png.pixels, width: png.width, height: png.height, stride: png.stride,
                format: png.opaque ? "BGRx" : "BGRA")
        } catch {
            throw .failure("\(error)")
        }
    }

    /// GStreamer 1.22's jpegdec gives a YCbCr JPEG whose chroma is a quarter of the luma's width
    /// (4:1:1, 4:1:0) as a green picture, without an error: libjpeg-turbo decodes those.
    static func jpegdecMiscolours(_ jpeg: JPEGPicture) -> Bool {
        guard jpeg.colourModel == .yCbCr, jpeg.sampling.count == 3, jpeg.sampling[1].h > 0 else { return false }
        return jpeg.sampling[0].h / jpeg.sampling[1].h >= 4
    }

    /// The libjpeg-turbo path: decoded to RGB here, then the same marking pipeline from raw input.
    private func decodeApart(
        _ data: Data, photo: PhotoFacts, outputKind: ImageFormat, request: PhotoRequest,
        mark: @escaping (VideoFrame) -> Error?
    ) throws(CamStampError) -> (output: PipelineOutput, warning: String?) {
        let picture: DecodedPicture
        do { picture = try JPEGDecoder.decode(data, adobeInverted: photo.jpeg?.adobeTransform != nil) } catch {
            throw .failure("the picture data is damaged beyond repair (\(error.description))")
        }
        return try runDecoded(picture, photo: photo, outputKind: outputKind, request: request, mark: mark)
    }

    /// The libheif/libtiff path: the picture decoded here (upright for HEIF), then marked raw.
    private func decodeOutside(
        _ photo: PhotoFacts, outputKind: ImageFormat, request: PhotoRequest,
        mark: @escaping (VideoFrame) -> Error?
    ) throws(CamStampError) -> (output: PipelineOutput, warning: String?) {
        let picture: DecodedPicture
        do throws(MediaError) {
            if let heif = photo.heif {
                picture = try heif.decode()
            } else if let tiff = photo.tiff {
                picture = try tiff.decode()
            } else {
                throw MediaError.picture(library: "decoder", message: "no decoder for \(photo.kind.name)")
            }
        } catch {
            throw .failure("cannot decode the \(photo.kind.name) picture (\(error.description))")
        }
        return try runDecoded(picture, photo: photo, outputKind: outputKind, request: request, mark: mark)
    }

    /// Marks and encodes a picture decoded outside GStreamer, through a raw-input pipeline.
    private func runDecoded(
        _ picture: DecodedPicture, photo: PhotoFacts, outputKind: ImageFormat, request: PhotoRequest,
        mark: @escaping (VideoFrame) -> Error?
    ) throws(CamStampError) -> (output: PipelineOutput, warning: String?) {
        let warning = picture.warning
        do {
            return (
                try output(of: pipeline(.raw, outputKind, photo), outputKind) { pipeline throws in
                    try pipeline.process(picture, request: request, mark: mark)
                } raw: { pipeline throws in
                    try pipeline.processToRaw(picture, request: request, mark: mark)
                }, warning
            )
        } catch let failure as MarkFailure {
            throw .failure("\(Self.cannotMark): \(failure.error)")
        } catch {
            throw .failure("cannot mark or encode the image: \(error)")
        }
    }

    /// Runs `pipeline` for an encoded file, or for raw pixels when `kind` is encoded in Swift.
    private func output(
        of pipeline: PhotoPipeline, _ kind: ImageFormat, encoded: (PhotoPipeline) throws -> Data,
        raw: (PhotoPipeline) throws -> RawImage
    ) throws -> PipelineOutput {
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
    private func pipeline(
        _ input: PhotoCodec, _ output: ImageFormat, _ photo: PhotoFacts
    ) throws(CamStampError) -> PhotoPipeline {
        let webp =
            output == .webp
            ? WebPSettings(
                quality: settings.quality ?? Self.webpQuality, lossless: webpLossless(photo), format: webpFormat(photo))
            : nil
        let key = PipelineKey(input: input, output: output, webp: webp)
        if let existing = pipelines[key] { return existing }
        let name = Self.templateName(output)
        guard let template = settings.templates[name] else { throw .failure("missing pipeline template \(name)") }
        var values: [String: PipelineTemplate.Value] = [
            "quality": .integer(webp?.quality ?? settings.quality ?? Self.pngSourceQuality)
        ]
        if let webp { values["lossless"] = .word(webp.lossless ? "true" : "false") }
        let pipeline = PhotoPipeline(template: template, input: input, values: values)
        pipelines[key] = pipeline
        return pipeline
    }
}
