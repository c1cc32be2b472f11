// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

// IPTC in a JPEG: APP13 `Photoshop 3.0\0`, a list of Photoshop image resource blocks, one of them
// (0x0404) holding the IPTC-IIM datasets. Both layers are flat tag-length-value lists, edited here
// in Swift rather than through exiv2: gexiv2 writes IPTC only by saving a whole image (a file or
// a stream), which would hand exiv2 a JPEG to re-lay out, while these edits are a filter and two
// appended records that keep every other byte as it was, in one linear pass.

/// Why a JPEG's IPTC block could not be read.
public enum IPTCError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A Photoshop resource block at `offset` does not start with a known signature (`8BIM`).
    case badResourceSignature(offset: Int)
    /// A resource block at `offset` runs past the end of the APP13 data.
    case truncatedResource(offset: Int)
    /// An IIM dataset at `offset` does not start with its tag marker 0x1C.
    case badDatasetMarker(offset: Int)
    /// An IIM dataset at `offset` runs past the end of its resource block.
    case truncatedDataset(offset: Int)

    public var description: String {
        switch self {
        case .badResourceSignature(let offset): "corrupt IPTC: no resource signature at byte \(offset) of APP13"
        case .truncatedResource(let offset): "corrupt IPTC: the resource at byte \(offset) of APP13 runs past its end"
        case .badDatasetMarker(let offset): "corrupt IPTC: no dataset marker at byte \(offset) of the IPTC block"
        case .truncatedDataset(let offset):
            "corrupt IPTC: the dataset at byte \(offset) of the IPTC block runs past its end"
        }
    }
}

/// Photoshop image resource blocks, as APP13 carries them.
struct PhotoshopResources: Equatable {
    struct Block: Equatable {
        var signature: [UInt8]
        var id: UInt16
        /// The Pascal-string name, without its length byte and padding (usually empty).
        var name: [UInt8]
        var data: [UInt8]
    }

    static let iptc: UInt16 = 0x0404
    /// The MD5 of the IPTC block, which readers compare to tell whether XMP is in sync.
    static let iptcDigest: UInt16 = 0x0425
    /// Thumbnails (0x0409 Photoshop 4, 0x040C later) would show the photo without its marks;
    /// EXIF (0x0422, 0x0423) and XMP (0x0424) copies would keep the old orientation, thumbnails
    /// and location behind the edited APP1 segments.
    static let neverCarried: Set<UInt16> = [0x0409, 0x040C, 0x0422, 0x0423, 0x0424]
    static let signatures: [[UInt8]] = ["8BIM", "PHUT", "AgHg", "DCSR"].map { Array($0.utf8) }

    var blocks: [Block]

    init(blocks: [Block]) { self.blocks = blocks }

    /// Parses the bytes after `Photoshop 3.0\0`; zero padding after the last block is allowed.
    init(parsing bytes: [UInt8]) throws(IPTCError) {
        let reader = ByteReader(bytes: bytes, bigEndian: true)
        var blocks: [Block] = []
        var pos = 0
        while pos < bytes.count {
            if bytes[pos...].allSatisfy({ $0 == 0 }) { break }
            guard pos + 4 <= bytes.count, Self.signatures.contains(where: { bytes[pos..<pos + 4].elementsEqual($0) })
            else {
                throw .badResourceSignature(offset: pos)
            }
            guard let id = reader.u16(pos + 4), let nameLength = reader.u8(pos + 6) else {
                throw .truncatedResource(offset: pos)
            }
            // The name's length byte and text take an even number of bytes.
            let nameEnd = pos + 7 + Int(nameLength)
            let sizeAt = nameEnd + (Int(nameLength) + 1) % 2
            guard let size = reader.u32(sizeAt), sizeAt + 4 + Int(size) <= bytes.count else {
                throw .truncatedResource(offset: pos)
            }
            let dataAt = sizeAt + 4
            blocks.append(
                Block(
                    signature: Array(bytes[pos..<pos + 4]), id: id, name: Array(bytes[(pos + 7)..<nameEnd]),
                    data: Array(bytes[dataAt..<(dataAt + Int(size))])))
            pos = dataAt + Int(size) + Int(size) % 2
        }
        self.blocks = blocks
    }

    var encoded: [UInt8] {
        var out: [UInt8] = []
        for block in blocks {
            out += block.signature
            out.appendBE16(Int(block.id))
            out.append(UInt8(block.name.count))
            out += block.name
            if (block.name.count + 1) % 2 == 1 { out.append(0) }
            out.appendBE32(UInt32(block.data.count))
            out += block.data
            if block.data.count % 2 == 1 { out.append(0) }
        }
        return out
    }
}

