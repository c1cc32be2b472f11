// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
@testable import ISOBMFF
import MovieFixtures

@Suite struct ClipAudioEditTests {
    /// The entry found is the sound's (not the video's), with the source's values; qtdemux is
    /// given it at media time 0 and long enough for the whole media (145408 samples: 3030 ms).
    @Test func theSoundsPrimingEditIsFoundAndOpened() throws {
        let movie = Movie.ffmpeg()
        let edit = try #require(ClipAudioEdit(movie: movie, at: 5000))
        #expect(edit.mediaTime == 1024 && edit.mediaTimescale == 48000)
        #expect(edit.duration == 3000 && edit.movieTimescale == 1000)
        let entry = Int(edit.entryOffset - 5000)
        #expect(Array(movie[entry..<(entry + 12)]) == Movie.be(3000) + Movie.be(1024) + Movie.be(0x10000))
        // Past the video's own entry, which has the same bytes.
        #expect(entry > movie.count / 2)
        #expect(edit.openEntry == Movie.be(3030) + Movie.be(0) + Movie.be(0x10000))
    }

    /// An empty edit before the media one (the sound starting after the picture) stays; a 64-bit
    /// edit list (version 1) is read and opened in its own widths.
    @Test func anEmptyEditBeforeAndA64BitListAreTaken() throws {
        let late = try #require(
            ClipAudioEdit(movie: Movie.ffmpeg(sound: Movie.elst([(50, nil, 0x10000), (3000, 1024, 0x10000)])), at: 0))
        #expect(late.mediaTime == 1024 && late.duration == 3000)
        let wide = try #require(
            ClipAudioEdit(movie: Movie.ffmpeg(sound: Movie.elst([(3000, 1024, 0x10000)], version: 1)), at: 0))
        #expect(wide.openEntry == Movie.be(3030, 8) + Movie.be(0, 8) + Movie.be(0x10000))
    }

    /// What is not one edit skipping the start of the media at rate 1 in one sound track is left
    /// to GStreamer as it is.
    @Test func editsItCannotRestoreAreLeftAlone() {
        let cases: [(String, [UInt8])] = [
            ("no edit list", Movie.ffmpeg(sound: nil)),
            ("media time 0", Movie.ffmpeg(sound: Movie.elst([(3000, 0, 0x10000)]))),
            ("two media edits", Movie.ffmpeg(sound: Movie.elst([(1000, 1024, 0x10000), (2000, 48000, 0x10000)]))),
            ("an empty edit after", Movie.ffmpeg(sound: Movie.elst([(3000, 1024, 0x10000), (50, nil, 0x10000)]))),
            ("rate 2", Movie.ffmpeg(sound: Movie.elst([(3000, 1024, 0x20000)]))),
            ("duration 0", Movie.ffmpeg(sound: Movie.elst([(0, 1024, 0x10000)]))),
            ("no entries", Movie.ffmpeg(sound: Movie.elst([]))),
            (
                "two sound tracks",
                Movie.ffmpeg(extra: [
                    Movie.track(
                        handler: "soun", timescale: 48000, mediaDuration: 145408,
                        trackDuration: 3000, edits: Movie.elst([(3000, 1024, 0x10000)]))
                ])
            ),
            (
                "entries past the box",
                Array(
                    Movie.ffmpeg(
                        sound: Movie.box(
                            "elst",
                            [0, 0, 0, 0] + Movie.be(2) + Movie.be(3000)
                                + Movie.be(1024) + Movie.be(0x10000))))
            ),
            ("4 billion entries", Movie.ffmpeg(sound: Movie.box("elst", [0, 0, 0, 0] + Movie.be(UInt64(UInt32.max))))),
            ("elst version 2", Movie.ffmpeg(sound: Movie.elst([(3000, 1024, 0x10000)], version: 2))),
        ]
        for (name, movie) in cases { #expect(ClipAudioEdit(movie: movie, at: 0) == nil, "\(name)") }
    }

    /// Sizes that point outside their parent, 64-bit sizes, cut boxes and flipped bytes never
    /// trap or hang: the movie is read or left alone.
    @Test func malformedMoviesNeverTrap() {
        let movie = Movie.ffmpeg()
        attackMovie(movie) { _ = ClipAudioEdit(movie: $0, at: 0) }
        // A child's size past its parent, and a 64-bit size past it too.
        var past = movie
        past.replaceSubrange(8..<12, with: Movie.be(UInt64(movie.count)))
        #expect(ClipAudioEdit(movie: past, at: 0) == nil)
        var wide = movie
        wide.replaceSubrange(8..<12, with: Movie.be(1))
        #expect(ClipAudioEdit(movie: wide, at: 0) == nil)
    }

    /// In a file: found past a 64-bit mdat; a moov whose size points past the end, a file that is
    /// not ISO BMFF, and a missing file are left alone.
    @Test func filesAreWalkedToTheirMovie() throws {
        let folder = try temporaryMovieFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = Movie.file(moov: Movie.ffmpeg())
        let edit = try #require(ClipAudioEdit.read(from: try Movie.write(bytes, in: folder, "clip.mp4")))
        #expect(
            Array(bytes[Int(edit.entryOffset)..<Int(edit.entryOffset + 12)]) == Movie.be(3000) + Movie.be(1024)
                + Movie.be(0x10000))
        #expect(ClipAudioEdit.read(from: try Movie.write(Array(bytes.dropLast(10)), in: folder, "cut.mp4")) == nil)
        #expect(
            ClipAudioEdit.read(
                from: try Movie.write(
                    [0x1A, 0x45, 0xDF, 0xA3] + [UInt8](repeating: 0x42, count: 60), in: folder, "x.mkv")) == nil)
        #expect(ClipAudioEdit.read(from: folder.appendingPathComponent("none.mp4")) == nil)
    }

    /// qtmux's output (every packet, the sound's edit at media time 0 over all 3030 ms) gets the
    /// source's edit: media time 1024, 3000 ms, and track and movie durations to match; an empty
    /// edit qtmux wrote before it counts in the track's duration.
    @Test func theOutputGetsTheSourcesEditBack() throws {
        let folder = try temporaryMovieFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try #require(ClipAudioEdit(movie: Movie.ffmpeg(), at: 0))
        for (emptyEdit, expected) in [(nil, UInt64(3000)), (UInt64(50), 3050)] {
            let edits =
                (emptyEdit.map { [($0, nil as UInt64?, UInt64(0x10000))] } ?? []) + [
                    (UInt64(3030), UInt64(0) as UInt64?, UInt64(0x10000))
                ]
            let moov = Movie.box(
                "moov",
                [
                    Movie.mvhd(timescale: 1000, duration: 3030 + (emptyEdit ?? 0)),
                    Movie.track(
                        handler: "vide", timescale: 90000, mediaDuration: 270000, trackDuration: 3000,
                        edits: Movie.elst([(3000, 0, 0x10000)])),
                    Movie.track(
                        handler: "soun", timescale: 48000, mediaDuration: 145408,
                        trackDuration: 3030 + (emptyEdit ?? 0), edits: Movie.elst(edits)),
                ])
            let url = try Movie.write(Movie.file(moov: moov), in: folder, "out.mp4")
            try source.writeSourceEdit(into: url)
            let restored = [UInt8](try Data(contentsOf: url))
            let expectedMoov = Movie.box(
                "moov",
                [
                    Movie.mvhd(timescale: 1000, duration: expected),
                    Movie.track(
                        handler: "vide", timescale: 90000, mediaDuration: 270000, trackDuration: 3000,
                        edits: Movie.elst([(3000, 0, 0x10000)])),
                    Movie.track(
                        handler: "soun", timescale: 48000, mediaDuration: 145408, trackDuration: expected,
                        edits: Movie.elst(Array(edits.dropLast()) + [(3000, 1024, 0x10000)])),
                ])
            #expect(restored == Movie.file(moov: expectedMoov), "empty edit \(emptyEdit.map(String.init) ?? "none")")
        }
    }
}

