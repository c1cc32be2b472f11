// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CGStreamer
internal import CGstApp
internal import CGstVideo
internal import CX264Encoder
import Foundation

/// GStreamer's process-wide initialisation.
public enum GStreamer {
    private static let initialized: Result<Void, MediaError> = {
        var error: UnsafeMutablePointer<GError>?
        // gst_init_check: like gst_init, but reports failure instead of exiting the process.
        if gst_init_check(nil, nil, &error) == 0 {
            let message = error.map { String(cString: $0.pointee.message) } ?? "unknown reason"
            if let error { g_error_free(error) }
            return .failure(.initialization(message))
        }
        // The clips' H.264 encoder (ClipVideoCodec), in this process only.
        guard camstamp_x264enc_register() != 0 else {
            return .failure(.initialization("cannot register the camstampx264enc element"))
        }
        return .success(())
    }()

    /// Initialises GStreamer once; later calls are free. Thread-safe (Swift's lazy static).
    public static func initialize() throws(MediaError) {
        try initialized.get()
    }

    /// The GStreamer version, e.g. "1.22.0".
    public static var version: String {
        var major: guint = 0, minor: guint = 0, micro: guint = 0, nano: guint = 0
        gst_version(&major, &minor, &micro, &nano)
        return "\(major).\(minor).\(micro)"
    }

    /// Whether an element factory is installed (e.g. `x264enc`).
    public static func hasElement(_ factory: String) -> Bool {
        guard (try? initialize()) != nil, let found = gst_element_factory_find(factory) else { return false }
        gst_object_unref(UnsafeMutableRawPointer(found))
        return true
    }
}

/// Puts `replacement` in place of the event passing a pad probe (`info`'s data, whose one
/// reference the probe holds): the same sequence number, the old event let go.
func replaceProbeEvent(_ info: UnsafeMutablePointer<GstPadProbeInfo>, with replacement: UnsafeMutablePointer<GstEvent>)
{
    guard let old = info.pointee.data?.assumingMemoryBound(to: GstEvent.self) else { return }
    gst_event_set_seqnum(replacement, gst_event_get_seqnum(old))
    gst_event_unref(old)
    info.pointee.data = UnsafeMutableRawPointer(replacement)
}

/// Calls `body` with each sink (or source) pad `element` has now, each held meanwhile: the list is
/// read under the element's lock and the calls made after it (parsebin and the muxers add pads
/// from their streaming threads).
func forEachPad(
    of element: UnsafeMutablePointer<GstElement>, sink: Bool, _ body: (UnsafeMutablePointer<GstPad>) -> Void
) {
    let object: UnsafeMutablePointer<GstObject> = gcast(element)
    var pads: [UnsafeMutablePointer<GstPad>] = []
    g_mutex_lock(&object.pointee.lock)
    var list = sink ? element.pointee.sinkpads : element.pointee.srcpads
    while let node = list {
        let pad = node.pointee.data.assumingMemoryBound(to: GstPad.self)
        gst_object_ref(UnsafeMutableRawPointer(pad))
        pads.append(pad)
        list = node.pointee.next
    }
    g_mutex_unlock(&object.pointee.lock)
    for pad in pads {
        body(pad)
        gst_object_unref(UnsafeMutableRawPointer(pad))
    }
}
