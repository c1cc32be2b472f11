// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// Movie boxes built byte by byte, as ffmpeg and qtmux lay them out.
package enum Movie {
    package static func be(_ value: UInt64, _ width: Int = 4) -> [UInt8] {
        (0..<width).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64(width - 1 - $0))) }
    }

    package static func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
        be(UInt64(8 + body.count)) + Array(type.utf8) + body
    }
    package static func box(_ type: String, _ children: [[UInt8]]) -> [UInt8] { box(type, children.flatMap { $0 }) }

    package static func mvhd(timescale: UInt64, duration: UInt64) -> [UInt8] {
        box("mvhd", [0, 0, 0, 0] + be(0) + be(0) + be(timescale) + be(duration) + [UInt8](repeating: 0, count: 80))
    }

    package static func tkhd(duration: UInt64, version: UInt8 = 0) -> [UInt8] {
        version == 1
            ? box(
                "tkhd",
                [1, 0, 0, 7] + be(0, 8) + be(0, 8) + be(1) + be(0) + be(duration, 8) + [UInt8](repeating: 0, count: 60))
            : box(
                "tkhd", [0, 0, 0, 7] + be(0) + be(0) + be(1) + be(0) + be(duration) + [UInt8](repeating: 0, count: 60))
    }

    /// Entries as (duration, media time, rate): media time `nil` is an empty edit.
    package static func elst(_ entries: [(UInt64, UInt64?, UInt64)], version: UInt8 = 0) -> [UInt8] {
        let width = version == 1 ? 8 : 4
        let empty: UInt64 = version == 1 ? .max : UInt64(UInt32.max)
        return box(
            "elst",
            [version, 0, 0, 0] + be(UInt64(entries.count))
                + entries.flatMap { be($0.0, width) + be($0.1 ?? empty, width) + be($0.2) })
    }

    package static func track(
        handler: String, timescale: UInt64, mediaDuration: UInt64, trackDuration: UInt64,
        edits: [UInt8]?
    ) -> [UInt8] {
        let mdhd = box("mdhd", [0, 0, 0, 0] + be(0) + be(0) + be(timescale) + be(mediaDuration) + [0x55, 0xC4, 0, 0])
        let hdlr = box("hdlr", [0, 0, 0, 0] + be(0) + Array(handler.utf8) + [UInt8](repeating: 0, count: 13))
        let mdia = box("mdia", [mdhd, hdlr, box("minf", [UInt8]())])
        return box("trak", [tkhd(duration: trackDuration)] + (edits.map { [box("edts", $0)] } ?? []) + [mdia])
    }

    /// ffmpeg's 3 s clip: video at 15360 Hz, AAC at 48 kHz whose edit skips 1024 samples of
    /// priming over 3000 ms of its 145408 samples.
    package static func ffmpeg(sound: [UInt8]? = elst([(3000, 1024, 0x10000)]), extra: [[UInt8]] = []) -> [UInt8] {
        box(
            "moov",
            [
                mvhd(timescale: 1000, duration: 3000),
                track(
                    handler: "vide", timescale: 15360, mediaDuration: 46080, trackDuration: 3000,
                    edits: elst([(3000, 1024, 0x10000)])),
                track(handler: "soun", timescale: 48000, mediaDuration: 145408, trackDuration: 3000, edits: sound),
            ] + extra)
    }

    package static func write(_ bytes: [UInt8], in folder: URL, _ name: String) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    /// ftyp, an mdat with a 64-bit size, then `moov`.
    package static func file(moov: [UInt8]) -> [UInt8] {
        let ftyp = box("ftyp", Array("isom".utf8) + be(512) + Array("isomiso2mp41".utf8))
        let payload = [UInt8](repeating: 0xAB, count: 100)
        let mdat = be(1) + Array("mdat".utf8) + be(UInt64(16 + payload.count), 8) + payload
        return ftyp + mdat + moov
    }
}

/// Gives `read` every cut of `movie` (each prefix) and 3000 copies with one to four bytes set to
/// values that make box sizes and counts odd (0, 1, 0xFF, 8, 16, 0x7F): a reader must survive
/// them all, neither trapping nor hanging.
package func attackMovie(_ movie: [UInt8], _ read: ([UInt8]) -> Void) {
    for length in 0..<movie.count { read(Array(movie.prefix(length))) }
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<3000 {
        var mutated = movie
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
            mutated[Int.random(in: 0..<mutated.count, using: &generator)] =
                [0, 1, 0xFF, 8, 16, 0x7F][Int.random(in: 0..<6, using: &generator)]
        }
        read(mutated)
    }
}

/// A new folder for a test's files under the system's temporary folder (TestSupport's links
/// GStreamer; the tests of ISOBMFF run without it).
package func temporaryMovieFolder(_ name: String = #function) throws -> URL {
    let safe = name.filter { $0.isLetter || $0.isNumber }
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
        "camstamp-test-\(safe)-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
