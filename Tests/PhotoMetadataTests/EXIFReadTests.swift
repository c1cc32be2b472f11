// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import TestSupport
import Testing
@testable import PhotoMetadata

@Suite struct EXIFReadTests {
    @Test(arguments: [false, true], Array(1...8))
    func readsEveryOrientation(bigEndian: Bool, orientation: Int) throws {
        let exif = try EXIF(tiff: Data(cameraEXIF(bigEndian: bigEndian, orientation: UInt16(orientation)).build()))
        #expect(exif.isBigEndian == bigEndian)
        #expect(exif.orientation == orientation)
    }

    @Test(arguments: [nil, 0, 9, 300] as [UInt16?])
    func orientationAbsentOrInvalidIsNil(value: UInt16?) throws {
        let exif = try EXIF(tiff: Data(cameraEXIF(bigEndian: false, orientation: value).build()))
        #expect(exif.orientation == nil)
    }

    @Test(arguments: [false, true])
    func formatsTheTemplateTags(bigEndian: Bool) throws {
        let v = try EXIF(tiff: Data(cameraEXIF(bigEndian: bigEndian).build())).values
        #expect(v["Make"] == "Canon")
        #expect(v["Model"] == "Canon EOS R6")
        #expect(v["LensModel"] == "RF24-105mm F4 L IS USM")
        #expect(v["DateTimeOriginal"] == "2026:03:14 15:09:26")
        #expect(v["FNumber"] == "2.8")
        #expect(v["ExposureTime"] == "1/125")
        #expect(v["ISOSpeedRatings"] == "400")
        #expect(v["ISO"] == "400")
        #expect(v["PhotographicSensitivity"] == "400")
        #expect(v["FocalLength"] == "50")
        #expect(v["Artist"] == "Jane Doe")
        #expect(v["Copyright"] == "© 2026 Jane Doe")
        #expect(v["Software"] == "Firmware 1.8.1")
        #expect(v["ImageDescription"] == "Harbour at dawn")
        #expect(v["GPSLatitude"] == "-33.855967")
        #expect(v["GPSLongitude"] == "-70.66")
        #expect(v["GPSAltitude"] == "123.4")
        #expect(v["GPSVersionID"] == "2.3.0.0")
        #expect(v["ExifVersion"] == "0232")
        #expect(v["XResolution"] == "72")
        #expect(v["ResolutionUnit"] == "2")
        #expect(v["ExposureBiasValue"] == "-0.6667")
        #expect(v["PixelXDimension"] == "6000")
        #expect(v["Orientation"] == "6")
        #expect(v["MakerNote"] == nil, "binary values are not text")
        #expect(v["ExifIFDPointer"] == nil && v["GPSInfoIFDPointer"] == nil, "offsets are not text")
        #expect(v.keys.allSatisfy { !$0.isEmpty })
    }

    @Test func valuesByNameLeaveMissingOnesOut() throws {
        let exif = try EXIF(tiff: Data(cameraEXIF(bigEndian: true).build()))
        #expect(exif.values(names: ["Model", "FNumber", "Nope"]) == ["Model": "Canon EOS R6", "FNumber": "2.8"])
    }

    @Test(
        arguments: [
            ((1, 125), "1/125"), ((10, 1250), "1/125"), ((1, 4000), "1/4000"), ((2, 1), "2"), ((1, 2), "1/2"),
            ((5, 2), "2.5"), ((30, 1), "30"), ((1, 3), "1/3"), ((4, 10), "1/2.5"), ((0, 1), nil), ((1, 0), nil),
        ] as [((UInt32, UInt32), String?)])
    func exposureTimeText(rational: (UInt32, UInt32), expected: String?) throws {
        var b = TIFFBuilder(bigEndian: false)
        b.exif = [b.rational(0x829A, [rational])]
        #expect(try EXIF(tiff: Data(b.build())).values["ExposureTime"] == expected)
    }

    @Test(
        arguments: [((14, 10), "1.4"), ((56, 10), "5.6"), ((11, 1), "11"), ((220, 100), "2.2"), ((0, 0), nil)]
            as [((UInt32, UInt32), String?)])
    func fNumberText(rational: (UInt32, UInt32), expected: String?) throws {
        var b = TIFFBuilder(bigEndian: true)
        b.exif = [b.rational(0x829D, [rational]), b.rational(0x920A, [(42, 10)])]
        let v = try EXIF(tiff: Data(b.build())).values
        #expect(v["FNumber"] == expected)
        #expect(v["FocalLength"] == "4.2")
    }

    @Test func gpsNorthEastIsPositive() throws {
        var b = TIFFBuilder(bigEndian: true)
        b.gps = [
            b.ascii(0x01, "N"), b.rational(0x02, [(48, 1), (51, 1), (296, 10)]),
            b.ascii(0x03, "E"), b.rational(0x04, [(2, 1), (1753, 100), (0, 1)]),
            b.rational(0x07, [(9, 1), (5, 1), (30, 1)]),
        ]
        let v = try EXIF(tiff: Data(b.build())).values
        #expect(v["GPSLatitude"] == "48.858222")
        #expect(v["GPSLongitude"] == "2.292167")
        #expect(v["GPSTimeStamp"] == "09:05:30")
    }

    @Test func blankTextReadsAsMissing() throws {
        var b = TIFFBuilder(bigEndian: false)
        b.ifd0 = [b.ascii(0x013B, "    "), b.ascii(0x8298, "")]
        let v = try EXIF(tiff: Data(b.build())).values
        #expect(v["Artist"] == nil)
        #expect(v["Copyright"] == nil)
    }

