// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CCairo
internal import CPangoCairo
internal import CRsvg
import Foundation
import Presets

/// Renders resolved marks into premultiplied ARGB overlays with Cairo, Pango and librsvg.
///
/// Not thread-safe: make one per thread. Each renderer has its own Pango font map
/// (`pango_cairo_font_map_new`), so jobs on separate threads render in parallel without sharing
/// Pango state. Register the bundled fonts (`Fonts.registerBundled`) before the first render.
public final class MarkRenderer {
    // Pango's font map caches fontconfig's font set; rebuilt when `Fonts.generation` moves on.
    private var fontMap: GObjectRef<UnsafeMutablePointer<PangoFontMap>>
    private var context: GObjectRef<OpaquePointer>
    private var fontGeneration: Int
    let images = ImageCache()

    public init() {
        fontGeneration = Fonts.generation
        (fontMap, context) = Self.makeFontMap()
    }

    /// Renders `mark` for a `frameWidth`×`frameHeight` frame: the bitmap at its final pixel size
    /// (rotated, with opacity applied) and its integer origin(s) in the frame.
    public func render(_ mark: ResolvedMark, frameWidth: Int, frameHeight: Int) throws(RenderError) -> RenderedMark {
        let drawn: CairoSurface? =
            switch mark.content {
            case .text(let text, let markup): try renderText(text, markup: markup, style: mark)
            case .image(let url): try renderImage(url, width: mark.imageWidth, height: mark.imageHeight)
            case .qr(let text):
                try renderQR(
                    text, side: mark.imageWidth ?? mark.imageHeight, frameWidth: frameWidth, frameHeight: frameHeight)
            }
        guard var surface = drawn else { return RenderedMark(bitmap: .empty, origins: []) }
        surface = try rotated(surface, degrees: mark.rotate)
        var bitmap = surface.bitmap()
        applyOpacity(mark.opacity, to: &bitmap)
        return RenderedMark(
            bitmap: bitmap,
            origins: try origins(
                of: mark, bitmap: bitmap,
                frameWidth: frameWidth, frameHeight: frameHeight))
    }

    /// How many characters of `text` no font has a glyph for (`pango_layout_get_unknown_glyphs_count`)
    /// in `family` or its fallbacks; nil family means the bundled default.
    public func unknownGlyphCount(_ text: String, family: String?) -> Int {
        refreshFontMapIfNeeded()
        let layout = makeLayout(
            family: fontFamilyList(family ?? Fonts.defaultFamily), weight: 400, size: 32,
            maxWidth: nil, align: .left)
        pango_layout_set_text(layout.pointer, text, -1)
        return Int(pango_layout_get_unknown_glyphs_count(layout.pointer))
    }

    /// The family Pango actually picks for `family` (nil: the bundled default), e.g. "Noto Sans";
    /// nil when no font loads at all.
    public func resolvedFamily(_ family: String?) -> String? {
        refreshFontMapIfNeeded()
        let description = FontDescription()
        pango_font_description_set_family(description.pointer, family ?? Fonts.defaultFamily)
        pango_font_description_set_absolute_size(description.pointer, 32 * Double(PANGO_SCALE))
        guard let pointer = pango_font_map_load_font(fontMap.pointer, context.pointer, description.pointer) else {
            return nil
        }
        let font = GObjectRef(adopting: pointer)
        let loaded = FontDescription(adopting: pango_font_describe(font.pointer))
        return pango_font_description_get_family(loaded.pointer).map { String(cString: $0) }
    }

    // MARK: - Pango set-up

