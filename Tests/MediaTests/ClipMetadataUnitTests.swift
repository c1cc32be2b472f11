// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
@testable import Media
import TestSupport

/// `ClipMetadata` on files ffmpeg made, read back by exiftool and decoded by ffprobe.
@Suite struct ClipMetadataUnitTests {
    private func run(_ path: String, _ arguments: [String]) throws -> String {
        String(decoding: try tool(path, arguments), as: UTF8.self)
    }

    /// A moov before the media data (a "faststart" file) cannot grow in place: it becomes free
    /// space and the grown one goes after the media data, whose chunk offsets stay right.
    @Test func aMoovBeforeTheMediaDataIsRewrittenAtTheEnd() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("phone.mov"), output = folder.appendingPathComponent("out.mp4")
        try makeTestClip(
            source, rate: "10",
            [
                "-metadata", "location=+48.8584+002.2945/",
                "-metadata", "model=iPhone 15", "-movflags", "use_metadata_tags",
            ])
        try makeTestClip(output, rate: "10", ["-movflags", "+faststart"])
        try ClipMetadata.carry(
            from: source, into: output, created: Date(timeIntervalSince1970: 1_714_979_289), keepLocation: true)
        let tags = try run(
            "/usr/bin/exiftool",
            ["-a", "-G1", "-s", "-Keys:all", "-QuickTime:CreateDate", "-Track1:MediaCreateDate", output.path])
        #expect(tags.contains("[Keys]          Location                        : +48.8584+002.2945/"), "\(tags)")
        #expect(tags.contains("[Keys]          Model                           : iPhone 15"), "\(tags)")
        #expect(tags.contains("[QuickTime]     CreateDate                      : 2024:05:06 07:08:09"), "\(tags)")
        #expect(tags.contains("[Track1]        MediaCreateDate                 : 2024:05:06 07:08:09"), "\(tags)")
        let frames = try run(
            "/usr/bin/ffprobe",
            [
                "-v", "error", "-count_frames", "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0",
                output.path,
            ])
        #expect(frames.trimmingCharacters(in: .whitespacesAndNewlines) == "10")
    }

    /// A file without a moov is a typed error naming it.
    @Test func aFileWithoutAMoovIsSaid() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("not.mp4")
        try Data([0, 0, 0, 8] + Array("free".utf8)).write(to: file)
        #expect(throws: MediaError.metadata(file: file.path, reason: "no moov box (not a whole MP4 or MOV file)")) {
            try ClipMetadata.carry(from: file, into: file, created: nil, keepLocation: true)
        }
    }
}