    @Test func thumbnailTagsAreNotTemplateValues() throws {
        var b = TIFFBuilder(bigEndian: false)
        b.ifd0 = [b.rational(0x011A, [(300, 1)])]
        b.ifd1 = [b.rational(0x011A, [(72, 1)])]
        b.thumbnail = thumbnailBytes
        #expect(try EXIF(tiff: Data(b.build())).values["XResolution"] == "300")
    }

    @Test func decodesEveryTIFFType() throws {
        var b = TIFFBuilder(bigEndian: true)
        b.ifd0 = [
            b.byte(0x9000, [1, 2]), b.ascii(0x9001, "text"), b.short(0x9002, [1, 65535]),
            b.long(0x9003, [70000]), b.rational(0x9004, [(1, 3)]),
            TIFFBuilder.Tag(tag: 0x9005, type: 6, count: 2, bytes: [0xFF, 0x01]),
            b.undefined(0x9006, [9, 8, 7, 6, 5]),
            TIFFBuilder.Tag(tag: 0x9007, type: 8, count: 1, bytes: b.u16(0xFFFE)),
            TIFFBuilder.Tag(tag: 0x9008, type: 9, count: 1, bytes: b.u32(0xFFFF_FFF0)),
            b.srational(0x9009, [(-1, 2)]),
            TIFFBuilder.Tag(tag: 0x900A, type: 11, count: 1, bytes: b.u32(Float(1.5).bitPattern)),
            TIFFBuilder.Tag(
                tag: 0x900B, type: 12, count: 1,
                bytes: b.u32(UInt32(Double(-2.25).bitPattern >> 32))
                    + b.u32(UInt32(Double(-2.25).bitPattern & 0xFFFF_FFFF))),
            TIFFBuilder.Tag(tag: 0x900C, type: 99, count: 3, bytes: [1, 2, 3, 4]),
        ]
        let exif = try EXIF(tiff: Data(b.build()))
        func value(_ tag: UInt16) -> EXIFValue? { exif.entry(tag, in: .ifd0).map(exif.value) }
        #expect(value(0x9000) == .bytes([1, 2]))
        #expect(value(0x9001) == .ascii("text"))
        #expect(value(0x9002) == .unsigned([1, 65535]))
        #expect(value(0x9003) == .unsigned([70000]))
        #expect(value(0x9004) == .rational([Rational(1, 3)]))
        #expect(value(0x9005) == .signed([-1, 1]))
        #expect(value(0x9006) == .bytes([9, 8, 7, 6, 5]))
        #expect(value(0x9007) == .signed([-2]))
        #expect(value(0x9008) == .signed([-16]))
        #expect(value(0x9009) == .rational([Rational(-1, 2)]))
        #expect(value(0x900A) == .real([1.5]))
        #expect(value(0x900B) == .real([-2.25]))
        #expect(value(0x900C) == .bytes([]), "an unknown type is kept but not decoded")
    }
}

@Suite struct DateTimeOriginalTests {
    func exif(_ date: String, offset: String? = nil, subsec: String? = nil) throws -> EXIF {
        var b = TIFFBuilder(bigEndian: false)
        b.exif = [b.ascii(0x9003, date)]
        if let offset { b.exif.append(b.ascii(0x9011, offset)) }
        if let subsec { b.exif.append(b.ascii(0x9291, subsec)) }
        return try EXIF(tiff: Data(b.build()))
    }

    func utc(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int, _ s: Int) -> Date {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = TimeZone(identifier: "UTC")!
        return c.date(from: DateComponents(year: y, month: mo, day: d, hour: h, minute: mi, second: s))!
    }

    @Test func withoutOffsetUsesTheGivenZone() throws {
        let tokyo = TimeZone(identifier: "Asia/Tokyo")!
        #expect(try exif("2026:03:14 15:09:26").dateTimeOriginal(in: tokyo) == utc(2026, 3, 14, 6, 9, 26))
        #expect(
            try exif("2026:03:14 15:09:26").dateTimeOriginal(in: TimeZone(identifier: "UTC")!)
                == utc(2026, 3, 14, 15, 9, 26))
    }

    @Test func offsetTimeOriginalWins() throws {
        let tokyo = TimeZone(identifier: "Asia/Tokyo")!
        #expect(
            try exif("2026:03:14 15:09:26", offset: "-05:30").dateTimeOriginal(in: tokyo)
                == utc(2026, 3, 14, 20, 39, 26))
        #expect(
            try exif("2026:03:14 15:09:26", offset: "+02:00").dateTimeOriginal(in: tokyo) == utc(2026, 3, 14, 13, 9, 26)
        )
    }

    @Test func subSecondsAreAdded() throws {
        let date = try exif("2026:03:14 15:09:26", offset: "+00:00", subsec: "25").dateTimeOriginal()
        #expect(date == utc(2026, 3, 14, 15, 9, 26).addingTimeInterval(0.25))
    }

    @Test(arguments: ["0000:00:00 00:00:00", "2026:02:30 10:00:00", "2026:13:01 10:00:00", "yesterday", "2026:03:14"])
    func invalidDatesAreNil(text: String) throws {
        #expect(try exif(text).dateTimeOriginal() == nil)
    }

    @Test func badOffsetFallsBackToTheZone() throws {
        let utcZone = TimeZone(identifier: "UTC")!
        #expect(
            try exif("2026:03:14 15:09:26", offset: "   :  ").dateTimeOriginal(in: utcZone)
                == utc(2026, 3, 14, 15, 9, 26))
    }
}
