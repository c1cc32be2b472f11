// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// The metadata of one source photo (JPEG or PNG), ready to be written into its re-encoded output.
///
/// Reading keeps what is sound: a damaged EXIF entry or sub-IFD, ICC chunk set or PNG ancillary
/// chunk is left out with a warning (carried into every output's warnings), never the rest with it.
/// Only a broken file structure throws, and the caller decides whether to write the output without
/// metadata.
public struct ImageMetadata: Sendable {
    /// The EXIF block (JPEG APP1 `Exif\0\0`, PNG eXIf).
    public var exif: EXIF?
    /// The ICC profile, raw (reassembled from a JPEG's APP2 chunks, inflated from a PNG's iCCP).
    public var icc: Data?
    /// A PNG's iCCP chunk data as is (name, method, zlib-compressed profile), for PNG outputs; set
    /// only with `icc`, its profile inflated, for every other output.
    public var pngICCChunk: Data?
    /// A PNG's colour description besides its profile (gAMA, cHRM, sRGB), as is, for PNG outputs:
    /// the pixels keep their values, so the chunks still describe them.
    public var pngColourChunks: [PNGChunk] = []
    /// The XMP packet (JPEG APP1 `http://ns.adobe.com/xap/1.0/\0`, PNG iTXt `XML:com.adobe.xmp`).
    public var xmp: Data?
    /// A JPEG's APP13 `Photoshop 3.0` payload (IPTC in its resource blocks), joined when split over
    /// several segments; carried into JPEG outputs as `iptcForOutput` says.
    public var iptc: Data?
    /// A JPEG's other APP segments that go into JPEG outputs byte for byte (CIFF, Ducky, maker
    /// segments); see `JPEGSegment.carriedVerbatim`.
    public var carriedSegments: [JPEGSegment] = []
    /// What was left out while reading, reported with every output.
    public var readWarnings: [MetadataWarning] = []

    /// No metadata.
    public init() {}

    /// Reads the metadata segments of a JPEG: the first EXIF, XMP and IPTC, the ICC profile, and the
    /// APP segments carried verbatim. Throws only for a broken JPEG structure. `parsed`: the
    /// structure of `jpeg` when the caller has it already (it is not parsed again).
    public init(jpeg: Data, structure parsed: JPEGStructure? = nil) throws(MetadataError) {
        let structure: JPEGStructure
        if let parsed { structure = parsed } else { structure = try JPEGStructure(parsing: jpeg) }
        var sawEXIF = false
        for segment in structure.segments {
            if segment.isApp(1, JPEGSignature.exif) {
                if !sawEXIF { readEXIF { () throws(MetadataError) in try EXIF(app1Payload: segment.payload) } }
                sawEXIF = true
            } else if xmp == nil, segment.isApp(1, JPEGSignature.xmp) {
                xmp = segment.payload.dropFirst(JPEGSignature.xmp.count)
            } else if segment.isApp(13, JPEGSignature.iptc) {
                // Photoshop splits a large resource block over several APP13 segments.
                iptc = (iptc ?? Data(JPEGSignature.iptc)) + segment.payload.dropFirst(JPEGSignature.iptc.count)
            } else if segment.carriedVerbatim {
                carriedSegments.append(segment)
            }
        }
        do { icc = try reassembleICC(structure.segments) } catch { readWarnings.append(.iccUnreadable(error)) }
    }

    /// Sets `exif` from `read`, noting what was left out of it, or why it could not be read.
    mutating func readEXIF(_ read: () throws(MetadataError) -> EXIF) {
        do {
            let block = try read()
            exif = block
            if let first = block.problems.first {
                readWarnings.append(.exifPartlyDamaged(first, more: block.problems.count - 1))
            }
        } catch {
            readWarnings.append(.exifUnreadable(error))
        }
    }

