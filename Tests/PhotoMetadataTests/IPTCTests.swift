// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
@testable import PhotoMetadata

/// An APP13 payload: `Photoshop 3.0\0` and 8BIM resource blocks of (id, data).
func photoshopAPP13(_ blocks: [(UInt16, [UInt8])]) -> [UInt8] {
    Array("Photoshop 3.0".utf8) + [0] + PhotoshopResources(parsingNothing: blocks).encoded
}

/// IIM datasets (record, number, text) as bytes.
func iim(_ datasets: [(UInt8, UInt8, String)]) -> [UInt8] {
    IIMDatasets(datasets.map { .init(record: $0.0, number: $0.1, data: Array($0.2.utf8)) }).encoded
}

extension PhotoshopResources {
    init(parsingNothing blocks: [(UInt16, [UInt8])]) {
        self.init(blocks: blocks.map { Block(signature: Array("8BIM".utf8), id: $0.0, name: [], data: $0.1) })
    }
}

extension IIMDatasets {
    init(_ datasets: [Dataset]) { self.init(datasets: datasets) }
}

@Suite struct IPTCTests {
    static let located = iim([
        (1, 0, "\u{0}\u{4}"), (2, 0, "\u{0}\u{4}"), (2, 5, "Harbour"), (2, 80, "Jane Doe"),
        (2, 90, "Valparaiso"), (2, 92, "Cerro Alegre"), (2, 95, "Region V"), (2, 100, "CHL"),
        (2, 101, "Chile"), (2, 116, "(c) Jane"),
    ])

    func output(
        _ blocks: [(UInt16, [UInt8])], stripGPS: Bool, edits: MetadataEdits = MetadataEdits()
    ) throws
        -> (resources: PhotoshopResources?, warnings: [MetadataWarning])
    {
        var m = ImageMetadata()
        m.iptc = Data(photoshopAPP13(blocks))
        switch m.iptcForOutput(stripGPS: stripGPS, edits: edits) {
        case .none: return (nil, [])
        case .dropped(let warning): return (nil, [warning])
        case .segments(let segments, let warnings):
            let bytes = segments.flatMap { [UInt8]($0.payload.dropFirst(14)) }
            return (try PhotoshopResources(parsing: bytes), warnings)
        }
    }

    func datasets(_ resources: PhotoshopResources?) throws -> [IIMDatasets.Dataset] {
        let block = try #require(resources?.blocks.first { $0.id == 0x0404 })
        return try IIMDatasets(parsing: block.data).datasets
    }

    @Test func resourcesAndDatasetsRoundTripByteForByte() throws {
        let blocks: [(UInt16, [UInt8])] = [(0x03ED, [1, 2, 3]), (0x0404, Self.located)]
        let payload = photoshopAPP13(blocks)
        let parsed = try PhotoshopResources(parsing: Array(payload.dropFirst(14)))
        #expect(parsed.encoded == Array(payload.dropFirst(14)))
        #expect(try IIMDatasets(parsing: Self.located).encoded == Self.located)
        let long = IIMDatasets([.init(record: 2, number: 120, data: [UInt8](repeating: 65, count: 40_000))])
        #expect(try IIMDatasets(parsing: long.encoded) == long, "extended length")
    }

    @Test func keepCarriesIPTCButNeverThumbnailsOrCopies() throws {
        let (out, warning) = try output(
            [
                (0x0404, Self.located), (0x040C, [0xFF, 0xD8, 0xFF, 0xD9]), (0x0409, [1]),
                (0x0422, [2]), (0x0424, Array("<x:xmpmeta/>".utf8)), (0x0425, [UInt8](repeating: 7, count: 16)),
            ],
            stripGPS: false)
        #expect(warning.isEmpty)
        #expect(out?.blocks.map(\.id) == [0x0404, 0x0425], "digest kept: the IPTC did not change")
        #expect(try datasets(out).count == 10)
    }

    @Test func stripGPSRemovesPlaceNamesAndKeepsTheRest() throws {
        let (out, _) = try output([(0x0404, Self.located), (0x0425, [UInt8](repeating: 7, count: 16))], stripGPS: true)
        let kept = try datasets(out)
        #expect(kept.map { "\($0.record):\($0.number)" } == ["1:0", "2:0", "2:5", "2:80", "2:116"])
        #expect(out?.blocks.map(\.id) == [0x0404], "a stale digest would say the IPTC changed behind the XMP's back")
    }

