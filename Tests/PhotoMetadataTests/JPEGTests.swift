// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import TestSupport
import Testing
@testable import PhotoMetadata

@Suite struct JPEGStructureTests {
    @Test func parsesSegmentsUpToTheScan() throws {
        let jpeg = tinyJPEG(blocksWide: 3, blocksHigh: 2)
        let s = try JPEGStructure(parsing: Data(jpeg))
        #expect(s.segments.map(\.marker) == [0xE0, 0xDB, 0xC0, 0xC4, 0xC4])
        #expect(s.frameSize == PixelSize(width: 24, height: 16))
        #expect(jpeg[s.scanOffset] == 0xFF && jpeg[s.scanOffset + 1] == 0xDA)
    }

    /// The header is parsed from the file's first 256 KB; one longer than that (five 60 KB APP
    /// segments), or a file cut short past that point, is parsed from all of it.
    @Test func aHeaderLongerThanThePrefixIsParsedWhole() throws {
        let big = (0..<5).map { i in appSegment(0xE2, [UInt8](repeating: UInt8(i), count: 60_000)) }
        let jpeg = tinyJPEG(blocksWide: 2, blocksHigh: 2, extra: big) + [UInt8](repeating: 0, count: 300_000)
        let s = try JPEGStructure(parsing: Data(jpeg))
        #expect(s.segments.map(\.marker) == [0xE0, 0xE2, 0xE2, 0xE2, 0xE2, 0xE2, 0xDB, 0xC0, 0xC4, 0xC4])
        #expect(s.segments[5].payload == Data([UInt8](repeating: 4, count: 60_000)))
        #expect(jpeg[s.scanOffset] == 0xFF && jpeg[s.scanOffset + 1] == 0xDA)
        // Cut inside the fifth segment, past the prefix: truncated, as before.
        #expect(throws: MetadataError.self) { try JPEGStructure(parsing: Data(jpeg.prefix(280_000))) }
    }

    @Test func fillBytesAndStandaloneMarkersAreAccepted() throws {
        var jpeg = tinyJPEG()
        // Fill bytes before DQT, and a standalone TEM marker.
        let dqt = try #require(JPEGStructure(parsing: Data(jpeg)).segments.first { $0.marker == 0xDB }).offset
        jpeg.insert(contentsOf: [0xFF, 0xFF, 0xFF, 0xFF, 0x01], at: dqt)
        let s = try JPEGStructure(parsing: Data(jpeg))
        #expect(s.segments.map(\.marker) == [0xE0, 0x01, 0xDB, 0xC0, 0xC4, 0xC4])
        #expect(s.segments[1].payload.isEmpty)
    }

    @Test func sliceOfALargerBufferParses() throws {
        let data = (Data([1, 2, 3]) + Data(tinyJPEG())).dropFirst(3)
        let s = try JPEGStructure(parsing: data)
        #expect(s.frameSize == PixelSize(width: 8, height: 8))
    }

    @Test(
        arguments: [
            ([0x89, 0x50], MetadataError.notJPEG),
            ([0xFF, 0xD8], .noImageData),
            ([0xFF, 0xD8, 0xFF, 0xD9], .noImageData),
            ([0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x10, 1, 2], .truncated(offset: 2)),
            ([0xFF, 0xD8, 0xFF, 0xE1, 0x00], .truncated(offset: 2)),
            ([0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x01], .badSegmentLength(marker: 0xE1, offset: 2)),
            ([0xFF, 0xD8, 0x12, 0x34], .unexpectedByte(offset: 2, byte: 0x12)),
            ([0xFF, 0xD8, 0xFF, 0x00], .unexpectedByte(offset: 3, byte: 0x00)),
            ([0xFF, 0xD8, 0xFF, 0xFF], .truncated(offset: 2)),
            ([0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x08, 1], .truncated(offset: 2)),
        ] as [([UInt8], MetadataError)])
    func malformedHeadersThrow(bytes: [UInt8], expected: MetadataError) {
        #expect(throws: expected) { try JPEGStructure(parsing: Data(bytes)) }
        #expect(!expected.description.isEmpty && !expected.description.contains("\n"))
    }

    @Test func everyTruncationOfARealHeaderThrowsOrParses() {
        let jpeg = Data(tinyJPEG(extra: [app1EXIF(cameraEXIF(bigEndian: true).build())]))
        for n in 0..<jpeg.count {
            _ = try? ImageMetadata(jpeg: jpeg.prefix(n))
        }
    }
}

@Suite struct ICCTests {
    func profile(_ n: Int) -> [UInt8] { (0..<n).map { UInt8(truncatingIfNeeded: $0 * 31 + $0 / 251) } }

    func chunk(_ seq: UInt8, of count: UInt8, _ bytes: ArraySlice<UInt8>) -> [UInt8] {
        appSegment(0xE2, Array("ICC_PROFILE".utf8) + [0, seq, count] + bytes)
    }

    @Test func multiChunkProfileRoundTrips() throws {
        let icc = profile(150_000)
        var metadata = ImageMetadata()
        metadata.icc = Data(icc)
        let out = try metadata.insert(into: Data(tinyJPEG()), stripGPS: false)
        let s = try JPEGStructure(parsing: out.data)
        let chunks = s.segments.filter { $0.marker == 0xE2 }
        #expect(chunks.count == 3)
        #expect(chunks.map { [UInt8]($0.payload)[12] } == [1, 2, 3])
        #expect(chunks.allSatisfy { [UInt8]($0.payload)[13] == 3 })
        #expect(chunks[0].payload.count == 65533)
        #expect(try ImageMetadata(jpeg: out.data).icc == Data(icc))
    }

    @Test func chunksOutOfOrderAreReassembledInSequence() throws {
        let icc = profile(300)
        let jpeg = tinyJPEG(extra: [chunk(2, of: 2, icc[100...]), chunk(1, of: 2, icc[..<100])])
        #expect(try ImageMetadata(jpeg: Data(jpeg)).icc == Data(icc))
    }

    @Test(
        arguments: [
            [(1, 2)], [(1, 2), (1, 2)], [(1, 2), (2, 3)], [(0, 1)], [(2, 1)], [(1, 0)],
        ] as [[(UInt8, UInt8)]])
    func inconsistentChunksCostOnlyTheProfile(chunks: [(UInt8, UInt8)]) throws {
        var b = TIFFBuilder(bigEndian: false)
        b.ifd0 = [b.short(0x0112, [6])]
        let jpeg = tinyJPEG(extra: [app1EXIF(b.build())] + chunks.map { chunk($0.0, of: $0.1, [1, 2, 3]) })
        let m = try ImageMetadata(jpeg: Data(jpeg))
        #expect(m.icc == nil)
        #expect(m.orientation == 6, "the EXIF is kept")
        guard case .iccUnreadable = try #require(m.readWarnings.first) else {
            Issue.record("expected an ICC warning, got \(m.readWarnings)")
            return
        }
        let out = try m.insert(into: Data(tinyJPEG()), stripGPS: false)
        #expect(
            out.warnings.count == 1
                && out.warnings[0].description.hasPrefix("ICC profile left out: corrupt ICC profile: "))
    }
}
