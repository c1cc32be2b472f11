internal import CGStreamer
internal import CGstApp
internal import CGstVideo
import Foundation
import Synchronization

/// The edit list of an MP4/MOV clip's sound track that starts its media late: the AAC of a clip
/// made by ffmpeg or a phone begins with the encoder's priming (1024 samples at 48 kHz), which
/// its `elst` skips (media time 1024), and ends with a last packet of padding past the edit's
/// duration. GStreamer 1.22 loses both packets: qtdemux sends the priming 21 ms before the
/// segment it starts, so qtmux drops it, and ends the stream at the movie's duration, before the
/// last packet. So the sound is not copied bit for bit. A clip cut with `ffmpeg -ss … -c copy`
/// has edits starting seconds into the media: qtdemux ended its sound that much early (it compares
/// a packet's media time, edit start included, with the movie's duration).
///
/// Put right in two places, same-size byte edits both:
/// - qtdemux is given the entry as media time 0 and a duration over the whole media (a pad probe
///   on the file source rewrites the entry's bytes as they are read), so it sends every packet,
///   the priming at the time the sound plays from: the sound runs one priming late through the
///   pipeline, and qtmux writes it all, its edit at media time 0.
/// - Once the output is written, its sound's edit gets the source's media time and duration back
///   (`restore(in:)`), with the track's and movie's durations that follow: players skip the
///   priming and stop at the end as they did with the source, and the picture keeps its place.
///
/// Only an edit list of empty edits followed by one edit that plays the media at rate 1 from a
/// media time after 0 is taken, in the file's one sound track; anything else, or a file whose
/// boxes do not add up, leaves the clip as GStreamer reads it.
struct ClipAudioEdit: Equatable, Sendable {
    /// The media edit's start in the sound's media (in `mediaTimescale`) and its length (in
    /// `movieTimescale`), as the source has them.
    var mediaTime: UInt64
    var duration: UInt64
    var mediaTimescale: UInt64
    var movieTimescale: UInt64
    /// The file offset of the media edit's entry, and what qtdemux is given there instead.
    var entryOffset: UInt64
    var openEntry: [UInt8]
    /// Whether empty edits come before the media edit (the sound starts after the picture).
    var startsLate: Bool

