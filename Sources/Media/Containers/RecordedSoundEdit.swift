// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CGStreamer
internal import CGstApp
internal import CGstVideo
import Foundation
internal import ISOBMFF
import Synchronization

/// `stream --source file:CLIP --to out.mp4` copies the clip's AAC into the recording (the
/// `fileaudio` branch). GStreamer 1.22 loses its priming and last packet there as in a batch
/// (see `ClipAudioEdit`), and the recording, a fragmented MP4, had no edit list at all. The same
/// two steps put it right:
/// - the branch's file source gets `ClipAudioEdit`'s open edit, so qtdemux sends every packet,
///   the sound one priming late through the pipeline (`late`: the stream cuts it that much later);
/// - once the recording is finished, it is written again with its sound's edit list (`write`,
///   `FragmentedSoundEdit` in ISOBMFF): mp4mux's fragmented MP4 has none, so it is added. Its
///   media time is the source's and its duration the sound kept, at most the source's: players
///   skip the priming as with the source. `ffprobe` shows the first packet at -1024, as for the source; ffmpeg
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
            let mux = try? pipeline.element(named: "mux")
        else { return nil }
        var pads: [UnsafeMutablePointer<GstPad>] = []
        forEachPad(of: mux.pointer, sink: true) { if objectName(gcast($0)).hasPrefix("audio") { pads.append($0) } }
        guard pads.count == 1,
            let applied = edit.install(on: pipeline, reading: clip, source: ClipStreams.fileAudioSource)
        else { return nil }
        let watch = RecordedSoundEdit(edit: edit, applied: applied)
        gst_pad_add_probe(pads[0], GST_PAD_PROBE_TYPE_BUFFER, keptSoundProbe, Unmanaged.passRetained(watch).toOpaque())
        {
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
    /// a new file, with the sound's edit list added (`FragmentedSoundEdit`). Throws when the
    /// recording is not laid out as mp4mux writes it.
    public func write(_ recording: URL, to output: URL) throws(MediaError) {
        let (first, end) = kept.withLock { ($0.first, $0.end) }
        do {
            try FragmentedSoundEdit(edit: edit, first: first, end: end).write(recording, to: output)
        } catch {
            throw MediaError(error)
        }
    }
}

/// On the muxer's sound pad: the span of the sound it takes.
private let keptSoundProbe: GstPadProbeCallback = { _, info, context in
    guard let info, let context, let data = info.pointee.data else { return GST_PAD_PROBE_OK }
    Unmanaged<RecordedSoundEdit>.fromOpaque(context).takeUnretainedValue().take(
        data.assumingMemoryBound(to: GstBuffer.self))
    return GST_PAD_PROBE_OK
}