    private static func makeFontMap() -> (GObjectRef<UnsafeMutablePointer<PangoFontMap>>, GObjectRef<OpaquePointer>) {
        let fontMap = GObjectRef(adopting: pango_cairo_font_map_new()!)
        let context = GObjectRef(adopting: pango_font_map_create_context(fontMap.pointer)!)
        // Unhinted outlines and unrounded positions: the stroked outline and shadow come from
        // `pango_cairo_layout_path`, which is never hinted, so the fill must not be either or the
        // outline would sit off-centre around it. Gray antialiasing: overlays are blended onto
        // video, where subpixel (LCD) colour fringes would show.
        let options = CairoFontOptions()
        cairo_font_options_set_antialias(options.pointer, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_style(options.pointer, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options.pointer, CAIRO_HINT_METRICS_OFF)
        pango_cairo_context_set_font_options(context.pointer, options.pointer)
        pango_context_set_round_glyph_positions(context.pointer, 0)
        return (fontMap, context)
    }

    /// Builds a new font map when fonts were registered since this one was made: a Pango font map
    /// never sees fonts added to fontconfig after it first listed them.
    private func refreshFontMapIfNeeded() {
        let generation = Fonts.generation
        guard generation != fontGeneration else { return }
        fontGeneration = generation
        (fontMap, context) = Self.makeFontMap()
    }

    /// `family`, then the bundled default, so a family the system lacks falls back to Noto Sans
    /// rather than to whatever fontconfig's default happens to be.
    private func fontFamilyList(_ family: String) -> String {
        family == Fonts.defaultFamily ? family : "\(family),\(Fonts.defaultFamily)"
    }

    func makeLayout(
        family: String, weight: Int, size: Double, maxWidth: Double?,
        align: TextAlign
    ) -> GObjectRef<OpaquePointer> {
        let layout = GObjectRef(adopting: pango_layout_new(context.pointer)!)
        let description = FontDescription()
        pango_font_description_set_family(description.pointer, family)
        // CSS weights (100...900) are Pango's weight values.
        pango_font_description_set_weight(description.pointer, PangoWeight(UInt32(min(max(weight, 100), 1000))))
        pango_font_description_set_absolute_size(description.pointer, max(size, 0.1) * Double(PANGO_SCALE))
        pango_layout_set_font_description(layout.pointer, description.pointer)
        if let maxWidth, maxWidth >= 1 {
            pango_layout_set_width(layout.pointer, Int32(min(maxWidth, 1e6) * Double(PANGO_SCALE)))
            pango_layout_set_wrap(layout.pointer, PANGO_WRAP_WORD_CHAR)
        }
        let alignment =
            switch align {
            case .left: PANGO_ALIGN_LEFT
            case .center: PANGO_ALIGN_CENTER
            case .right: PANGO_ALIGN_RIGHT
            }
        pango_layout_set_alignment(layout.pointer, alignment)
        return layout
    }

    /// The text layout for `mark`: font (registering its font file first), size, wrap, alignment,
    /// and the text, parsed as Pango markup only when `markup` is true.
    func layout(_ text: String, markup: Bool, style mark: ResolvedMark) throws(RenderError) -> GObjectRef<OpaquePointer>
    {
        var family = mark.fontFamily ?? Fonts.defaultFamily
        if let file = mark.fontFile {
            let fileFamily = try Fonts.register(fontFile: file)
            family = mark.fontFamily ?? fileFamily
        }
        refreshFontMapIfNeeded()
        let layout = makeLayout(
            family: fontFamilyList(family), weight: mark.weight, size: mark.fontSize,
            maxWidth: mark.maxWidth, align: mark.align)
        if markup {
            // Parse first (rather than `pango_layout_set_markup`) to get Pango's error message.
            var attributes: OpaquePointer?
            var plain: UnsafeMutablePointer<CChar>?
            var error: UnsafeMutablePointer<GError>?
            guard pango_parse_markup(text, -1, 0, &attributes, &plain, nil, &error) != 0 else {
                throw .invalidMarkup(consume(error))
            }
            let list = attributes.map(AttributeList.init(adopting:))
            pango_layout_set_text(layout.pointer, plain, -1)
            g_free(plain)
            if let list { pango_layout_set_attributes(layout.pointer, list.pointer) }
        } else {
            // Plain text is never parsed: "a & b < c" shows as typed.
            pango_layout_set_text(layout.pointer, text, -1)
        }
        return layout
    }

    // MARK: - Finishing

    /// `surface` turned `degrees` clockwise about its centre, on a new surface the size of the
    /// rotated bounding box; the same surface when the angle is a whole turn.
    private func rotated(_ surface: CairoSurface, degrees: Double) throws(RenderError) -> CairoSurface {
        let angle = degrees.truncatingRemainder(dividingBy: 360)
        guard angle != 0, angle.isFinite else { return surface }
        // Exact sines and cosines at quarter turns, so 90° gives an exact pixel transpose.
        let (cosine, sine): (Double, Double) =
            switch angle {
            case 90, -270: (0, 1)
            case 180, -180: (-1, 0)
            case 270, -90: (0, -1)
            default: (cos(angle * .pi / 180), sin(angle * .pi / 180))
            }
        let w = Double(surface.width), h = Double(surface.height)
        let size = Rect(x: 0, y: 0, width: abs(w * cosine) + abs(h * sine), height: abs(w * sine) + abs(h * cosine))
            .integral
        let pixels = try CairoSurface.size(width: size.width, height: size.height)
        let output = try CairoSurface(format: CAIRO_FORMAT_ARGB32, width: pixels.width, height: pixels.height)
        let cr = CairoContext(output)
        // Centre of the output ← rotation ← centre of the input. With y pointing down, this matrix
        // turns clockwise on screen for a positive angle.
        var matrix = cairo_matrix_t(
            xx: cosine, yx: sine, xy: -sine, yy: cosine,
            x0: size.width / 2 - (cosine * w / 2 - sine * h / 2),
            y0: size.height / 2 - (sine * w / 2 + cosine * h / 2))
        cairo_transform(cr.pointer, &matrix)
        cairo_set_source_surface(cr.pointer, surface.pointer, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cr.pointer), CAIRO_FILTER_GOOD)
        cairo_paint(cr.pointer)
        return output
    }

