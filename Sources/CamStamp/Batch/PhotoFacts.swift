// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import Media
internal import PhotoMetadata

/// What the batch reads from a photo's bytes before decoding: its format (by content, whatever
/// its name says: JPEG, PNG, WebP, HEIC/HEIF, AVIF, TIFF), that camstamp can read it, its stored size, its orientation,
/// when it was taken, `{exif:TAG}` values, and the metadata to carry into the output.
struct PhotoFacts {
    /// The format by content.
    var kind: ImageFormat
    var width = 0
    var height = 0
    var orientation: Orientation = .normal
    var dateTaken: Date?
    var exifValues: [String: String] = [:]
    /// A JPEG's frame: colour model, chroma sampling, quantisation; nil for a PNG.
    var jpeg: JPEGPicture?
    /// The picture's own bytes: a JPEG up to its EOI (without a motion photo's video or other
    /// trailer), the whole file otherwise.
    var pictureBytes = 0..<0
    /// A JPEG whose data ends before its EOI: only libjpeg-turbo can decode what there is.
    var truncated = false
    /// A JPEG's one scan, from its SOS marker to its EOI, when no other segment follows the
    /// header (a baseline picture); nil otherwise. Entropy-coded data only: no metadata in it.
    var singleScan: Range<Int>?
    /// A grey picture (JPEG with one component, PNG colour type 0 or 4, grey TIFF).
    var isGrey = false
    /// A PNG with 16-bit samples and colour or alpha (types 2, 4, 6): GStreamer 1.22's pngdec
    /// decodes these shifted by one sample, so they are decoded apart (see `PhotoPNGDecoder`;
    /// type 2 only on a GStreamer without `UpstreamFix.pngdecWideRGB`).
    var isWidePNG = false
    /// A picture with an alpha channel (for a PNG: or a tRNS chunk, which pngdec makes one of).
    var hasAlpha = false
    /// A lossless WebP (VP8L): written back lossless under --format keep.
    var isLosslessWebP = false
    /// HEIC/AVIF and TIFF pictures, decoded outside GStreamer (libheif, libtiff).
    var heif: HEIFFile?
    var tiff: TIFFFile?
    private(set) var metadata = ImageMetadata()
    /// Damage found in the photo's metadata: what could not be read, or the parts left out. The
    /// photo is still marked (a warning line says what); under --strict it fails.
    private(set) var metadataDamage: [String] = []
    /// What was left out on purpose, for the warning line.
    private(set) var notes: [String] = []

    /// A PNG's own gamma that only a PNG output carries (see `ImageMetadata.pngGammaApartFromSRGB`).
    var pngGamma: Double? { metadata.pngGammaApartFromSRGB }

    /// Reads what batch needs from a photo's bytes; a picture of more than `maxPixels` is refused
    /// before anything else is read (`BatchOptions.maxPixels`, or a larger --max-pixels).
    init(_ data: Data, maxPixels: Int = BatchOptions.maxPixels) throws(CamStampError) {
        kind = try Self.kind(of: data)
        pictureBytes = 0..<data.count
        switch kind {
        case .jpg: try readJPEG(data)
        case .webp: try readWebP(data)
        case .heic, .avif: try readHEIF(data)
        case .tiff: try readTIFF(data)
        case .png: try readPNG(data)
        }
        dropProfileOfAnotherColourModel()
        guard width > 0, height > 0 else {
            throw .failure("damaged image (its header gives a size of \(width)×\(height))")
        }
        if width * height > maxPixels {
            throw .failure(
                "the picture is \(width)×\(height) (\(width * height / 1_000_000) megapixels), over camstamp's limit of "
                    + "\(maxPixels / 1_000_000) megapixels; scale it down first (e.g. vipsthumbnail --size 16000)")
        }
        // Damage found while reading is said once, here, and counts for --strict.
        metadataDamage += metadata.readWarnings.map(\.description)
        metadata.readWarnings = []
        switch kind {
        // libheif has already applied the file's irot/imir: its EXIF Orientation says the same
        // turn again (phones write both), so it is not applied twice.
        case .heic, .avif: orientation = .normal
        // TIFF's own Orientation tag (the same values as EXIF's).
        case .tiff: orientation = tiff.flatMap { Orientation(rawValue: $0.orientation) } ?? .normal
        default: orientation = metadata.orientation.flatMap(Orientation.init(rawValue:)) ?? .normal
        }
        dateTaken = metadata.dateTimeOriginal()
        exifValues = metadata.exifValues
    }

    /// The format by content; a PNG too short to tell is taken as one (and said to be truncated).
    private static func kind(of data: Data) throws(CamStampError) -> ImageFormat {
        guard !data.isEmpty else { throw .failure("empty file") }
        if let sniffed = ImageFormat.sniff(data) { return sniffed }
        if data.count < 8 && PNGPicture.couldStart(data) { return .png }
        throw .failure(
            "not a photo camstamp reads (the file starts like none of JPEG, PNG, WebP, HEIC/HEIF, AVIF or TIFF)")
    }

