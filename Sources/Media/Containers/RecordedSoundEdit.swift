internal import CGStreamer
internal import CGstApp
internal import CGstVideo
import Foundation
import Synchronization

/// `stream --source file:CLIP --to out.mp4` copies the clip's AAC into the recording (the
/// `fileaudio` branch). GStreamer 1.22 loses its priming and last packet there as in a batch
/// (see `ClipAudioEdit`), and the recording, a fragmented MP4, had no edit list at all. The same
/// two steps put it right:
/// - the branch's file source gets `ClipAudioEdit`'s open edit, so qtdemux sends every packet,
///   the sound one priming late through the pipeline (`late`: the stream cuts it that much later);
/// - once the recording is finished, it is written again with its sound's edit list (`write`):
///   mp4mux's fragmented MP4 has none, so it is added (an `edts` in the sound's `trak`, the
///   boxes after it moved along and the `mfra`'s offsets of the fragments with them). Its media
///   time is the source's and its duration the sound kept, at most the source's: players skip the
///   priming as with the source. `ffprobe` shows the first packet at -1024, as for the source; ffmpeg
///   applies an edit list's start to a fragmented file's timestamps but does not drop the decoded
///   priming by itself (`-copyts -af atrim=start=0` does, as its own fragmented files have none).
public final class RecordedSoundEdit: Sendable {
    let edit: ClipAudioEdit
    let applied: ClipAudioEdit.Applied
    /// The first time and the furthest end (ns) of the sound the muxer took.
    private let kept = Mutex<(first: UInt64?, end: UInt64)>((nil, 0))

    private init(edit: ClipAudioEdit, applied: ClipAudioEdit.Applied) {
        self.edit = edit
        self.applied = applied
    }

    /// Opens the sound's edit of `clip` as the branch of `ClipStreams.audioBranch` in `pipeline`
    /// reads it, and watches what the muxer named `mux` takes of it. Nil (the clip is read as
    /// GStreamer reads it) when the clip's sound has no edit to put right, starts after the
    /// picture (an empty edit first), or the pipeline has no such branch or muxer.
    public static func install(on pipeline: Pipeline, clip: URL) -> RecordedSoundEdit? {
        guard let edit = ClipAudioEdit.read(from: clip), !edit.startsLate,
              let mux = try? pipeline.element(named: "mux") else { return nil }
        var pads: [UnsafeMutablePointer<GstPad>] = []
        forEachPad(of: mux.pointer, sink: true) { if objectName(gcast($0)).hasPrefix("audio") { pads.append($0) } }
        guard pads.count == 1,
              let applied = edit.install(on: pipeline, reading: clip, source: ClipStreams.fileAudioSource) else { return nil }
        let watch = RecordedSoundEdit(edit: edit, applied: applied)
        gst_pad_add_probe(pads[0], GST_PAD_PROBE_TYPE_BUFFER, keptSoundProbe, Unmanaged.passRetained(watch).toOpaque()) {
            if let context = $0 { Unmanaged<RecordedSoundEdit>.fromOpaque(context).release() }
        }
        return watch
    }

    /// How late the sound runs through the pipeline (ns): the priming, once qtdemux has read the
    /// opened edit; 0 otherwise. The sound of the video's last moment comes that much later.
    public var late: UInt64 {
        applied.isComplete ? ClipAudioEdit.scale(edit.mediaTime, 1_000_000_000, edit.mediaTimescale) ?? 0 : 0
    }

    /// Whether the recording needs `write`: qtdemux read the opened edit and the muxer took sound.
    public var isNeeded: Bool { applied.isComplete && kept.withLock { $0.first != nil } }

    fileprivate func take(_ buffer: UnsafeMutablePointer<GstBuffer>) {
        let pts = buffer.pointee.pts, duration = buffer.pointee.duration
        guard pts != GstClockTime.max else { return }
        kept.withLock {
            $0.first = min($0.first ?? UInt64(pts), UInt64(pts))
            $0.end = max($0.end, UInt64(pts) + (duration == GstClockTime.max ? 0 : UInt64(duration)))
        }
    }