    /// Reads the eXIf, iCCP and XMP iTXt chunks of a PNG. Throws only for a broken PNG structure
    /// (or a bad CRC in a critical chunk); a damaged eXIf or ancillary chunk, or an iCCP whose
    /// profile does not inflate, is left out.
    public init(png: Data) throws(MetadataError) {
        let (chunks, skipped) = try PNGChunk.parse(png, skippingBadAncillary: true)
        readWarnings += skipped.map { .pngChunkSkipped(chunk: $0) }
        var sawEXIF = false, sawICCP = false
        for chunk in chunks {
            switch chunk.type {
            case "eXIf" where !sawEXIF:
                sawEXIF = true
                readEXIF(block: chunk.data)
            case "iCCP" where !sawICCP:
                sawICCP = true
                do throws(ICCPError) {
                    let profile = try PNGChunk.iccProfile(iccp: chunk.data)
                    guard ICCProfile.hasProfileHeader(profile) else { throw .notAProfile }
                    icc = profile
                    pngICCChunk = chunk.data
                } catch {
                    readWarnings.append(.iccpUnreadable(error))
                }
            case "iTXt" where xmp == nil: xmp = chunk.xmpPacket
            case "gAMA", "cHRM", "sRGB":
                if !pngColourChunks.contains(where: { $0.type == chunk.type }) { pngColourChunks.append(chunk) }
            default: break
            }
        }
    }

    /// The gamma a PNG's gAMA chunk gives, when that is its only tone curve (no iCCP, no sRGB
    /// chunk) and it is not sRGB's (about 1/2.2, which every viewer assumes without one): what a
    /// format with no gAMA loses. nil otherwise.
    public var pngGammaApartFromSRGB: Double? {
        guard icc == nil, !pngColourChunks.contains(where: { $0.type == "sRGB" }),
            let chunk = pngColourChunks.first(where: { $0.type == "gAMA" }), chunk.data.count == 4
        else { return nil }
        let stored = chunk.data.reduce(0) { $0 << 8 | Int($1) }
        // PNG writers give sRGB as 45455 (some 45454 or 45000): ±1000 is still sRGB's curve.
        guard stored > 0, abs(stored - 45455) > 1000 else { return nil }
        return Double(stored) / 100_000
    }

    /// Reads a JPEG or a PNG, told apart by their signatures.
    public init(imageData data: Data) throws(MetadataError) {
        if data.hasPrefix(PNGChunk.signature) {
            try self.init(png: data)
        } else {
            try self.init(jpeg: data)
        }
    }

    /// The EXIF orientation 1…8, nil when absent or invalid (then the photo is upright as stored).
    public var orientation: Int? { exif?.orientation }

    /// DateTimeOriginal; see `EXIF.dateTimeOriginal(in:)`.
    public func dateTimeOriginal(in timeZone: TimeZone = .current) -> Date? {
        exif?.dateTimeOriginal(in: timeZone)
    }

    /// `{exif:TAG}` text by tag name; see `EXIF.values`.
    public var exifValues: [String: String] { exif?.values ?? [:] }

    /// The APP1 payload (`Exif\0\0` + TIFF) for an upright `width`×`height` output with `edits`;
    /// nil without EXIF or edits.
    public func exifForOutput(width: Int, height: Int, stripGPS: Bool, edits: MetadataEdits = MetadataEdits()) -> Data?
    {
        exifTIFFForOutput(width: width, height: height, stripGPS: stripGPS, edits: edits).map {
            Data(JPEGSignature.exif) + $0
        }
    }

    /// The TIFF block for an output: the source's, edited (see `EXIF.outputTIFF`), or a minimal one
    /// holding only `edits` when the source had none; nil when there is neither.
    func exifTIFFForOutput(width: Int, height: Int, stripGPS: Bool, edits: MetadataEdits) -> Data? {
        if let exif { return exif.outputTIFF(width: width, height: height, stripGPS: stripGPS, edits: edits) }
        return edits.isEmpty ? nil : EXIF.minimalTIFF(edits: edits)
    }