@Suite struct ClipMediaDurationsTests {
    /// A video track as ffmpeg writes it with `-use_editlist 0`: no edit list, B-frames' offsets
    /// in a `ctts` (up to 1536 ticks: 3 frames at 30 fps in 15360 Hz).
    static func video(
        edits: [UInt8]? = nil, mediaDuration: UInt64 = 46080, offsets: [UInt64] = [512, 1536, 0, 512]
    ) -> [UInt8] {
        let mdhd = Movie.box(
            "mdhd",
            [0, 0, 0, 0] + Movie.be(0) + Movie.be(0) + Movie.be(15360) + Movie.be(mediaDuration) + [0x55, 0xC4, 0, 0])
        let hdlr = Movie.box(
            "hdlr", [0, 0, 0, 0] + Movie.be(0) + Array("vide".utf8) + [UInt8](repeating: 0, count: 13))
        let ctts = Movie.box(
            "ctts", [0, 0, 0, 0] + Movie.be(UInt64(offsets.count)) + offsets.flatMap { Movie.be(1) + Movie.be($0) })
        let minf = Movie.box("minf", [Movie.box("stbl", [ctts])])
        return Movie.box(
            "trak",
            [Movie.tkhd(duration: 3000)] + (edits.map { [Movie.box("edts", $0)] } ?? []) + [
                Movie.box("mdia", [mdhd, hdlr, minf])
            ])
    }

