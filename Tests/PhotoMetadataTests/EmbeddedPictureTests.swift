// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import TestSupport
import Testing
@testable import PhotoMetadata

/// No unmarked copy of the photo may leave in an output's EXIF: the thumbnail, maker-note
/// previews of any make, a thumbnail whose IFD1 is damaged.
@Suite struct EmbeddedPictureTests {
    /// A small valid JPEG, standing for a camera's preview.
    let preview = tinyJPEG(blocksWide: 2, blocksHigh: 2, jfif: false)

    func withMakerNote(_ note: [UInt8], bigEndian: Bool) -> TIFFBuilder {
        var b = cameraEXIF(bigEndian: bigEndian)
        b.exif = b.exif.filter { $0.tag != 0x927C } + [b.undefined(0x927C, note)]
        return b
    }

    @Test(arguments: [false, true])
    func aPreviewInsideAMakerNoteIsZeroedWhereItStands(bigEndian: Bool) throws {
        let head = Array("MAKER-IFD".utf8), tail = Array("AFTER-THE-PREVIEW".utf8)
        let source = try EXIF(tiff: Data(withMakerNote(head + preview + tail, bigEndian: bigEndian).build()))
        #expect(embeddedJPEGs(in: source.bytes).count == 1, "the preview (the fake thumbnail has no JPEG header)")
        let out = try EXIF(tiff: source.outputTIFF(width: 8, height: 8, stripGPS: false))

        let before = try #require(source.entry(0x927C, in: .exif)), after = try #require(out.entry(0x927C, in: .exif))
        #expect(after.valueOffset == before.valueOffset && after.count == before.count, "the maker note stays put")
        let note = [UInt8](out.rawValue(after))
        #expect(note.prefix(head.count).elementsEqual(head) && note.suffix(tail.count).elementsEqual(tail))
        #expect(note[head.count..<(head.count + preview.count)].allSatisfy { $0 == 0 })
        #expect(embeddedJPEGs(in: out.bytes).isEmpty)
        #expect(out.values["Model"] == "Canon EOS R6" && out.values["FNumber"] == "2.8")
    }

    @Test func aMakerNoteThatIsOnlyAPictureIsUnlinked() throws {
        // Samsung Digimax: the maker note is a 320×240 preview and nothing else; zeroed in place,
        // exiftool would call it an unrecognised maker note.
        let source = try EXIF(
            tiff: Data(withMakerNote(preview + [UInt8](repeating: 0, count: 64), bigEndian: false).build()))
        let out = try EXIF(tiff: source.outputTIFF(width: 8, height: 8, stripGPS: false))
        #expect(out.entry(0x927C, in: .exif) == nil)
        #expect(out.entries.filter { $0.ifd == .exif }.count == source.entries.filter { $0.ifd == .exif }.count - 1)
        #expect(embeddedJPEGs(in: out.bytes).isEmpty)
        for e in out.entries where e.ifd == .exif && ![0xA002, 0xA003].contains(e.tag) {
            let old = try #require(source.entry(e.tag, in: .exif))
            #expect(out.rawValue(e) == source.rawValue(old) && e.valueOffset == old.valueOffset, "0x\(hex(e.tag))")
        }
    }

    @Test(arguments: [false, true])
    func aThumbnailWhoseIFD1IsDamagedIsStillZeroed(bigEndian: Bool) throws {
        var b = cameraEXIF(bigEndian: bigEndian)
        b.thumbnail = preview
        var bytes = b.build()
        let ifd0 = try #require(try EXIF(tiff: Data(bytes)).ifds.first { $0.kind == .ifd0 })
        bytes.put32(0x7FFF_FF00, at: try #require(ifd0.nextPointer), bigEndian: bigEndian)
        let source = try EXIF(tiff: Data(bytes))
        #expect(!source.hasThumbnail && source.problems == [.ifdOutOfBounds(ifd: "IFD1", offset: 0x7FFF_FF00)])
        let out = source.outputTIFF(width: 8, height: 8, stripGPS: false)
        #expect(embeddedJPEGs(in: [UInt8](out)).isEmpty)
        #expect(out.range(of: Data(preview.suffix(12))) == nil)
        #expect(try EXIF(tiff: out).values["Model"] == "Canon EOS R6")
    }

    @Test func jpegBytesMetByChanceAreNotAPicture() throws {
        // FF D8 FF inside maker-note data that is not followed by a JPEG header.
        let note = Array("NOTE".utf8) + [0xFF, 0xD8, 0xFF, 0x00, 0x12, 0x34, 0xFF, 0xD9] + Array("REST".utf8)
        let source = try EXIF(tiff: Data(withMakerNote(note, bigEndian: true).build()))
        let out = try EXIF(tiff: source.outputTIFF(width: 8, height: 8, stripGPS: false))
        #expect(out.entry(0x927C, in: .exif).map(out.rawValue) == Data(note))
    }

    @Test func aPictureCutShortRunsToTheEndOfTheBlock() {
        let cut = Array(preview.dropLast(2))
        #expect(embeddedJPEGs(in: [1, 2, 3] + cut) == [3..<(3 + cut.count)])
        #expect(embeddedJPEGs(in: [9] + preview + [7, 7]) == [1..<(1 + preview.count)])
    }
}

/// `--set-metadata Artist=… Copyright=…` in EXIF IFD0, written without moving anything else.
@Suite struct EXIFEditTests {
    let edits = MetadataEdits(artist: "Émile Zola", copyright: "© 2026 Émile Zola, CC BY 4.0")

