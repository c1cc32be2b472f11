import Foundation
import Testing
@testable import PhotoMetadata

@Suite struct MalformedEXIFTests {
    func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    func le32(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }
    func entry(_ tag: UInt16, _ type: UInt16, _ count: UInt32, _ value: UInt32) -> [UInt8] {
        le16(tag) + le16(type) + le32(count) + le32(value)
    }
    /// Little-endian TIFF with IFD0 at 8 holding `entries`, then `next`.
    func tiff(_ entries: [[UInt8]], next: UInt32 = 0, tail: [UInt8] = []) -> Data {
        Data(Array("II".utf8) + le16(42) + le32(8) + le16(UInt16(entries.count)) + entries.flatMap { $0 } + le32(next) + tail)
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

    @Test func valueOffsetPastTheEndThrows() {
        #expect(throws: MetadataError.valueOutOfBounds(ifd: "IFD0", tag: 0x0110)) {
            try EXIF(tiff: tiff([entry(0x0110, 2, 20, 1_000_000)]))
        }
        // A count so large that count × size overflows 32 bits.
        #expect(throws: MetadataError.valueOutOfBounds(ifd: "IFD0", tag: 0x011A)) {
            try EXIF(tiff: tiff([entry(0x011A, 5, 0xFFFF_FFFF, 8)]))
        }
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

    @Test func aDamagedGPSIFDIsFatalSoItCanNeverSlipThroughStripping() {
        #expect(throws: MetadataError.ifdOutOfBounds(ifd: "GPS", offset: 4096)) {
            try EXIF(tiff: tiff([entry(0x8825, 4, 1, 4096)]))
        }
    }

    @Test func ifdLoopsThrow() {
        // Exif and GPS pointers share one IFD.
        #expect(throws: MetadataError.ifdLoop(offset: 26)) {
            try EXIF(tiff: tiff([entry(0x8769, 4, 1, 26), entry(0x8825, 4, 1, 26)], tail: le16(0) + le32(0)))
        }
    }

    @Test func errorsInAJPEGSurfaceFromImageMetadata() {
        let jpeg = tinyJPEG(extra: [app1EXIF(Array(tiff([entry(0x8825, 4, 1, 8)])))])
        #expect(throws: MetadataError.ifdLoop(offset: 8)) { try ImageMetadata(jpeg: Data(jpeg)) }
        #expect(MetadataError.ifdLoop(offset: 8).description == "corrupt EXIF: IFD offsets loop back to 8")
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
