// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import TestSupport
import Testing
@testable import PhotoMetadata

@Suite struct EXIFOutputTests {
    /// Tags the output edits on purpose; everything else must be byte-identical.
    static let edited: Set<UInt16> = [0x0112, 0xA002, 0xA003]

    func entriesByKey(_ exif: EXIF) -> [String: EXIFEntry] {
        Dictionary(uniqueKeysWithValues: exif.entries.map { ("\($0.ifd.rawValue)/\($0.tag)", $0) })
    }

    @Test(arguments: [false, true])
    func outputIsUprightResizedWithoutThumbnailAndOtherwiseIdentical(bigEndian: Bool) throws {
        let source = try EXIF(tiff: Data(cameraEXIF(bigEndian: bigEndian).build()))
        #expect(source.hasThumbnail)
        let output = try EXIF(tiff: source.outputTIFF(width: 4000, height: 6000, stripGPS: false))

        #expect(output.orientation == 1)
        #expect(!output.hasThumbnail)
        #expect(!output.tiff.contains(Array("THUMBNAIL".utf8)), "thumbnail bytes must be gone")
        #expect(output.tiff.count < source.tiff.count, "the thumbnail tail is cut")
        #expect(output.values["PixelXDimension"] == "4000")
        #expect(output.values["PixelYDimension"] == "6000")
        #expect(output.isBigEndian == bigEndian)

        let before = entriesByKey(source), after = entriesByKey(output)
        #expect(Set(after.keys) == Set(before.keys.filter { !$0.hasPrefix("IFD1/") }))
        for (key, old) in before where !key.hasPrefix("IFD1/") && !Self.edited.contains(old.tag) {
            let new = try #require(after[key])
            #expect(new.type == old.type && new.count == old.count, "\(key)")
            #expect(output.rawValue(new) == source.rawValue(old), "\(key) value changed")
        }
        // The MakerNote and the unknown tag stay at their offsets: offsets inside a MakerNote
        // count from the TIFF header.
        let note = try #require(output.entry(0x927C, in: .exif))
        #expect(note.valueOffset == source.entry(0x927C, in: .exif)?.valueOffset)
        #expect(output.rawValue(note) == Data(makerNote))
        #expect(output.entry(0xC4A5, in: .exif).map(output.value) == .unsigned([0xDEAD_BEEF, 7]))
    }

    @Test func largeDimensionsTurnAShortIntoALong() throws {
        let source = try EXIF(tiff: Data(cameraEXIF(bigEndian: false).build()))
        let output = try EXIF(tiff: source.outputTIFF(width: 70000, height: 300, stripGPS: false))
        #expect(
            output.entry(0xA002, in: .exif).map { ($0.type, output.value($0)) } ?? (0, .bytes([])) == (
                4, .unsigned([70000])
            ))
        #expect(
            output.entry(0xA003, in: .exif).map { ($0.type, output.value($0)) } ?? (0, .bytes([])) == (
                3, .unsigned([300])
            ))
    }

    @Test(arguments: [false, true])
    func stripGPSRemovesTheGPSIFDAndKeepsTheRest(bigEndian: Bool) throws {
        let source = try EXIF(tiff: Data(cameraEXIF(bigEndian: bigEndian).build()))
        let output = try EXIF(tiff: source.outputTIFF(width: 8, height: 8, stripGPS: true))
        #expect(!output.hasGPS)
        #expect(output.entry(0x8825, in: .ifd0) == nil)
        #expect(output.entries.allSatisfy { $0.ifd != .gps })
        #expect(!output.tiff.contains(Array("WGS-84-SECRET".utf8)), "GPS bytes must be gone")
        #expect(output.values["GPSLatitude"] == nil)
        #expect(output.values["Model"] == "Canon EOS R6")
        #expect(output.values["Make"] == "Canon")
        #expect(output.orientation == 1)
        #expect(!output.hasThumbnail)
        let before = entriesByKey(source)
        for e in output.entries where !Self.edited.contains(e.tag) {
            let old = try #require(before["\(e.ifd.rawValue)/\(e.tag)"])
            #expect(output.rawValue(e) == source.rawValue(old))
        }
        // Tags sorted, count right: the table reads back in order.
        let ifd0Tags = output.entries.filter { $0.ifd == .ifd0 }.map(\.tag)
        #expect(ifd0Tags == ifd0Tags.sorted())
    }

    @Test func keepWithoutThumbnailOrEditsIsUnchanged() throws {
        var b = TIFFBuilder(bigEndian: true)
        b.ifd0 = [b.ascii(0x0110, "Phone"), b.short(0x0112, [1])]
        let tiff = Data(b.build())
        #expect(try EXIF(tiff: tiff).outputTIFF(width: 1, height: 1, stripGPS: false) == tiff)
    }

    @Test func missingOrientationStaysMissing() throws {
        let source = try EXIF(tiff: Data(cameraEXIF(bigEndian: false, orientation: nil).build()))
        let output = try EXIF(tiff: source.outputTIFF(width: 8, height: 8, stripGPS: false))
        #expect(output.entry(0x0112, in: .ifd0) == nil)
        #expect(output.orientation == nil)
    }

    @Test func unaccountedBytesAreKeptEvenZeros() throws {
        // Bytes after the thumbnail that no known structure claims may be a maker note's (an empty
        // Nikon sub-IFD is all zeros): kept, zeros too; the thumbnail before them is zeroed in place.
        let tiff = cameraEXIF(bigEndian: false).build() + Array("PAD".utf8) + [0, 0]
        let output = try EXIF(tiff: Data(tiff)).outputTIFF(width: 8, height: 8, stripGPS: false)
        #expect(output.count == tiff.count)
        #expect(output.suffix(5) == Data(Array("PAD".utf8) + [0, 0]))
        #expect(!output.contains(Array("THUMBNAIL".utf8)))
    }
}