    @Test func theCreditReplacesByLineAndCopyrightAndDeclaresUTF8() throws {
        let edits = MetadataEdits(artist: "Ana Pérez", copyright: "© 2026 Ana Pérez")
        let (out, warning) = try output([(0x0404, Self.located)], stripGPS: false, edits: edits)
        #expect(warning.isEmpty)
        let d = try datasets(out)
        #expect(d.filter { $0.record == 2 && $0.number == 80 }.map(\.data) == [Array("Ana Pérez".utf8)])
        #expect(d.filter { $0.record == 2 && $0.number == 116 }.map(\.data) == [Array("© 2026 Ana Pérez".utf8)])
        #expect(d.first { $0.record == 1 && $0.number == 90 }?.data == [0x1B, 0x25, 0x47])
        #expect(
            d.map { Int($0.record) << 8 | Int($0.number) } == d.map { Int($0.record) << 8 | Int($0.number) }.sorted())
    }

    @Test func aLatin1BlockGetsLatin1AndAnotherCharsetAWarning() throws {
        let latin1 = IIMDatasets([.init(record: 2, number: 5, data: [0x43, 0xE9])]).encoded  // "Cé"
        let (out, warning) = try output([(0x0404, latin1)], stripGPS: false, edits: MetadataEdits(copyright: "© Ana"))
        #expect(warning.isEmpty)
        #expect(try datasets(out).last?.data == [0xA9, 0x20, 0x41, 0x6E, 0x61])
        let iso2022 = IIMDatasets([
            .init(record: 1, number: 90, data: [0x1B, 0x2E, 0x41]), .init(record: 2, number: 80, data: [0x41]),
        ]).encoded
        let (other, otherWarning) = try output(
            [(0x0404, iso2022)], stripGPS: false, edits: MetadataEdits(artist: "Ana Pérez"))
        #expect(otherWarning == [.iptcCreditNotWritten(["By-line"])])
        #expect(
            try datasets(other).contains { $0.number == 80 } == false, "the old By-line would contradict the new credit"
        )
    }

    /// A credit longer than IIM allows (CopyrightNotice 128 bytes, By-line 32) is cut at a
    /// character's end, with a warning a field; it was written at any length.
    @Test func theCreditIsCutAtEachDatasetsIIMLimitOnACharactersEnd() throws {
        let copyright = String(repeating: "© Ana Pérez ", count: 500)
        let artist = "Ana María Pérez de la Fuente Ñúñez"  // "Ñ" is bytes 32 and 33
        let edits = MetadataEdits(artist: artist, copyright: copyright)
        let (out, warnings) = try output([(0x0404, Self.located)], stripGPS: false, edits: edits)
        #expect(warnings == [.iptcCut("By-line", limit: 32), .iptcCut("CopyrightNotice", limit: 128)])
        #expect(
            warnings.last?.description
                == "IPTC CopyrightNotice cut to 128 bytes, the most IIM allows it (XMP and EXIF hold it whole)")
        let d = try datasets(out)
        let byline = try #require(d.first { $0.record == 2 && $0.number == 80 }?.data)
        let notice = try #require(d.first { $0.record == 2 && $0.number == 116 }?.data)
        // Whole characters: "é" and "©" are two bytes each, and the cut never falls inside one.
        #expect(String(validating: byline, as: UTF8.self) == "Ana María Pérez de la Fuente ")
        #expect(notice.count <= 128 && notice.count >= 126)
        #expect(String(validating: notice, as: UTF8.self).map { copyright.hasPrefix($0) } == true)
        let latin1 = IIMDatasets([.init(record: 2, number: 5, data: [0x43, 0xE9])]).encoded  // "Cé", no charset
        let long = MetadataEdits(artist: String(repeating: "é", count: 40))
        let (short, _) = try output([(0x0404, latin1)], stripGPS: false, edits: long)
        #expect(try datasets(short).first { $0.number == 80 }?.data == [UInt8](repeating: 0xE9, count: 32))
    }

    @Test func withoutIPTCNoneIsAdded() throws {
        let (out, _) = try output([(0x03ED, [1, 2])], stripGPS: false, edits: MetadataEdits(artist: "Ana"))
        #expect(out?.blocks.map(\.id) == [0x03ED])
    }

    @Test func corruptBlocksAreTypedErrors() throws {
        var m = ImageMetadata()
        m.iptc = Data(Array("Photoshop 3.0".utf8) + [0] + Array("8BIM-iptc".utf8))
        guard
            case .dropped(.iptcUnreadable(.truncatedResource(offset: 0))) = m.iptcForOutput(
                stripGPS: false, edits: MetadataEdits())
        else {
            Issue.record("expected a truncated resource")
            return
        }
        #expect(throws: IPTCError.badDatasetMarker(offset: 0)) { try IIMDatasets(parsing: [0x1D, 2, 5, 0, 0]) }
        #expect(throws: IPTCError.truncatedDataset(offset: 0)) { try IIMDatasets(parsing: [0x1C, 2, 5, 0, 9, 1]) }
        #expect(
            MetadataWarning.iptcUnreadable(.truncatedResource(offset: 0)).description
                == "IPTC left out: corrupt IPTC: the resource at byte 0 of APP13 runs past its end")
    }
}
