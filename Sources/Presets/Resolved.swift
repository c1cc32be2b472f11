// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// A mark with every length in pixels for one frame size and its text expanded: everything the
/// renderer needs, and nothing else. It is Hashable so it can key the overlay cache directly:
/// two frames whose resolved marks are equal share one rendered overlay.
public struct ResolvedMark: Hashable, Sendable {
    /// What the renderer draws.
    public enum Content: Hashable, Sendable {
        /// Expanded text; `markup` tells whether it is Pango markup (already validated) or plain.
        case text(String, markup: Bool)
        /// An image file (PNG or SVG), by absolute URL.
        case image(URL)
        /// A QR code of the expanded text.
        case qr(String)
    }
    /// An outline in pixels.
    public struct Stroke: Hashable, Sendable {
        /// The stroke's colour.
        public var color: Color
        /// The stroke's width in pixels.
        public var width: Double
        /// A stroke of `color`, `width` pixels wide.
        public init(color: Color, width: Double) {
            self.color = color
            self.width = width
        }
    }
    /// A shadow in pixels.
    public struct Drop: Hashable, Sendable {
        /// The shadow's colour.
        public var color: Color
        /// Pixels to the right.
        public var dx: Double
        /// Pixels down.
        public var dy: Double
        /// The blur radius in pixels.
        public var blur: Double
        /// A shadow of `color` at (`dx`, `dy`), blurred by `blur`.
        public init(color: Color, dx: Double, dy: Double, blur: Double) {
            self.color = color
            self.dx = dx
            self.dy = dy
            self.blur = blur
        }
    }
    /// A box behind the text, in pixels.
    public struct Backdrop: Hashable, Sendable {
        /// The fill colour.
        public var color: Color
        /// Padding around the text in pixels.
        public var padding: Double
        /// Corner radius in pixels.
        public var radius: Double
        /// A box of `color` with `padding` and corners of `radius`.
        public init(color: Color, padding: Double, radius: Double) {
            self.color = color
            self.padding = padding
            self.radius = radius
        }
    }

    /// What is drawn.
    public var content: Content
    /// The font family (nil: the bundled default).
    public var fontFamily: String?
    /// The preset's own font file, if any.
    public var fontFile: URL?
    /// The CSS font weight.
    public var weight: Int
    /// Font size in pixels (the em size).
    public var fontSize: Double
    /// The text's fill colour.
    public var color: Color
    /// The glyph outline, if any.
    public var outline: Stroke?
    /// The drop shadow, if any.
    public var shadow: Drop?
    /// The box behind the text, if any.
    public var box: Backdrop?
    /// Line alignment within the block.
    public var align: TextAlign
    /// Wrap width in pixels; nil never wraps.
    public var maxWidth: Double?
    /// Image width in pixels, if given.
    public var imageWidth: Double?
    /// Image height in pixels, if given.
    public var imageHeight: Double?
    /// Degrees clockwise about the mark's centre.
    public var rotate: Double
    /// Opacity of the whole mark, 0...1.
    public var opacity: Double
    /// The point of the frame the mark is placed against.
    public var anchor: Anchor
    /// Horizontal margin in pixels.
    public var marginX: Double
    /// Vertical margin in pixels.
    public var marginY: Double
    /// Horizontal shift after anchoring, in pixels.
    public var offsetX: Double
    /// Vertical shift after anchoring, in pixels.
    public var offsetY: Double
    /// Gap between tiles in pixels; nil when the mark is not tiled.
    public var tileGap: Double?

    /// A resolved mark from its pixel values (normally made by `Mark.resolved(width:height:context:)`).
    public init(
        content: Content, fontFamily: String?, fontFile: URL?, weight: Int, fontSize: Double,
        color: Color, outline: Stroke?, shadow: Drop?, box: Backdrop?, align: TextAlign,
        maxWidth: Double?, imageWidth: Double?, imageHeight: Double?, rotate: Double,
        opacity: Double, anchor: Anchor, marginX: Double, marginY: Double,
        offsetX: Double, offsetY: Double, tileGap: Double?
    ) {
        self.content = content
        self.fontFamily = fontFamily
        self.fontFile = fontFile
        self.weight = weight
        self.fontSize = fontSize
        self.color = color
        self.outline = outline
        self.shadow = shadow
        self.box = box
        self.align = align
        self.maxWidth = maxWidth
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
        self.rotate = rotate
        self.opacity = opacity
        self.anchor = anchor
        self.marginX = marginX
        self.marginY = marginY
        self.offsetX = offsetX
        self.offsetY = offsetY
        self.tileGap = tileGap
    }
}

extension Mark {
    /// This mark's pixel values on a `width`×`height` (upright) frame, with `text` as its already
    /// expanded text (ignored for image marks).
    public func resolved(width: Int, height: Int, expandedText text: String) -> ResolvedMark {
        let short = Double(min(width, height))
        func px(_ length: Length) -> Double { length.pixels(shortSide: short) }
        // An outline or shadow given in pixels reaches at most as far as a percentage may
        // (LengthLimit.reach): what a picture this small can show of it, at a bounded cost.
        let most = short * LengthLimit.reachPercent / 100
        func reach(_ length: Length) -> Double { min(max(px(length), -most), most) }
        let resolvedContent: ResolvedMark.Content =
            switch content {
            case .text: .text(text, markup: markup)
            case .image(let url): .image(url)
            case .qr: .qr(text)
            }
        return ResolvedMark(
            content: resolvedContent, fontFamily: font, fontFile: fontFile, weight: weight.value,
            fontSize: px(size), color: color,
            outline: outline.map { .init(color: $0.color, width: reach($0.width)) },
            shadow: shadow.map {
                .init(color: $0.color, dx: reach($0.offset.x), dy: reach($0.offset.y), blur: reach($0.blur))
            },
            box: box.map { .init(color: $0.color, padding: px($0.padding), radius: px($0.radius)) },
            align: align, maxWidth: maxWidth.map(px),
            imageWidth: self.width.map(px), imageHeight: self.height.map(px),
            rotate: rotate, opacity: opacity, anchor: anchor,
            marginX: px(margin.x), marginY: px(margin.y), offsetX: px(offset.x), offsetY: px(offset.y),
            tileGap: tile.map { px($0.gap) })
    }
}