    /// Metadata that cannot be read costs the metadata, not the photo.
    private mutating func readMetadata(_ read: () throws(MetadataError) -> ImageMetadata) {
        do { metadata = try read() } catch {
            metadata = ImageMetadata()
            metadataDamage = ["metadata not carried: \(error.description)"]
        }
    }

    /// A JPEG: its frame, where its picture ends, its metadata.
    private mutating func readJPEG(_ data: Data) throws(CamStampError) {
        let structure: JPEGStructure
        do { structure = try JPEGStructure(parsing: data) } catch {
            throw .failure(error.description)
        }
        guard let picture = JPEGPicture(structure), picture.width > 0, picture.height > 0 else {
            throw .failure("damaged JPEG (no picture size found)")
        }
        if let why = picture.unsupportedCoding {
            throw .failure(
                "unsupported JPEG: \(why); convert it to an 8-bit baseline JPEG or a PNG first (e.g. with ImageMagick's convert)"
            )
        }
        jpeg = picture
        (width, height) = (picture.width, picture.height)
        isGrey = picture.colourModel == .grey
        let scans = JPEGPicture.scans(of: data, structure: structure)
        if let end = scans.end {
            pictureBytes = 0..<end
            if scans.single { singleScan = structure.scanOffset..<end }
        } else {
            pictureBytes = 0..<data.count
            truncated = true
        }
        readMetadata { () throws(MetadataError) in try ImageMetadata(jpeg: data, structure: structure) }
    }

    /// A still WebP (an animated one is refused).
    private mutating func readWebP(_ data: Data) throws(CamStampError) {
        let container: WebPContainer
        do { container = try WebPContainer(parsing: data) } catch {
            throw .failure("damaged WebP (\(error.description))")
        }
        guard !container.isAnimated else {
            throw .failure(
                "an animated WebP; camstamp marks still pictures (take one frame first, e.g. with webpmux -get frame 1)"
            )
        }
        (width, height, hasAlpha, isLosslessWebP) = (
            container.width, container.height, container.hasAlpha, container.isLossless
        )
        readMetadata { () throws(MetadataError) in try ImageMetadata(webp: data) }
    }

    /// A HEIC or AVIF through libheif: its main picture's size, profile and metadata.
    private mutating func readHEIF(_ data: Data) throws(CamStampError) {
        let file: HEIFFile
        do { file = try HEIFFile(data) } catch {
            throw .failure("cannot read the \(kind.name) file (\(error.description))")
        }
        heif = file
        (width, height, hasAlpha) = (file.width, file.height, file.hasAlpha)
        if file.pictures > 1 {
            notes.append("its main picture of \(file.pictures) marked; the others are not in the output")
        }
        if let note = Self.deepSamplesNote(file.bitsPerSample) { notes.append(note) }
        // A picture that says "P3" only in its nclx box gets a P3 profile: decoded to RGB it would
        // otherwise be taken for sRGB and look washed out.
        let icc = file.icc ?? (file.nclxPrimaries == 12 ? ICCProfile.displayP3 : nil)
        metadata = ImageMetadata(exifTIFF: file.exif, icc: icc, xmp: file.xmp)
    }

    /// A TIFF through libtiff: its first page.
    private mutating func readTIFF(_ data: Data) throws(CamStampError) {
        let file: TIFFFile
        do { file = try TIFFFile(data) } catch {
            throw .failure("cannot read the TIFF file (\(error.description))")
        }
        // libtiff would refuse it only when decoding, in words that say neither what nor why.
        if file.isCMYK, file.bitsPerSample != 8 {
            throw .failure(
                "cannot read a \(file.bitsPerSample)-bit CMYK TIFF (libtiff reads CMYK at 8 bits a sample only); "
                    + "convert it to 8 bits first, e.g. convert in.tif -depth 8 out.tif")
        }
        tiff = file
        (width, height, hasAlpha, isGrey) = (file.width, file.height, file.hasAlpha, file.isGrey)
        metadata = ImageMetadata(exifTIFF: EXIF.block(ofTIFFFile: data), icc: file.icc, xmp: file.xmp)
        if file.pages > 1 { notes.append("page 1 of \(file.pages) marked; the other pages are not in the output") }
        if let note = Self.deepSamplesNote(file.bitsPerSample) { notes.append(note) }
    }

