// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
@testable import ISOBMFF
import MovieFixtures

/// The range an MP4's `colr` box says, read from files built box by box.
@Suite struct ContainerColourTests {
    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        let size = UInt32(8 + payload.count)
        return withUnsafeBytes(of: size.bigEndian, Array.init) + Array(type.utf8) + payload
    }

    /// A track of `handler` (`vide`, `soun`) whose first sample entry carries `extra` boxes.
    static func track(_ handler: String, _ extra: [UInt8]) -> [UInt8] {
        let entry = box("avc1", [UInt8](repeating: 0, count: 78) + extra)
        let descriptions = box("stsd", [0, 0, 0, 0, 0, 0, 0, 1] + entry)
        let media = box(
            "mdia",
            box("mdhd", [UInt8](repeating: 0, count: 24))
                + box("hdlr", [0, 0, 0, 0, 0, 0, 0, 0] + Array(handler.utf8) + [UInt8](repeating: 0, count: 13))
                + box("minf", box("stbl", descriptions)))
        return box("trak", box("tkhd", [UInt8](repeating: 0, count: 84)) + media)
    }

    static func nclx(full: Bool) -> [UInt8] { box("colr", Array("nclx".utf8) + [0, 1, 0, 1, 0, 1, full ? 0x80 : 0]) }

    static func file(_ bytes: [UInt8], _ name: String = #function) throws -> URL {
        let url = try temporaryMovieFolder(name).appendingPathComponent("clip.mp4")
        try Data(bytes).write(to: url)
        return url
    }

    /// The video track's box is found past a sound track and a media data box of a 64-bit size
    /// (the layout of a clip whose index comes last), and its flag read.
    @Test func theVideoTracksFlagIsRead() throws {
        let media: [UInt8] =
            [0, 0, 0, 1] + Array("mdat".utf8) + withUnsafeBytes(of: UInt64(16 + 1000).bigEndian, Array.init)
            + [UInt8](repeating: 7, count: 1000)
        for full in [true, false] {
            let url = try Self.file(
                Self.box("ftyp", Array("isom".utf8) + [0, 0, 2, 0]) + media
                    + Self.box(
                        "moov",
                        Self.track("soun", Self.nclx(full: !full))
                            + Self.track("vide", Self.box("pasp", [0, 0, 0, 1, 0, 0, 0, 1]) + Self.nclx(full: full))),
                "\(#function)-\(full)")
            defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
            #expect(try ContainerColour.fullRange(of: url) == full)
        }
    }

    /// QuickTime's `nclc` has no flag, a video without `colr` says nothing, nor does a file that
    /// is no MP4 or one cut inside its boxes.
    @Test func noFlagIsNil() throws {
        let nclc = Self.box("colr", Array("nclc".utf8) + [0, 1, 0, 1, 0, 1])
        let moov = Self.box("moov", Self.track("vide", Self.nclx(full: true)))
        for (index, bytes) in [
            Self.box("moov", Self.track("vide", nclc)), Self.box("moov", Self.track("vide", [])),
            Array("not a clip at all".utf8), Array(moov.prefix(moov.count - 12)),
        ].enumerated() {
            let url = try Self.file(bytes, "\(#function)-\(index)")
            defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
            #expect(try ContainerColour.fullRange(of: url) == nil, "case \(index)")
        }
    }
}