    /// The XMP packet for an upright `size` output (see `XMPEdit`), or why it is left out. A
    /// packet exiv2 cannot read is left out; the credit of `edits` then goes into a new one.
    func xmpForOutput(size: PixelSize, stripGPS: Bool, edits: MetadataEdits) -> XMPForOutput {
        var warning: MetadataWarning?
        var source = xmp
        if let xmp, String(validating: xmp, as: UTF8.self) == nil {
            (warning, source) = (.xmpNotUTF8, nil)
        }
        var result: XMPEdit.Result
        do {
            result = try XMPEdit.forOutput(source, size: size, stripGPS: stripGPS, edits: edits)
        } catch {
            warning = .xmpUnreadable(error)
            result = (try? XMPEdit.forOutput(nil, size: size, stripGPS: stripGPS, edits: edits)) ?? .unchanged
            source = nil
        }
        switch result {
        case .unchanged: if let source { return .packet(source, warning) }
        case .edited(let packet?): return .packet(packet, warning)
        case .edited(nil): break
        }
        return warning.map { .dropped($0) } ?? .none
    }

    enum XMPForOutput {
        case none
        /// The packet, and a warning when the source's own was left out for it.
        case packet(Data, MetadataWarning?)
        case dropped(MetadataWarning)
    }

    /// `encodedJPEG` (a bare JPEG from the encoder) with this metadata right after SOI: APP1 EXIF,
    /// APP2 ICC, APP1 XMP, APP13 IPTC, the source's carried APP segments, then the encoder's own
    /// segments (its JFIF APP0 dropped when EXIF is written) and its image data unchanged. The size written into EXIF is the frame's.
    /// Metadata that cannot be written validly is left out with a warning.
    public func insert(
        into encodedJPEG: Data, stripGPS: Bool, edits: MetadataEdits = MetadataEdits()
    ) throws(MetadataError) -> MetadataOutput {
        let parts = try insertHeader(into: encodedJPEG, stripGPS: stripGPS, edits: edits)
        var data = parts.header
        data.append(encodedJPEG[(encodedJPEG.startIndex + parts.scanOffset)...])
        return MetadataOutput(data: data, warnings: parts.warnings)
    }

    /// `insert(into:stripGPS:edits:)` in two parts: the output's header (SOI and segments) and
    /// the offset in `encodedJPEG` from which the rest of the output is its bytes unchanged, so
    /// that a caller may write both without first joining them (a copy of the photo's scan).
    public func insertHeader(
        into encodedJPEG: Data, stripGPS: Bool, edits: MetadataEdits = MetadataEdits()
    ) throws(MetadataError) -> (header: Data, scanOffset: Int, warnings: [MetadataWarning]) {
        let structure = try JPEGStructure(parsing: encodedJPEG)
        guard let size = structure.frameSize else { throw .noFrameHeader }
        var warnings = readWarnings
        var added: [JPEGSegment] = []

        if let app1 = exifForOutput(width: size.width, height: size.height, stripGPS: stripGPS, edits: edits) {
            if app1.count <= JPEGSignature.maxPayload {
                added.append(JPEGSegment(marker: 0xE1, payload: app1))
            } else {
                warnings.append(.exifTooLarge(bytes: app1.count))
            }
        }
        if let icc {
            if let chunks = iccSegments(icc) {
                added += chunks
            } else {
                warnings.append(.iccTooLarge(bytes: icc.count))
            }
        }
        switch xmpForOutput(size: size, stripGPS: stripGPS, edits: edits) {
        case .packet(let packet, let warning):
            warnings += warning.map { [$0] } ?? []
            if packet.count > JPEGSignature.maxXMP {
                warnings.append(.xmpTooLarge(bytes: packet.count))
            } else {
                added.append(JPEGSegment(marker: 0xE1, payload: Data(JPEGSignature.xmp) + packet))
            }
        case .dropped(let warning): warnings.append(warning)
        case .none: break
        }
        switch iptcForOutput(stripGPS: stripGPS, edits: edits) {
        case .segments(let segments, let cut):
            added += segments
            warnings += cut
        case .dropped(let warning): warnings.append(warning)
        case .none: break
        }

        let writesEXIF = added.contains { $0.isApp(1, JPEGSignature.exif) }
        let writesICC = added.contains { $0.isApp(2, JPEGSignature.icc) }
        let writesXMP = added.contains { $0.isApp(1, JPEGSignature.xmp) }
        // The encoder's own segments, less any it had of the kinds written above (none from jpegenc).
        let kept = structure.segments.filter { s in
            !(writesEXIF && (s.isApp(0, JPEGSignature.jfif) || s.isApp(1, JPEGSignature.exif)))
                && !(writesICC && s.isApp(2, JPEGSignature.icc)) && !(writesXMP && s.isApp(1, JPEGSignature.xmp))
        }
        var out: [UInt8] = [0xFF, 0xD8]
        for segment in added + carriedSegments + kept { out += segment.encoded }
        return (Data(out), structure.scanOffset, warnings)
    }