    /// Writes `recording` (mp4mux's fragmented MP4, its sound without an edit list) to `output`,
    /// a new file, with the sound's edit list added (see the type). Throws when the recording is
    /// not laid out as mp4mux writes it (an edit list already, a fragment placed by an absolute
    /// offset, sample tables with chunks, a `sidx`).
    public func write(_ recording: URL, to output: URL) throws(MediaError) {
        func failure(_ reason: String) -> MediaError { .editList(reason: reason) }
        let input: FileHandle
        do { input = try FileHandle(forReadingFrom: recording) } catch { throw failure(error.localizedDescription) }
        defer { try? input.close() }
        guard let movie = MovieBox.read(from: input), let tracks = MovieTracks(movie: movie.bytes) else {
            throw failure("the recording's movie box could not be read")
        }
        guard tracks.sound.edits == nil, tracks.sound.mediaTimescale > 0, tracks.movieTimescale > 0 else {
            throw failure("the recording's sound already has an edit list")
        }
        let edts = try editBox(movieTimescale: tracks.movieTimescale, mediaTimescale: tracks.sound.mediaTimescale)
        let grown = try Self.movie(movie.bytes, adding: edts)
        let shift = UInt64(edts.count)

        let descriptor = open(output.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw failure("\(output.path): \(String(cString: strerror(errno)))") }
        let file = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            // Box by box to the end (not `TopLevelBox.all`: an hour's recording has thousands of fragments).
            let end = try input.seekToEnd()
            var offset: UInt64 = 0
            while offset < end {
                guard let box = TopLevelBox.at(offset, in: input, end: end) else { throw failure("the recording's boxes could not be read") }
                offset += box.size
                switch box.type {
                case "sidx":
                    throw failure("the recording has a segment index")
                case "moov":
                    guard box.offset == movie.offset else { throw failure("the recording has two movie boxes") }
                    try file.write(contentsOf: grown)
                case "moof":
                    // Its data is found from the fragment's own start: moved along with it.
                    guard box.size <= UInt64(MovieBox.largest), (try? input.seek(toOffset: box.offset)) != nil,
                          let data = try input.read(upToCount: Int(box.size)), data.count == Int(box.size) else {
                        throw failure("a fragment of the recording could not be read")
                    }
                    let bytes = [UInt8](data)
                    guard Self.placesDataByItself(bytes) else { throw failure("a fragment of the recording places its data by file offset") }
                    try file.write(contentsOf: bytes)
                case "mfra":
                    guard box.size <= UInt64(MovieBox.largest), (try? input.seek(toOffset: box.offset)) != nil,
                          let data = try input.read(upToCount: Int(box.size)), data.count == Int(box.size),
                          let moved = Self.fragmentIndex([UInt8](data), movedBy: shift, after: movie.offset) else {
                        throw failure("the recording's fragment index could not be read")
                    }
                    try file.write(contentsOf: moved)
                default:
                    try Self.copy(input, from: box.offset, count: box.size, to: file)
                }
            }
            try file.close()
        } catch let error as MediaError {
            unlink(output.path)
            throw error
        } catch {
            unlink(output.path)
            throw failure("\(output.path): \(error.localizedDescription)")
        }
    }

    /// The `edts` box of the sound: the source's media time, in the recording's sound timescale,
    /// for the sound kept past it (at most the source's edit), in its movie timescale.
    private func editBox(movieTimescale: UInt64, mediaTimescale: UInt64) throws(MediaError) -> [UInt8] {
        let (first, end) = kept.withLock { ($0.first, $0.end) }
        guard let first, end > first,
              let mediaTime = ClipAudioEdit.scale(edit.mediaTime, mediaTimescale, edit.mediaTimescale),
              let source = ClipAudioEdit.scale(edit.duration, movieTimescale, edit.movieTimescale),
              let priming = ClipAudioEdit.scale(edit.mediaTime, movieTimescale, edit.mediaTimescale),
              let sound = ClipAudioEdit.scale(end - first, movieTimescale, 1_000_000_000), sound > priming else {
            throw .editList(reason: "the sound kept is shorter than the priming it starts with")
        }
        let duration = min(source, sound - priming)
        let version: UInt8 = max(duration, mediaTime) > UInt64(Int32.max) ? 1 : 0
        let entry = EditEntry.bytes(version: version, duration: duration, mediaTime: mediaTime, rate: 0x0001_0000)
        let elst = [version, 0, 0, 0] + bigEndianBytes(1, 4) + entry
        let elstBox = bigEndianBytes(UInt64(8 + elst.count), 4) + Array("elst".utf8) + elst
        return bigEndianBytes(UInt64(8 + elstBox.count), 4) + Array("edts".utf8) + elstBox
    }

    /// `movie` (a whole `moov`) with `edts` in its sound track after the track header, the sizes
    /// of both boxes grown. Throws when a track's sample table points into the file (chunks).
    private static func movie(_ movie: [UInt8], adding edts: [UInt8]) throws(MediaError) -> [UInt8] {
        func failure(_ reason: String) -> MediaError { .editList(reason: reason) }
        guard let moov = MP4Box.header(movie, at: 0, within: movie.count), let children = MP4Box.children(of: movie, in: moov.body) else {
            throw failure("the recording's movie box could not be read")
        }
        guard children.contains(where: { $0.type == "mvex" }) else { throw failure("the recording is not fragmented") }
        var sound: (trak: MP4Box, after: Int)?
        for trak in children where trak.type == "trak" {
            guard let parts = MP4Box.children(of: movie, in: trak.body), let tkhd = parts.first(where: { $0.type == "tkhd" }),
                  let mdia = parts.first(where: { $0.type == "mdia" }), let media = MP4Box.children(of: movie, in: mdia.body),
                  let hdlr = media.first(where: { $0.type == "hdlr" }), hdlr.body.count >= 12,
                  let minf = media.first(where: { $0.type == "minf" }), let info = MP4Box.children(of: movie, in: minf.body),
                  let stbl = info.first(where: { $0.type == "stbl" }), let table = MP4Box.children(of: movie, in: stbl.body) else {
                throw failure("a track of the recording could not be read")
            }
            // A fragmented file's samples are in its fragments: no chunk offsets here to move.
            for chunks in table where ["stco", "co64"].contains(chunks.type) && movie.bigEndian(at: chunks.body.lowerBound + 4, 4) != 0 {
                throw failure("a track of the recording has chunks in its movie box")
            }
            if movie[(hdlr.body.lowerBound + 8)..<(hdlr.body.lowerBound + 12)].elementsEqual("soun".utf8) { sound = (trak, tkhd.range.upperBound) }
        }
        guard let sound else { throw failure("the recording has no sound track") }
        var grown = movie
        for box in [moov, sound.trak] {
            // The size is 32 bits, or 64 after the type (size field 1).
            let wide = box.body.lowerBound - box.start == 16
            let (offset, width) = wide ? (box.start + 8, 8) : (box.start, 4)
            let size = UInt64(box.size + edts.count)
            guard wide || size <= UInt64(UInt32.max) else { throw failure("the recording's movie box would be too large") }
            grown.replaceSubrange(offset..<(offset + width), with: bigEndianBytes(size, width))
        }
        grown.insert(contentsOf: edts, at: sound.after)
        return grown
    }

    /// Whether a `moof`'s track fragments find their data from the fragment's start (no
    /// base-data-offset in their `tfhd`: flag 0x000001), as mp4mux writes them.
    private static func placesDataByItself(_ moof: [UInt8]) -> Bool {
        guard let box = MP4Box.header(moof, at: 0, within: moof.count), let children = MP4Box.children(of: moof, in: box.body) else { return false }
        for traf in children where traf.type == "traf" {
            guard let parts = MP4Box.children(of: moof, in: traf.body), let tfhd = parts.first(where: { $0.type == "tfhd" }),
                  let flags = moof.bigEndian(at: tfhd.body.lowerBound, 4), flags & 0x1 == 0 else { return false }
        }
        return true
    }

    /// An `mfra` with the fragment offsets of its `tfra` boxes past `after` moved by `shift`;
    /// nil when its boxes do not add up.
    private static func fragmentIndex(_ mfra: [UInt8], movedBy shift: UInt64, after: UInt64) -> [UInt8]? {
        guard let box = MP4Box.header(mfra, at: 0, within: mfra.count), let children = MP4Box.children(of: mfra, in: box.body) else { return nil }
        var moved = mfra
        for tfra in children where tfra.type == "tfra" {
            let body = tfra.body.lowerBound
            // version/flags, track ID, reserved bits and the three field widths, entry count.
            guard let version = mfra.bigEndian(at: body, 1), version <= 1, let sizes = mfra.bigEndian(at: body + 8, 4),
                  let count = mfra.bigEndian(at: body + 12, 4) else { return nil }
            let timeWidth = version == 1 ? 8 : 4
            let entrySize = 2 * timeWidth + Int((sizes >> 4) & 3) + Int((sizes >> 2) & 3) + Int(sizes & 3) + 3
            guard count <= UInt64(tfra.body.count / entrySize), body + 16 + Int(count) * entrySize <= tfra.body.upperBound else { return nil }
            for index in 0..<Int(count) {
                let offset = body + 16 + index * entrySize + timeWidth
                guard let moof = mfra.bigEndian(at: offset, timeWidth) else { return nil }
                guard moof > after else { continue }
                let (value, overflow) = moof.addingReportingOverflow(shift)
                guard !overflow, timeWidth == 8 || value <= UInt64(UInt32.max) else { return nil }
                moved.replaceSubrange(offset..<(offset + timeWidth), with: bigEndianBytes(value, timeWidth))
            }
        }
        return moved
    }

    /// Copies `count` bytes of `input` from `offset` to `output`, a few MB at a time.
    private static func copy(_ input: FileHandle, from offset: UInt64, count: UInt64, to output: FileHandle) throws {
        try input.seek(toOffset: offset)
        var left = count
        while left > 0 {
            guard let data = try input.read(upToCount: Int(min(left, 4 << 20))), !data.isEmpty else {
                throw MediaError.editList(reason: "the recording ended early")
            }
            try output.write(contentsOf: data)
            left -= UInt64(data.count)
        }
    }
}

/// On the muxer's sound pad: the span of the sound it takes.
private let keptSoundProbe: GstPadProbeCallback = { _, info, context in
    guard let info, let context, let data = info.pointee.data else { return GST_PAD_PROBE_OK }
    Unmanaged<RecordedSoundEdit>.fromOpaque(context).takeUnretainedValue().take(data.assumingMemoryBound(to: GstBuffer.self))
    return GST_PAD_PROBE_OK
}
