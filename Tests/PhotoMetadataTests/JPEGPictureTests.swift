// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
@testable import PhotoMetadata

@Suite struct JPEGPictureTests {
    /// A segment: 0xFF, marker, length, payload.
    func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        [0xFF, marker, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
    }

    /// A JPEG header with libjpeg's tables at `quality`, three components sampled as given, then
    /// `scans` (raw bytes after the header) and whatever follows.
    func jpeg(quality: Int, sampling: [UInt8] = [0x22, 0x11, 0x11], rest: [UInt8]) -> Data {
        let luma = JPEGPicture.scaledTable(JPEGPicture.standardLuma, quality: quality).map(UInt8.init)
        let chroma = JPEGPicture.scaledTable(JPEGPicture.standardChroma, quality: quality).map(UInt8.init)
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes += segment(0xDB, [0x00] + luma + [0x01] + chroma)
        bytes += segment(0xC2, [8, 0, 16, 0, 16, 3, 1, sampling[0], 0, 2, sampling[1], 1, 3, sampling[2], 1])
        return Data(bytes + rest)
    }

    let sos = [UInt8](arrayLiteral: 0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00)

    @Test func theEndIsFoundAcrossProgressiveScansStuffedBytesAndRestarts() throws {
        // Scan data with a stuffed 0xFF00 and a restart, a table between scans, a second scan, EOI,
        // then a trailer that itself holds 0xFFD9 (as an MP4 may).
        let scans =
            sos + [0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD0, 0x56] + segment(0xC4, [0x00] + [UInt8](repeating: 0, count: 16))
            + sos + [0x78, 0x9A] + [0xFF, 0xFF, 0xD9]  // a fill byte before EOI
        let data = jpeg(quality: 90, rest: scans + [0x00, 0xFF, 0xD9, 0x42])
        let structure = try JPEGStructure(parsing: data)
        #expect(JPEGPicture.end(of: data, structure: structure) == data.count - 4)
        let cut = data.prefix(data.count - 8)
        #expect(JPEGPicture.end(of: cut, structure: try JPEGStructure(parsing: cut)) == nil)
        // Segments between the scans: not a single scan.
        let walked = JPEGPicture.scans(of: data, structure: structure)
        #expect(walked.end == data.count - 4 && !walked.single)
    }

    /// A baseline picture's one scan runs from its SOS to its EOI with nothing between: the
    /// batch's search for a C2PA manifest skips it.
    @Test func aBaselinePictureHasASingleScan() throws {
        let scan = sos + [0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD0, 0x56] + [0xFF, 0xD9]
        let data = jpeg(quality: 90, rest: scan + [0x6A, 0x75])
        let structure = try JPEGStructure(parsing: data)
        let scans = JPEGPicture.scans(of: data, structure: structure)
        #expect(scans.end == data.count - 2 && scans.single)
        let cut = data.prefix(data.count - 4)
        let cutScans = JPEGPicture.scans(of: cut, structure: try JPEGStructure(parsing: cut))
        #expect(cutScans.end == nil && !cutScans.single)
    }

    @Test(arguments: [50, 60, 75, 90, 95, 98, 100])
    func libjpegTablesGiveBackTheirQuality(quality: Int) throws {
        let data = jpeg(quality: quality, rest: sos + [0xFF, 0xD9])
        let picture = try #require(JPEGPicture(try JPEGStructure(parsing: data)))
        #expect(picture.estimatedQuality == quality)
    }

    @Test func samplingAndColourModel() throws {
        for (factors, expected) in [
            ([UInt8(0x22), 0x11, 0x11], JPEGPicture.ChromaSampling.s420), ([0x21, 0x11, 0x11], .s422),
            ([0x11, 0x11, 0x11], .s444), ([0x41, 0x11, 0x11], .s411),
        ] {
            let data = jpeg(quality: 90, sampling: factors, rest: sos + [0xFF, 0xD9])
            let picture = try #require(JPEGPicture(try JPEGStructure(parsing: data)))
            #expect(picture.chroma == expected && picture.colourModel == .yCbCr && picture.unsupportedCoding == nil)
            #expect(picture.width == 16 && picture.height == 16 && picture.frameMarker == 0xC2)
        }
    }

    /// Chroma a quarter of the luma's width and half its height (4:1:0), or a quarter of its height
    /// (4:4:1): jpegdec turned the first green, libjpeg-turbo's TurboJPEG reads neither.
    /// Refused by name, not reported as damage; 4:4:0 is read.
    @Test func samplingNoDecoderReadsIsUnsupported() throws {
        for (factors, said) in [
            ([UInt8(0x42), 0x11, 0x11], "4:1:0 chroma sampling"), ([0x14, 0x11, 0x11], "4:4:1 chroma sampling"),
        ] {
            let data = jpeg(quality: 90, sampling: factors, rest: sos + [0xFF, 0xD9])
            let picture = try #require(JPEGPicture(try JPEGStructure(parsing: data)))
            #expect(
                picture.unsupportedCoding?.hasPrefix(said) == true, "\(factors): \(picture.unsupportedCoding ?? "nil")")
        }
        let fourFourZero = try #require(
            JPEGPicture(
                try JPEGStructure(parsing: jpeg(quality: 90, sampling: [0x12, 0x11, 0x11], rest: sos + [0xFF, 0xD9]))))
        #expect(fourFourZero.unsupportedCoding == nil)
    }

    /// A header past libjpeg's largest side is refused by its size, not called damaged.
    @Test func aSidePastLibjpegsLimitIsUnsupported() throws {
        var data = jpeg(quality: 90, sampling: [0x22, 0x11, 0x11], rest: sos + [0xFF, 0xD9])
        let sof = try #require(data.firstRange(of: Data([0xFF, 0xC2])))
        data[sof.lowerBound + 5] = 0x00
        data[sof.lowerBound + 6] = 0x01
        data[sof.lowerBound + 7] = 0xFF
        data[sof.lowerBound + 8] = 0xFF
        let picture = try #require(JPEGPicture(try JPEGStructure(parsing: data)))
        #expect(picture.width == 65_535 && picture.height == 1)
        #expect(picture.unsupportedCoding == "65535×1 pixels (libjpeg-turbo reads 65,500 a side at most)")
    }
}
