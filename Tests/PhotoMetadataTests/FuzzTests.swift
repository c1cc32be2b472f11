// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport
@testable import PhotoMetadata

/// A few hundred mutations of camera-like JPEGs and PNGs (both byte orders, maker note with a
/// preview, GPS, thumbnail, ICC, XMP, a carried segment), from a fixed seed: reading and writing
/// never trap or hang, every output is a well-formed file, and no output holds GPS under
/// `stripGPS` or a picture in its metadata.
@Suite struct FuzzTests {
    static let preview = tinyJPEG(blocksWide: 2, blocksHigh: 2, jfif: false)

    static func exif(bigEndian: Bool) -> [UInt8] {
        var b = cameraEXIF(bigEndian: bigEndian)
        b.exif =
            b.exif.filter { $0.tag != 0x927C } + [b.undefined(0x927C, Array("NOTE".utf8) + preview + [1, 2, 3, 4])]
        b.thumbnail = preview
        return b.build()
    }

    static let xmp = Array(
        #"<x:xmpmeta><rdf:Description tiff:Orientation="6" exif:GPSLatitude="48,51N"/></x:xmpmeta>"#.utf8)

    static func jpeg(bigEndian: Bool) -> [UInt8] {
        tinyJPEG(
            blocksWide: 3, blocksHigh: 2, jfif: false,
            extra: [
                app1EXIF(exif(bigEndian: bigEndian)),
                appSegment(0xE2, Array("ICC_PROFILE".utf8) + [0, 1, 2] + [UInt8](repeating: 0x41, count: 40)),
                appSegment(0xE2, Array("ICC_PROFILE".utf8) + [0, 2, 2] + [UInt8](repeating: 0x42, count: 40)),
                appSegment(0xE1, Array("http://ns.adobe.com/xap/1.0/".utf8) + [0] + xmp),
                appSegment(0xEC, Array("Ducky".utf8) + [0, 1, 0, 4, 0, 0, 0, 80, 0, 0]),
            ])
    }

    static func png() -> [UInt8] {
        [UInt8](
            tinyPNG(
                width: 6, height: 4,
                extra: [
                    PNGChunk(type: "iCCP", data: Data(Array("icc".utf8) + [0, 0] + zlibStored([1, 2, 3]))),
                    PNGChunk(type: "eXIf", data: Data(exif(bigEndian: true))),
                    PNGChunk(type: "tEXt", data: Data("Comment\0hello".utf8)),
                    PNGChunk.xmp(Data(xmp)),
                ]))
    }

    /// Offsets of the length, count and offset fields a mutation may set to an extreme: JPEG
    /// segment lengths, PNG chunk lengths, and the TIFF header, IFD counts and entry fields.
    static func fields(_ file: [UInt8]) -> [(offset: Int, width: Int)] {
        var fields: [(Int, Int)] = []
        var tiffStart: Int?
        if let s = try? JPEGStructure(parsing: Data(file)) {
            fields += s.segments.map { ($0.offset + 2, 2) }
            tiffStart = s.segments.first { $0.isApp(1, JPEGSignature.exif) }.map { $0.offset + 4 + 6 }
        } else {
            var pos = 8
            while pos + 8 <= file.count {
                fields.append((pos, 4))
                if file[(pos + 4)..<(pos + 8)].elementsEqual("eXIf".utf8) { tiffStart = pos + 8 }
                pos +=
                    12
                    + (Int(file[pos]) << 24 | Int(file[pos + 1]) << 16 | Int(file[pos + 2]) << 8 | Int(file[pos + 3]))
            }
        }
        if let t = tiffStart, let exif = try? EXIF(tiff: Data(file[t...])) {
            fields.append((t + 4, 4))
            for ifd in exif.ifds {
                fields.append((t + ifd.offset, 2))
                if let next = ifd.nextPointer { fields.append((t + next, 4)) }
            }
            for e in exif.entries {
                fields += [(t + e.entryOffset + 2, 2), (t + e.entryOffset + 4, 4), (t + e.entryOffset + 8, 4)]
            }
        }
        return fields
    }

    static func mutate(_ file: [UInt8], fields: [(offset: Int, width: Int)], _ rng: inout SeededGenerator) -> [UInt8] {
        var out = file
        switch Int.random(in: 0..<5, using: &rng) {
        case 0:
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                out[Int.random(in: 0..<out.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            }
        case 1: out.removeSubrange(Int.random(in: 0..<out.count, using: &rng)...)
        case 2:
            let bytes = (0..<Int.random(in: 1...16, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            out.insert(contentsOf: bytes, at: Int.random(in: 0...out.count, using: &rng))
        case 3:
            let start = Int.random(in: 0..<out.count, using: &rng)
            out.removeSubrange(start..<min(out.count, start + Int.random(in: 1...16, using: &rng)))
        default:
            guard let field = fields.randomElement(using: &rng), field.offset + field.width <= out.count else { break }
            let extremes: [UInt32] = [
                0, 1, 2, 0xFF, 0xFFFF, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFE, 0xFFFF_FFFF, UInt32(out.count),
            ]
            let v = extremes.randomElement(using: &rng)!
            if field.width == 2 {
                out.put16(UInt16(truncatingIfNeeded: v), at: field.offset, bigEndian: Bool.random(using: &rng))
            } else {
                out.put32(v, at: field.offset, bigEndian: Bool.random(using: &rng))
            }
        }
        return out
    }

    @Test(.timeLimit(.minutes(2)))
    func mutatedCameraFilesNeverTrapAndAlwaysGiveWellFormedOutputs() throws {
        var rng = SeededGenerator(state: 0xCA75_7A3B)
        let encodedJPEG = Data(tinyJPEG(blocksWide: 2, blocksHigh: 3))
        let encodedPNG = tinyPNG(width: 4, height: 6)
        let edits = MetadataEdits(artist: "Fuzz", copyright: "© Fuzz")
        var read = 0, total = 0
        for source in [Self.jpeg(bigEndian: false), Self.jpeg(bigEndian: true), Self.png()] {
            let fields = Self.fields(source)
            #expect(fields.count > 20)
            for _ in 0..<150 {
                let input = Self.mutate(source, fields: fields, &rng)
                total += 1
                guard let m = try? ImageMetadata(imageData: Data(input)) else { continue }
                read += 1
                _ = (m.exifValues, m.orientation, m.dateTimeOriginal(), m.readWarnings.map(\.description))
                for stripGPS in [false, true] {
                    for e in [MetadataEdits(), edits] {
                        let jpeg = try m.insert(into: encodedJPEG, stripGPS: stripGPS, edits: e)
                        let structure = try JPEGStructure(parsing: jpeg.data)
                        #expect(
                            embeddedJPEGs(in: [UInt8](jpeg.data[2..<structure.scanOffset])).isEmpty,
                            "a picture in the metadata of mutation \(total)")
                        let back = try ImageMetadata(jpeg: jpeg.data)
                        if stripGPS { #expect(back.exif?.hasGPS != true, "GPS in mutation \(total)") }
                        let png = try m.insert(intoPNG: encodedPNG, stripGPS: stripGPS, edits: e)
                        _ = try PNGChunk.parse(png.data)
                    }
                }
            }
        }
        #expect(total == 450)
        #expect(read > 120, "many mutations still read: \(read) of \(total)")
    }
}
