// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// One metadata block a photo holds, and what becomes of it in a marked output: what
/// `camstamp inspect` lists. The fates follow the rules the writers keep (`JPEGSegment.carriedVerbatim`,
/// the EXIF, XMP, ICC and IPTC code); this type only names them.
public struct MetadataBlock: Sendable, Equatable {
    public enum Fate: String, Sendable {
        /// Written into the output as it was, or edited only where the new pixels differ.
        case carried
        /// Left out of the output.
        case dropped
    }

    /// What it is: "EXIF", "maker note", "XMP", "C2PA manifest (JUMBF)"…
    public var name: String
    /// Where it is and how large: "APP1, 1234 bytes".
    public var detail: String
    public var fate: Fate
    /// Why, or what is edited in it.
    public var why: String

    public init(_ name: String, _ detail: String, _ fate: Fate, _ why: String) {
        self.name = name
        self.detail = detail
        self.fate = fate
        self.why = why
    }
}

public enum MetadataInventory {
    /// The blocks of a JPEG's header, in file order (the EXIF block's maker note and thumbnail
    /// after it). Throws for a broken structure.
    public static func blocks(jpeg data: Data) throws(MetadataError) -> [MetadataBlock] {
        let structure = try JPEGStructure(parsing: data)
        var blocks: [MetadataBlock] = []
        var iccChunks = 0, iccBytes = 0
        for segment in structure.segments where (0xE0...0xEF).contains(segment.marker) {
            let where_ = "APP\(segment.marker - 0xE0), \(segment.payload.count) bytes"
            if segment.isApp(1, JPEGSignature.exif) {
                blocks += exifBlocks(segment, where_)
            } else if segment.isApp(2, JPEGSignature.icc) {
                iccChunks += 1
                iccBytes += segment.payload.count
            } else if let named = named(segment) {
                blocks.append(MetadataBlock(named.name, where_, named.fate, named.why))
            } else if segment.carriedVerbatim {
                blocks.append(
                    MetadataBlock("APP\(segment.marker - 0xE0) segment", where_, .carried, "copied byte for byte"))
            } else {
                blocks.append(
                    MetadataBlock(
                        "APP\(segment.marker - 0xE0) segment", where_, .dropped,
                        "it holds a JPEG picture (a preview), which would show the photo without its marks"))
            }
        }
        if iccChunks > 0 {
            let detail = "APP2 ×\(iccChunks), \(iccBytes) bytes"
            blocks.append(MetadataBlock("ICC profile", detail, .carried, "the colours are the photo's own"))
        }
        return blocks
    }

    /// The segments with a name of their own, and their fate.
    private static func named(_ segment: JPEGSegment) -> (name: String, fate: MetadataBlock.Fate, why: String)? {
        let table: [(UInt8, [UInt8], String, MetadataBlock.Fate, String)] = [
            (0, JPEGSignature.jfif, "JFIF", .dropped, "the encoder writes its own"),
            (0, Array("JFXX\0".utf8), "JFIF thumbnail (JFXX)", .dropped, "a preview without the marks"),
            (1, JPEGSignature.xmp, "XMP", .carried, "size and orientation updated, thumbnails left out"),
            (1, JPEGSignature.xmpExtension, "extended XMP", .carried, "joined to the main packet"),
            (1, Array("FLIR\0".utf8), "FLIR thermal data", .dropped, "pictures bound to the source's pixels"),
            (2, Array("MPF\0".utf8), "MPF (secondary pictures, previews)", .dropped, "offsets into the source file"),
            (2, Array("FPXR\0".utf8), "FlashPix (FPXR)", .dropped, "previews and offsets into the source file"),
            (13, JPEGSignature.iptc, "IPTC (Photoshop APP13)", .carried, "its thumbnails and EXIF/XMP copies left out"),
            (14, Array("Adobe".utf8), "Adobe APP14", .dropped, "the encoder's colour transform is written instead"),
        ]
        if let row = table.first(where: { segment.isApp($0.0, $0.1) }) { return (row.2, row.3, row.4) }
        if segment.isApp(11, Array("JP".utf8)) {
            let c2pa = segment.payload.range(of: Data("c2pa".utf8)) != nil
            return (
                c2pa ? "C2PA manifest (JUMBF)" : "JUMBF box", .dropped,
                c2pa
                    ? "signed over the source's pixels: it cannot stay valid in a marked file"
                    : "embedded pictures or gain maps bound to the source's pixels"
            )
        }
        return nil
    }

