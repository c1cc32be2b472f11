// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// A WebP file's RIFF chunks, and what its header says: the canvas size, lossless or lossy,
/// alpha, animation. Metadata lives in `ICCP`, `EXIF` and `XMP ` chunks behind a `VP8X` header;
/// those are read and written by libwebpmux (`WebPMux`). The chunk list and these few header bits
/// are read here because libwebpmux does not tell whether the picture is lossless (VP8L) and
/// PhotoFacts needs that, and the size and alpha, before anything is decoded.
public struct WebPContainer: Sendable {
    public struct Chunk: Sendable {
        /// Four characters: `VP8 `, `VP8L`, `VP8X`, `ALPH`, `ICCP`, `EXIF`, `XMP `, `ANIM`, ...
        public let fourCC: String
        public let payload: Data
    }

    public let chunks: [Chunk]
    public let width: Int
    public let height: Int
    public let isLossless: Bool
    public let hasAlpha: Bool
    public let isAnimated: Bool

    /// Whether `data` starts like a WebP file (`RIFF` … `WEBP`).
    public static func matches(_ data: Data) -> Bool {
        data.count >= 12 && data.prefix(4).elementsEqual("RIFF".utf8)
            && data.dropFirst(8).prefix(4).elementsEqual("WEBP".utf8)
    }

    public init(parsing data: Data) throws(MetadataError) {
        let b = [UInt8](data)
        guard Self.matches(data) else { throw .notWebP }
        let reader = ByteReader(bytes: b, bigEndian: false)
        var chunks: [Chunk] = []
        var pos = 12
        while pos + 8 <= b.count {
            guard let size = reader.u32(pos + 4), pos + 8 + Int(size) <= b.count else { throw .truncated(offset: pos) }
            chunks.append(
                Chunk(
                    fourCC: String(decoding: b[pos..<pos + 4], as: UTF8.self),
                    payload: Data(b[pos + 8..<pos + 8 + Int(size)])))
            pos += 8 + Int(size) + Int(size & 1)
        }
        self.chunks = chunks
        var width = 0, height = 0, lossless = false, alpha = false, animated = false
        for chunk in chunks {
            let p = [UInt8](chunk.payload)
            switch chunk.fourCC {
            case "VP8X" where p.count >= 10:
                alpha = p[0] & 0x10 != 0
                animated = p[0] & 0x02 != 0
                width = (Int(p[4]) | Int(p[5]) << 8 | Int(p[6]) << 16) + 1
                height = (Int(p[7]) | Int(p[8]) << 8 | Int(p[9]) << 16) + 1
            case "VP8L" where p.count >= 5 && p[0] == 0x2F:
                lossless = true
                let bits = UInt32(p[1]) | UInt32(p[2]) << 8 | UInt32(p[3]) << 16 | UInt32(p[4]) << 24
                if width == 0 { (width, height) = (Int(bits & 0x3FFF) + 1, Int(bits >> 14 & 0x3FFF) + 1) }
                alpha = alpha || bits >> 28 & 1 == 1
            case "VP8 " where p.count >= 10 && p[3] == 0x9D && p[4] == 0x01 && p[5] == 0x2A:
                if width == 0 {
                    (width, height) = (Int(p[6]) | Int(p[7] & 0x3F) << 8, Int(p[8]) | Int(p[9] & 0x3F) << 8)
                }
            case "ALPH": alpha = true
            default: break
            }
        }
        guard width > 0, height > 0 else { throw .noFrameHeader }
        (self.width, self.height, isLossless, hasAlpha, isAnimated) = (width, height, lossless, alpha, animated)
    }
}

extension ImageMetadata {
    /// Reads the `EXIF` (a TIFF block, or one behind `Exif\0\0`), `ICCP` and `XMP ` chunks
    /// (libwebpmux).
    public init(webp: Data) throws(MetadataError) {
        self.init()
        guard WebPContainer.matches(webp) else { throw .notWebP }
        let mux = try WebPMux(webp)
        if let block = mux.chunk("EXIF") {
            readEXIF(block: block)
        }
        icc = mux.chunk("ICCP")
        xmp = mux.chunk("XMP ")
    }

    /// Metadata pieces read by another library (libheif, libtiff): `exifTIFF` is a TIFF block.
    public init(exifTIFF: Data?, icc: Data?, xmp: Data?) {
        self.init()
        if let exifTIFF { readEXIF(block: exifTIFF) }
        self.icc = icc
        self.xmp = xmp
    }

    /// Reads an EXIF block stored as TIFF, or as TIFF behind `Exif\0\0` (PNG eXIf, WebP EXIF).
    mutating func readEXIF(block: Data) {
        readEXIF { () throws(MetadataError) in
            block.starts(with: JPEGSignature.exif) ? try EXIF(app1Payload: block) : try EXIF(tiff: block)
        }
    }

    /// The metadata for an encoder that takes it as separate pieces (libheif, libtiff), for an
    /// upright `size` output: the edited EXIF as a TIFF block, the raw ICC profile, the XMP packet.
    /// What the pieces cannot carry is in `warnings`. `stripGPS` leaves the location out.
    public func pieces(
        size: PixelSize, stripGPS: Bool, edits: MetadataEdits = MetadataEdits()
    )
        -> (exifTIFF: Data?, icc: Data?, xmp: Data?, warnings: [MetadataWarning])
    {
        var warnings = readWarnings
        let tiff = exifTIFFForOutput(width: size.width, height: size.height, stripGPS: stripGPS, edits: edits)
        var packet: Data?
        switch xmpForOutput(size: size, stripGPS: stripGPS, edits: edits) {
        case .packet(let data, let warning):
            packet = data
            warnings += warning.map { [$0] } ?? []
        case .dropped(let warning): warnings.append(warning)
        case .none: break
        }
        if iptc != nil { warnings.append(.iptcNotCarried) }
        return (tiff, icc, packet, warnings)
    }

    /// `encodedWebP` (from webpenc) with this metadata, set by libwebpmux: `ICCP`, `EXIF` (a TIFF
    /// block) and `XMP ` chunks, a `VP8X` header whose flags say so, the bitstream byte for byte.
    public func insert(
        intoWebP encodedWebP: Data, stripGPS: Bool, edits: MetadataEdits = MetadataEdits()
    )
        throws(MetadataError) -> MetadataOutput
    {
        let container = try WebPContainer(parsing: encodedWebP)
        let size = PixelSize(width: container.width, height: container.height)
        let (tiff, icc, xmp, warnings) = pieces(size: size, stripGPS: stripGPS, edits: edits)
        guard tiff != nil || icc != nil || xmp != nil else {
            return MetadataOutput(data: encodedWebP, warnings: warnings)
        }
        let mux = try WebPMux(encodedWebP)
        for (fourCC, payload) in [("ICCP", icc), ("EXIF", tiff), ("XMP ", xmp)] {
            if let payload { try mux.setChunk(fourCC, payload) }
        }
        return MetadataOutput(data: try mux.assemble(), warnings: warnings)
    }
}
