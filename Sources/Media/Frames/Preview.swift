// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CGStreamer
internal import CGstApp
internal import CGstVideo
import Foundation

// The pieces of `camstamp camera`'s preview that touch GStreamer: drawing on frames as they pass a
// named element, choosing a window sink, and reading the window's keys from the bus.

extension Element {
    /// The element's GObject, for wrapper modules that connect or emit its signals (Viewfinder
    /// hands sockets to multisocketsink). Valid while this `Element` is alive.
    public var unsafeObject: UnsafeMutableRawPointer { UnsafeMutableRawPointer(pointer) }

    /// Calls `draw` with each frame leaving this element (on its streaming thread), writable in
    /// place (copied first only if someone else still holds the buffer). The frame is valid only
    /// during the call. For drawing on a preview after it was scaled.
    public func onEachFrame(_ draw: @escaping @Sendable (VideoFrame) -> Void) throws(MediaError) {
        guard let pad = gst_element_get_static_pad(pointer, "src") else {
            throw .missingNamedElement(name: name, pipeline: "(the preview)")
        }
        defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
        let box = Unmanaged.passRetained(FrameDrawer(draw)).toOpaque()
        gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, frameDrawerProbe, box) {
            if let box = $0 { Unmanaged<FrameDrawer>.fromOpaque(box).release() }
        }
    }
}

private final class FrameDrawer: @unchecked Sendable {
    let draw: @Sendable (VideoFrame) -> Void
    /// Caps seen last and their video info, parsed once per change.
    var caps: UnsafeMutablePointer<GstCaps>?
    var info = GstVideoInfo()
    init(_ draw: @escaping @Sendable (VideoFrame) -> Void) { self.draw = draw }
    deinit { if let caps { gst_caps_unref(caps) } }
}

private let frameDrawerProbe: GstPadProbeCallback = { pad, info, context in
    guard let pad, let info, let context, let data = info.pointee.data else { return GST_PAD_PROBE_OK }
    let drawer = Unmanaged<FrameDrawer>.fromOpaque(context).takeUnretainedValue()
    guard let caps = gst_pad_get_current_caps(pad) else { return GST_PAD_PROBE_OK }
    if drawer.caps == nil || gst_caps_is_equal(drawer.caps, caps) == 0 {
        guard gst_video_info_from_caps(&drawer.info, caps) != 0 else {
            gst_caps_unref(caps)
            return GST_PAD_PROBE_OK
        }
        if let old = drawer.caps { gst_caps_unref(old) }
        drawer.caps = gst_caps_ref(caps)
    }
    // The buffer may still be shared with the frame Swift pushed (no scaling): the probe may swap
    // in a writable copy, which is what travels on.
    let buffer: UnsafeMutablePointer<GstBuffer> = gcast(
        gst_mini_object_make_writable(data.assumingMemoryBound(to: GstMiniObject.self)))
    info.pointee.data = UnsafeMutableRawPointer(buffer)
    drawer.draw(VideoFrame(borrowing: buffer, caps: caps, info: drawer.info))
    gst_caps_unref(caps)
    return GST_PAD_PROBE_OK
}

/// Video sinks for a native window.
public enum WindowSinks {
    /// The first of `names` that is installed and reaches READY on its own (it opens the display
    /// there), or an error naming why each was passed over. Never autovideosink: with no display
    /// it falls through to dfbvideosink, which segfaults.
    public static func firstUsable(_ names: [String]) throws(MediaError) -> String {
        try GStreamer.initialize()
        var reasons: [String] = []
        for name in names {
            guard let element = gst_element_factory_make(name, nil) else {
                reasons.append("\(name) is not installed")
                continue
            }
            gst_object_ref_sink(UnsafeMutableRawPointer(element))
            let result = gst_element_set_state(element, GST_STATE_READY)
            gst_element_set_state(element, GST_STATE_NULL)
            gst_object_unref(UnsafeMutableRawPointer(element))
            if result != GST_STATE_CHANGE_FAILURE { return name }
            reasons.append("\(name) cannot open the display")
        }
        throw .stateChange(
            element: "window", message: "no video sink can open a window", debug: reasons.joined(separator: "; "))
    }
}

/// The keys pressed in a preview window. The sinks post them as navigation messages on the bus;
/// they are taken off it as they are posted (a sync handler), since every bus wait elsewhere pops
/// only errors and would throw them away.
public final class WindowKeys: @unchecked Sendable {
    private let lock = NSLock()
    private var keys: [String] = []