/// IPTC-IIM datasets: marker 0x1C, record, dataset number, length (extended above 32767), data.
struct IIMDatasets: Equatable {
    struct Dataset: Equatable {
        var record: UInt8
        var number: UInt8
        var data: [UInt8]
    }

    /// Record 2 datasets that say where the photo was taken: Content Location Code and Name,
    /// City, Sub-location, Province/State, Country Code and Name.
    static let location: Set<UInt8> = [26, 27, 90, 92, 95, 100, 101]
    static let byline: UInt8 = 80
    static let copyrightNotice: UInt8 = 116
    /// The most bytes IIM 4.2 allows in record 2's text datasets, with their names: readers
    /// that keep to the standard refuse or cut a longer value on their own.
    static let limits: [UInt8: (name: String, bytes: Int)] = [
        5: ("ObjectName", 64), 25: ("Keywords", 64), 80: ("By-line", 32), 85: ("By-lineTitle", 32),
        90: ("City", 32), 92: ("Sub-location", 32), 95: ("Province-State", 32),
        101: ("Country-PrimaryLocationName", 64), 103: ("OriginalTransmissionReference", 32),
        105: ("Headline", 256), 110: ("Credit", 32), 115: ("Source", 32), 116: ("CopyrightNotice", 128),
        118: ("Contact", 128), 120: ("Caption-Abstract", 2000), 122: ("Writer-Editor", 32),
    ]
    /// 1:90 Coded Character Set, and its value for UTF-8 (ESC % G).
    static let codedCharacterSet: UInt8 = 90
    static let utf8: [UInt8] = [0x1B, 0x25, 0x47]

    var datasets: [Dataset]

    init(datasets: [Dataset]) { self.datasets = datasets }

    init(parsing bytes: [UInt8]) throws(IPTCError) {
        let reader = ByteReader(bytes: bytes, bigEndian: true)
        var datasets: [Dataset] = []
        var pos = 0
        while pos < bytes.count {
            // Writers pad the block with zeros.
            if bytes[pos...].allSatisfy({ $0 == 0 }) { break }
            guard bytes[pos] == 0x1C else { throw .badDatasetMarker(offset: pos) }
            guard let length16 = reader.u16(pos + 3) else { throw .truncatedDataset(offset: pos) }
            var dataAt = pos + 5
            var length = Int(length16)
            if length16 & 0x8000 != 0 {
                // Extended: the low bits count the bytes of the real length that follow.
                let count = Int(length16 & 0x7FFF)
                guard (1...4).contains(count), dataAt + count <= bytes.count else {
                    throw .truncatedDataset(offset: pos)
                }
                length = bytes[dataAt..<(dataAt + count)].reduce(0) { $0 << 8 | Int($1) }
                dataAt += count
            }
            guard dataAt + length <= bytes.count else { throw .truncatedDataset(offset: pos) }
            datasets.append(
                Dataset(record: bytes[pos + 1], number: bytes[pos + 2], data: Array(bytes[dataAt..<(dataAt + length)])))
            pos = dataAt + length
        }
        self.datasets = datasets
    }

    var encoded: [UInt8] {
        var out: [UInt8] = []
        for d in datasets {
            out += [0x1C, d.record, d.number]
            if d.data.count < 0x8000 {
                out.appendBE16(d.data.count)
            } else {
                out += [0x80, 0x04]
                out.appendBE32(UInt32(d.data.count))
            }
            out += d.data
        }
        return out
    }

    /// How `set(_:to:)` wrote a value.
    enum Written: Equatable {
        case whole
        /// Cut to the dataset's IIM limit of `limit` bytes, at a character's end.
        case cut(limit: Int)
        /// Not written: the block declares a character set that cannot hold the text.
        case notWritten
    }

    /// Replaces every `2:number` with one holding `text`, in the block's character set, cut to
    /// the dataset's IIM limit. The old value is removed even when the new one cannot be
    /// written: it would contradict the new one elsewhere.
    mutating func set(_ number: UInt8, to text: String) -> Written {
        datasets.removeAll { $0.record == 2 && $0.number == number }
        guard var bytes = encode(text) else { return .notWritten }
        var written = Written.whole
        if let limit = Self.limits[number]?.bytes, bytes.count > limit {
            // UTF-8 or one byte a scalar (ASCII, Latin-1): whole characters only, never half of one.
            let isUTF8 = bytes.elementsEqual(text.utf8)
            var kept = 0
            for character in text {
                let size = isUTF8 ? character.utf8.count : character.unicodeScalars.count
                guard kept + size <= limit else { break }
                kept += size
            }
            bytes.removeSubrange(kept...)
            written = .cut(limit: limit)
        }
        if !datasets.contains(where: { $0.record == 2 && $0.number == 0 }) {
            insert(Dataset(record: 2, number: 0, data: [0, 4]))  // Record Version 4, as IIM 4.x
        }
        insert(Dataset(record: 2, number: number, data: bytes))
        return written
    }

