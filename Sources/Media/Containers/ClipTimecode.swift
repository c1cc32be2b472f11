internal import CGStreamer
internal import CGstApp
internal import CGstVideo
import Foundation

/// A clip's own timecode as its container records it, read and not yet judged: whether its
/// values make sense is the template's to decide (`Presets.Timecode`).
public enum ClipTimecode: Sendable, Equatable {
    /// A QuickTime timecode track (`tmcd`, MOV and MP4): its first sample, a frame number, and
    /// its sample description's flags (drop-frame 0x1, 24-hour wrap 0x2, negative 0x4, counter 0x8),
    /// timescale, frame duration and frame numbers a second.
    case track(frame: UInt32, flags: UInt32, timescale: UInt32, frameDuration: UInt32, framesPerSecond: UInt8)
    /// A `TIMECODE` tag as written (Matroska from ffmpeg: `01:02:03:04`, `;` before the frames
    /// for drop-frame).
    case tag(String)

    /// The largest first sample read: a timecode sample is 4 bytes (a counter track's 4 or 8).
    static let largestSample: UInt64 = 16

    /// The first timecode track of an MP4/MOV `file` (only its `moov` and 4 bytes of its media
    /// data are read); nil when it has none, or the track's boxes or sample are cut short.
    static func track(in file: URL) -> ClipTimecode? {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return nil }
        defer { try? handle.close() }
        guard let movie = MovieBox.read(from: handle)?.bytes, let moov = MP4Box.header(movie, at: 0, within: movie.count) else { return nil }
        for track in MP4Box.leadingChildren(of: movie, in: moov.body) where track.type == "trak" {
            guard let table = track.sampleTable(in: movie), let entry = table.firstSampleEntry(in: movie), entry.type == "tmcd" else { continue }
            // SampleEntry (6 reserved, data_reference_index), reserved, then flags, timescale,
            // frame duration and the frame numbers a second (QuickTime File Format, "Timecode
            // sample description").
            let fields = movie[entry.body]
            guard let flags = fields.bigEndian(at: fields.startIndex + 12, 4), let timescale = fields.bigEndian(at: fields.startIndex + 16, 4),
                  let duration = fields.bigEndian(at: fields.startIndex + 20, 4), let count = fields.bigEndian(at: fields.startIndex + 24, 1),
                  let sample = table.firstSample(in: movie), (4...largestSample).contains(sample.size),
                  let end = try? handle.seekToEnd(), end >= 4, sample.offset <= end - 4,
                  (try? handle.seek(toOffset: sample.offset)) != nil,
                  let data = try? handle.read(upToCount: 4), let frame = [UInt8](data).bigEndian(at: 0, 4) else { return nil }
            return .track(frame: UInt32(frame), flags: UInt32(flags), timescale: UInt32(timescale), frameDuration: UInt32(duration),
                          framesPerSecond: UInt8(count))
        }
        return nil
    }
}

extension ClipStreams {
    /// The `TIMECODE` tag among the extended comments (`KEY=value`) of the tags on `pad`:
    /// matroskademux gives Matroska tags it has no name for as such.
    static func timecodeTag(on pad: UnsafeMutablePointer<GstPad>) -> ClipTimecode? {
        firstTag(on: pad) { tags in
            for index in 0..<gst_tag_list_get_tag_size(tags, "extended-comment") {
                var value: UnsafePointer<gchar>?
                guard gst_tag_list_peek_string_index(tags, "extended-comment", index, &value) != 0, let value else { continue }
                let comment = String(cString: value)
                if comment.uppercased().hasPrefix("TIMECODE=") { return .tag(String(comment.dropFirst("TIMECODE=".count))) }
            }
            return nil
        }
    }
}