    /// `encodedPNG` (from the encoder) with this metadata right after IHDR: iCCP, eXIf (TIFF only),
    /// iTXt XMP; then the encoder's chunks as they were. A JPEG's ICC profile becomes an iCCP of
    /// stored (uncompressed) deflate blocks. JPEG IPTC is not carried into PNG.
    public func insert(
        intoPNG encodedPNG: Data, stripGPS: Bool, edits: MetadataEdits = MetadataEdits()
    ) throws(MetadataError) -> MetadataOutput {
        let chunks = try PNGChunk.parse(encodedPNG)
        guard let ihdr = chunks.first, ihdr.type == "IHDR", ihdr.data.count >= 8 else { throw .notPNG }
        let h = [UInt8](ihdr.data)
        let width = Int(h[0]) << 24 | Int(h[1]) << 16 | Int(h[2]) << 8 | Int(h[3])
        let height = Int(h[4]) << 24 | Int(h[5]) << 16 | Int(h[6]) << 8 | Int(h[7])
        var warnings = readWarnings
        var added: [PNGChunk] = []

        if let pngICCChunk {
            added.append(PNGChunk(type: "iCCP", data: pngICCChunk))
        } else if let icc {
            added.append(.iccp(icc))
        }
        // sRGB and iCCP exclude each other.
        let addsICCP = added.contains { $0.type == "iCCP" }
        added += pngColourChunks.filter { $0.type != "sRGB" || !addsICCP }
        if let tiff = exifTIFFForOutput(width: width, height: height, stripGPS: stripGPS, edits: edits) {
            added.append(PNGChunk(type: "eXIf", data: tiff))
        }
        switch xmpForOutput(size: PixelSize(width: width, height: height), stripGPS: stripGPS, edits: edits) {
        case .packet(let packet, let warning):
            added.append(.xmp(packet))
            warnings += warning.map { [$0] } ?? []
        case .dropped(let warning): warnings.append(warning)
        case .none: break
        }

        let addedTypes = Set(added.map(\.type))
        // An iCCP excludes sRGB; a second eXIf, XMP iTXt or colour chunk would contradict ours.
        let kept = chunks.dropFirst().filter { c in
            !(addedTypes.contains("iCCP") && (c.type == "iCCP" || c.type == "sRGB"))
                && !(["gAMA", "cHRM", "sRGB"].contains(c.type) && addedTypes.contains(c.type))
                && !(addedTypes.contains("eXIf") && c.type == "eXIf")
                && !(addedTypes.contains("iTXt") && c.xmpPacket != nil)
        }
        var out = PNGChunk.signature + ihdr.encoded
        for chunk in added + kept { out += chunk.encoded }
        return MetadataOutput(data: Data(out), warnings: warnings)
    }
}
