// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import TestSupport
import Testing
@testable import PhotoMetadata

@Suite struct PNGTests {
    @Test func crc32MatchesTheStandardCheckValue() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(
            PNGChunk(type: "IEND", data: Data()).encoded == [
                0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
            ])
    }

    @Test func zlibStoredIsWellFormed() {
        let stream = zlibStored(Array(repeating: 7, count: 70_000))
        #expect(stream.prefix(2) == [0x78, 0x01])
        #expect((Int(stream[0]) << 8 | Int(stream[1])) % 31 == 0)
        #expect(stream[2] == 0 && stream[3] == 0xFF && stream[4] == 0xFF)  // first block: not final, 65535
        #expect(stream[2 + 5 + 65535] == 1)  // second block: final
        #expect(stream.count == 2 + 5 + 65535 + 5 + 4465 + 4)
        #expect(zlibStored([]) == [0x78, 0x01, 1, 0, 0, 0xFF, 0xFF, 0, 0, 0, 1])
    }

    @Test func jpegMetadataGoesIntoAPNGAfterIHDR() throws {
        let source = Data(
            tinyJPEG(extra: [
                app1EXIF(cameraEXIF(bigEndian: true).build()),
                appSegment(0xE2, Array("ICC_PROFILE".utf8) + [0, 1, 1] + iccProfileBytes(Array("fake-icc".utf8))),
                appSegment(0xE1, Array("http://ns.adobe.com/xap/1.0/".utf8) + [0] + Array(InsertTests.xmp.utf8)),
            ]))
        let encoded = tinyPNG(width: 6, height: 4)
        let out = try ImageMetadata(jpeg: source).insert(intoPNG: encoded, stripGPS: true)
        #expect(out.warnings.isEmpty)
        let chunks = try PNGChunk.parse(out.data)  // also checks every CRC
        #expect(chunks.map(\.type) == ["IHDR", "iCCP", "eXIf", "iTXt", "IDAT", "IEND"])
        #expect(chunks[1].data.prefix(13) == Data("ICC Profile".utf8 + [0, 0]))
        #expect(try PNGChunk.parse(encoded).last == chunks.last)
        #expect(chunks[4] == (try PNGChunk.parse(encoded))[1], "image data unchanged")

        let back = try ImageMetadata(png: out.data)
        let exif = try #require(back.exif)
        #expect(exif.orientation == 1)
        #expect(exif.values["PixelXDimension"] == "6" && exif.values["PixelYDimension"] == "4")
        #expect(exif.values["Model"] == "Canon EOS R6")
        #expect(!exif.hasGPS && !exif.hasThumbnail)
        let xmp = String(decoding: try #require(back.xmp), as: UTF8.self)
        #expect(xmp.contains(#"tiff:Orientation="1""#) && !xmp.contains("GPS"))
        #expect(back.pngICCChunk == chunks[1].data)
    }

    @Test func pngMetadataRoundTripsAndIntoJPEG() throws {
        var b = TIFFBuilder(bigEndian: false)
        b.ifd0 = [b.ascii(0x0110, "Pixel 9"), b.short(0x0112, [3])]
        let xmpPacket = Data(
            #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:tiff="http://ns.adobe.com/tiff/1.0/" tiff:Orientation="3"/></rdf:RDF></x:xmpmeta>"#
                .utf8)
        let xmpChunk = PNGChunk.xmp(xmpPacket)
        let profile = iccProfileBytes([1, 2, 3])
        let iccp = PNGChunk(type: "iCCP", data: Data(Array("sRGB".utf8) + [0, 0] + zlibStored(profile)))
        let source = tinyPNG(extra: [iccp, PNGChunk(type: "eXIf", data: Data(b.build())), xmpChunk])
        let m = try ImageMetadata(imageData: source)
        #expect(m.orientation == 3)
        #expect(m.exifValues["Model"] == "Pixel 9")
        #expect(m.xmp == xmpPacket)
        #expect(m.pngICCChunk == iccp.data)

        let png = try m.insert(intoPNG: tinyPNG(), stripGPS: false)
        #expect(try PNGChunk.parse(png.data).map(\.type) == ["IHDR", "iCCP", "eXIf", "iTXt", "IDAT", "IEND"])
        #expect(try PNGChunk.parse(png.data)[1] == iccp, "a PNG's iCCP is carried as is")

        let jpeg = try m.insert(into: Data(tinyJPEG()), stripGPS: false)
        #expect(jpeg.warnings.isEmpty)
        let back = try ImageMetadata(jpeg: jpeg.data)
        #expect(back.icc == Data(profile), "a PNG's profile goes into a JPEG inflated")
        #expect(back.orientation == 1 && back.exifValues["Model"] == "Pixel 9")
        #expect(String(decoding: try #require(back.xmp), as: UTF8.self).contains(#"tiff:Orientation="1""#))
    }

    /// An iCCP's profile is inflated for every output but a PNG's; one that cannot be is left out
    /// with one warning, the rest of the metadata kept.
    @Test func anICCPProfileIsInflatedOrLeftOutWithAWarning() throws {
        let profile = iccProfileBytes((0..<70_000).map { UInt8($0 % 251) })
        let sound = PNGChunk(type: "iCCP", data: Data(Array("P3".utf8) + [0, 0] + zlibStored(profile)))
        let m = try ImageMetadata(png: tinyPNG(extra: [sound]))
        #expect(m.icc == Data(profile) && m.pngICCChunk == sound.data && m.readWarnings.isEmpty)
        #expect(m.pieces(size: PixelSize(width: 1, height: 1), stripGPS: false).icc == Data(profile))

        let stream = zlibStored(profile)
        var badChecksum = stream
        badChecksum[badChecksum.count - 1] ^= 1
        let cases: [([UInt8], ICCPError)] = [
            (Array("P3".utf8) + [0, 0] + Array("not zlib".utf8), .notInflated("incorrect header check")),
            (Array("P3".utf8) + [0, 0] + stream.dropLast(10), .notInflated("the stream is cut short")),
            (Array("P3".utf8) + [0, 0] + badChecksum, .notInflated("incorrect data check")),
            (Array("P3".utf8) + [0, 1] + stream, .badHeader),  // compression method 1
            ([0, 0] + stream, .badHeader),  // no name
            ([UInt8](repeating: 0x41, count: 80) + [0, 0] + stream, .badHeader),  // name too long
            // Inflates, but not to a profile: no header, or one whose size or signature is wrong.
            (Array("P3".utf8) + [0, 0] + zlibStored(Array(profile.dropFirst(132))), .notAProfile),
            (Array("P3".utf8) + [0, 0] + zlibStored(Array(profile.prefix(70_000))), .notAProfile),
            (
                Array("P3".utf8) + [0, 0] + zlibStored(Array(profile[..<36]) + Array("ascp".utf8) + profile[40...]),
                .notAProfile
            ),
        ]
        for (data, error) in cases {
            let iccp = PNGChunk(type: "iCCP", data: Data(data))
            let exif = PNGChunk(type: "eXIf", data: Data(cameraEXIF(bigEndian: true).build()))
            let damaged = try ImageMetadata(png: tinyPNG(extra: [iccp, exif]))
            #expect(damaged.icc == nil && damaged.pngICCChunk == nil, "\(error)")
            #expect(damaged.readWarnings == [.iccpUnreadable(error)])
            #expect(damaged.exif != nil, "the rest is kept")
            let png = try damaged.insert(intoPNG: tinyPNG(), stripGPS: false)
            #expect(
                try !PNGChunk.parse(png.data).contains { $0.type == "iCCP" }, "a damaged iCCP is not carried into a PNG"
            )
            #expect(png.warnings == [.iccpUnreadable(error)])
        }
        #expect(
            MetadataWarning.iccpUnreadable(.tooLarge(limit: PNGChunk.maxICCBytes)).description
                == "ICC profile left out: the PNG's compressed profile inflates to more than 16 MiB")
    }

    /// A JPEG's (WebP's, HEIC's, TIFF's) profile goes into a PNG's iCCP deflated, and comes back
    /// out of it byte for byte.
    @Test func aProfileGoesIntoAPNGDeflated() throws {
        let profile = Data((0..<20_000).map { UInt8($0 / 64 % 7) })
        let chunk = PNGChunk.iccp(profile)
        #expect(chunk.data.count < 2_000, "stored, not deflated: \(chunk.data.count) bytes")
        #expect(try PNGChunk.iccProfile(iccp: chunk.data) == profile)
        #expect(try PNGChunk.iccProfile(iccp: PNGChunk.iccp(Data()).data) == Data())
    }

    /// A PNG may claim anything: inflating stops at the limit, whatever the stream would give.
    @Test func inflatingStopsAtTheLimit() throws {
        let stream = Data(zlibStored([UInt8](repeating: 0, count: 300_000)))
        #expect(try Zlib.inflate(stream, limit: 300_000).count == 300_000)
        #expect(throws: ICCPError.tooLarge(limit: 100_000)) { try Zlib.inflate(stream, limit: 100_000) }
        #expect(throws: ICCPError.notInflated("the stream is cut short")) { try Zlib.inflate(Data(), limit: 10) }
    }

    /// The IHDR facts batch marks a PNG by, read here and nowhere else.
    @Test func pictureFactsComeFromIHDROfAWholeFile() throws {
        let png = tinyPNG(width: 5, height: 3)
        let picture = try #require(PNGPicture(png))
        #expect(picture == PNGPicture(png.dropFirst(0)))
        #expect((picture.width, picture.height, picture.bitDepth, picture.colourType) == (5, 3, 8, 0))
        #expect(picture.isGrey)
        #expect(PNGPicture(png.dropLast(1)) == nil, "cut inside IEND")
        #expect(PNGPicture(png.prefix(32)) == nil)
        #expect(PNGPicture.couldStart(png.prefix(5)) && !PNGPicture.couldStart(Data("GIF".utf8)))
    }

    @Test func malformedPNGsThrow() {
        let png = tinyPNG()
        #expect(throws: MetadataError.notPNG) { try ImageMetadata(png: Data("GIF89a".utf8)) }
        #expect(throws: MetadataError.truncated(offset: 33)) { try ImageMetadata(png: png.prefix(40)) }
        var bad = [UInt8](png)
        bad[20] ^= 1  // inside IHDR's data
        #expect(throws: MetadataError.badPNGChunkCRC(chunk: "IHDR")) { try ImageMetadata(png: Data(bad)) }
        for n in 0..<png.count { _ = try? ImageMetadata(png: png.prefix(n)) }
    }

    @Test func aBadCRCInAnAncillaryChunkCostsOnlyThatChunk() throws {
        var b = TIFFBuilder(bigEndian: true)
        b.ifd0 = [b.ascii(0x0110, "Pixel 9"), b.short(0x0112, [6])]
        var bytes = [UInt8](
            tinyPNG(extra: [
                PNGChunk(type: "tEXt", data: Data("Comment\0hello".utf8)),
                PNGChunk(type: "eXIf", data: Data(b.build())),
            ]))
        let text = try #require(Data(bytes).range(of: Data("hello".utf8)))
        bytes[text.lowerBound] ^= 0x20  // the tEXt chunk's CRC no longer matches
        let m = try ImageMetadata(png: Data(bytes))
        #expect(m.orientation == 6)
        #expect(m.readWarnings == [.pngChunkSkipped(chunk: "tEXt")])
        #expect(m.readWarnings[0].description == "PNG chunk tEXt left out: its CRC is wrong")
        #expect(try m.insert(intoPNG: tinyPNG(), stripGPS: false).warnings == m.readWarnings)
    }

    @Test func aDamagedEXIfChunkIsLeftOutWithAWarning() throws {
        let xmp = PNGChunk.xmp(Data(InsertTests.xmp.utf8))
        let source = tinyPNG(extra: [PNGChunk(type: "eXIf", data: Data([0x4D, 0x4D, 0, 42, 0, 0, 0xFF, 0])), xmp])
        let m = try ImageMetadata(png: source)
        #expect(m.exif == nil && m.xmp != nil)
        #expect(m.readWarnings == [.exifUnreadable(.ifdOutOfBounds(ifd: "IFD0", offset: 0xFF00))])
        let out = try m.insert(intoPNG: tinyPNG(), stripGPS: false)
        #expect(out.warnings == m.readWarnings)
        #expect(try PNGChunk.parse(out.data).contains { $0.type == "iTXt" })
    }
}
