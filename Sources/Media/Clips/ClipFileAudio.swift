// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CGStreamer
internal import CGstApp
internal import CGstVideo
import Foundation

extension ClipStreams {
    /// Launch text that takes `file`'s audio, parsed and untouched, into the element named `mux` of
    /// the pipeline it is added to (nil when the file has no audio). Its queue, `fileaudio`, holds
    /// at most half a second: the muxer paces it to the video, and `Pipeline.endFileAudio` ends it.
    public func audioBranch(from file: URL) throws(MediaError) -> String? {
        try parsedAudio(from: file).map { $0 + " ! mux.audio_0" }
    }

    /// Launch text that plays `file`'s audio decoded, at the pace of the pipeline's clock as a
    /// microphone would give it, for a stream that encodes its sound once for all its targets
    /// (nil when the file has no audio). It ends as `audioBranch`'s does (`Pipeline.endFileAudio`).
    public func decodedAudio(from file: URL) throws(MediaError) -> String? {
        try parsedAudio(from: file).map { $0 + " ! decodebin ! identity sync=true" }
    }

    /// The name of the file source of `audioBranch` and `decodedAudio`: the pictures' own reads the same file.
    static let fileAudioSource = "fileaudiosource"

    /// `file`'s audio stream as parsebin gives it, through the queue named `fileaudio`.
    private func parsedAudio(from file: URL) throws(MediaError) -> String? {
        guard let type = audioType else { return nil }
        guard type.hasPrefix("audio/"),
            type.unicodeScalars.allSatisfy({
                CharacterSet.alphanumerics.contains($0) || "/-.".unicodeScalars.contains($0)
            })
        else {
            throw .invalidTemplate("unexpected audio media type '\(type)'")
        }
        return try PipelineTemplate(
            "filesrc name=\(Self.fileAudioSource) location={location} ! parsebin ! {caps} ! queue name=fileaudio max-size-time=500000000 max-size-bytes=0 max-size-buffers=0"
        )
        .render(["location": .quoted(file.path), "caps": .fragment(LaunchFragment(type))])
    }
}

extension Pipeline {
    /// Ends the audio branch of `ClipStreams.audioBranch` at `end` (ns, the end of the video
    /// written), so that the muxer neither waits for the rest of the file's audio nor takes more
    /// than the video's length: the first buffer from `end` on leaving its queue is dropped and EOS
    /// goes in its place. (EOS sent into the queue instead would wait for the stream lock that its
    /// full queue's upstream thread holds: a deadlock.) Call it before ending the video.
    public func endFileAudio(at end: UInt64) {
        guard let queue = gst_bin_get_by_name(gcast(element), "fileaudio") else { return }
        defer { gst_object_unref(UnsafeMutableRawPointer(queue)) }
        guard let pad = gst_element_get_static_pad(queue, "src") else { return }
        defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
        let context = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
        context.initialize(to: end)
        gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, endAudioProbe, context) {
            $0?.assumingMemoryBound(to: UInt64.self).deallocate()
        }
    }
}

/// On the streaming thread of the audio queue: buffers before the end pass; from the end on, EOS
/// goes downstream instead (pushed again once the pad is at EOS, it is refused and harmless).
private let endAudioProbe: GstPadProbeCallback = { pad, info, context in
    guard let pad, let info, let context, let data = info.pointee.data else { return GST_PAD_PROBE_OK }
    let buffer = data.assumingMemoryBound(to: GstBuffer.self)
    let end = context.assumingMemoryBound(to: UInt64.self).pointee
    if buffer.pointee.pts != GstClockTime.max, UInt64(buffer.pointee.pts) < end { return GST_PAD_PROBE_OK }
    _ = gst_pad_push_event(pad, gst_event_new_eos())
    return GST_PAD_PROBE_DROP
}
