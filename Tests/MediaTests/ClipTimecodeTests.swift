// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import ISOBMFF
@testable import Media
import TestSupport

/// `ClipTimecode`: a clip's timecode track read from the file ffmpeg wrote with `-timecode`, its
/// Matroska tag through the probe, and damaged tracks that are left out without a trap.
@Suite struct ClipTimecodeReadTests {
    @Test func aTimecodeTrackIsReadFromMOVAndMP4() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // 01:02:03:04 at 25 is frame 93079; ffmpeg's tmcd counts 25 a second at 12800/512.
        for name in ["tc.mov", "tc.mp4"] {
            let url = folder.appendingPathComponent(name)
            try makeTestClip(url, rate: "25", ["-timecode", "01:02:03:04"])
            #expect(
                ClipTimecode.track(in: url)
                    == .track(frame: 93079, flags: 0, timescale: 12800, frameDuration: 512, framesPerSecond: 25),
                "\(name)")
            #expect(try ClipStreams.probe(url).timecode == ClipTimecode.track(in: url))
        }
        // Drop-frame at 29.97: flag 0x1; 01:02:03;04 is frame 111582 (3723 s of 30 numbers, less 2 for 56 of 62 minutes).
        let drop = folder.appendingPathComponent("drop.mov")
        try makeTestClip(drop, rate: "30000/1001", ["-timecode", "01:02:03;04"])
        #expect(
            ClipTimecode.track(in: drop)
                == .track(frame: 111_582, flags: 1, timescale: 30000, frameDuration: 1001, framesPerSecond: 30))
        // None: a clip without, and a file that is no MP4.
        let plain = folder.appendingPathComponent("plain.mov")
        try makeTestClip(plain, rate: "25", [])
        #expect(ClipTimecode.track(in: plain) == nil)
        #expect(try ClipStreams.probe(plain).timecode == nil)
        let mkv = folder.appendingPathComponent("tc.mkv")
        try makeTestClip(mkv, rate: "25", ["-timecode", "01:02:03:04"])
        #expect(ClipTimecode.track(in: mkv) == nil)
        #expect(try ClipStreams.probe(mkv).timecode == .tag("01:02:03:04"))
    }

    /// Every byte of the timecode track's boxes set to 0xFF in turn, and the file cut at each of
    /// them, and its sample at its largest: the reader gives a value or nil, and never traps.
    @Test func aDamagedTimecodeTrackNeverTraps() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("tc.mov")
        try makeTestClip(url, rate: "25", ["-timecode", "01:02:03:04"])
        let bytes = [UInt8](try Data(contentsOf: url))
        func last(_ type: String, before end: Int) -> Int? {
            (0..<(end - 4)).last { bytes[$0..<($0 + 4)].elementsEqual(type.utf8) }
        }
        // The timecode track: the `trak` that holds the last `tmcd` (its sample description).
        let trak = try #require(last("tmcd", before: bytes.count).flatMap { last("trak", before: $0) }) - 4
        let size = Int(try #require(bytes.bigEndian(at: trak, 4)))
        let damaged = folder.appendingPathComponent("damaged.mov")
        var changed = 0
        for offset in trak..<min(trak + size, bytes.count) {
            var copy = bytes
            copy[offset] = 0xFF
            try Data(copy).write(to: damaged)
            if ClipTimecode.track(in: damaged) != ClipTimecode.track(in: url) { changed += 1 }
            try Data(bytes[..<offset]).write(to: damaged)
            _ = ClipTimecode.track(in: damaged)
        }
        #expect(changed > 0)
        // The sample itself (4 bytes in the media data, before the moov here) at its largest.
        var largest = bytes
        let first = try #require(ClipTimecode.track(in: url))
        guard case .track(let frame, _, _, _, _) = first else {
            Issue.record("\(first)")
            return
        }
        let at = try #require(
            bytes.indices.dropLast(4).first {
                bytes[$0..<($0 + 4)].elementsEqual(withUnsafeBytes(of: frame.bigEndian, Array.init))
            })
        largest.replaceSubrange(at..<(at + 4), with: [0xFF, 0xFF, 0xFF, 0xFF])
        try Data(largest).write(to: damaged)
        guard case .track(let read, _, _, _, _) = try #require(ClipTimecode.track(in: damaged)) else { return }
        #expect(read == UInt32.max)
    }
}
