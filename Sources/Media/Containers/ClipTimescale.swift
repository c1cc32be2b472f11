// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CGStreamer
internal import CGstApp
internal import CGstVideo
import Foundation
internal import ISOBMFF
import Synchronization

/// The GStreamer half of `ClipTimescale` (ISOBMFF): the muxer pad's `trak-timescale` set from the
/// caps reaching the encoder, and the encoder's durations kept to the muxer. See
/// docs/gstreamer-workarounds.md.
extension ClipTimescale {
    /// Sets the timescale of `pipeline`'s muxer `mux` (when it is qtmux or mp4mux) from the frame
    /// rate of the caps reaching the element `encoder`, before they reach the muxer, for a clip
    /// lasting `duration` (ns, as probed).
    static func install(on pipeline: Pipeline, duration: UInt64?) {
        guard let mux = try? pipeline.element(named: "mux"), let encoder = try? pipeline.element(named: "encoder"),
            ["mp4mux", "qtmux"].contains(Pipeline.factoryName(of: mux.pointer) ?? ""),
            let pad = gst_element_get_static_pad(encoder.pointer, "sink")
        else { return }
        defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
        let target = Unmanaged.passRetained(Target(mux: mux, duration: duration)).toOpaque()
        gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, rawCaps, target) {
            if let context = $0 { Unmanaged<Target>.fromOpaque(context).release() }
        }
        keepDurations(from: encoder, to: mux)
    }

    /// The muxer takes the durations the encoder gave its pictures. The parser between them
    /// (h264parse, byte-stream in) gives every picture the caps' frame duration instead, and qtmux
    /// uses a buffer's duration for the last sample only (the others last until the next DTS):
    /// that one must be the encoder's, which makes the track end where the last picture does
    /// (`camstampx264enc`'s `push_picture`); at a variable rate the caps' is the average's.
    private static func keepDurations(from encoder: Element, to mux: Element) {
        guard let out = gst_element_get_static_pad(encoder.pointer, "src") else { return }
        defer { gst_object_unref(UnsafeMutableRawPointer(out)) }
        guard let into = gst_element_get_static_pad(mux.pointer, "video_0") else { return }
        defer { gst_object_unref(UnsafeMutableRawPointer(into)) }
        let durations = Unmanaged.passRetained(Durations())
        gst_pad_add_probe(out, GST_PAD_PROBE_TYPE_BUFFER, encodedDuration, durations.toOpaque()) {
            if let context = $0 { Unmanaged<Durations>.fromOpaque(context).release() }
        }
        gst_pad_add_probe(into, GST_PAD_PROBE_TYPE_BUFFER, muxedDuration, durations.retain().toOpaque()) {
            if let context = $0 { Unmanaged<Durations>.fromOpaque(context).release() }
        }
    }

    /// Each picture's duration as the encoder let it out, by PTS, until the muxer takes it.
    fileprivate final class Durations: Sendable {
        let byTime = Mutex<[UInt64: UInt64]>([:])
    }

    /// What the probe needs: the muxer (held), and the clip's length.
    fileprivate final class Target {
        let mux: Element
        let duration: UInt64?
        init(mux: Element, duration: UInt64?) {
            self.mux = mux
            self.duration = duration
        }
    }
}

/// On the encoder's sink pad: the muxer's pad takes its caps from the encoder's output after
/// this, and reads its timescale then.
private let rawCaps: GstPadProbeCallback = { _, info, context in
    guard let info, let context, let data = info.pointee.data else { return GST_PAD_PROBE_OK }
    let event = data.assumingMemoryBound(to: GstEvent.self)
    guard event.pointee.type == GST_EVENT_CAPS else { return GST_PAD_PROBE_OK }
    var caps: UnsafeMutablePointer<GstCaps>?
    gst_event_parse_caps(event, &caps)
    guard let caps, let structure = gst_caps_get_structure(caps, 0) else { return GST_PAD_PROBE_OK }
    let target = Unmanaged<ClipTimescale.Target>.fromOpaque(context).takeUnretainedValue()
    // No frame rate in the caps counts as variable (0/1).
    var numerator: gint = 0, denominator: gint = 1
    _ = gst_structure_get_fraction(structure, "framerate", &numerator, &denominator)
    guard
        let timescale = ClipTimescale.timescale(
            numerator: Int(numerator), denominator: Int(denominator), duration: target.duration),
        let pad = gst_element_get_static_pad(target.mux.pointer, "video_0")
    else { return GST_PAD_PROBE_OK }
    gst_util_set_object_arg(
        UnsafeMutableRawPointer(pad).assumingMemoryBound(to: GObject.self), "trak-timescale", String(timescale))
    gst_object_unref(UnsafeMutableRawPointer(pad))
    return GST_PAD_PROBE_OK
}

private let encodedDuration: GstPadProbeCallback = { _, info, context in
    guard let info, let context, let data = info.pointee.data else { return GST_PAD_PROBE_OK }
    let buffer = data.assumingMemoryBound(to: GstBuffer.self)
    guard buffer.pointee.pts != GstClockTime.max, buffer.pointee.duration != GstClockTime.max else {
        return GST_PAD_PROBE_OK
    }
    let durations = Unmanaged<ClipTimescale.Durations>.fromOpaque(context).takeUnretainedValue()
    durations.byTime.withLock { $0[UInt64(buffer.pointee.pts)] = UInt64(buffer.pointee.duration) }
    return GST_PAD_PROBE_OK
}

private let muxedDuration: GstPadProbeCallback = { _, info, context in
    guard let info, let context, let data = info.pointee.data else { return GST_PAD_PROBE_OK }
    var buffer = data.assumingMemoryBound(to: GstBuffer.self)
    guard buffer.pointee.pts != GstClockTime.max else { return GST_PAD_PROBE_OK }
    let durations = Unmanaged<ClipTimescale.Durations>.fromOpaque(context).takeUnretainedValue()
    guard let duration = durations.byTime.withLock({ $0.removeValue(forKey: UInt64(buffer.pointee.pts)) }),
        duration != UInt64(buffer.pointee.duration)
    else { return GST_PAD_PROBE_OK }
    buffer = gcast(gst_mini_object_make_writable(gcast(buffer)))
    buffer.pointee.duration = GstClockTime(duration)
    info.pointee.data = UnsafeMutableRawPointer(buffer)
    return GST_PAD_PROBE_OK
}
