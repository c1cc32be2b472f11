// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CGStreamer
internal import CGstVideo
import Foundation
internal import ISOBMFF

/// A clip's colorimetry put right where GStreamer 1.22 loses a full-range (0-255) clip's range on
/// its way to the marks and the encoder (which writes the range and colour fields the caps say
/// into the output's VUI). Two places lose it:
///
/// - qtdemux turns an MP4/MOV `colr` box into a named colorimetry (`bt709`, `bt601`) that is always
///   limited range: it drops nclx's full-range flag. h264parse and h265parse keep the container's
///   colorimetry over their SPS's, and avdec takes each field upstream has over libav's. So for H.264
///   and HEVC from qtdemux the range is made unknown: avdec then takes the SPS's (its VUI
///   `video_full_range_flag`, what ffmpeg and players go by).
/// - A clip that says full range and no matrix (a phone's `yuvj420p` without a colour description)
///   decodes as `1:0:0:0`, which GstVideoInfo refuses for YUV and replaces whole with its default
///   for the size: BT.601 or BT.709, limited. So the decoder's unknown matrix is given that default
///   (what players assume for that size too) and its range kept.
///
/// - A stream whose SPS says no range (no VUI `video_signal_type`) in an MP4 whose `colr nclx`
///   box says full range decodes with an unknown range, taken as limited downstream; ffmpeg and
///   players take the box's when the SPS is silent. So the box is read from the file itself
///   (`ContainerColour`: qtdemux's caps never say full) and its range given to a decoder's
///   output that has none.
///
/// Matroska says the range right (`1:3:5:1`), as do the parsers on their own.
enum ClipColour {
    /// Watches `bin` (the pipeline decoding `clip`, through decodebin or decodebin3) for the
    /// demuxer and decoders it adds.
    static func install(on bin: UnsafeMutablePointer<GstElement>, clip: URL) {
        // A file that cannot be read says nothing of its range here; its pipeline says why it
        // cannot be read, in GStreamer's words.
        let range = (try? ContainerColour.fullRange(of: clip)).flatMap { $0 }
            .map { $0 ? GST_VIDEO_COLOR_RANGE_0_255 : GST_VIDEO_COLOR_RANGE_16_235 }
        let context = Unmanaged.passRetained(Clip(containerRange: range)).toOpaque()
        g_signal_connect_data(
            bin, "deep-element-added", unsafeBitCast(elementAdded, to: GCallback.self), context,
            { context, _ in if let context { Unmanaged<Clip>.fromOpaque(context).release() } }, GConnectFlags(0))
    }

    /// What the callbacks know of the clip: the range its container's `colr` box says, if any.
    final class Clip: @unchecked Sendable {
        let containerRange: GstVideoColorRange?
        init(containerRange: GstVideoColorRange?) { self.containerRange = containerRange }
    }

    /// A colorimetry with an unknown range, so that the decoder takes the stream's own; nil when
    /// `colorimetry`'s range is unknown already.
    static func rangeLeftToTheStream(_ colorimetry: GstVideoColorimetry) -> GstVideoColorimetry? {
        guard colorimetry.range != GST_VIDEO_COLOR_RANGE_UNKNOWN else { return nil }
        var changed = colorimetry
        changed.range = GST_VIDEO_COLOR_RANGE_UNKNOWN
        return changed
    }

    /// A decoder's output `colorimetry` (of frames `caps`) completed: an unknown range (the
    /// stream said none) is `containerRange`, then an unknown matrix is filled in
    /// (`matrixFilledIn`); nil when neither changes.
    static func decoded(
        _ colorimetry: GstVideoColorimetry, caps: UnsafeMutablePointer<GstCaps>,
        containerRange: GstVideoColorRange?
    ) -> GstVideoColorimetry? {
        var completed = colorimetry
        if completed.range == GST_VIDEO_COLOR_RANGE_UNKNOWN, let containerRange { completed.range = containerRange }
        if let filled = matrixFilledIn(completed, caps: caps) { completed = filled }
        return completed.range == colorimetry.range && completed.matrix == colorimetry.matrix ? nil : completed
    }

    /// `colorimetry` with its unknown matrix set to GStreamer's default for the frames of `caps`
    /// (`gst_video_info_from_caps` fills in that default), its range and other fields kept; nil
    /// when the matrix is known or the range is not (GStreamer's default is then what it was).
    static func matrixFilledIn(
        _ colorimetry: GstVideoColorimetry, caps: UnsafeMutablePointer<GstCaps>
    ) -> GstVideoColorimetry? {
        guard colorimetry.matrix == GST_VIDEO_COLOR_MATRIX_UNKNOWN, colorimetry.range != GST_VIDEO_COLOR_RANGE_UNKNOWN
        else { return nil }
        var info = GstVideoInfo()
        guard gst_video_info_from_caps(&info, caps) != 0,
            info.finfo.pointee.flags.rawValue & GST_VIDEO_FORMAT_FLAG_YUV.rawValue != 0
        else { return nil }
        var changed = colorimetry
        changed.matrix = info.colorimetry.matrix
        return changed
    }
}