    /// The EXIF block, then its maker note and thumbnail when it has them.
    private static func exifBlocks(_ segment: JPEGSegment, _ where_: String) -> [MetadataBlock] {
        guard let exif = try? EXIF(app1Payload: segment.payload) else {
            return [MetadataBlock("EXIF", where_, .dropped, "it cannot be read")]
        }
        var blocks = exifBlocks(exif, where_)
        // Pictures elsewhere in the block (a maker note's preview) are zeroed in the output too.
        let tiffStart = JPEGSignature.exif.count
        let thumbnails = exif.thumbnailRanges.map { $0.lowerBound + tiffStart..<$0.upperBound + tiffStart }
        let previews = embeddedJPEGs(in: [UInt8](segment.payload)).filter { picture in
            !thumbnails.contains { $0.overlaps(picture) }
        }
        if !previews.isEmpty {
            let bytes = previews.reduce(0) { $0 + $1.count }
            blocks.append(
                MetadataBlock(
                    previews.count == 1 ? "preview in the EXIF block" : "\(previews.count) previews in the EXIF block",
                    "\(bytes) bytes", .dropped, "zeroed: it would show the photo without its marks"))
        }
        return blocks
    }

    /// `exif`'s block, maker note and thumbnail.
    public static func exifBlocks(_ exif: EXIF, _ where_: String) -> [MetadataBlock] {
        var blocks = [
            MetadataBlock(
                "EXIF", "\(where_), \(exif.entries.count) tags", .carried,
                "edited in place: orientation, size; every other byte as it was")
        ]
        if let note = exif.entry(named: "MakerNote") {
            blocks.append(
                MetadataBlock(
                    "maker note", "\(note.valueLength) bytes", .carried, "copied byte for byte, offsets intact"))
        }
        if exif.hasThumbnail {
            let bytes = exif.thumbnailRanges.reduce(0) { $0 + $1.count }
            blocks.append(
                MetadataBlock(
                    "EXIF thumbnail (IFD1)", "\(bytes) bytes", .dropped, "it would show the photo without its marks"))
        }
        return blocks
    }

    /// The metadata chunks of a PNG, in file order.
    public static func blocks(png data: Data) throws(MetadataError) -> [MetadataBlock] {
        let (chunks, _) = try PNGChunk.parse(data, skippingBadAncillary: true)
        var blocks: [MetadataBlock] = []
        for chunk in chunks {
            let detail = "\(chunk.type) chunk, \(chunk.data.count) bytes"
            switch chunk.type {
            case "eXIf":
                if let exif = try? EXIF(tiff: chunk.data) {
                    blocks += exifBlocks(exif, "\(chunk.type) chunk, \(chunk.data.count) bytes")
                } else {
                    blocks.append(MetadataBlock("EXIF", detail, .dropped, "it cannot be read"))
                }
            case "iCCP":
                blocks.append(MetadataBlock("ICC profile", detail, .carried, "the colours are the photo's own"))
            case "iTXt" where chunk.xmpPacket != nil:
                blocks.append(
                    MetadataBlock("XMP", detail, .carried, "size and orientation updated, thumbnails left out"))
            case "gAMA", "cHRM", "sRGB":
                blocks.append(MetadataBlock("colour (\(chunk.type))", detail, .carried, "in a PNG output"))
            case "caBX":
                blocks.append(
                    MetadataBlock(
                        "C2PA manifest (caBX)", detail, .dropped,
                        "signed over the source's pixels: it cannot stay valid in a marked file"))
            case "tEXt", "zTXt", "iTXt":
                blocks.append(MetadataBlock("text (\(chunk.type))", detail, .dropped, "not carried"))
            default: continue
            }
        }
        return blocks
    }
}