    /// Starts collecting the keys posted on `pipeline`'s bus.
    public init(pipeline: Pipeline) {
        let bus = gst_element_get_bus(pipeline.element)!
        defer { gst_object_unref(UnsafeMutableRawPointer(bus)) }
        gst_bus_set_sync_handler(
            bus,
            { _, message, context in
                guard let message, let context, message.pointee.type == GST_MESSAGE_ELEMENT,
                    gst_navigation_message_get_type(message) == GST_NAVIGATION_MESSAGE_EVENT
                else { return GST_BUS_PASS }
                var event: UnsafeMutablePointer<GstEvent>?
                if gst_navigation_message_parse_event(message, &event) != 0, let event {
                    var key: UnsafePointer<gchar>?
                    if gst_navigation_event_get_type(event) == GST_NAVIGATION_EVENT_KEY_PRESS,
                        gst_navigation_event_parse_key_event(event, &key) != 0, let key
                    {
                        let keys = Unmanaged<WindowKeys>.fromOpaque(context).takeUnretainedValue()
                        let name = String(cString: key)
                        keys.lock.withLock { keys.keys.append(name) }
                    }
                    gst_event_unref(event)
                }
                return GST_BUS_DROP
            }, Unmanaged.passRetained(self).toOpaque()
        ) { context in
            if let context { Unmanaged<WindowKeys>.fromOpaque(context).release() }
        }
    }

    /// The keys pressed since the last call, by X keysym name (`space`, `g`, `Escape`).
    public func take() -> [String] {
        lock.withLock {
            defer { keys.removeAll() }
            return keys
        }
    }
}

extension MediaError {
    /// The sinks report a window closed by its user as RESOURCE/NOT_FOUND "Output window was closed".
    public var isWindowClosed: Bool {
        resourceProblem == .notFound && description.lowercased().contains("window was closed")
    }
}

extension VideoFrame {
    /// A new frame holding the `width`×`height` rectangle at (`x`, `y`) of this one, mirrored
    /// left to right when `mirrored`. Planar and semi-planar YUV and packed RGB only (capture
    /// delivers I420); offsets are rounded down to even so chroma rows and columns line up.
    public func cropped(x: Int, y: Int, width: Int, height: Int, mirrored: Bool) throws(MediaError) -> VideoFrame {
        guard format != nil, format != .yuy2 else {
            throw .invalidTemplate("cannot crop or mirror \(self.format?.rawValue ?? "this") frames")
        }
        let x = x & ~1, y = y & ~1
        guard x >= 0, y >= 0, width > 0, height > 0, x + width <= self.width, y + height <= self.height else {
            throw .invalidTemplate(
                "crop \(width)x\(height)+\(x)+\(y) is outside the \(self.width)x\(self.height) frame")
        }
        let target = try emptyCopy(width: width, height: height)
        try copyPlanes(into: target) { plane in
            let columns = (width + (1 << plane.wSub) - 1) >> plane.wSub
            let rows = (height + (1 << plane.hSub) - 1) >> plane.hSub
            let left = x >> plane.wSub, top = y >> plane.hSub, unit = plane.unit
            for row in 0..<rows {
                let source = plane.from.advanced(by: (top + row) * plane.fromStride + left * unit)
                let destination = plane.to.advanced(by: row * plane.toStride)
                if !mirrored {
                    destination.copyMemory(from: source, byteCount: columns * unit)
                } else if unit == 1 {
                    let from = source.assumingMemoryBound(to: UInt8.self),
                        to = destination.assumingMemoryBound(to: UInt8.self)
                    for column in 0..<columns { to[column] = from[columns - 1 - column] }
                } else {
                    for column in 0..<columns {
                        destination.advanced(by: column * unit).copyMemory(
                            from: source.advanced(by: (columns - 1 - column) * unit), byteCount: unit)
                    }
                }
            }
        }
        return target
    }

    /// A new frame holding this one turned clockwise by `quarterTurns` × 90° (a camera mounted on
    /// its side). Formats whose chroma is subsampled alike both ways (I420, NV12, packed RGB): a
    /// quarter turn of 4:2:2 would need a new subsampling.
    public func rotated(quarterTurns: Int) throws(MediaError) -> VideoFrame {
        let turns = ((quarterTurns % 4) + 4) % 4
        guard format != nil, format != .yuy2 else {
            throw .invalidTemplate("cannot rotate \(self.format?.rawValue ?? "this") frames")
        }
        let target =
            try turns % 2 == 1 ? emptyCopy(width: height, height: width) : emptyCopy(width: width, height: height)
        try copyPlanes(into: target) { plane in
            // The source plane's size in pixels of this plane.
            let columns = (width + (1 << plane.wSub) - 1) >> plane.wSub
            let rows = (height + (1 << plane.hSub) - 1) >> plane.hSub
            // Where (column, row) lands after the turn, clockwise: x = x0 + column·dx + row·rx,
            // y = y0 + column·dy + row·ry.
            let (x0, dx, rx, y0, dy, ry) =
                switch turns {
                case 1: (rows - 1, 0, -1, 0, 1, 0)
                case 2: (columns - 1, -1, 0, rows - 1, 0, -1)
                case 3: (0, 0, 1, columns - 1, -1, 0)
                default: (0, 1, 0, 0, 0, 1)
                }
            let step = dy * plane.toStride + dx * plane.unit
            let start = { (row: Int) in (y0 + row * ry) * plane.toStride + (x0 + row * rx) * plane.unit }
            if plane.unit == 1 {
                Self.turnBytes(plane, rows: rows, columns: columns, start: start, step: step)
                return
            }
            for row in 0..<rows {
                let sourceRow = plane.from.advanced(by: row * plane.fromStride)
                var target = start(row)
                for column in 0..<columns {
                    plane.to.advanced(by: target)
                        .copyMemory(from: sourceRow.advanced(by: column * plane.unit), byteCount: plane.unit)
                    target += step
                }
            }
        }
        return target
    }

