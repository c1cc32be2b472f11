// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CGStreamer
internal import CGstApp
internal import CGstVideo
import Foundation
import Synchronization

/// Whether an element has sent its first buffer: a stream's pictures wait for its sound source
/// (PulseAudio's or ALSA's takes up to a second or more to start on a busy machine), so a
/// recording does not begin with pictures and no sound.
public final class FirstBufferWatch: Sendable {
    private let sent = Atomic(false)

    /// Watches `element`'s `src` pad (call before the pipeline plays); nil if it has none.
    public init?(_ element: Element) {
        guard let pad = gst_element_get_static_pad(element.pointer, "src") else { return nil }
        defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
        let types = GstPadProbeType(GST_PAD_PROBE_TYPE_BUFFER.rawValue | GST_PAD_PROBE_TYPE_BUFFER_LIST.rawValue)
        gst_pad_add_probe(pad, types, firstBufferProbe, Unmanaged.passRetained(self).toOpaque()) {
            if let context = $0 { Unmanaged<FirstBufferWatch>.fromOpaque(context).release() }
        }
    }

    /// Whether a buffer has gone out of the pad.
    public var hasSent: Bool { sent.load(ordering: .acquiring) }

    fileprivate func note() { sent.store(true, ordering: .releasing) }
}

private let firstBufferProbe: GstPadProbeCallback = { _, _, context in
    if let context { Unmanaged<FirstBufferWatch>.fromOpaque(context).takeUnretainedValue().note() }
    // Known for good: nothing more to watch.
    return GST_PAD_PROBE_REMOVE
}