    static func movie(duration: UInt64 = 3000, _ tracks: [[UInt8]]) -> [UInt8] {
        Movie.box("moov", [Movie.mvhd(timescale: 1000, duration: duration)] + tracks)
    }

    static func sound(mediaDuration: UInt64 = 144000) -> [UInt8] {
        Movie.track(handler: "soun", timescale: 48000, mediaDuration: mediaDuration, trackDuration: 3000, edits: nil)
    }

    /// With no edit list, the video is given its largest composition offset more (46080 + 1536);
    /// with one, or with no offsets, nothing changes.
    @Test func aBFrameVideoWithoutEditsIsGivenItsLastFramesTimes() throws {
        let movie = Self.movie([Self.video(), Self.sound()])
        let durations = ClipMediaDurations(movie: movie, at: 100)
        #expect(durations.changes.map { $0.bytes } == [Movie.be(46080 + 1536)])
        let change = try #require(durations.changes.first)
        #expect(Array(movie[(Int(change.offset) - 100)..<(Int(change.offset) - 96)]) == Movie.be(46080))
        #expect(durations.videoDuration == 3_000_000_000)
        #expect(
            ClipMediaDurations(
                movie: Self.movie([Self.video(edits: Movie.elst([(3000, 1024, 0x10000)])), Self.sound()]), at: 0
            ).changes.isEmpty)
        #expect(ClipMediaDurations(movie: Self.movie([Self.video(offsets: []), Self.sound()]), at: 0).changes.isEmpty)
        // An offset longer than the track is no B-frame's.
        #expect(
            ClipMediaDurations(movie: Self.movie([Self.video(offsets: [0xFFFF_FC00]), Self.sound()]), at: 0).changes
                .isEmpty)
    }

    /// A track under a fifth of the movie is given a fifth (qtdemux would leave it out): 2 s of
    /// video in 32 s (30720 ticks of 15360 Hz → 6.4 s: 98304), and 2 s of sound too; not when the
    /// file has a second video track (a preview, maybe).
    @Test func aShortTrackIsGivenAFifthOfTheMovie() {
        let short = Self.video(
            edits: Movie.elst([(30000, nil, 0x10000), (2000, 0, 0x10000)]), mediaDuration: 30720, offsets: [])
        let durations = ClipMediaDurations(
            movie: Self.movie(duration: 32000, [short, Self.sound(mediaDuration: 96000)]), at: 0)
        #expect(durations.changes.map { $0.bytes } == [Movie.be(98304), Movie.be(307200)])
        let two = ClipMediaDurations(
            movie: Self.movie(duration: 32000, [short, short, Self.sound(mediaDuration: 1_536_000)]), at: 0)
        #expect(two.changes.isEmpty && two.videoDuration == nil)
    }

    /// Cut and flipped bytes never trap or hang.
    @Test func malformedMoviesNeverTrap() {
        attackMovie(Self.movie([Self.video(), Self.sound()])) { _ = ClipMediaDurations(movie: $0, at: 0) }
    }
}
