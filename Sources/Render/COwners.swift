// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// Cairo, PangoCairo and librsvg all include cairo.h; a C declaration they share is visible through
// whichever module the compiler credits with it, so every file that touches them imports all three.
internal import CCairo
internal import CPangoCairo
internal import CRsvg
import Foundation

// One owning Swift class per refcounted C object: `init(adopting:)` takes over a reference the
// caller already owns (transfer full) and `deinit` drops it, so every Cairo surface and Pango
// object is freed deterministically when its owner goes out of scope. None of these is public.

/// Owns a `cairo_surface_t` (`cairo_surface_destroy` on deinit).
final class CairoSurface {
    let pointer: OpaquePointer

    init(adopting pointer: OpaquePointer) { self.pointer = pointer }

    /// A new image surface (`cairo_image_surface_create`), cleared to transparent.
    convenience init(format: cairo_format_t, width: Int, height: Int) throws(RenderError) {
        guard width > 0, height > 0, width <= Self.maxSide, height <= Self.maxSide, width * height <= Self.maxPixels
        else {
            throw .tooLarge(width: width, height: height)
        }
        self.init(adopting: cairo_image_surface_create(format, Int32(width), Int32(height)))
        guard status == CAIRO_STATUS_SUCCESS else { throw .tooLarge(width: width, height: height) }
    }

    deinit { cairo_surface_destroy(pointer) }

    /// Cairo's image surfaces are limited to 32767 pixels a side.
    static let maxSide = 32767
    /// At most 64 megapixels (256 MB of ARGB) per surface: a mark is drawn on a few of them at
    /// once, and a bigger one is a preset mistake that would otherwise cost gigabytes.
    static let maxPixels = 8192 * 8192

    /// Whole-pixel surface size for `width`×`height` (rounded up), or `tooLarge` when it is not
    /// finite or over the limits: every Double→Int of a surface size goes through here.
    static func size(width: Double, height: Double) throws(RenderError) -> (width: Int, height: Int) {
        guard width.isFinite, height.isFinite, width <= Double(maxSide), height <= Double(maxSide),
            width * height <= Double(maxPixels)
        else {
            func shown(_ value: Double) -> Int { value.isFinite ? Int(min(max(value, 0), 1e15)) : Int(1e15) }
            throw .tooLarge(width: shown(width), height: shown(height))
        }
        return (Int(width.rounded(.up)), Int(height.rounded(.up)))
    }

    var status: cairo_status_t { cairo_surface_status(pointer) }
    var width: Int { Int(cairo_image_surface_get_width(pointer)) }
    var height: Int { Int(cairo_image_surface_get_height(pointer)) }
    var stride: Int { Int(cairo_image_surface_get_stride(pointer)) }

    /// Direct access to the pixel rows (`cairo_image_surface_get_data`), bracketed by
    /// `cairo_surface_flush` before and `cairo_surface_mark_dirty` after, as Cairo requires.
    func withMutableBytes<T>(_ body: (UnsafeMutablePointer<UInt8>, _ stride: Int) throws -> T) rethrows -> T {
        cairo_surface_flush(pointer)
        defer { cairo_surface_mark_dirty(pointer) }
        return try body(cairo_image_surface_get_data(pointer), stride)
    }

    /// Copies an ARGB32 surface out into a pure-Swift `Bitmap`.
    func bitmap() -> Bitmap {
        cairo_surface_flush(pointer)
        let (w, h, s) = (width, height, stride)
        let data = cairo_image_surface_get_data(pointer)!
        let pixels = [UInt8](UnsafeBufferPointer(start: data, count: s * h))
        return Bitmap(width: w, height: h, stride: s, pixels: pixels)
    }
}

/// Owns a `cairo_t` (`cairo_destroy` on deinit); keeps its target surface alive.
final class CairoContext {
    let pointer: OpaquePointer
    let target: CairoSurface

    init(_ target: CairoSurface) {
        self.target = target
        pointer = cairo_create(target.pointer)
    }

    deinit { cairo_destroy(pointer) }
}

/// Owns a `cairo_font_options_t` (`cairo_font_options_destroy` on deinit).
final class CairoFontOptions {
    let pointer: OpaquePointer
    init() { pointer = cairo_font_options_create() }
    deinit { cairo_font_options_destroy(pointer) }
}

/// Owns one GObject reference (`g_object_unref` on deinit): Pango font maps, contexts, layouts
/// and librsvg handles are all GObjects.
final class GObjectRef<Pointee> {
    let pointer: Pointee

    /// `pointer` must be a GObject* the caller owns a reference to.
    init(adopting pointer: Pointee) { self.pointer = pointer }

    deinit { g_object_unref(unsafeBitCast(pointer, to: gpointer.self)) }
}

/// Owns a `PangoFontDescription` (`pango_font_description_free` on deinit).
final class FontDescription {
    let pointer: OpaquePointer
    init(adopting pointer: OpaquePointer) { self.pointer = pointer }
    convenience init() { self.init(adopting: pango_font_description_new()) }
    deinit { pango_font_description_free(pointer) }
}

/// Owns a `PangoAttrList` reference (`pango_attr_list_unref` on deinit).
final class AttributeList {
    let pointer: OpaquePointer
    init(adopting pointer: OpaquePointer) { self.pointer = pointer }
    deinit { pango_attr_list_unref(pointer) }
}

/// Takes a `GError` the callee set: returns its message on one line (librsvg ends its XML errors
/// with a newline) and frees it (`g_error_free`).
func consume(_ error: UnsafeMutablePointer<GError>?) -> String {
    guard let error else { return "unknown error" }
    defer { g_error_free(error) }
    guard let message = error.pointee.message else { return "unknown error" }
    return String(cString: message).split(whereSeparator: \.isNewline)
        .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " ")
}