    func text(_ exif: EXIF, _ tag: UInt16) -> String? {
        guard let e = exif.entry(tag, in: .ifd0), case .ascii(let s) = exif.value(e) else { return nil }
        return s
    }

    @Test(arguments: [false, true])
    func artistAndCopyrightGoIntoANewIFD0AndNothingElseMoves(bigEndian: Bool) throws {
        let source = try EXIF(tiff: Data(cameraEXIF(bigEndian: bigEndian).build()))
        let tiff = source.outputTIFF(width: 8, height: 8, stripGPS: false, edits: edits)
        let out = try EXIF(tiff: tiff)
        #expect(out.problems.isEmpty)
        #expect(text(out, 0x013B) == "Émile Zola")
        #expect(text(out, 0x8298) == "© 2026 Émile Zola, CC BY 4.0")
        #expect(!tiff.contains(Array("Jane Doe".utf8)), "the old values are gone")
        #expect(out.orientation == 1)
        let ifd0Tags = out.entries.filter { $0.ifd == .ifd0 }.map(\.tag)
        #expect(ifd0Tags == ifd0Tags.sorted() && Set(ifd0Tags).count == ifd0Tags.count)
        for e in out.entries where ![0x013B, 0x8298, 0x0112, 0xA002, 0xA003].contains(e.tag) {
            let old = try #require(source.entry(e.tag, in: e.ifd))
            #expect(out.rawValue(e) == source.rawValue(old), "\(e.ifd.rawValue) 0x\(hex(e.tag))")
            if !e.isInline { #expect(e.valueOffset == old.valueOffset, "\(e.ifd.rawValue) 0x\(hex(e.tag)) moved") }
        }
        #expect(
            out.entries.filter { $0.ifd != .ifd0 }.map(\.entryOffset)
                == source.entries.filter { $0.ifd != .ifd0 && $0.ifd != .ifd1 }.map(\.entryOffset), "sub-IFDs stay put")
    }

    @Test func withStripGPSTheEditedIFD0HasNoGPSPointer() throws {
        let source = try EXIF(tiff: Data(cameraEXIF(bigEndian: false).build()))
        let out = try EXIF(
            tiff: source.outputTIFF(width: 8, height: 8, stripGPS: true, edits: MetadataEdits(artist: "Al")))
        #expect(text(out, 0x013B) == "Al" && text(out, 0x8298) == "© 2026 Jane Doe")
        #expect(!out.hasGPS && out.entry(0x8825, in: .ifd0) == nil)
        #expect(!out.tiff.contains(Array("WGS-84-SECRET".utf8)))
    }

    @Test func withoutEXIFAMinimalBlockHoldsTheEdits() throws {
        let jpeg = try ImageMetadata().insert(into: Data(tinyJPEG()), stripGPS: false, edits: edits)
        let back = try #require(try ImageMetadata(jpeg: jpeg.data).exif)
        #expect(text(back, 0x013B) == "Émile Zola" && text(back, 0x8298) == edits.copyright)
        #expect(back.entries.count == 2 && back.problems.isEmpty)

        let png = try ImageMetadata().insert(intoPNG: tinyPNG(), stripGPS: false, edits: MetadataEdits(copyright: "C"))
        let fromPNG = try #require(try ImageMetadata(png: png.data).exif)
        #expect(text(fromPNG, 0x8298) == "C" && fromPNG.entries.count == 1)
        #expect(
            try ImageMetadata().insert(into: Data(tinyJPEG()), stripGPS: false).data == Data(tinyJPEG()),
            "no edits, no EXIF")
    }
}
