// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import TestSupport
import Testing
@testable import PhotoMetadata

@Suite struct MalformedEXIFTests {
    func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    func le32(_ v: UInt32) -> [UInt8] {
        [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)]
    }
    func entry(_ tag: UInt16, _ type: UInt16, _ count: UInt32, _ value: UInt32) -> [UInt8] {
        le16(tag) + le16(type) + le32(count) + le32(value)
    }
    /// Little-endian TIFF with IFD0 at 8 holding `entries`, then `next`.
    func tiff(_ entries: [[UInt8]], next: UInt32 = 0, tail: [UInt8] = []) -> Data {
        Data(
            Array("II".utf8) + le16(42) + le32(8) + le16(UInt16(entries.count)) + entries.flatMap { $0 } + le32(next)
                + tail)
    }

    @Test func badHeadersThrow() {
        #expect(throws: MetadataError.badTIFFHeader) { try EXIF(tiff: Data("II*".utf8)) }
        #expect(throws: MetadataError.badTIFFHeader) { try EXIF(tiff: Data(Array("XX".utf8) + [42, 0, 8, 0, 0, 0])) }
        #expect(throws: MetadataError.badTIFFHeader) { try EXIF(tiff: Data(Array("II".utf8) + [43, 0, 8, 0, 0, 0])) }
        #expect(throws: MetadataError.badTIFFHeader) { try EXIF(app1Payload: Data("Exif".utf8)) }
    }

    @Test func ifdOffsetPastTheEndThrows() {
        let data = Data(Array("II".utf8) + le16(42) + le32(0xFFFF_FFF0))
        #expect(throws: MetadataError.ifdOutOfBounds(ifd: "IFD0", offset: 0xFFFF_FFF0)) { try EXIF(tiff: data) }
    }

    @Test func entryCountPastTheEndThrows() {
        let data = Data(Array("II".utf8) + le16(42) + le32(8) + le16(500) + entry(0x0110, 2, 4, 0))
        #expect(throws: MetadataError.ifdOutOfBounds(ifd: "IFD0", offset: 8)) { try EXIF(tiff: data) }
    }

    @Test func aValueOutsideTheBlockCostsOnlyItsEntry() throws {
        let exif = try EXIF(tiff: tiff([entry(0x0110, 2, 20, 1_000_000), entry(0x0112, 3, 1, 6)]))
        #expect(exif.orientation == 6)
        #expect(exif.entry(0x0110, in: .ifd0) == nil)
        #expect(exif.problems == [.valueOutOfBounds(ifd: "IFD0", tag: 0x0110)])
        // A count so large that count × size overflows 32 bits (XResolution).
        let big = try EXIF(tiff: tiff([entry(0x011A, 5, 0xFFFF_FFFF, 8), entry(0x0112, 3, 1, 8)]))
        #expect(big.orientation == 8 && big.problems == [.valueOutOfBounds(ifd: "IFD0", tag: 0x011A)])
        let out = try EXIF(tiff: big.outputTIFF(width: 1, height: 1, stripGPS: false))
        #expect(out.orientation == 1)
    }

    @Test func aDamagedExifOrThumbnailIFDIsLeftOutNotFatal() throws {
        // Orientation 6 in IFD0, and an Exif pointer past the end: IFD0 is still read.
        let exif = try EXIF(tiff: tiff([entry(0x0112, 3, 1, 6), entry(0x8769, 4, 1, 4096)]))
        #expect(exif.orientation == 6)
        #expect(!exif.entries.contains { $0.ifd == .exif })
        // IFD0's next IFD (the thumbnail) is IFD0 itself, or past the end.
        #expect(try EXIF(tiff: tiff([entry(0x0112, 3, 1, 3)], next: 8)).orientation == 3)
        let far = try EXIF(tiff: tiff([entry(0x0112, 3, 1, 8)], next: 0x7FFF_FF00))
        #expect(far.orientation == 8 && !far.hasThumbnail)
        // The Exif pointer points back at IFD0.
        #expect(try EXIF(tiff: tiff([entry(0x8769, 4, 1, 8)])).entries.count == 1)
    }

    @Test func aGPSIFDOutsideTheBlockIsLeftOutAndItsPointerStillStripped() throws {
        let exif = try EXIF(tiff: tiff([entry(0x0112, 3, 1, 6), entry(0x8825, 4, 1, 4096)]))
        #expect(exif.orientation == 6 && !exif.hasGPS)
        #expect(exif.problems == [.ifdOutOfBounds(ifd: "GPS", offset: 4096)])
        let out = try EXIF(tiff: exif.outputTIFF(width: 1, height: 1, stripGPS: true))
        #expect(out.entry(0x8825, in: .ifd0) == nil && out.orientation == 1)
    }

    @Test func aGPSIFDCutShortIsStillClearedWithStripGPS() throws {
        // The GPS IFD at 38 claims 9 entries; only its first (a latitude of 3 rationals, its value
        // at 64) fits in the block. Unreadable, but its bytes must not survive --strip-gps.
        let latitude = le32(48) + le32(1) + le32(51) + le32(1) + le32(7777) + le32(100)
        let gps = le16(9) + entry(0x0002, 5, 3, 64)
        let data = tiff(
            [entry(0x0112, 3, 1, 6), entry(0x8825, 4, 1, 38)],
            tail: gps + [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] + latitude)
        let exif = try EXIF(tiff: data)
        #expect(exif.orientation == 6 && !exif.hasGPS && exif.problems == [.ifdOutOfBounds(ifd: "GPS", offset: 38)])
        let out = exif.outputTIFF(width: 1, height: 1, stripGPS: true)
        #expect(!out.contains(le32(7777)), "the coordinates' bytes are gone")
        #expect(try EXIF(tiff: out).orientation == 1)
        #expect(exif.outputTIFF(width: 1, height: 1, stripGPS: false).contains(le32(7777)), "kept without --strip-gps")
    }

    @Test func aGPSPointerStoredAsShortIsFollowedAndStripped() throws {
        var b = TIFFBuilder(bigEndian: true)
        b.ifd0 = [b.short(0x0112, [3])]
        b.gps = [b.ascii(0x01, "N"), b.rational(0x02, [(48, 1), (51, 1), (1234, 100)])]
        var bytes = b.build()
        // Turn the LONG GPS pointer into a SHORT (big-endian: the value's first two bytes).
        let exif = try EXIF(tiff: Data(bytes))
        let pointer = try #require(exif.entry(0x8825, in: .ifd0))
        let offset = bytes[pointer.valueOffset + 2...pointer.valueOffset + 3]
        bytes.replaceSubrange(
            pointer.entryOffset + 2..<pointer.entryOffset + 12, with: [0, 3, 0, 0, 0, 1] + offset + [0, 0])
        let short = try EXIF(tiff: Data(bytes))
        #expect(short.hasGPS && short.values["GPSLatitude"] != nil)
        let out = short.outputTIFF(width: 1, height: 1, stripGPS: true)
        #expect(!out.contains([0, 0, 0x04, 0xD2, 0, 0, 0, 100]), "GPS bytes gone")
        #expect(try EXIF(tiff: out).entry(0x8825, in: .ifd0) == nil)
    }

    @Test func ifdLoopsLeaveTheIFDReachedTwiceOut() throws {
        // Exif and GPS pointers share one IFD.
        let exif = try EXIF(tiff: tiff([entry(0x8769, 4, 1, 26), entry(0x8825, 4, 1, 26)], tail: le16(0) + le32(0)))
        #expect(exif.problems == [.ifdLoop(offset: 26)])
    }

    @Test func damageInAJPEGIsAWarningNotAnError() throws {
        let loop = tinyJPEG(extra: [app1EXIF(Array(tiff([entry(0x0112, 3, 1, 6), entry(0x8825, 4, 1, 8)])))])
        let m = try ImageMetadata(jpeg: Data(loop))
        #expect(m.orientation == 6)
        #expect(m.readWarnings == [.exifPartlyDamaged(.ifdLoop(offset: 8), more: 0)])
        #expect(m.readWarnings[0].description == "EXIF partly left out: corrupt EXIF: IFD offsets loop back to 8")
        let out = try m.insert(into: Data(tinyJPEG()), stripGPS: false)
        #expect(out.warnings == m.readWarnings)

        let bad = try ImageMetadata(jpeg: Data(tinyJPEG(extra: [app1EXIF(Array("XX*".utf8) + [0, 0, 0, 0, 8])])))
        #expect(bad.exif == nil && bad.readWarnings == [.exifUnreadable(.badTIFFHeader)])
        #expect(bad.readWarnings[0].description == "EXIF left out: corrupt EXIF: bad TIFF header")
    }

    @Test func thumbnailPastTheEndIsClampedNotTrusted() throws {
        var b = TIFFBuilder(bigEndian: false)
        b.ifd0 = [b.ascii(0x0110, "Model")]
        b.ifd1 = [b.long(0x0201, [60]), b.long(0x0202, [0xFFFF_FF00])]
        let exif = try EXIF(tiff: Data(b.build()))
        #expect(exif.hasThumbnail)
        let out = try EXIF(tiff: exif.outputTIFF(width: 1, height: 1, stripGPS: false))
        #expect(!out.hasThumbnail && out.values["Model"] == "Model")
    }

    /// Every single-byte corruption and every truncation of a camera EXIF block: it reads or it
    /// throws `MetadataError`, and whatever reads also edits, reads back and formats without a trap.
    @Test(arguments: [false, true])
    func corruptionNeverTraps(bigEndian: Bool) {
        let good = cameraEXIF(bigEndian: bigEndian).build()
        var inputs: [[UInt8]] = (0..<good.count).map { Array(good.prefix($0)) }
        for i in stride(from: 0, to: good.count, by: 1) {
            for v: UInt8 in [0xFF, good[i] &+ 1] {
                var bad = good
                bad[i] = v
                inputs.append(bad)
            }
        }
        var readCount = 0
        for input in inputs {
            guard let exif = try? EXIF(tiff: Data(input)) else { continue }
            readCount += 1
            _ = exif.values
            _ = exif.orientation
            _ = exif.dateTimeOriginal()
            for strip in [false, true] {
                _ = try? EXIF(tiff: exif.outputTIFF(width: 10, height: 10, stripGPS: strip)).values
            }
        }
        #expect(readCount > good.count)
    }
}
