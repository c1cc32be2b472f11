// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
/// PhotoMetadata: reads a photo's EXIF, ICC profile, XMP and IPTC and writes them into the JPEG or
/// PNG that the batch job re-encodes, edited for the new pixels.
///
/// XMP is edited through exiv2 (gexiv2, the one C library here, behind `internal import` in
/// Exiv2.swift): XMP is RDF/XML with namespaces, which only a real parser edits safely. exiv2 is
/// handed the XMP packet alone, never a photo, so it cannot touch the EXIF block. IPTC's flat
/// records are edited in Swift (IPTC.swift says why).
///
/// Why EXIF is a small pure-Swift reader/editor (no libexif, no exiv2): the output must keep
/// every byte of the camera's EXIF that we do not touch — MakerNote, lens data, tags nobody here
/// knows. Re-serialising through libexif risks losing or rewriting those (and breaks MakerNotes
/// whose offsets count from the TIFF header), while our edits are few and local: Orientation to 1,
/// the pixel dimensions, the thumbnail and optionally GPS removed. So the EXIF block is patched in
/// place and everything else is copied as bytes.
///
/// Entry points: `ImageMetadata(jpeg:)` / `ImageMetadata(png:)` read a source photo;
/// `ImageMetadata.insert(into:stripGPS:)` / `insert(intoPNG:stripGPS:)` write into an encoder's output.
import Foundation

/// Why a photo's metadata could not be read, or an encoder's output could not take it.
public enum MetadataError: Error, Sendable, Equatable, CustomStringConvertible {
    case notJPEG
    case notPNG
    case notWebP
    /// A segment or chunk starting at `offset` runs past the end of the data.
    case truncated(offset: Int)
    /// A byte that is not a marker where a JPEG marker must be.
    case unexpectedByte(offset: Int, byte: UInt8)
    case badSegmentLength(marker: UInt8, offset: Int)
    /// The JPEG ends (or has EOI) before its first scan.
    case noImageData
    /// The JPEG has no SOF frame header, so its size is unknown.
    case noFrameHeader
    case badTIFFHeader
    /// An IFD's table lies (partly) outside the EXIF block.
    case ifdOutOfBounds(ifd: String, offset: Int)
    /// An IFD is reached twice: the offsets form a loop.
    case ifdLoop(offset: Int)
    /// A tag's value lies outside the EXIF block.
    case valueOutOfBounds(ifd: String, tag: UInt16)
    case badICCProfile(String)
    case badPNGChunkCRC(chunk: String)
    /// libwebpmux refused a WebP (`operation`: the function; `code`: its `WebPMuxError`).
    case webpMux(operation: String, code: Int)

    public var description: String {
        switch self {
        case .notJPEG: "not a JPEG file (no SOI marker)"
        case .notPNG: "not a PNG file (bad signature)"
        case .notWebP: "not a WebP file (no RIFF WEBP header)"
        case .truncated(let offset): "truncated: the segment at byte \(offset) runs past the end of the file"
        case .unexpectedByte(let offset, let byte):
            "corrupt JPEG: byte 0x\(hex(byte)) at \(offset) where a marker should be"
        case .badSegmentLength(let marker, let offset):
            "corrupt JPEG: marker 0xFF\(hex(marker)) at byte \(offset) has an impossible length"
        case .noImageData: "corrupt JPEG: no image data (the file ends before the first scan)"
        case .noFrameHeader: "corrupt JPEG: no frame header (SOF), so the image size is unknown"
        case .badTIFFHeader: "corrupt EXIF: bad TIFF header"
        case .ifdOutOfBounds(let ifd, let offset):
            "corrupt EXIF: \(ifd) at offset \(offset) lies outside the EXIF block"
        case .ifdLoop(let offset): "corrupt EXIF: IFD offsets loop back to \(offset)"
        case .valueOutOfBounds(let ifd, let tag):
            "corrupt EXIF: the value of tag 0x\(hex(tag)) in \(ifd) lies outside the EXIF block"
        case .badICCProfile(let why): "corrupt ICC profile: \(why)"
        case .badPNGChunkCRC(let chunk): "corrupt PNG: bad CRC in chunk \(chunk)"
        case .webpMux(let operation, let code):
            "corrupt WebP: libwebpmux \(operation) failed (\(WebPMux.describe(code)))"
        }
    }
}

