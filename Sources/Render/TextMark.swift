// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CCairo
internal import CPangoCairo
internal import CRsvg
import Presets

/// Where the parts of a text mark lie, in layout coordinates (the layout's top-left at 0,0).
struct TextGeometry {
    /// Pango's ink rectangle: the glyphs as drawn (empty for blank text).
    var ink: Rect
    /// Pango's logical rectangle: the text block as laid out (line height, advance widths).
    var logical: Rect
    /// The visible outline reaches this far outside the glyphs.
    var outline: Double
    /// The box behind the text: the logical rectangle plus padding, on whole pixels.
    var box: Rect?
    /// The blurred shadow's extent, when the mark has a shadow and visible glyphs.
    var shadow: Rect?
    /// Everything above, on whole pixels: the bitmap's rectangle; nil when no glyph is visible.
    var bounds: Rect?

    init(ink: Rect, logical: Rect, mark: ResolvedMark) {
        self.ink = ink
        self.logical = logical
        outline = mark.outline.map { max($0.width, 0) } ?? 0
        var parts: [Rect] = []
        if !ink.isEmpty {
            let glyphs = ink.outset(by: outline)
            parts.append(glyphs)
            if let drop = mark.shadow {
                let spread = Double(3 * boxBlurRadius(forBlur: drop.blur))
                shadow = glyphs.offsetBy(dx: drop.dx, dy: drop.dy).outset(by: spread)
                parts.append(shadow!)
            }
        }
        if let backdrop = mark.box {
            box = logical.outset(by: max(backdrop.padding, 0)).integral
            parts.append(box!)
        }
        // No visible glyphs, no mark: a box around blank text (a template variable that came out
        // empty) would only be a stray sliver.
        guard !ink.isEmpty else { return }
        bounds = parts.dropFirst().reduce(parts.first) { $0?.union($1) }?.integral
    }
}

extension MarkRenderer {
    /// Measures `text` as `mark` would lay it out (internal: the tests check pixels against it).
    func measure(_ text: String, markup: Bool, style mark: ResolvedMark) throws(RenderError) -> TextGeometry {
        let layout = try layout(text, markup: markup, style: mark)
        return geometry(of: layout, mark: mark)
    }

    private func geometry(of layout: GObjectRef<OpaquePointer>, mark: ResolvedMark) -> TextGeometry {
        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_pixel_extents(layout.pointer, &ink, &logical)
        func rect(_ r: PangoRectangle) -> Rect {
            Rect(x: Double(r.x), y: Double(r.y), width: Double(r.width), height: Double(r.height))
        }
        return TextGeometry(ink: rect(ink), logical: rect(logical), mark: mark)
    }