    /// A plane of bytes turned, in 32×32 tiles: a quarter turn writes each source row down a
    /// column, and a whole 1080p column at a time misses the cache on every byte.
    private static func turnBytes(
        _ plane: PlanePair, rows: Int, columns: Int, start: (Int) -> Int, step: Int
    ) {
        let from = plane.from.assumingMemoryBound(to: UInt8.self)
        let to = plane.to.assumingMemoryBound(to: UInt8.self)
        let tile = 32
        for rowStart in stride(from: 0, to: rows, by: tile) {
            for columnStart in stride(from: 0, to: columns, by: tile) {
                let columnEnd = min(columnStart + tile, columns)
                for row in rowStart..<min(rowStart + tile, rows) {
                    let source = row * plane.fromStride
                    var target = start(row) + columnStart * step
                    for column in columnStart..<columnEnd {
                        to[target] = from[source + column]
                        target += step
                    }
                }
            }
        }
    }

    /// Mirrors the frame left to right in place (a selfie view).
    public func mirror() throws(MediaError) {
        let mirrored = try cropped(x: 0, y: 0, width: width, height: height, mirrored: true)
        let rows = height
        try mirrored.copyPlanes(into: self) { plane in
            for row in 0..<((rows + (1 << plane.hSub) - 1) >> plane.hSub) {
                plane.to.advanced(by: row * plane.toStride)
                    .copyMemory(
                        from: plane.from.advanced(by: row * plane.fromStride),
                        byteCount: min(plane.fromStride, plane.toStride))
            }
        }
    }

    /// A new frame of this one's format and colours (a camera's limited-range BT.709 must not turn
    /// into the new size's default), `width`×`height`, stamped with this one's time.
    private func emptyCopy(width: Int, height: Int) throws(MediaError) -> VideoFrame {
        var colorimetry = info.colorimetry
        let target = try VideoFrame(
            width: width, height: height, format: format!,
            colorimetry: takeGString(gst_video_colorimetry_to_string(&colorimetry)),
            rate: info.fps_n > 0 ? (info.fps_n, info.fps_d) : nil)
        target.setTimestamps(pts: presentationTime, duration: nil)
        return target
    }

    /// One plane of this frame and the same plane of another, mapped, as the copy loops need it.
    private struct PlanePair {
        /// The plane's subsampling (log2), from the first component stored in it.
        let wSub: Int, hSub: Int
        /// Bytes of one of the plane's pixels, which move together (NV12's chroma pair, BGRx's four).
        let unit: Int
        let fromStride: Int, toStride: Int
        let from: UnsafeMutableRawPointer, to: UnsafeMutableRawPointer
    }

    /// Maps this frame and `target` and calls `body` for each plane, strides from each frame's info.
    private func copyPlanes(into target: VideoFrame, _ body: (PlanePair) -> Void) throws(MediaError) {
        try withVideoFrame { from throws(MediaError) in
            try target.withVideoFrame { to in
                let finfo = from.pointee.info.finfo.pointee
                let planes = withUnsafeBytes(of: finfo.plane) { Array($0.bindMemory(to: guint.self)) }
                for plane in 0..<Int(finfo.n_planes) {
                    let component = planes.prefix(Int(finfo.n_components)).firstIndex(of: guint(plane)) ?? 0
                    body(
                        PlanePair(
                            wSub: Int(withUnsafeBytes(of: finfo.w_sub) { $0.bindMemory(to: guint.self)[component] }),
                            hSub: Int(withUnsafeBytes(of: finfo.h_sub) { $0.bindMemory(to: guint.self)[component] }),
                            unit: Int(
                                withUnsafeBytes(of: finfo.pixel_stride) { $0.bindMemory(to: gint.self)[component] }),
                            fromStride: Int(
                                withUnsafeBytes(of: from.pointee.info.stride) { $0.bindMemory(to: gint.self)[plane] }),
                            toStride: Int(
                                withUnsafeBytes(of: to.pointee.info.stride) { $0.bindMemory(to: gint.self)[plane] }),
                            from: withUnsafeBytes(of: from.pointee.data) {
                                $0.bindMemory(to: UnsafeMutableRawPointer?.self)[plane]
                            }!,
                            to: withUnsafeBytes(of: to.pointee.data) {
                                $0.bindMemory(to: UnsafeMutableRawPointer?.self)[plane]
                            }!))
                }
            }
        }
    }
}