/// Metadata that was left out of an output, and why; the file is still valid.
public enum MetadataWarning: Sendable, Equatable, CustomStringConvertible {
    /// The source's EXIF could not be read at all (a bad header, IFD0 outside the block).
    case exifUnreadable(MetadataError)
    /// Parts of the source's EXIF were damaged and left out (the first problem, how many more).
    case exifPartlyDamaged(MetadataError, more: Int)
    /// The source's ICC profile chunks do not fit together.
    case iccUnreadable(MetadataError)
    /// A PNG ancillary chunk of the source with a wrong CRC, skipped.
    case pngChunkSkipped(chunk: String)
    case exifTooLarge(bytes: Int)
    case iccTooLarge(bytes: Int)
    case xmpTooLarge(bytes: Int)
    case xmpNotUTF8
    /// A PNG's iCCP chunk whose profile could not be taken out (its header, zlib data or size).
    case iccpUnreadable(ICCPError)
    /// IPTC (a JPEG's APP13) has no place in a WebP, HEIC or TIFF output here; XMP carries its fields.
    case iptcNotCarried
    /// exiv2 could not read or rewrite the XMP packet.
    case xmpUnreadable(Exiv2Error)
    case iptcUnreadable(IPTCError)
    /// These IPTC datasets of the credit were not written: the block's character set cannot hold them.
    case iptcCreditNotWritten([String])
    /// An IPTC dataset of the credit cut to the most bytes IIM allows it (XMP and EXIF hold it whole).
    case iptcCut(String, limit: Int)

    public var description: String {
        switch self {
        case .exifUnreadable(let why): "EXIF left out: \(why)"
        case .exifPartlyDamaged(let why, let more):
            "EXIF partly left out: \(why)" + (more == 0 ? "" : " (and \(more) more problem\(more == 1 ? "" : "s"))")
        case .iccUnreadable(let why): "ICC profile left out: \(why)"
        case .pngChunkSkipped(let chunk): "PNG chunk \(chunk) left out: its CRC is wrong"
        case .exifTooLarge(let n): "EXIF left out: \(n) bytes do not fit in one JPEG segment"
        case .iccTooLarge(let n): "ICC profile left out: \(n) bytes need more than 255 JPEG segments"
        case .xmpTooLarge(let n): "XMP left out: \(n) bytes exceed the 65502 a JPEG segment can hold"
        case .xmpNotUTF8: "XMP left out: it is not UTF-8 text, so it cannot be edited"
        case .iccpUnreadable(let why): "ICC profile left out: \(why)"
        case .iptcNotCarried: "IPTC left out: this output format carries XMP and EXIF, not IPTC"
        case .xmpUnreadable(let error): "XMP left out: \(error)"
        case .iptcUnreadable(let error): "IPTC left out: \(error)"
        case .iptcCreditNotWritten(let names):
            "IPTC \(names.joined(separator: " and ")) left out: the photo's IPTC character set cannot hold the text"
        case .iptcCut(let name, let limit):
            "IPTC \(name) cut to \(limit) bytes, the most IIM allows it (XMP and EXIF hold it whole)"
        }
    }
}

/// A written image and what had to be left out of it.
public struct MetadataOutput: Sendable, Equatable {
    public let data: Data
    public let warnings: [MetadataWarning]
}

/// Width and height in pixels.
public struct PixelSize: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}

func hex(_ v: some FixedWidthInteger) -> String {
    let s = String(v, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, v.bitWidth / 4 - s.count)) + s
}
