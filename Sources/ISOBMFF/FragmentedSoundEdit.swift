// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// The edit list a fragmented MP4 recording's sound is given once it is written: mp4mux (GStreamer
/// 1.22) writes none into a fragmented file, so the recording of a clip's AAC (its priming let
/// through by `ClipAudioEdit`'s open edit) would play the priming. The recording is written again
/// with an `edts` in its sound's `trak`, the boxes after it moved along and the `mfra`'s offsets
/// of the fragments with them. Its media time is the source's and its duration the sound kept, at
/// most the source's: players skip the priming as with the source. Media's `RecordedSoundEdit`
/// watches what the muxer takes and calls `write`.
package struct FragmentedSoundEdit {
    /// The source's sound edit.
    package var edit: ClipAudioEdit
    /// The first time and the furthest end (ns) of the sound the muxer took.
    package var first: UInt64?
    package var end: UInt64

    package init(edit: ClipAudioEdit, first: UInt64?, end: UInt64) {
        self.edit = edit
        self.first = first
        self.end = end
    }

    /// Writes `recording` (mp4mux's fragmented MP4, its sound without an edit list) to `output`,
    /// a new file, with the sound's edit list added (see the type). Throws when the recording is
    /// not laid out as mp4mux writes it (an edit list already, a fragment placed by an absolute
    /// offset, sample tables with chunks, a `sidx`).
    package func write(_ recording: URL, to output: URL) throws(ContainerError) {
        func failure(_ reason: String) -> ContainerError { .editList(reason: reason) }
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
                guard let box = TopLevelBox.at(offset, in: input, end: end) else {
                    throw failure("the recording's boxes could not be read")
                }
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
                        let data = try input.read(upToCount: Int(box.size)), data.count == Int(box.size)
                    else {
                        throw failure("a fragment of the recording could not be read")
                    }
                    let bytes = [UInt8](data)
                    guard Self.placesDataByItself(bytes) else {
                        throw failure("a fragment of the recording places its data by file offset")
                    }
                    try file.write(contentsOf: bytes)
                case "mfra":
                    guard box.size <= UInt64(MovieBox.largest), (try? input.seek(toOffset: box.offset)) != nil,
                        let data = try input.read(upToCount: Int(box.size)), data.count == Int(box.size),
                        let moved = Self.fragmentIndex([UInt8](data), movedBy: shift, after: movie.offset)
                    else {
                        throw failure("the recording's fragment index could not be read")
                    }
                    try file.write(contentsOf: moved)
                default:
                    try Self.copy(input, from: box.offset, count: box.size, to: file)
                }
            }
            try file.close()
        } catch let error as ContainerError {
            unlink(output.path)
            throw error
        } catch {
            unlink(output.path)
            throw failure("\(output.path): \(error.localizedDescription)")
        }
    }

    /// The `edts` box of the sound: the source's media time, in the recording's sound timescale,
    /// for the sound kept past it (at most the source's edit), in its movie timescale.
    private func editBox(movieTimescale: UInt64, mediaTimescale: UInt64) throws(ContainerError) -> [UInt8] {
        guard let first, end > first,
            let mediaTime = ClipAudioEdit.scale(edit.mediaTime, mediaTimescale, edit.mediaTimescale),
            let source = ClipAudioEdit.scale(edit.duration, movieTimescale, edit.movieTimescale),
            let priming = ClipAudioEdit.scale(edit.mediaTime, movieTimescale, edit.mediaTimescale),
            let sound = ClipAudioEdit.scale(end - first, movieTimescale, 1_000_000_000), sound > priming
        else {
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
    private static func movie(_ movie: [UInt8], adding edts: [UInt8]) throws(ContainerError) -> [UInt8] {
        func failure(_ reason: String) -> ContainerError { .editList(reason: reason) }
        guard let moov = MP4Box.header(movie, at: 0, within: movie.count),
            let children = MP4Box.children(of: movie, in: moov.body)
        else {
            throw failure("the recording's movie box could not be read")
        }
        guard children.contains(where: { $0.type == "mvex" }) else { throw failure("the recording is not fragmented") }
        var sound: (trak: MP4Box, after: Int)?
        for trak in children where trak.type == "trak" {
            guard let parts = MP4Box.children(of: movie, in: trak.body),
                let tkhd = parts.first(where: { $0.type == "tkhd" }),
                let mdia = parts.first(where: { $0.type == "mdia" }),
                let media = MP4Box.children(of: movie, in: mdia.body),
                let hdlr = media.first(where: { $0.type == "hdlr" }), hdlr.body.count >= 12,
                let minf = media.first(where: { $0.type == "minf" }),
                let info = MP4Box.children(of: movie, in: minf.body),
                let stbl = info.first(where: { $0.type == "stbl" }),
                let table = MP4Box.children(of: movie, in: stbl.body)
            else {
                throw failure("a track of the recording could not be read")
            }
            // A fragmented file's samples are in its fragments: no chunk offsets here to move.
            for chunks in table
            where ["stco", "co64"].contains(chunks.type) && movie.bigEndian(at: chunks.body.lowerBound + 4, 4) != 0 {
                throw failure("a track of the recording has chunks in its movie box")
            }
            if movie[(hdlr.body.lowerBound + 8)..<(hdlr.body.lowerBound + 12)].elementsEqual("soun".utf8) {
                sound = (trak, tkhd.range.upperBound)
            }
        }
        guard let sound else { throw failure("the recording has no sound track") }
        var grown = movie
        for box in [moov, sound.trak] {
            // The size is 32 bits, or 64 after the type (size field 1).
            let wide = box.body.lowerBound - box.start == 16
            let (offset, width) = wide ? (box.start + 8, 8) : (box.start, 4)
            let size = UInt64(box.size + edts.count)
            guard wide || size <= UInt64(UInt32.max) else {
                throw failure("the recording's movie box would be too large")
            }
            grown.replaceSubrange(offset..<(offset + width), with: bigEndianBytes(size, width))
        }
        grown.insert(contentsOf: edts, at: sound.after)
        return grown
    }

    /// Whether a `moof`'s track fragments find their data from the fragment's start (no
    /// base-data-offset in their `tfhd`: flag 0x000001), as mp4mux writes them.
    private static func placesDataByItself(_ moof: [UInt8]) -> Bool {
        guard let box = MP4Box.header(moof, at: 0, within: moof.count),
            let children = MP4Box.children(of: moof, in: box.body)
        else { return false }
        for traf in children where traf.type == "traf" {
            guard let parts = MP4Box.children(of: moof, in: traf.body),
                let tfhd = parts.first(where: { $0.type == "tfhd" }),
                let flags = moof.bigEndian(at: tfhd.body.lowerBound, 4), flags & 0x1 == 0
            else { return false }
        }
        return true
    }

    /// An `mfra` with the fragment offsets of its `tfra` boxes past `after` moved by `shift`;
    /// nil when its boxes do not add up.
    private static func fragmentIndex(_ mfra: [UInt8], movedBy shift: UInt64, after: UInt64) -> [UInt8]? {
        guard let box = MP4Box.header(mfra, at: 0, within: mfra.count),
            let children = MP4Box.children(of: mfra, in: box.body)
        else { return nil }
        var moved = mfra
        for tfra in children where tfra.type == "tfra" {
            let body = tfra.body.lowerBound
            // version/flags, track ID, reserved bits and the three field widths, entry count.
            guard let version = mfra.bigEndian(at: body, 1), version <= 1, let sizes = mfra.bigEndian(at: body + 8, 4),
                let count = mfra.bigEndian(at: body + 12, 4)
            else { return nil }
            let timeWidth = version == 1 ? 8 : 4
            let entrySize = 2 * timeWidth + Int((sizes >> 4) & 3) + Int((sizes >> 2) & 3) + Int(sizes & 3) + 3
            guard count <= UInt64(tfra.body.count / entrySize),
                body + 16 + Int(count) * entrySize <= tfra.body.upperBound
            else { return nil }
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
                throw ContainerError.editList(reason: "the recording ended early")
            }
            try output.write(contentsOf: data)
            left -= UInt64(data.count)
        }
    }
}
