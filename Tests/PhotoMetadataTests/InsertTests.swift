// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import TestSupport
import Testing
@testable import PhotoMetadata

@Suite struct InsertTests {
    static let xmp = """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description xmlns:tiff="http://ns.adobe.com/tiff/1.0/" xmlns:exif="http://ns.adobe.com/exif/1.0/"
         tiff:Orientation="6" exif:GPSLatitude="33,51.358S" tiff:Model="Canon EOS R6"/>
        </rdf:RDF></x:xmpmeta>
        """

    /// A source photo as a camera writes it: EXIF, ICC, XMP, IPTC, Adobe APP14.
    func cameraJPEG(bigEndian: Bool = false) -> Data {
        Data(
            tinyJPEG(
                jfif: false,
                extra: [
                    app1EXIF(cameraEXIF(bigEndian: bigEndian).build()),
                    appSegment(0xE2, Array("ICC_PROFILE".utf8) + [0, 1, 1] + Array("fake-icc".utf8)),
                    appSegment(0xE1, Array("http://ns.adobe.com/xap/1.0/".utf8) + [0] + Array(Self.xmp.utf8)),
                    appSegment(0xED, photoshopAPP13([(0x0404, iim([(2, 5, "Harbour at dawn")]))])),
                    appSegment(0xEE, Array("Adobe".utf8) + [0, 100, 0, 0, 0, 0, 1]),
                ]))
    }

    /// What jpegenc writes: a rotated (portrait) frame, JFIF APP0, no metadata.
    let encoded = Data(tinyJPEG(blocksWide: 2, blocksHigh: 3))

    func scan(_ data: Data) throws -> Data {
        data.dropFirst(try JPEGStructure(parsing: data).scanOffset)
    }

    @Test func readsEveryKind() throws {
        let m = try ImageMetadata(jpeg: cameraJPEG())
        #expect(m.orientation == 6)
        #expect(m.icc == Data("fake-icc".utf8))
        #expect(m.xmp == Data(Self.xmp.utf8))
        #expect(m.iptc == Data(photoshopAPP13([(0x0404, iim([(2, 5, "Harbour at dawn")]))])))
        #expect(m.exifValues["Model"] == "Canon EOS R6")
        #expect(m.dateTimeOriginal(in: TimeZone(identifier: "UTC")!) != nil)
    }

    @Test(arguments: [false, true])
    func keepWritesEditedMetadataFirstAndTheImageUnchanged(bigEndian: Bool) throws {
        let out = try ImageMetadata(jpeg: cameraJPEG(bigEndian: bigEndian)).insert(into: encoded, stripGPS: false)
        #expect(out.warnings.isEmpty)
        let s = try JPEGStructure(parsing: out.data)
        let markers = s.segments.map(\.marker)
        #expect(
            markers == [0xE1, 0xE2, 0xE1, 0xED, 0xDB, 0xC0, 0xC4, 0xC4],
            "EXIF, ICC, XMP, IPTC, then jpegenc's less JFIF")
        #expect(s.segments[0].payload.hasPrefix(Array("Exif".utf8) + [0, 0]))
        #expect(!markers.contains(0xEE), "Adobe APP14 is not copied")
        #expect(try scan(out.data) == scan(encoded))
        #expect(out.data.suffix(2) == Data([0xFF, 0xD9]))

        let back = try ImageMetadata(jpeg: out.data)
        let exif = try #require(back.exif)
        #expect(exif.orientation == 1)
        #expect(!exif.hasThumbnail)
        #expect(exif.values["PixelXDimension"] == "16")
        #expect(exif.values["PixelYDimension"] == "24")
        #expect(exif.values["GPSLatitude"] == "-33.855967")
        #expect(exif.values["Model"] == "Canon EOS R6")
        let xmp = String(decoding: try #require(back.xmp), as: UTF8.self)
        #expect(xmp.contains(#"tiff:Orientation="1""#) && xmp.contains("GPSLatitude"))
        #expect(back.icc == Data("fake-icc".utf8))
    }

    @Test func stripGPSLeavesNoCoordinatesAnywhere() throws {
        let out = try ImageMetadata(jpeg: cameraJPEG()).insert(into: encoded, stripGPS: true)
        let back = try ImageMetadata(jpeg: out.data)
        #expect(back.exif?.hasGPS == false)
        #expect(back.exifValues["Model"] == "Canon EOS R6")
        #expect(!out.data.contains(Array("GPS".utf8)))
        #expect(!out.data.contains(Array("WGS-84-SECRET".utf8)))
        #expect(!out.data.contains(Array("33,51".utf8)))
        #expect(!out.data.contains(Array("THUMBNAIL".utf8)))
    }

    @Test func withoutEXIFTheJFIFSegmentStays() throws {
        var m = try ImageMetadata(jpeg: cameraJPEG())
        m.exif = nil
        let out = try m.insert(into: encoded, stripGPS: false)
        #expect(
            try JPEGStructure(parsing: out.data).segments.map(\.marker) == [
                0xE2, 0xE1, 0xED, 0xE0, 0xDB, 0xC0, 0xC4, 0xC4,
            ])
        #expect(try ImageMetadata().insert(into: encoded, stripGPS: false).data == encoded)
    }

    @Test func oversizedXMPIsLeftOutWithAWarning() throws {
        var m = ImageMetadata()
        m.xmp = Data(
            (#"<x:xmpmeta xmlns:x="adobe:ns:meta/">"# + String(repeating: " ", count: 65_500) + "</x:xmpmeta>").utf8)
        let out = try m.insert(into: encoded, stripGPS: false)
        #expect(out.warnings == [.xmpTooLarge(bytes: 65_548)])
        #expect(out.data == encoded)
        #expect(out.warnings[0].description == "XMP left out: 65548 bytes exceed the 65502 a JPEG segment can hold")
    }

    @Test func xmpAtTheLimitIsWritten() throws {
        var m = ImageMetadata()
        m.xmp = Data(
            (#"<x:xmpmeta xmlns:x="adobe:ns:meta/">"# + String(repeating: " ", count: 65_502 - 48) + "</x:xmpmeta>")
                .utf8)
        let out = try m.insert(into: encoded, stripGPS: false)
        #expect(out.warnings.isEmpty)
        #expect(try ImageMetadata(jpeg: out.data).xmp?.count == 65_502)
    }

    @Test func nonUTF8XMPIsLeftOutWithAWarning() throws {
        var m = ImageMetadata()
        m.xmp = Data([0x3C, 0xFF, 0xFE, 0x3E])
        #expect(try m.insert(into: encoded, stripGPS: false).warnings == [.xmpNotUTF8])
    }

    @Test func encodedOutputMustBeAJPEGWithAFrame() throws {
        let m = try ImageMetadata(jpeg: cameraJPEG())
        #expect(throws: MetadataError.notJPEG) { try m.insert(into: Data("nope".utf8), stripGPS: false) }
        let noFrame = Data([0xFF, 0xD8] + appSegment(0xDB, [0]) + [0xFF, 0xDA, 0, 2, 0, 0xFF, 0xD9])
        #expect(throws: MetadataError.noFrameHeader) { try m.insert(into: noFrame, stripGPS: false) }
    }
}
