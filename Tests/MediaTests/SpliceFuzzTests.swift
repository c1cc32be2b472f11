// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

@testable import Media

/// Issue 21 §2: a seeded mutation fuzz of the splice's header reader and scan walker, through
/// JPEGCoefficientStamp as batch calls it. No case may crash, and every JPEG it gives back must
/// decode in libjpeg-turbo without a warning (the splice copies what it cannot prove whole
/// nowhere: it goes to tier 1, which refuses damage).
@Suite struct SpliceFuzzTests {
    /// cjpeg's JPEG of a grainy `width`×`height` picture, with `options`.
    static func cjpeg(width: Int, height: Int, options: [String], seed: UInt64) throws -> Data {
        var rng = SeededGenerator(state: seed)
        var ppm = Data("P6 \(width) \(height) 255\n".utf8)
        for y in 0..<height {
            for x in 0..<width {
                ppm += [
                    UInt8((x * 3 + Int(rng.next() % 40)) % 256), UInt8((y * 5 + Int(rng.next() % 40)) % 256),
                    UInt8((x + y) * 2 % 256),
                ]
            }
        }
        return try tool("cjpeg", ["-quality", "85"] + options, stdin: ppm)
    }

    /// Sizes, samplings, restart intervals and optimal tables the splice takes.
    static func bases() throws -> [Data] {
        try [
            (17, 9, []), (64, 48, ["-restart", "1"]), (40, 40, ["-sample", "1x1"]),
            (48, 40, ["-restart", "2B", "-sample", "2x1"]),
            (40, 32, ["-grayscale", "-restart", "1"]), (64, 40, ["-optimize"]),
            (48, 48, ["-restart", "3B", "-optimize"]),
        ]
        .enumerated().map { index, base in
            try cjpeg(width: base.0, height: base.1, options: base.2, seed: UInt64(index))
        }
    }

    /// The header segments up to and with the SOS: (marker, offset of its 0xFF, length field).
    static func segments(_ jpeg: [UInt8]) -> [(marker: UInt8, at: Int, length: Int)] {
        var found: [(UInt8, Int, Int)] = []
        var p = 2
        while p + 4 <= jpeg.count, jpeg[p] == 0xFF {
            let length = Int(jpeg[p + 2]) << 8 | Int(jpeg[p + 3])
            found.append((jpeg[p + 1], p, length))
            if jpeg[p + 1] == 0xDA { break }
            p += 2 + length
        }
        return found
    }

    /// One mutation: a byte of the SOF, DHT, SOS/DRI/DQT changed, junk before a marker, bytes of
    /// the scan changed, the file cut short, or bytes anywhere.
    static func mutate(_ jpeg: Data, _ rng: inout SeededGenerator) -> Data {
        var d = [UInt8](jpeg)
        let segments = segments(d)
        func pick(_ markers: Set<UInt8>) -> (marker: UInt8, at: Int, length: Int)? {
            segments.filter { markers.contains($0.marker) }.randomElement(using: &rng)
        }
        switch Int.random(in: 0..<7, using: &rng) {
        case 0:
            guard let sof = pick([0xC0, 0xC1]) else { break }
            let at = sof.at + 4 + Int.random(in: 0..<(sof.length - 2), using: &rng)
            d[at] =
                [
                    0, 0x40, 0x80, 0xFF, UInt8.random(in: 0...255, using: &rng),
                    d[at] ^ (1 << UInt8.random(in: 0..<8, using: &rng)),
                ]
                .randomElement(using: &rng) ?? 0
        case 1:
            guard let dht = pick([0xC4]) else { break }
            let at = dht.at + 4 + Int.random(in: 0..<min(dht.length - 2, 40), using: &rng)
            d[at] = d[at] &+ ([1, 2, 255, 16, 128].randomElement(using: &rng) ?? 1)
        case 2:
            guard let segment = pick([0xDA, 0xDD, 0xDB]) else { break }
            d[segment.at + 2 + Int.random(in: 0..<segment.length, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
        case 3:
            let markers = (0..<(d.count - 1)).filter { d[$0] == 0xFF && (0xD0...0xD9).contains(d[$0 + 1]) }
            guard let at = markers.randomElement(using: &rng) else { break }
            let junk = (0..<Int.random(in: 1...5, using: &rng)).map { _ in UInt8.random(in: 1...254, using: &rng) }
            d.insert(contentsOf: junk, at: at)
        case 4:
            let start = segments.last.map { $0.at + 2 + $0.length } ?? 2
            for _ in 0..<Int.random(in: 1...3, using: &rng) where start < d.count {
                d[Int.random(in: start..<d.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            }
        case 5:
            d.removeLast(Int.random(in: 1...(d.count / 2), using: &rng))
        default:
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                d[Int.random(in: 2..<d.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            }
        }
        return Data(d)
    }

    @Test func mutatedJPEGsNeverCrashTheSpliceAndWhatItWritesDecodes() throws {
        let bases = try Self.bases()
        let stamper = JPEGCoefficientStamp()
        // A grey mark (the grey bases take no colour) top-left and one further in: changed MCUs at
        // the start and mid-scan.
        let mark = try solidOverlay(width: 12, height: 10, b: 230, g: 230, r: 230, a: 200)
        let composition = OverlayComposition([.init(image: mark, x: 2, y: 3), .init(image: mark, x: 20, y: 18)])
        var rng = SeededGenerator(state: 2112)
        var spliced = 0
        var written = 0
        for base in bases {
            let clean = try stamper.stamp(base, composition: composition, orientation: .normal, splice: true)
            #expect(clean.spliced && clean.damage == nil, "every base is spliced: \(clean.spliceSkipped ?? "")")
        }
        for index in 0..<3000 {
            let input = Self.mutate(bases[index % bases.count], &rng)
            let orientation = Orientation.allCases[index % 8]
            guard
                let result = try? stamper.stamp(input, composition: composition, orientation: orientation, splice: true)
            else { continue }
            written += 1
            if result.spliced { spliced += 1 }
            do {
                let picture = try JPEGDecoder.decode(result.data, adobeInverted: false)
                #expect(
                    picture.warning == nil, "case \(index): the output decodes with a warning: \(picture.warning ?? "")"
                )
            } catch {
                Issue.record(
                    "case \(index) (\(result.spliced ? "spliced" : "tier 1")): the output does not decode: \(error)")
            }
        }
        // The mutations leave many files whole enough to stamp: the walk is exercised.
        #expect(spliced > 300 && written > spliced, "\(spliced) spliced, \(written) written of 3000")
    }
}