extension Pipeline {
    /// For a pipeline that decodes the video file `clip` (a batch's clip, the `--source file:` of a
    /// stream, a shot or the camera): its frames keep the clip's colours, its range above all
    /// (`ClipColour`). Before the pipeline starts.
    public func keepColours(ofClip clip: URL) {
        ClipColour.install(on: element, clip: clip)
    }
}

/// decodebin and decodebin3 add their elements from their streaming threads: each is looked at
/// once, here. The context is the `ClipColour.Clip`.
private let elementAdded:
    @convention(c) (
        UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutablePointer<GstElement>?,
        gpointer?
    ) -> Void = { _, _, element, context in
        guard let element, let context else { return }
        if Pipeline.factoryName(of: element) == "qtdemux" {
            g_signal_connect_data(
                element, "pad-added", unsafeBitCast(demuxerPadAdded, to: GCallback.self), nil, nil, GConnectFlags(0))
            return
        }
        guard let klass = gst_element_get_metadata(element, "klass").map({ String(cString: $0) }),
            klass.contains("Decoder"), klass.contains("Video"), let pad = gst_element_get_static_pad(element, "src")
        else { return }
        // The probe holds the clip for as long as the decoder lives.
        let clip = Unmanaged<ClipColour.Clip>.fromOpaque(context).retain().toOpaque()
        gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, decodedCaps, clip) {
            if let clip = $0 { Unmanaged<ClipColour.Clip>.fromOpaque(clip).release() }
        }
        gst_object_unref(UnsafeMutableRawPointer(pad))
    }

/// The pad is new and not linked yet: its caps go downstream after this, through the probe.
private let demuxerPadAdded:
    @convention(c) (UnsafeMutablePointer<GstElement>?, UnsafeMutablePointer<GstPad>?, gpointer?) -> Void = {
        _, pad, _ in
        guard let pad else { return }
        gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, demuxedCaps, nil, nil)
    }

private let demuxedCaps: GstPadProbeCallback = { _, info, _ in
    rewriteColorimetry(info, of: ["video/x-h264", "video/x-h265"]) { colorimetry, _ in
        ClipColour.rangeLeftToTheStream(colorimetry)
    }
}

private let decodedCaps: GstPadProbeCallback = { _, info, context in
    guard let context else { return GST_PAD_PROBE_OK }
    let clip = Unmanaged<ClipColour.Clip>.fromOpaque(context).takeUnretainedValue()
    return rewriteColorimetry(info, of: ["video/x-raw"]) { colorimetry, caps in
        ClipColour.decoded(colorimetry, caps: caps, containerRange: clip.containerRange)
    }
}

/// Replaces the caps event passing a probe by one whose `colorimetry` is `change`'s, when the caps
/// are of one of `mediaTypes`, have a colorimetry and `change` gives a new one.
private func rewriteColorimetry(
    _ info: UnsafeMutablePointer<GstPadProbeInfo>?, of mediaTypes: Set<String>,
    _ change: (GstVideoColorimetry, UnsafeMutablePointer<GstCaps>) -> GstVideoColorimetry?
) -> GstPadProbeReturn {
    guard let info, let data = info.pointee.data else { return GST_PAD_PROBE_OK }
    let event = data.assumingMemoryBound(to: GstEvent.self)
    guard event.pointee.type == GST_EVENT_CAPS else { return GST_PAD_PROBE_OK }
    var parsed: UnsafeMutablePointer<GstCaps>?
    gst_event_parse_caps(event, &parsed)
    guard let caps = parsed, gst_caps_get_size(caps) == 1, let structure = gst_caps_get_structure(caps, 0),
        mediaTypes.contains(String(cString: gst_structure_get_name(structure))),
        let text = gst_structure_get_string(structure, "colorimetry")
    else { return GST_PAD_PROBE_OK }
    var colorimetry = GstVideoColorimetry()
    guard gst_video_colorimetry_from_string(&colorimetry, text) != 0, var changed = change(colorimetry, caps),
        let newText = gst_video_colorimetry_to_string(&changed)
    else { return GST_PAD_PROBE_OK }
    defer { g_free(newText) }
    guard let fixed = gst_caps_copy(caps), let fixedStructure = gst_caps_get_structure(fixed, 0) else {
        return GST_PAD_PROBE_OK
    }
    var value = GValue()
    g_value_init(&value, gType(G_TYPE_STRING))
    g_value_set_string(&value, newText)
    gst_structure_take_value(fixedStructure, "colorimetry", &value)
    let replacement = gst_event_new_caps(fixed)
    gst_caps_unref(fixed)
    guard let replacement else { return GST_PAD_PROBE_OK }
    replaceProbeEvent(info, with: replacement)
    return GST_PAD_PROBE_OK
}