    /// Multiplies all four premultiplied channels by `opacity`, which keeps them premultiplied.
    private func applyOpacity(_ opacity: Double, to bitmap: inout Bitmap) {
        guard opacity < 1 else { return }
        let scale = Int((max(opacity, 0) * 65536).rounded())
        bitmap.pixels.withUnsafeMutableBufferPointer { bytes in
            for i in bytes.indices { bytes[i] = UInt8((Int(bytes[i]) * scale + 32768) >> 16) }
        }
    }

    /// The most copies a tiled mark may have on one frame: a dense pattern on a 24-megapixel photo
    /// is a few thousand; a 0.1% mark with no gap on 12 megapixels was 200,000 and took minutes.
    public static let maxTiles = 10_000

    /// Integer top-left corners: one from the anchor for a plain mark, a covering grid for a tile.
    private func origins(
        of mark: ResolvedMark, bitmap: Bitmap, frameWidth: Int, frameHeight: Int
    ) throws(RenderError) -> [Point] {
        guard !bitmap.isEmpty else { return [] }
        let w = Double(bitmap.width), h = Double(bitmap.height)
        let points: [Point]
        if let gap = mark.tileGap {
            let grid = Layout.tileGrid(
                markWidth: w, markHeight: h, frameWidth: Double(frameWidth),
                frameHeight: Double(frameHeight), gap: gap)
            guard grid.columns * grid.rows <= Double(Self.maxTiles) else {
                throw .tooManyTiles(count: grid.columns * grid.rows, frameWidth: frameWidth, frameHeight: frameHeight)
            }
            points = Layout.tileOrigins(
                markWidth: w, markHeight: h, frameWidth: Double(frameWidth),
                frameHeight: Double(frameHeight), gap: gap)
        } else {
            points = [
                Layout.origin(
                    of: mark, markWidth: w, markHeight: h, frameWidth: Double(frameWidth),
                    frameHeight: Double(frameHeight))
            ]
        }
        // A mark placed far off the frame stays off it, but within what an Int and the blender
        // hold (presets are range-checked; this guards marks built in code).
        let limitX = Double(frameWidth + 2 * CairoSurface.maxSide),
            limitY = Double(frameHeight + 2 * CairoSurface.maxSide)
        return points.map {
            Point(x: min(max($0.x.rounded(), -limitX), limitX), y: min(max($0.y.rounded(), -limitY), limitY))
        }
    }
}
