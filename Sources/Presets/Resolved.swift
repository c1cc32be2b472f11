import Foundation

/// A mark with every length in pixels for one frame size and its text expanded: everything the
/// renderer needs, and nothing else. It is Hashable so it can key the overlay cache directly:
/// two frames whose resolved marks are equal share one rendered overlay.
public struct ResolvedMark: Hashable, Sendable {
    public enum Content: Hashable, Sendable {
        /// Expanded text; `markup` tells whether it is Pango markup (already validated) or plain.
        case text(String, markup: Bool)
        case image(URL)
    }
    public struct Stroke: Hashable, Sendable {
        public var color: Color; public var width: Double
        public init(color: Color, width: Double) { self.color = color; self.width = width }
    }
    public struct Drop: Hashable, Sendable {
        public var color: Color; public var dx: Double; public var dy: Double; public var blur: Double
        public init(color: Color, dx: Double, dy: Double, blur: Double) {
            self.color = color; self.dx = dx; self.dy = dy; self.blur = blur
        }
    }
    public struct Backdrop: Hashable, Sendable {
        public var color: Color; public var padding: Double; public var radius: Double
        public init(color: Color, padding: Double, radius: Double) {
            self.color = color; self.padding = padding; self.radius = radius
        }
    }

    public var content: Content
    public var fontFamily: String?
    public var fontFile: URL?
    public var weight: Int
    /// Font size in pixels (the em size).
    public var fontSize: Double
    public var color: Color
    public var outline: Stroke?
    public var shadow: Drop?
    public var box: Backdrop?
    public var align: TextAlign
    public var maxWidth: Double?
    public var imageWidth: Double?
    public var imageHeight: Double?
    public var rotate: Double
    public var opacity: Double
    public var anchor: Anchor
    public var marginX: Double
    public var marginY: Double
    public var offsetX: Double
    public var offsetY: Double
    /// Gap between tiles in pixels; nil when the mark is not tiled.
    public var tileGap: Double?

    public init(content: Content, fontFamily: String?, fontFile: URL?, weight: Int, fontSize: Double,
                color: Color, outline: Stroke?, shadow: Drop?, box: Backdrop?, align: TextAlign,
                maxWidth: Double?, imageWidth: Double?, imageHeight: Double?, rotate: Double,
                opacity: Double, anchor: Anchor, marginX: Double, marginY: Double,
                offsetX: Double, offsetY: Double, tileGap: Double?) {
        self.content = content; self.fontFamily = fontFamily; self.fontFile = fontFile
        self.weight = weight; self.fontSize = fontSize; self.color = color; self.outline = outline
        self.shadow = shadow; self.box = box; self.align = align; self.maxWidth = maxWidth
        self.imageWidth = imageWidth; self.imageHeight = imageHeight; self.rotate = rotate
        self.opacity = opacity; self.anchor = anchor; self.marginX = marginX; self.marginY = marginY
        self.offsetX = offsetX; self.offsetY = offsetY; self.tileGap = tileGap
    }
}

extension Mark {
    /// This mark's pixel values on a `width`×`height` (upright) frame, with `text` as its already
    /// expanded text (ignored for image marks).
    public func resolved(width: Int, height: Int, expandedText text: String) -> ResolvedMark {
        let short = Double(min(width, height))
        func px(_ length: Length) -> Double { length.pixels(shortSide: short) }
        let resolvedContent: ResolvedMark.Content = switch content {
        case .text: .text(text, markup: markup)
        case .image(let url): .image(url)
        }
        return ResolvedMark(
            content: resolvedContent, fontFamily: font, fontFile: fontFile, weight: weight.value,
            fontSize: px(size), color: color,
            outline: outline.map { .init(color: $0.color, width: px($0.width)) },
            shadow: shadow.map { .init(color: $0.color, dx: px($0.offset.x), dy: px($0.offset.y), blur: px($0.blur)) },
            box: box.map { .init(color: $0.color, padding: px($0.padding), radius: px($0.radius)) },
            align: align, maxWidth: maxWidth.map(px),
            imageWidth: self.width.map(px), imageHeight: self.height.map(px),
            rotate: rotate, opacity: opacity, anchor: anchor,
            marginX: px(margin.x), marginY: px(margin.y), offsetX: px(offset.x), offsetY: px(offset.y),
            tileGap: tile.map { px($0.gap) })
    }
}
