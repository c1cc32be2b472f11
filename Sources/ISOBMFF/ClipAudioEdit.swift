// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// The edit list of an MP4/MOV clip's sound track that starts its media late: the AAC of a clip
/// made by ffmpeg or a phone begins with the encoder's priming (1024 samples at 48 kHz), which
/// its `elst` skips (media time 1024), and ends with a last packet of padding past the edit's
/// duration. GStreamer 1.22 loses both packets: qtdemux sends the priming 21 ms before the
/// segment it starts, so qtmux drops it, and ends the stream at the movie's duration, before the
/// last packet. So the sound is not copied bit for bit. A clip cut with `ffmpeg -ss … -c copy`
/// has edits starting seconds into the media: qtdemux ended its sound that much early (it compares
/// a packet's media time, edit start included, with the movie's duration).
///
/// Put right in two places, same-size byte edits both (the first by Media's pad probe, the
/// second here):
/// - qtdemux is given the entry as media time 0 and a duration over the whole media (a pad probe
///   on the file source rewrites the entry's bytes as they are read), so it sends every packet,
///   the priming at the time the sound plays from: the sound runs one priming late through the
///   pipeline, and qtmux writes it all, its edit at media time 0.
/// - Once the output is written, its sound's edit gets the source's media time and duration back
///   (`writeSourceEdit(into:)`), with the track's and movie's durations that follow: players skip the
///   priming and stop at the end as they did with the source, and the picture keeps its place.
///
/// Only an edit list of empty edits followed by one edit that plays the media at rate 1 from a
/// media time after 0 is taken, in the file's one sound track; anything else, or a file whose
/// boxes do not add up, leaves the clip as GStreamer reads it. No upstream fix found
/// (docs/gstreamer-workarounds.md).
package struct ClipAudioEdit: Equatable, Sendable {
    /// The media edit's start in the sound's media (in `mediaTimescale`) and its length (in
    /// `movieTimescale`), as the source has them.
    package var mediaTime: UInt64
    package var duration: UInt64
    package var mediaTimescale: UInt64
    package var movieTimescale: UInt64
    /// The file offset of the media edit's entry, and what qtdemux is given there instead.
    package var entryOffset: UInt64
    package var openEntry: [UInt8]
    /// Whether empty edits come before the media edit (the sound starts after the picture).
    package var startsLate: Bool

    /// The sound's edit in `file`, when there is one to put right (see the type); nil otherwise,
    /// including when the file cannot be read or its boxes are malformed.
    package static func read(from file: URL) -> ClipAudioEdit? {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return nil }
        defer { try? handle.close() }
        guard let movie = MovieBox.read(from: handle) else { return nil }
        return ClipAudioEdit(movie: movie.bytes, at: movie.offset)
    }

    /// The sound's edit in `movie`, the bytes of a whole `moov` box found at `offset` in its file.
    package init?(movie: [UInt8], at offset: UInt64) {
        guard let tracks = MovieTracks(movie: movie), let edit = tracks.sound.edits, edit.entries.count >= 1,
            let media = edit.entries.last, edit.entries.dropLast().allSatisfy(\.isEmpty),
            !media.isEmpty, media.mediaTime > 0, media.duration > 0, media.rate == 0x0001_0000,
            tracks.sound.mediaTimescale > 0, tracks.movieTimescale > 0
        else { return nil }
        mediaTime = UInt64(media.mediaTime)
        duration = media.duration
        mediaTimescale = tracks.sound.mediaTimescale
        movieTimescale = tracks.movieTimescale
        entryOffset = offset + UInt64(media.offset)
        startsLate = edit.entries.count > 1
        // Long enough for the priming and the edit, and for the whole media (its last packet).
        guard let priming = Self.scale(mediaTime, movieTimescale, mediaTimescale, roundingUp: true),
            let whole = Self.scale(tracks.sound.mediaDuration, movieTimescale, mediaTimescale, roundingUp: true)
        else { return nil }
        let (plus, overflow) = duration.addingReportingOverflow(priming)
        guard !overflow else { return nil }
        let open = max(plus, whole)
        guard edit.version == 1 || open <= UInt64(UInt32.max) else { return nil }
        openEntry = EditEntry.bytes(version: edit.version, duration: open, mediaTime: 0, rate: media.rate)
    }

    /// `value` × `to` / `from`, rounded to the nearest (or up); nil when it overflows.
    package static func scale(_ value: UInt64, _ to: UInt64, _ from: UInt64, roundingUp: Bool = false) -> UInt64? {
        guard from > 0 else { return nil }
        let (high, low) = value.multipliedFullWidth(by: to)
        guard high < from else { return nil }
        let (quotient, remainder) = from.dividingFullWidth((high, low))
        let up = roundingUp ? remainder > 0 : remainder >= from - remainder
        return up ? (quotient == .max ? nil : quotient + 1) : quotient
    }

    /// Gives `output`'s sound track (written by qtmux from the opened edit: every packet, its edit
    /// at media time 0) the source's edit: its media time and duration, in the output's
    /// timescales, with its track's and movie's durations grown or cut to match.
    package func writeSourceEdit(into output: URL) throws(ContainerError) {
        func failure(_ reason: String) -> ContainerError { .editList(reason: reason) }
        let handle: FileHandle
        do { handle = try FileHandle(forUpdating: output) } catch { throw failure("\(error.localizedDescription)") }
        defer { try? handle.close() }
        guard let movie = MovieBox.read(from: handle), let tracks = MovieTracks(movie: movie.bytes) else {
            throw failure("its movie box could not be read")
        }
        let sound = tracks.sound
        guard let edit = sound.edits, let media = edit.entries.last, edit.entries.dropLast().allSatisfy(\.isEmpty),
            !media.isEmpty, media.mediaTime == 0, let tkhd = sound.durationField
        else {
            throw failure("its sound track's edit list is not the one the muxer writes")
        }
        guard let mediaTime = Self.scale(self.mediaTime, sound.mediaTimescale, mediaTimescale),
            let duration = Self.scale(self.duration, tracks.movieTimescale, movieTimescale),
            edit.version == 1 || (mediaTime < UInt64(UInt32.max) && duration <= UInt64(UInt32.max))
        else {
            throw failure("the source's edit does not fit its timescales")
        }
        var writes: [(offset: Int, bytes: [UInt8])] = []
        writes.append(
            (
                media.offset,
                EditEntry.bytes(version: edit.version, duration: duration, mediaTime: mediaTime, rate: media.rate)
            ))
        let (trackDuration, overflow) = edit.entries.dropLast().reduce((duration, false)) {
            let (sum, over) = $0.0.addingReportingOverflow($1.duration)
            return (sum, $0.1 || over)
        }
        guard !overflow, let track = tkhd.bytes(trackDuration) else {
            throw failure("its track duration does not fit its header")
        }
        writes.append((tkhd.offset, track))
        // The movie lasts as long as its longest track.
        let longest = tracks.otherTrackDurations.reduce(trackDuration, max)
        guard let mvhd = tracks.durationField, let movieDuration = mvhd.bytes(longest) else {
            throw failure("its movie header could not be read")
        }
        writes.append((mvhd.offset, movieDuration))
        do {
            for write in writes {
                try handle.seek(toOffset: movie.offset + UInt64(write.offset))
                try handle.write(contentsOf: write.bytes)
            }
            try handle.synchronize()
        } catch {
            throw failure("\(error.localizedDescription)")
        }
    }
}