    /// A PNG: its header's size and kind, its chunks' metadata.
    private mutating func readPNG(_ data: Data) throws(CamStampError) {
        guard let png = PNGPicture(data) else {
            throw .failure("truncated image (the file ends before the picture does)")
        }
        do { metadata = try ImageMetadata(png: data) } catch {
            // A critical chunk (IHDR, PLTE, IDAT, IEND: upper-case first letter) is the picture:
            // libpng refuses it, as peers do, and would print its own line on stderr.
            if case .badPNGChunkCRC(let chunk) = error, chunk.first?.isUppercase == true {
                throw .failure("damaged PNG: bad CRC in its \(chunk) chunk, which holds the picture")
            }
            // A damaged ancillary chunk (bad CRC, broken eXIf) costs the metadata, not the
            // picture: libpng skips such chunks too.
            metadata = ImageMetadata()
            metadataDamage = ["metadata not carried: \(error.description)"]
        }
        (width, height, isGrey, hasAlpha) = (png.width, png.height, png.isGrey, png.hasTransparency)
        if png.frames > 1 {
            notes.append("frame 1 of the \(png.frames) of an animated PNG marked; the others are not in the output")
        }
        // pngdec's 16-bit RGB is right from 1.22.4 and 1.24 on; grey and alpha kinds, not known.
        let rgbFixed = png.colourType == 2 && UpstreamFix.pngdecWideRGB.isFixed
        isWidePNG = png.bitDepth == 16 && png.colourType != 0 && !rgbFixed
        // A grey PNG's profile is grey (PNG requires it): it does not describe the colour
        // output, which libpng and viewers then warn about or refuse (as with a grey JPEG's).
        if isGrey, metadata.pngICCChunk != nil || metadata.icc != nil {
            metadata.pngICCChunk = nil
            metadata.icc = nil
            notes.append("its grey colour profile is not carried (the output is in colour, RGB)")
        }
    }

    /// The output is RGB (or RGB-based YCbCr): a CMYK or grey profile would not describe it,
    /// and viewers given one show wrong colours or refuse the file.
    private mutating func dropProfileOfAnotherColourModel() {
        if let icc = metadata.icc, icc.count >= 20 {
            let space = String(decoding: icc[icc.startIndex + 16..<icc.startIndex + 20], as: UTF8.self)
            if space == "CMYK" || space == "GRAY" {
                metadata.icc = nil
                metadata.pngICCChunk = nil
                notes.append(
                    "its \(space == "CMYK" ? "CMYK" : "grey") colour profile is not carried (the output is in colour, RGB)"
                )
            }
        }
    }

    /// What is said of a picture with more than 8 bits a sample (a 16-bit TIFF, a 10-bit HEIC):
    /// it is decoded, marked and written at 8.
    static func deepSamplesNote(_ bits: Int) -> String? {
        bits > 8 ? "its \(bits)-bit samples are marked and written as 8-bit" : nil
    }

    /// The JPEG quality to re-encode at: the source's own, estimated from its quantisation
    /// tables and kept within 70…98 (below 70 the mark looks smeared, above 98 the file balloons
    /// for no visible gain); PNG sources get `pngDefault`.
    func sourceQuality(pngDefault: Int) -> Int {
        guard let estimate = jpeg?.estimatedQuality else { return pngDefault }
        return min(98, max(70, estimate))
    }

    /// `encoded` (a bare JPEG or PNG from the encoder) with this photo's metadata as `policy`
    /// says: EXIF with Orientation 1, the new size and no thumbnail; ICC; XMP; IPTC; with `edits`
    /// (--set-metadata) written. Returns the file and what had to be left out.
    /// The output in parts, in order: a JPEG's new header and its scan as the encoder wrote it
    /// (a slice of `encoded`, not a copy), so that its megabytes are written as they are.
    func withMetadata(
        _ encoded: Data, kind: ImageFormat, policy: MetadataPolicy,
        edits: MetadataEdits = MetadataEdits()
    ) throws(CamStampError) -> (parts: [Data], warnings: [String]) {
        // --strip-metadata: only what the encoder wrote.
        if policy == .stripAll { return ([encoded], []) }
        let stripGPS = policy == .stripGPS
        do {
            if kind == .jpg {
                let output = try metadata.insertHeader(into: encoded, stripGPS: stripGPS, edits: edits)
                let scan = encoded[(encoded.startIndex + output.scanOffset)...]
                return ([output.header, scan], output.warnings.map(\.description))
            }
            let output =
                switch kind {
                case .webp: try metadata.insert(intoWebP: encoded, stripGPS: stripGPS, edits: edits)
                default: try metadata.insert(intoPNG: encoded, stripGPS: stripGPS, edits: edits)
                }
            return ([output.data], output.warnings.map(\.description))
        } catch {
            throw .failure("cannot add the metadata: \(error)")
        }
    }

    /// This photo's metadata as separate pieces for an upright `size` output written by libheif or
    /// libtiff (see `ImageMetadata.pieces`), with what had to be left out.
    func metadataPieces(
        size: PixelSize, policy: MetadataPolicy, edits: MetadataEdits = MetadataEdits()
    )
        -> (exifTIFF: Data?, icc: Data?, xmp: Data?, warnings: [String])
    {
        if policy == .stripAll { return (nil, nil, nil, []) }
        let pieces = metadata.pieces(size: size, stripGPS: policy == .stripGPS, edits: edits)
        return (pieces.exifTIFF, pieces.icc, pieces.xmp, pieces.warnings.map(\.description))
    }
}
