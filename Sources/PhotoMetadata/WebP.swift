import Foundation

/// A WebP file's RIFF chunks, and what its header says: the canvas size, lossless or lossy,
/// alpha, animation. Metadata lives in `ICCP`, `EXIF` and `XMP ` chunks behind a `VP8X` header.
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
        data.count >= 12 && data.prefix(4).elementsEqual("RIFF".utf8) && data.dropFirst(8).prefix(4).elementsEqual("WEBP".utf8)
    }

    public init(parsing data: Data) throws(MetadataError) {
        let b = [UInt8](data)
        guard Self.matches(data) else { throw .notWebP }
        let reader = ByteReader(bytes: b, bigEndian: false)
        var chunks: [Chunk] = []
        var pos = 12
        while pos + 8 <= b.count {
            guard let size = reader.u32(pos + 4), pos + 8 + Int(size) <= b.count else { throw .truncated(offset: pos) }
            chunks.append(Chunk(fourCC: String(decoding: b[pos..<pos + 4], as: UTF8.self),
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
                if width == 0 { (width, height) = (Int(p[6]) | Int(p[7] & 0x3F) << 8, Int(p[8]) | Int(p[9] & 0x3F) << 8) }
            case "ALPH": alpha = true
            default: break
            }
        }
        guard width > 0, height > 0 else { throw .noFrameHeader }
        (self.width, self.height, isLossless, hasAlpha, isAnimated) = (width, height, lossless, alpha, animated)
    }

    func payload(_ fourCC: String) -> Data? { chunks.first { $0.fourCC == fourCC }?.payload }

    /// A RIFF WebP file of `chunks`.
    static func file(_ chunks: [Chunk]) -> Data {
        var body: [UInt8] = Array("WEBP".utf8)
        for chunk in chunks {
            body += Array(chunk.fourCC.utf8)
            body.appendLE32(UInt32(chunk.payload.count))
            body += chunk.payload
            if chunk.payload.count & 1 == 1 { body.append(0) }
        }
        var out: [UInt8] = Array("RIFF".utf8)
        out.appendLE32(UInt32(body.count))
        return Data(out + body)
    }
}

extension ImageMetadata {
    /// Reads the `EXIF` (a TIFF block, or one behind `Exif\0\0`), `ICCP` and `XMP ` chunks.
    public init(webp: Data) throws(MetadataError) {
        self.init()
        let container = try WebPContainer(parsing: webp)
        if let block = container.payload("EXIF") {
            readEXIF(block: block)
        }
        icc = container.payload("ICCP")
        xmp = container.payload("XMP ")
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
    public func pieces(size: PixelSize, stripGPS: Bool, edits: MetadataEdits = MetadataEdits())
        -> (exifTIFF: Data?, icc: Data?, xmp: Data?, warnings: [MetadataWarning]) {
        var warnings = readWarnings
        let tiff = exifTIFFForOutput(width: size.width, height: size.height, stripGPS: stripGPS, edits: edits)
        var packet: Data?
        switch xmpForOutput(size: size, stripGPS: stripGPS, edits: edits) {
        case .packet(let data, let warning): packet = data; warnings += warning.map { [$0] } ?? []
        case .dropped(let warning): warnings.append(warning)
        case .none: break
        }
        if iptc != nil { warnings.append(.iptcNotCarried) }
        return (tiff, icc, packet, warnings)
    }

    /// `encodedWebP` (from webpenc) with this metadata: a `VP8X` header whose flags say what
    /// follows, `ICCP` before the picture, `EXIF` (TIFF block) and `XMP ` after it.
    public func insert(intoWebP encodedWebP: Data, stripGPS: Bool, edits: MetadataEdits = MetadataEdits()) throws(MetadataError) -> MetadataOutput {
        let container = try WebPContainer(parsing: encodedWebP)
        let size = PixelSize(width: container.width, height: container.height)
        let (tiff, icc, xmp, warnings) = pieces(size: size, stripGPS: stripGPS, edits: edits)
        guard tiff != nil || icc != nil || xmp != nil else { return MetadataOutput(data: encodedWebP, warnings: warnings) }
        let picture = container.chunks.filter { !["VP8X", "ICCP", "EXIF", "XMP "].contains($0.fourCC) }
        var flags: UInt8 = 0
        if icc != nil { flags |= 0x20 }
        if container.hasAlpha { flags |= 0x10 }
        if tiff != nil { flags |= 0x08 }
        if xmp != nil { flags |= 0x04 }
        if container.isAnimated { flags |= 0x02 }
        let w = container.width - 1, h = container.height - 1
        let header = Data([flags, 0, 0, 0, UInt8(w & 0xFF), UInt8(w >> 8 & 0xFF), UInt8(w >> 16 & 0xFF),
                           UInt8(h & 0xFF), UInt8(h >> 8 & 0xFF), UInt8(h >> 16 & 0xFF)])
        var chunks = [WebPContainer.Chunk(fourCC: "VP8X", payload: header)]
        if let icc { chunks.append(.init(fourCC: "ICCP", payload: icc)) }
        chunks += picture
        if let tiff { chunks.append(.init(fourCC: "EXIF", payload: tiff)) }
        if let xmp { chunks.append(.init(fourCC: "XMP ", payload: xmp)) }
        return MetadataOutput(data: WebPContainer.file(chunks), warnings: warnings)
    }
}

extension [UInt8] {
    mutating func appendLE32(_ v: UInt32) {
        append(contentsOf: [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)])
    }
}
