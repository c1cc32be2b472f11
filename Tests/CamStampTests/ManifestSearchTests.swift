// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
@testable import CamStamp
import Foundation
import Testing

/// The search for a source's C2PA manifest box (`jumd` then `c2pa`) that batch's warning rests
/// on: found wherever it lies, and never found in a near miss.
@Suite struct ManifestSearchTests {
    static let box = Array("jumdc2pa".utf8)

    /// Scan-like bytes, with many a `j` (the box's first byte) and partial boxes in them.
    static func filler(_ count: Int) -> [UInt8] {
        (0..<count).map { i in i % 97 == 0 ? UInt8(ascii: "j") : i % 89 == 0 ? 0xFF : UInt8(truncatingIfNeeded: i * 31)
        }
    }

    @Test func theBoxIsFoundAtTheStartInTheMiddleAndAtTheEnd() {
        let body = Self.filler(10_000)
        for at in [0, 1, 4_321, body.count] {
            var bytes = body
            bytes.insert(contentsOf: Self.box, at: at)
            #expect(ContentCredentials.carriesManifest(Data(bytes)), "box at \(at)")
        }
        #expect(ContentCredentials.carriesManifest(Data(Self.box)))
    }

    @Test func nearMissesAndShortDataAreNotAManifest() {
        var bytes = Self.filler(10_000)
        bytes.insert(contentsOf: Array("jumdc2p".utf8), at: 100)
        bytes.insert(contentsOf: Array("jjumdc2pX".utf8), at: 5_000)
        // The box cut off by the end of the data.
        bytes += Array("jumdc2p".utf8)
        #expect(!ContentCredentials.carriesManifest(Data(bytes)))
        #expect(!ContentCredentials.carriesManifest(Data()))
        #expect(!ContentCredentials.carriesManifest(Data("jumd".utf8)))
        // A slice of a larger Data: only its own bytes count.
        let whole = Data(Self.box + Self.filler(100))
        #expect(!ContentCredentials.carriesManifest(whole[1...]))
        #expect(ContentCredentials.carriesManifest(whole[0..<8]))
    }

    /// A JPEG's one scan is skipped (the batch searches every photo): a box in it is not looked
    /// for, one just before or just after it is found, in a slice as in a whole Data.
    @Test func aSkippedScanIsNotSearchedButWhatSurroundsItIs() {
        let body = Self.filler(10_000)
        var inside = body
        inside.insert(contentsOf: Self.box, at: 5_000)
        #expect(!ContentCredentials.carriesManifest(Data(inside), skipping: 4_000..<6_000))
        #expect(ContentCredentials.carriesManifest(Data(inside), skipping: 6_000..<8_000))
        for at in [0, 4_000 - Self.box.count, 6_000, body.count] {
            var bytes = body
            bytes.insert(contentsOf: Self.box, at: at)
            let scan = (at < 6_000 ? 4_000 : 4_000 - Self.box.count)..<(at < 6_000 ? 6_000 : 6_000 - Self.box.count)
            #expect(ContentCredentials.carriesManifest(Data(bytes), skipping: scan), "box at \(at)")
            let slice = Data([0x6A, 0x75] + bytes)[2...]
            #expect(ContentCredentials.carriesManifest(slice, skipping: scan), "box at \(at), in a slice")
        }
        // A range outside the data is not trusted: all of it is searched.
        #expect(ContentCredentials.carriesManifest(Data(inside), skipping: 4_000..<20_000))
    }

    /// A JPEG's bytes: a header with `header` in an APP1 segment, an SOS segment, `scan` bytes of
    /// entropy-coded data, the EOI, then `trailer`. Returns them and the scan's range (SOS to EOI).
    static func jpeg(header: [UInt8], scan: Int, trailer: [UInt8] = []) -> (Data, Range<Int>) {
        let app1 = [0xFF, 0xE1, UInt8((header.count + 2) >> 8), UInt8((header.count + 2) & 0xFF)] + header
        let sos: [UInt8] = [0xFF, 0xDA, 0x00, 0x0C, 0x03, 0x01, 0x00, 0x02, 0x11, 0x03, 0x11, 0x00, 0x3F, 0x00]
        let head = [0xFF, 0xD8] + app1
        let bytes = head + sos + Self.filler(scan).map { $0 == 0xFF ? 0x00 : $0 } + [0xFF, 0xD9] + trailer
        return (Data(bytes), head.count..<(bytes.count - trailer.count))
    }

    /// The parent the SDK reads: without a manifest, its header, SOS segment, EOI and trailer, the
    /// scan's data left out; with one (in the header or the trailer), or an untrusted range, whole.
    @Test func aParentWithoutAManifestIsGivenWithoutItsScan() {
        let xmp = Array("http://ns.adobe.com/xap/1.0/\u{0}<x:xmpmeta xmpMM:InstanceID='xmp.iid:1'/>".utf8)
        let (source, scan) = Self.jpeg(header: xmp, scan: 20_000, trailer: Array("trailer".utf8))
        let view = ContentCredentials.parentView(source, scan: scan)
        let sosEnd = scan.lowerBound + 14
        #expect(view == source[..<sosEnd] + Data([0xFF, 0xD9]) + Data("trailer".utf8))
        // A slice of a larger Data: its own offsets count.
        let slice = (Data([1, 2, 3]) + source)[3...]
        #expect(ContentCredentials.parentView(slice, scan: scan) == view)

        let (signed, signedScan) = Self.jpeg(header: xmp + Self.box, scan: 20_000)
        #expect(ContentCredentials.parentView(signed, scan: signedScan) == signed)
        let (tail, tailScan) = Self.jpeg(header: xmp, scan: 20_000, trailer: Self.box)
        #expect(ContentCredentials.parentView(tail, scan: tailScan) == tail)
        #expect(ContentCredentials.parentView(source, scan: nil) == source)
        #expect(ContentCredentials.parentView(source, scan: scan.lowerBound..<(source.count + 1)) == source)
        #expect(ContentCredentials.parentView(source, scan: scan.lowerBound..<(scan.lowerBound + 3)) == source)
    }
}