    /// The sound's edit in `file`, when there is one to put right (see the type); nil otherwise,
    /// including when the file cannot be read or its boxes are malformed.
    static func read(from file: URL) -> ClipAudioEdit? {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return nil }
        defer { try? handle.close() }
        guard let movie = MovieBox.read(from: handle) else { return nil }
        return ClipAudioEdit(movie: movie.bytes, at: movie.offset)
    }

    /// The sound's edit in `movie`, the bytes of a whole `moov` box found at `offset` in its file.
    init?(movie: [UInt8], at offset: UInt64) {
        guard let tracks = MovieTracks(movie: movie), let edit = tracks.sound.edits, edit.entries.count >= 1,
              let media = edit.entries.last, edit.entries.dropLast().allSatisfy(\.isEmpty),
              !media.isEmpty, media.mediaTime > 0, media.duration > 0, media.rate == 0x0001_0000,
              tracks.sound.mediaTimescale > 0, tracks.movieTimescale > 0 else { return nil }
        mediaTime = UInt64(media.mediaTime)
        duration = media.duration
        mediaTimescale = tracks.sound.mediaTimescale
        movieTimescale = tracks.movieTimescale
        entryOffset = offset + UInt64(media.offset)
        startsLate = edit.entries.count > 1
        // Long enough for the priming and the edit, and for the whole media (its last packet).
        guard let priming = Self.scale(mediaTime, movieTimescale, mediaTimescale, roundingUp: true),
              let whole = Self.scale(tracks.sound.mediaDuration, movieTimescale, mediaTimescale, roundingUp: true) else { return nil }
        let (plus, overflow) = duration.addingReportingOverflow(priming)
        guard !overflow else { return nil }
        let open = max(plus, whole)
        guard edit.version == 1 || open <= UInt64(UInt32.max) else { return nil }
        openEntry = EditEntry.bytes(version: edit.version, duration: open, mediaTime: 0, rate: media.rate)
    }

    /// `value` × `to` / `from`, rounded to the nearest (or up); nil when it overflows.
    static func scale(_ value: UInt64, _ to: UInt64, _ from: UInt64, roundingUp: Bool = false) -> UInt64? {
        guard from > 0 else { return nil }
        let (high, low) = value.multipliedFullWidth(by: to)
        guard high < from else { return nil }
        let (quotient, remainder) = from.dividingFullWidth((high, low))
        let up = roundingUp ? remainder > 0 : remainder >= from - remainder
        return up ? (quotient == .max ? nil : quotient + 1) : quotient
    }

    /// Has qtdemux read the open entry in the edit's place: a probe on the source pad of the
    /// pipeline's file source reading `file` (on what is pulled, or pushed) rewrites those bytes
    /// in every buffer that holds any of them. Returns what tells whether it did, or nil when no
    /// file source reads `file` (a user's template): the clip is then read as GStreamer reads it.
    /// `source`: the file source's name, when another one reads the same file (a stream's pictures).
    func install(on pipeline: Pipeline, reading file: URL, source name: String? = nil) -> Applied? {
        Self.rewrite(entryOffset, with: openEntry, on: pipeline, reading: file, source: name)
    }

    /// Has the pipeline's file source reading `file` (the one named `name`, when given) hand on
    /// `bytes` in place of the file's at `offset`, in every buffer that holds any of them (a pad
    /// probe: on what is pulled, or pushed); the file itself is not touched. Returns what tells
    /// whether it did, or nil when no file source reads `file` (a user's template).
    static func rewrite(_ offset: UInt64, with bytes: [UInt8], on pipeline: Pipeline, reading file: URL,
                        source name: String? = nil) -> Applied? {
        guard let source = pipeline.allElements().first(where: {
                  Pipeline.factoryName(of: $0.pointer) == "filesrc" && $0.string("location") == file.path && (name == nil || $0.name == name)
              }),
              let pad = gst_element_get_static_pad(source.pointer, "src") else { return nil }
        defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
        let applied = Applied(offset: offset, bytes: bytes)
        gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, openEditProbe, Unmanaged.passRetained(applied).toOpaque()) {
            if let context = $0 { Unmanaged<Applied>.fromOpaque(context).release() }
        }
        return applied
    }

    /// Keeps GAP events from the encoder named `encoder`. With the edit opened, qtdemux sends the
    /// sound before its media time first, and a picture that lags the sound by 3 s in its reckoning
    /// (a clip cut 20 s into its media) gets a GAP event every 3 s of it, before its first frame;
    /// the video encoder sends those on ahead of its segment, and qtmux, which has no use for a
    /// gap, clips them in a segment it does not have yet (a GStreamer CRITICAL for each).
    static func dropGaps(before encoder: Element) {
        guard let pad = gst_element_get_static_pad(encoder.pointer, "sink") else { return }
        defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
        gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, gapProbe, nil, nil)
    }

    /// The bytes of the open entry that have gone out in place of the edit's, byte by byte: all
    /// of them once qtdemux has read the movie box.
    final class Applied: Sendable {
        let offset: UInt64
        let bytes: [UInt8]
        private let written: Mutex<[Bool]>

        init(offset: UInt64, bytes: [UInt8]) {
            self.offset = offset
            self.bytes = bytes
            written = Mutex(Array(repeating: false, count: bytes.count))
        }

        /// Whether every byte of the open entry has been handed over.
        var isComplete: Bool { written.withLock { $0.allSatisfy { $0 } } }

        /// Rewrites the part of `buffer` (holding the file's bytes from `start`) that overlaps
        /// the entry; returns the buffer to pass on (a copy when `buffer` was not writable).
        fileprivate func rewrite(_ buffer: UnsafeMutablePointer<GstBuffer>, from start: UInt64) -> UnsafeMutablePointer<GstBuffer> {
            let size = UInt64(gst_buffer_get_size(buffer))
            let (end, overflow) = start.addingReportingOverflow(size)
            let lower = max(start, offset), upper = min(overflow ? .max : end, offset + UInt64(bytes.count))
            guard lower < upper else { return buffer }
            var target = buffer
            if gst_mini_object_is_writable(gcast(buffer, to: GstMiniObject.self)) == 0, let copy = gst_buffer_copy_deep(buffer) {
                gst_buffer_unref(buffer)
                target = copy
            }
            let from = Int(lower - offset), count = Int(upper - lower)
            let filled = bytes.withUnsafeBytes { gst_buffer_fill(target, gsize(lower - start), $0.baseAddress! + from, gsize(count)) }
            if Int(filled) == count { written.withLock { for index in from..<(from + count) { $0[index] = true } } }
            return target
        }
    }

    /// Gives `output`'s sound track (written by qtmux from the opened edit: every packet, its edit
    /// at media time 0) the source's edit: its media time and duration, in the output's
    /// timescales, with its track's and movie's durations grown or cut to match.
    func restore(in output: URL) throws(MediaError) {
        func failure(_ reason: String) -> MediaError { .editList(reason: reason) }
        let handle: FileHandle
        do { handle = try FileHandle(forUpdating: output) } catch { throw failure("\(error.localizedDescription)") }
        defer { try? handle.close() }
        guard let movie = MovieBox.read(from: handle), let tracks = MovieTracks(movie: movie.bytes) else {
            throw failure("its movie box could not be read")
        }
        let sound = tracks.sound
        guard let edit = sound.edits, let media = edit.entries.last, edit.entries.dropLast().allSatisfy(\.isEmpty),
              !media.isEmpty, media.mediaTime == 0, let tkhd = sound.durationField else {
            throw failure("its sound track's edit list is not the one the muxer writes")
        }
        guard let mediaTime = Self.scale(self.mediaTime, sound.mediaTimescale, mediaTimescale),
              let duration = Self.scale(self.duration, tracks.movieTimescale, movieTimescale),
              edit.version == 1 || (mediaTime < UInt64(UInt32.max) && duration <= UInt64(UInt32.max)) else {
            throw failure("the source's edit does not fit its timescales")
        }
        var writes: [(offset: Int, bytes: [UInt8])] = []
        writes.append((media.offset, EditEntry.bytes(version: edit.version, duration: duration, mediaTime: mediaTime, rate: media.rate)))
        let (trackDuration, overflow) = edit.entries.dropLast().reduce((duration, false)) {
            let (sum, over) = $0.0.addingReportingOverflow($1.duration)
            return (sum, $0.1 || over)
        }
        guard !overflow, let track = tkhd.bytes(trackDuration) else { throw failure("its track duration does not fit its header") }
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

/// On the file source's pad: every buffer holding bytes of the sound's media edit gets the open
/// entry's bytes there. In pull mode the probe has the offset read; a pushed buffer carries its own.
private let openEditProbe: GstPadProbeCallback = { _, info, context in
    guard let info, let context, let data = info.pointee.data else { return GST_PAD_PROBE_OK }
    let applied = Unmanaged<ClipAudioEdit.Applied>.fromOpaque(context).takeUnretainedValue()
    let buffer = data.assumingMemoryBound(to: GstBuffer.self)
    let start = info.pointee.offset != UInt64.max ? info.pointee.offset : buffer.pointee.offset
    guard start != UInt64.max else { return GST_PAD_PROBE_OK }
    info.pointee.data = UnsafeMutableRawPointer(applied.rewrite(buffer, from: UInt64(start)))
    return GST_PAD_PROBE_OK
}

/// Drops GAP events on their way into the video encoder (see `ClipAudioEdit.dropGaps`).
private let gapProbe: GstPadProbeCallback = { _, info, _ in
    guard let info, let data = info.pointee.data else { return GST_PAD_PROBE_OK }
    return data.assumingMemoryBound(to: GstEvent.self).pointee.type == GST_EVENT_GAP ? GST_PAD_PROBE_DROP : GST_PAD_PROBE_OK
}

/// One entry of an `elst`: where it lies in the movie box, and its fields.
struct EditEntry {
    var offset: Int
    var duration: UInt64
    /// -1: an empty edit (nothing plays).
    var mediaTime: Int64
    var rate: UInt32

    var isEmpty: Bool { mediaTime == -1 }

    /// An entry's bytes: version 0 in 32-bit fields, version 1 in 64-bit ones.
    static func bytes(version: UInt8, duration: UInt64, mediaTime: UInt64, rate: UInt32) -> [UInt8] {
        let width = version == 1 ? 8 : 4
        return bigEndianBytes(duration, width) + bigEndianBytes(mediaTime, width) + bigEndianBytes(UInt64(rate), 4)
    }
}

/// A version-dependent duration field of a full box (`tkhd`, `mvhd`): where it is, and how wide.
struct DurationField {
    var offset: Int
    var width: Int

    /// The field's bytes for `value`; nil when it does not fit.
    func bytes(_ value: UInt64) -> [UInt8]? {
        width == 8 || value <= UInt64(UInt32.max) ? bigEndianBytes(value, width) : nil
    }
}

/// What the edits need of a movie box: its timescale and duration field, and its one sound track.
struct MovieTracks {
    struct Track {
        var edits: (version: UInt8, entries: [EditEntry])?
        var mediaTimescale: UInt64
        var mediaDuration: UInt64
        /// The track header's duration (movie timescale), and where it is written.
        var duration: UInt64
        var durationField: DurationField?
    }

    var movieTimescale: UInt64
    var durationField: DurationField?
    var sound: Track
    /// The durations of the movie's other tracks (movie timescale).
    var otherTrackDurations: [UInt64]

    /// An edit list holds at most this many entries here (a real one holds a few).
    static let mostEdits = 1024

    /// Reads `movie` (a whole `moov` box); nil when its boxes do not add up or it has not exactly
    /// one sound track.
    init?(movie: [UInt8]) {
        guard let moov = MP4Box.header(movie, at: 0, within: movie.count), moov.type == "moov",
              let children = MP4Box.children(of: movie, in: moov.body),
              let mvhd = children.first(where: { $0.type == "mvhd" }),
              let (timescale, _, field) = Self.timing(movie, mvhd, timescaleAt: (12, 20), durationAt: (16, 24)) else { return nil }
        movieTimescale = timescale
        durationField = field
        var sounds: [Track] = [], others: [UInt64] = []
        for trak in children where trak.type == "trak" {
            guard let track = Self.track(movie, trak) else { return nil }
            if track.isSound { sounds.append(track.track) } else { others.append(track.track.duration) }
        }
        guard sounds.count == 1 else { return nil }
        sound = sounds[0]
        otherTrackDurations = others
    }

    /// A `trak`'s edit list, timescales and durations, and whether its handler is `soun`.
    private static func track(_ bytes: [UInt8], _ trak: MP4Box) -> (track: Track, isSound: Bool)? {
        guard let children = MP4Box.children(of: bytes, in: trak.body),
              let tkhd = children.first(where: { $0.type == "tkhd" }),
              let mdia = children.first(where: { $0.type == "mdia" }),
              let media = MP4Box.children(of: bytes, in: mdia.body),
              let mdhd = media.first(where: { $0.type == "mdhd" }), let hdlr = media.first(where: { $0.type == "hdlr" }),
              hdlr.body.count >= 12, case let handler = bytes[(hdlr.body.lowerBound + 8)..<(hdlr.body.lowerBound + 12)],
              let (mediaTimescale, mediaDuration, _) = timing(bytes, mdhd, timescaleAt: (12, 20), durationAt: (16, 24)),
              let (_, duration, field) = timing(bytes, tkhd, timescaleAt: nil, durationAt: (20, 28)) else { return nil }
        var edits: (version: UInt8, entries: [EditEntry])?
        if let edts = children.first(where: { $0.type == "edts" }) {
            guard let list = MP4Box.children(of: bytes, in: edts.body) else { return nil }
            if let elst = list.first(where: { $0.type == "elst" }) {
                guard let parsed = editList(bytes, elst) else { return nil }
                edits = parsed
            }
        }
        return (Track(edits: edits, mediaTimescale: mediaTimescale, mediaDuration: mediaDuration, duration: duration, durationField: field),
                handler.elementsEqual("soun".utf8))
    }

    /// A full box's timescale (absent for `tkhd`) and duration, at the body offsets given for
    /// version 0 and 1, and where its duration is written.
    static func timing(_ bytes: [UInt8], _ box: MP4Box, timescaleAt: (Int, Int)?, durationAt: (Int, Int))
        -> (timescale: UInt64, duration: UInt64, field: DurationField)? {
        guard let version = bytes.bigEndian(at: box.body.lowerBound, 1), version <= 1 else { return nil }
        let wide = version == 1, width = wide ? 8 : 4
        let durationOffset = box.body.lowerBound + (wide ? durationAt.1 : durationAt.0)
        guard durationOffset + width <= box.body.upperBound, let duration = bytes.bigEndian(at: durationOffset, width) else { return nil }
        var timescale: UInt64 = 0
        if let timescaleAt {
            let offset = box.body.lowerBound + (wide ? timescaleAt.1 : timescaleAt.0)
            guard offset + 4 <= box.body.upperBound, let value = bytes.bigEndian(at: offset, 4) else { return nil }
            timescale = value
        }
        return (timescale, duration, DurationField(offset: durationOffset, width: width))
    }

    /// An `elst`'s version and entries; nil when its count does not fit its size.
    static func editList(_ bytes: [UInt8], _ elst: MP4Box) -> (version: UInt8, entries: [EditEntry])? {
        let body = elst.body
        guard let version = bytes.bigEndian(at: body.lowerBound, 1), version <= 1,
              let count = bytes.bigEndian(at: body.lowerBound + 4, 4), count <= UInt64(mostEdits) else { return nil }
        let width = version == 1 ? 8 : 4, entrySize = 2 * width + 4
        guard body.lowerBound + 8 + Int(count) * entrySize <= body.upperBound else { return nil }
        var entries: [EditEntry] = []
        for index in 0..<Int(count) {
            let offset = body.lowerBound + 8 + index * entrySize
            guard let duration = bytes.bigEndian(at: offset, width), let time = bytes.bigEndian(at: offset + width, width),
                  let rate = bytes.bigEndian(at: offset + 2 * width, 4) else { return nil }
            let mediaTime: Int64 = width == 4 ? Int64(Int32(bitPattern: UInt32(time))) : Int64(bitPattern: time)
            entries.append(EditEntry(offset: offset, duration: duration, mediaTime: mediaTime, rate: UInt32(rate)))
        }
        return (version: UInt8(version), entries: entries)
    }
}