    /// `text` as bytes for this block: ASCII as is; otherwise UTF-8 when the block says so, or
    /// says nothing and holds nothing but UTF-8 (then 1:90 is added to say it); otherwise
    /// Latin-1, what readers assume of a block that says nothing, when it can hold the text.
    private mutating func encode(_ text: String) -> [UInt8]? {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return Array(text.utf8) }
        let declared = datasets.first { $0.record == 1 && $0.number == Self.codedCharacterSet }?.data
        if declared == Self.utf8 { return Array(text.utf8) }
        guard declared == nil else { return nil }
        if datasets.allSatisfy({ $0.record != 2 || String(validating: $0.data, as: UTF8.self) != nil }) {
            insert(Dataset(record: 1, number: Self.codedCharacterSet, data: Self.utf8))
            return Array(text.utf8)
        }
        return text.data(using: .isoLatin1).map { [UInt8]($0) }
    }

    /// Inserts `dataset` in record and number order, after any of the same number.
    private mutating func insert(_ dataset: Dataset) {
        let index =
            datasets.firstIndex {
                $0.record > dataset.record || ($0.record == dataset.record && $0.number > dataset.number)
            } ?? datasets.endIndex
        datasets.insert(dataset, at: index)
    }
}

extension ImageMetadata {
    enum IPTCForOutput {
        case none
        /// The APP13 segments, and a warning for each part of the credit cut or not written.
        case segments([JPEGSegment], [MetadataWarning])
        case dropped(MetadataWarning)
    }

    /// The APP13 segments for a JPEG output: the Photoshop resources less thumbnails and EXIF/XMP
    /// copies; in the IPTC block, location datasets removed with `stripGPS` and the credit of
    /// `edits` written (only when the photo has IPTC: XMP and EXIF carry it for every reader, and
    /// the Metadata Working Group asks writers to update IIM where it exists, not to add it).
    func iptcForOutput(stripGPS: Bool, edits: MetadataEdits) -> IPTCForOutput {
        guard let iptc else { return .none }
        var resources: PhotoshopResources
        do {
            resources = try PhotoshopResources(parsing: [UInt8](iptc.dropFirst(JPEGSignature.iptc.count)))
        } catch {
            return .dropped(.iptcUnreadable(error))
        }
        resources.blocks.removeAll { PhotoshopResources.neverCarried.contains($0.id) }
        var warnings: [MetadataWarning] = []
        if let index = resources.blocks.firstIndex(where: { $0.id == PhotoshopResources.iptc }) {
            var iim: IIMDatasets
            do { iim = try IIMDatasets(parsing: resources.blocks[index].data) } catch {
                return .dropped(.iptcUnreadable(error))
            }
            let original = iim
            if stripGPS { iim.datasets.removeAll { $0.record == 2 && IIMDatasets.location.contains($0.number) } }
            var unwritten: [String] = []
            for (number, text) in [(IIMDatasets.byline, edits.artist), (IIMDatasets.copyrightNotice, edits.copyright)] {
                guard let text else { continue }
                let name = IIMDatasets.limits[number]?.name ?? "2:\(number)"
                switch iim.set(number, to: text) {
                case .whole: break
                case .cut(let limit): warnings.append(.iptcCut(name, limit: limit))
                case .notWritten: unwritten.append(name)
                }
            }
            if !unwritten.isEmpty { warnings.insert(.iptcCreditNotWritten(unwritten), at: 0) }
            if iim != original {
                resources.blocks[index].data = iim.encoded
                // The digest would now say the IPTC was changed behind the XMP's back.
                resources.blocks.removeAll { $0.id == PhotoshopResources.iptcDigest }
                if iim.datasets.isEmpty { resources.blocks.removeAll { $0.id == PhotoshopResources.iptc } }
            }
        }
        guard !resources.blocks.isEmpty else { return warnings.first.map { .dropped($0) } ?? .none }
        let bytes = resources.encoded
        let chunk = JPEGSignature.maxPayload - JPEGSignature.iptc.count
        let segments = stride(from: 0, to: bytes.count, by: chunk).map { start in
            JPEGSegment(
                marker: 0xED, payload: Data(JPEGSignature.iptc + bytes[start..<min(bytes.count, start + chunk)]))
        }
        return .segments(segments, warnings)
    }
}
