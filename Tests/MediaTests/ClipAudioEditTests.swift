// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import ISOBMFF
@testable import Media
import MovieFixtures

/// `ClipAudioEdit`'s GStreamer half: the probe on the clip's own file source, and the output's
/// edit put back, its failure a `MediaError` (the box parsing is tested in ISOBMFFTests).
@Suite struct ClipAudioEditProbeTests {
    /// The bytes are rewritten only in what the file source reading the clip reads: another file
    /// source (a user's template reading an image) is left alone, and without one nothing is.
    @Test func onlyTheClipsOwnFileSourceIsProbed() throws {
        let edit = try #require(ClipAudioEdit(movie: Movie.ffmpeg(), at: 0))
        let pipeline = try Pipeline(
            "filesrc location=/tmp/logo.png ! fakesink filesrc location=/tmp/clip.mp4 ! fakesink")
        #expect(edit.install(on: pipeline, reading: URL(fileURLWithPath: "/tmp/other.mp4")) == nil)
        #expect(edit.install(on: pipeline, reading: URL(fileURLWithPath: "/tmp/clip.mp4"))?.isComplete == false)
    }

    /// An output whose sound edit is not qtmux's is an error, not a clip played out of sync.
    @Test func anOutputItCannotReadIsAnError() throws {
        let folder = try temporaryMovieFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try #require(ClipAudioEdit(movie: Movie.ffmpeg(), at: 0))
        let url = try Movie.write(
            Movie.file(moov: Movie.ffmpeg(sound: Movie.elst([(3000, 2048, 0x10000)]))), in: folder, "odd.mp4")
        #expect(throws: MediaError.self) { try source.restore(in: url) }
    }
}
