import CGStreamer
import CGstApp
import CGstVideo
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
    let buffer: UnsafeMutablePointer<GstBuffer> = gcast(gst_mini_object_make_writable(data.assumingMemoryBound(to: GstMiniObject.self)))
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
        throw .stateChange(element: "window", message: "no video sink can open a window", debug: reasons.joined(separator: "; "))
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
        gst_bus_set_sync_handler(bus, { _, message, context in
            guard let message, let context, message.pointee.type == GST_MESSAGE_ELEMENT,
                  gst_navigation_message_get_type(message) == GST_NAVIGATION_MESSAGE_EVENT else { return GST_BUS_PASS }
            var event: UnsafeMutablePointer<GstEvent>?
            if gst_navigation_message_parse_event(message, &event) != 0, let event {
                var key: UnsafePointer<gchar>?
                if gst_navigation_event_get_type(event) == GST_NAVIGATION_EVENT_KEY_PRESS,
                   gst_navigation_event_parse_key_event(event, &key) != 0, let key {
                    let keys = Unmanaged<WindowKeys>.fromOpaque(context).takeUnretainedValue()
                    let name = String(cString: key)
                    keys.lock.withLock { keys.keys.append(name) }
                }
                gst_event_unref(event)
            }
            return GST_BUS_DROP
        }, Unmanaged.passRetained(self).toOpaque()) { context in
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
        guard let format, format != .yuy2 else {
            throw .invalidTemplate("cannot crop or mirror \(self.format?.rawValue ?? "this") frames")
        }
        let x = x & ~1, y = y & ~1
        guard x >= 0, y >= 0, width > 0, height > 0, x + width <= self.width, y + height <= self.height else {
            throw .invalidTemplate("crop \(width)x\(height)+\(x)+\(y) is outside the \(self.width)x\(self.height) frame")
        }
        // The same colours: a camera's limited-range BT.709 must not turn into the size's default.
        var colorimetry = info.colorimetry
        let target = try VideoFrame(width: width, height: height, format: format,
                                    colorimetry: takeGString(gst_video_colorimetry_to_string(&colorimetry)))
        target.setTimestamps(pts: presentationTime, duration: nil)
        let source = self
        _ = source.withVideoFrame { from in
            target.withVideoFrame { to in
                let finfo = from.pointee.info.finfo.pointee
                for plane in 0..<Int(finfo.n_planes) {
                    // The first component stored in this plane gives its subsampling and pixel size.
                    let planes = withUnsafeBytes(of: finfo.plane) { Array($0.bindMemory(to: guint.self)) }
                    let component = planes.prefix(Int(finfo.n_components)).firstIndex(of: guint(plane)) ?? 0
                    let wSub = Int(withUnsafeBytes(of: finfo.w_sub) { $0.bindMemory(to: guint.self)[component] })
                    let hSub = Int(withUnsafeBytes(of: finfo.h_sub) { $0.bindMemory(to: guint.self)[component] })
                    let pixelStride = Int(withUnsafeBytes(of: finfo.pixel_stride) { $0.bindMemory(to: gint.self)[component] })
                    // A pixel's bytes move together (NV12's chroma pair, BGRx's four bytes).
                    let unit = pixelStride
                    let fromStride = Int(withUnsafeBytes(of: from.pointee.info.stride) { $0.bindMemory(to: gint.self)[plane] })
                    let toStride = Int(withUnsafeBytes(of: to.pointee.info.stride) { $0.bindMemory(to: gint.self)[plane] })
                    let fromData = withUnsafeBytes(of: from.pointee.data) { $0.bindMemory(to: UnsafeMutableRawPointer?.self)[plane] }!
                    let toData = withUnsafeBytes(of: to.pointee.data) { $0.bindMemory(to: UnsafeMutableRawPointer?.self)[plane] }!
                    let columns = (width + (1 << wSub) - 1) >> wSub
                    let rows = (height + (1 << hSub) - 1) >> hSub
                    let left = x >> wSub, top = y >> hSub
                    for row in 0..<rows {
                        let source = fromData.advanced(by: (top + row) * fromStride + left * unit)
                        let destination = toData.advanced(by: row * toStride)
                        if !mirrored {
                            destination.copyMemory(from: source, byteCount: columns * unit)
                        } else if unit == 1 {
                            let from = source.assumingMemoryBound(to: UInt8.self), to = destination.assumingMemoryBound(to: UInt8.self)
                            for column in 0..<columns { to[column] = from[columns - 1 - column] }
                        } else {
                            for column in 0..<columns {
                                destination.advanced(by: column * unit).copyMemory(from: source.advanced(by: (columns - 1 - column) * unit), byteCount: unit)
                            }
                        }
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
        guard let format, format != .yuy2 else {
            throw .invalidTemplate("cannot rotate \(self.format?.rawValue ?? "this") frames")
        }
        let (width, height) = turns % 2 == 1 ? (self.height, self.width) : (self.width, self.height)
        var colorimetry = info.colorimetry
        let target = try VideoFrame(width: width, height: height, format: format,
                                    colorimetry: takeGString(gst_video_colorimetry_to_string(&colorimetry)))
        target.setTimestamps(pts: presentationTime, duration: nil)
        let source = self
        _ = source.withVideoFrame { from in
            target.withVideoFrame { to in
                let finfo = from.pointee.info.finfo.pointee
                for plane in 0..<Int(finfo.n_planes) {
                    let planes = withUnsafeBytes(of: finfo.plane) { Array($0.bindMemory(to: guint.self)) }
                    let component = planes.prefix(Int(finfo.n_components)).firstIndex(of: guint(plane)) ?? 0
                    let wSub = Int(withUnsafeBytes(of: finfo.w_sub) { $0.bindMemory(to: guint.self)[component] })
                    let hSub = Int(withUnsafeBytes(of: finfo.h_sub) { $0.bindMemory(to: guint.self)[component] })
                    // A pixel's bytes move together (NV12's chroma pair, BGRx's four bytes).
                    let unit = Int(withUnsafeBytes(of: finfo.pixel_stride) { $0.bindMemory(to: gint.self)[component] })
                    let fromStride = Int(withUnsafeBytes(of: from.pointee.info.stride) { $0.bindMemory(to: gint.self)[plane] })
                    let toStride = Int(withUnsafeBytes(of: to.pointee.info.stride) { $0.bindMemory(to: gint.self)[plane] })
                    let fromData = withUnsafeBytes(of: from.pointee.data) { $0.bindMemory(to: UnsafeMutableRawPointer?.self)[plane] }!
                    let toData = withUnsafeBytes(of: to.pointee.data) { $0.bindMemory(to: UnsafeMutableRawPointer?.self)[plane] }!
                    // The source plane's size in pixels of this plane.
                    let columns = (self.width + (1 << wSub) - 1) >> wSub
                    let rows = (self.height + (1 << hSub) - 1) >> hSub
                    for row in 0..<rows {
                        let sourceRow = fromData.advanced(by: row * fromStride)
                        for column in 0..<columns {
                            // Where (column, row) lands after the turn, clockwise.
                            let (x, y) = switch turns {
                            case 1: (rows - 1 - row, column)
                            case 2: (columns - 1 - column, rows - 1 - row)
                            case 3: (row, columns - 1 - column)
                            default: (column, row)
                            }
                            toData.advanced(by: y * toStride + x * unit).copyMemory(from: sourceRow.advanced(by: column * unit), byteCount: unit)
                        }
                    }
                }
            }
        }
        return target
    }

    /// Mirrors the frame left to right in place (a selfie view).
    public func mirror() throws(MediaError) {
        let mirrored = try cropped(x: 0, y: 0, width: width, height: height, mirrored: true)
        _ = withVideoFrame { to in
            mirrored.withVideoFrame { from in
                for plane in 0..<Int(from.pointee.info.finfo.pointee.n_planes) {
                    let fromStride = Int(withUnsafeBytes(of: from.pointee.info.stride) { $0.bindMemory(to: gint.self)[plane] })
                    let toStride = Int(withUnsafeBytes(of: to.pointee.info.stride) { $0.bindMemory(to: gint.self)[plane] })
                    let fromData = withUnsafeBytes(of: from.pointee.data) { $0.bindMemory(to: UnsafeMutableRawPointer?.self)[plane] }!
                    let toData = withUnsafeBytes(of: to.pointee.data) { $0.bindMemory(to: UnsafeMutableRawPointer?.self)[plane] }!
                    for row in 0..<planeRows(plane: plane, info: from.pointee.info) {
                        toData.advanced(by: row * toStride).copyMemory(from: fromData.advanced(by: row * fromStride), byteCount: min(fromStride, toStride))
                    }
                }
            }
        }
    }
}

/// Rows of `plane` for a frame described by `info`.
private func planeRows(plane: Int, info: GstVideoInfo) -> Int {
    let finfo = info.finfo.pointee
    let planes = withUnsafeBytes(of: finfo.plane) { Array($0.bindMemory(to: guint.self)) }
    let component = planes.prefix(Int(finfo.n_components)).firstIndex(of: guint(plane)) ?? 0
    let hSub = Int(withUnsafeBytes(of: finfo.h_sub) { $0.bindMemory(to: guint.self)[component] })
    return (Int(info.height) + (1 << hSub) - 1) >> hSub
}
