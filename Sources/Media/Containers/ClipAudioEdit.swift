// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CGStreamer
internal import CGstApp
internal import CGstVideo
import Foundation
internal import ISOBMFF
import Synchronization

/// The GStreamer half of `ClipAudioEdit` (ISOBMFF): qtdemux is handed the sound's edit opened
/// by a pad probe on the file source as it reads the movie box, and the output gets the source's
/// edit back once it is written. See docs/gstreamer-workarounds.md.
extension ClipAudioEdit {
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
    static func rewrite(
        _ offset: UInt64, with bytes: [UInt8], on pipeline: Pipeline, reading file: URL,
        source name: String? = nil
    ) -> Applied? {
        guard
            let source = pipeline.allElements().first(where: {
                Pipeline.factoryName(of: $0.pointer) == "filesrc" && $0.string("location") == file.path
                    && (name == nil || $0.name == name)
            }),
            let pad = gst_element_get_static_pad(source.pointer, "src")
        else { return nil }
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
        fileprivate func rewrite(
            _ buffer: UnsafeMutablePointer<GstBuffer>, from start: UInt64
        ) -> UnsafeMutablePointer<GstBuffer> {
            let size = UInt64(gst_buffer_get_size(buffer))
            let (end, overflow) = start.addingReportingOverflow(size)
            let lower = max(start, offset), upper = min(overflow ? .max : end, offset + UInt64(bytes.count))
            guard lower < upper else { return buffer }
            var target = buffer
            if gst_mini_object_is_writable(gcast(buffer, to: GstMiniObject.self)) == 0,
                let copy = gst_buffer_copy_deep(buffer)
            {
                gst_buffer_unref(buffer)
                target = copy
            }
            let from = Int(lower - offset), count = Int(upper - lower)
            let filled = bytes.withUnsafeBytes {
                gst_buffer_fill(target, gsize(lower - start), $0.baseAddress! + from, gsize(count))
            }
            if Int(filled) == count { written.withLock { for index in from..<(from + count) { $0[index] = true } } }
            return target
        }
    }

    /// Gives `output`'s sound track the source's edit back (`writeSourceEdit(into:)`), once the
    /// file is written.
    func restore(in output: URL) throws(MediaError) {
        do { try writeSourceEdit(into: output) } catch { throw MediaError(error) }
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
    return data.assumingMemoryBound(to: GstEvent.self).pointee.type == GST_EVENT_GAP
        ? GST_PAD_PROBE_DROP : GST_PAD_PROBE_OK
}