    /// Draws a text mark, bottom to top: box, shadow, outline, fill. Nil for blank text.
    func renderText(_ text: String, markup: Bool, style mark: ResolvedMark) throws(RenderError) -> CairoSurface? {
        try checkTextBudget(text, fontSize: mark.fontSize)
        let layout = try layout(text, markup: markup, style: mark)
        let geometry = geometry(of: layout, mark: mark)
        guard let bounds = geometry.bounds else { return nil }
        let size = try CairoSurface.size(width: bounds.width, height: bounds.height)
        let surface = try CairoSurface(format: CAIRO_FORMAT_ARGB32, width: size.width, height: size.height)
        let cr = CairoContext(surface)
        // Whole-pixel translation: glyphs land exactly where Pango measured them.
        cairo_translate(cr.pointer, -bounds.minX, -bounds.minY)

        if let backdrop = mark.box, let box = geometry.box {
            roundedRectangle(cr, box, radius: backdrop.radius)
            setSource(cr, backdrop.color)
            cairo_fill(cr.pointer)
        }

        // The glyphs' full coverage, outline included, whatever the text colour's alpha: the shape
        // of both the outline and the shadow. Stroking is the slow part (Cairo's stroker on glyph
        // curves), so it is done once, here, on an 8-bit mask.
        let outlined = mark.outline != nil && geometry.outline > 0
        var coverage: CairoSurface?
        if outlined || geometry.shadow != nil {
            let mask = try CairoSurface(format: CAIRO_FORMAT_A8, width: surface.width, height: surface.height)
            let maskContext = CairoContext(mask)
            cairo_translate(maskContext.pointer, -bounds.minX, -bounds.minY)
            cairo_move_to(maskContext.pointer, 0, 0)
            pango_cairo_layout_path(maskContext.pointer, layout.pointer)
            if outlined {
                // The line is centred on the glyph edge: twice the width shows `width` outside.
                cairo_set_line_width(maskContext.pointer, 2 * geometry.outline)
                cairo_set_line_join(maskContext.pointer, CAIRO_LINE_JOIN_ROUND)
                cairo_set_line_cap(maskContext.pointer, CAIRO_LINE_CAP_ROUND)
                cairo_stroke_preserve(maskContext.pointer)
            }
            cairo_fill(maskContext.pointer)
            coverage = mask
        }

        if let drop = mark.shadow, geometry.shadow != nil, let coverage {
            // The coverage moved by the shadow offset, then blurred.
            let mask = try CairoSurface(format: CAIRO_FORMAT_A8, width: surface.width, height: surface.height)
            let maskContext = CairoContext(mask)
            cairo_set_source_surface(maskContext.pointer, coverage.pointer, drop.dx, drop.dy)
            cairo_paint(maskContext.pointer)
            let radius = boxBlurRadius(forBlur: drop.blur)
            mask.withMutableBytes { bytes, stride in
                boxBlur(bytes, width: mask.width, height: mask.height, stride: stride, radius: radius)
            }
            setSource(cr, drop.color)
            cairo_mask_surface(cr.pointer, mask.pointer, bounds.minX, bounds.minY)
        }

        // Outline and fill go into one group: the fill replaces (SOURCE) the outline colour under
        // the glyphs instead of blending over it, so a translucent fill does not show a dark inner
        // edge, while the group as a whole still blends OVER the box and shadow.
        cairo_push_group(cr.pointer)
        if let stroke = mark.outline, outlined, let coverage {
            setSource(cr, stroke.color)
            cairo_mask_surface(cr.pointer, coverage.pointer, bounds.minX, bounds.minY)
            cairo_set_operator(cr.pointer, CAIRO_OPERATOR_SOURCE)
        }
        setSource(cr, mark.color)
        cairo_move_to(cr.pointer, 0, 0)
        pango_cairo_show_layout(cr.pointer, layout.pointer)
        cairo_pop_group_to_source(cr.pointer)
        cairo_set_operator(cr.pointer, CAIRO_OPERATOR_OVER)
        cairo_paint(cr.pointer)
        return surface
    }

    /// Refuses text that could not be drawn before Pango lays it out: more characters than a mark
    /// may have (a 60 KB EXIF value cost 1 GB), or so many at this size that even narrow glyphs
    /// (half an em by one em each) would cover more than a surface may. Pango measures in 32-bit
    /// 1/1024 px units; past about 2 million pixels its extents wrap round and the mark came out
    /// blank, reported as marked. Under this budget no line reaches a million pixels.
    func checkTextBudget(_ text: String, fontSize: Double) throws(RenderError) {
        let characters = text.count
        guard characters <= Mark.maxTextCharacters else { throw .textTooLong(characters: characters) }
        guard Double(characters) * fontSize * fontSize / 2 <= Double(CairoSurface.maxPixels) else {
            throw .textTooLarge(characters: characters, fontSize: fontSize)
        }
    }

    private func setSource(_ cr: CairoContext, _ color: Color) {
        cairo_set_source_rgba(cr.pointer, color.red, color.green, color.blue, color.alpha)
    }

    private func roundedRectangle(_ cr: CairoContext, _ rect: Rect, radius: Double) {
        let r = min(max(radius, 0), rect.width / 2, rect.height / 2)
        guard r > 0 else {
            cairo_rectangle(cr.pointer, rect.minX, rect.minY, rect.width, rect.height)
            return
        }
        cairo_new_sub_path(cr.pointer)
        cairo_arc(cr.pointer, rect.maxX - r, rect.minY + r, r, -.pi / 2, 0)
        cairo_arc(cr.pointer, rect.maxX - r, rect.maxY - r, r, 0, .pi / 2)
        cairo_arc(cr.pointer, rect.minX + r, rect.maxY - r, r, .pi / 2, .pi)
        cairo_arc(cr.pointer, rect.minX + r, rect.minY + r, r, .pi, 3 * .pi / 2)
        cairo_close_path(cr.pointer)
    }
}
