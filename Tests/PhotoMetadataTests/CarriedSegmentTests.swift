// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import TestSupport
import Testing
@testable import PhotoMetadata

/// Which of a source's APP segments reach a JPEG output, and how.
@Suite struct CarriedSegmentTests {
    static let ciff = Array("II".utf8) + [0x1A, 0, 0, 0] + Array("HEAPJPGM".utf8) + [UInt8](repeating: 7, count: 40)
    static let ducky = Array("Ducky".utf8) + [0, 1, 0, 4, 0, 0, 0, 80, 0, 0]
    static let maker = Array("RMETA".utf8) + [0, 1, 2, 3]

    func source(_ extra: [[UInt8]]) -> Data {
        Data(tinyJPEG(jfif: true, extra: [app1EXIF(cameraEXIF(bigEndian: false).build())] + extra))
    }

    @Test func segmentsWeDoNotEditAreCarriedByteForByte() throws {
        let picture = tinyJPEG(jfif: false)
        let dropped: [[UInt8]] = [
            appSegment(0xE0, Array("JFXX".utf8) + [0, 0x10] + picture),  // JFIF thumbnail
            appSegment(0xE2, Array("MPF".utf8) + [0] + Array("MM\0*\0\0\0\u{8}".utf8)),  // MPF index
            appSegment(0xE2, Array("FPXR".utf8) + [0, 0, 1, 2]),  // FlashPix
            appSegment(0xEE, Array("Adobe".utf8) + [0, 100, 0, 0, 0, 0, 1]),  // colour transform
            appSegment(0xE4, Array("SCALADO".utf8) + [0] + picture),  // holds a picture
            appSegment(0xEB, Array("JP".utf8) + [0, 0, 0, 1]),  // JUMBF
            appSegment(0xE1, Array("http://ns.adobe.com/xmp/extension/".utf8) + [0, 1]),  // extended XMP
        ]
        let carried = [appSegment(0xE0, Self.ciff), appSegment(0xEC, Self.ducky), appSegment(0xE5, Self.maker)]
        let m = try ImageMetadata(jpeg: source(carried + dropped))
        #expect(m.carriedSegments.map { $0.encoded } == carried)

        let encoded = Data(tinyJPEG(blocksWide: 2))
        let out = try m.insert(into: encoded, stripGPS: false)
        let segments = try JPEGStructure(parsing: out.data).segments
        #expect(
            segments.map(\.marker) == [0xE1, 0xE0, 0xEC, 0xE5, 0xDB, 0xC0, 0xC4, 0xC4],
            "EXIF, the carried segments in source order, then the encoder's less its JFIF")
        #expect(segments[1...3].map { [UInt8]($0.encoded) } == carried)
        #expect(embeddedJPEGs(in: [UInt8](out.data.dropFirst(2))).isEmpty, "no picture inside the output's segments")

        // The source's JFIF is never carried: without EXIF the encoder's own stays.
        var noEXIF = m
        noEXIF.exif = nil
        let plain = try JPEGStructure(parsing: noEXIF.insert(into: encoded, stripGPS: false).data).segments
        #expect(plain.filter { $0.isApp(0, JPEGSignature.jfif) }.count == 1)
    }
}
