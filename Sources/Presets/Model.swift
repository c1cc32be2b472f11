// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// A length in a preset: pixels, or a percentage of the short side of the upright image or frame.
public enum Length: Hashable, Sendable {
    /// A number of pixels (`12`, `"12px"`).
    case px(Double)
    /// A percentage of the short side (`"4%"`).
    case percent(Double)

    /// The length in pixels on an image whose short side is `shortSide` pixels.
    public func pixels(shortSide: Double) -> Double {
        switch self {
        case .px(let value): value
        case .percent(let value): value / 100 * shortSide
        }
    }
}

/// Two lengths, horizontal then vertical (`margin`, `offset`, shadow `offset`).
public struct LengthPair: Hashable, Sendable {
    /// The horizontal length.
    public var x: Length
    /// The vertical length.
    public var y: Length
    /// A pair of `x` and `y`.
    public init(x: Length, y: Length) {
        self.x = x
        self.y = y
    }
    /// The same length both ways (`"margin": "3%"`).
    public init(both: Length) { self.init(x: both, y: both) }
    /// No length either way.
    public static let zero = LengthPair(both: .px(0))
}

/// A straight (not premultiplied) RGBA colour, each channel 0...1.
public struct Color: Hashable, Sendable {
    /// Red, 0...1.
    public var red: Double
    /// Green, 0...1.
    public var green: Double
    /// Blue, 0...1.
    public var blue: Double
    /// Opacity, 0 (transparent)...1 (opaque).
    public var alpha: Double
    /// A colour from its channels, each 0...1; opaque unless `alpha` is given.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }
    /// Opaque white.
    public static let white = Color(red: 1, green: 1, blue: 1)
}

/// Where a mark sits in the frame.
public enum Anchor: String, CaseIterable, Hashable, Sendable {
    /// The top-left corner (`"top-left"`).
    case topLeft = "top-left"
    /// The middle of the top edge.
    case top
    /// The top-right corner (`"top-right"`).
    case topRight = "top-right"
    /// The middle of the left edge.
    case left
    /// The centre of the frame.
    case center
    /// The middle of the right edge.
    case right
    /// The bottom-left corner (`"bottom-left"`).
    case bottomLeft = "bottom-left"
    /// The middle of the bottom edge.
    case bottom
    /// The bottom-right corner (`"bottom-right"`).
    case bottomRight = "bottom-right"
}

/// Alignment of lines within a text block.
public enum TextAlign: String, CaseIterable, Hashable, Sendable {
    /// Lines start at the block's left edge.
    case left
    /// Lines are centred in the block.
    case center
    /// Lines end at the block's right edge.
    case right
}

/// A font weight on the CSS scale (100 thin ... 400 normal ... 700 bold ... 900 heavy).
public struct FontWeight: Hashable, Sendable {
    /// The weight; a preset may ask for 100...900.
    public var value: Int
    /// A weight of `value` on the CSS scale.
    public init(_ value: Int) { self.value = value }
    /// 400, `"normal"`.
    public static let normal = FontWeight(400)
}

/// A stroke around each glyph of a text mark (`"outline"`), drawn under the fill.
public struct Outline: Hashable, Sendable {
    /// The stroke's colour.
    public var color: Color
    /// The stroke's width.
    public var width: Length
    /// An outline of `color`, `width` wide; the defaults are what `"outline": true` gives.
    public init(color: Color = Color(hex: "#000000B3")!, width: Length = .percent(0.25)) {
        self.color = color
        self.width = width
    }
}

/// A drop shadow under a text mark (`"shadow"`).
public struct Shadow: Hashable, Sendable {
    /// The shadow's colour.
    public var color: Color
    /// How far the shadow falls, right and down.
    public var offset: LengthPair
    /// The blur radius (0 for a hard shadow).
    public var blur: Length
    /// A shadow of `color` at `offset`, blurred by `blur`; the defaults are what `"shadow": true` gives.
    public init(
        color: Color = Color(hex: "#00000080")!, offset: LengthPair = LengthPair(both: .percent(0.2)),
        blur: Length = .percent(0.3)
    ) {
        self.color = color
        self.offset = offset
        self.blur = blur
    }
}

/// A filled rectangle behind a text mark (`"box"`).
public struct Box: Hashable, Sendable {
    /// The fill colour.
    public var color: Color
    /// Space between the text and the box's edges.
    public var padding: Length
    /// The corners' radius (0 for square corners).
    public var radius: Length
    /// A box of `color` with `padding` and corners of `radius`; the defaults are what `"box": true` gives.
    public init(color: Color = Color(hex: "#00000059")!, padding: Length = .percent(1), radius: Length = .px(0)) {
        self.color = color
        self.padding = padding
        self.radius = radius
    }
}

/// Repeats a mark over the whole frame in a grid (`"tile"`).
public struct Tile: Hashable, Sendable {
    /// Space between neighbouring copies.
    public var gap: Length
    /// A grid with `gap` between copies; the default is what `"tile": true` gives.
    public init(gap: Length = .percent(10)) { self.gap = gap }
}

/// What a mark shows: a text template, or an image file (PNG or SVG).
public enum MarkContent: Hashable, Sendable {
    /// A text template (`{date}`, `{author}`…), plain or Pango markup.
    case text(String)
    /// An absolute file URL, already resolved against the preset file's folder.
    case image(URL)
    /// A QR code of a text template (`{proof-url}`), drawn black on white with its quiet zone,
    /// `width` (or `height`) a side, 15 % of the short side unless given.
    case qr(String)
}

/// One mark of a preset, as written, with every default filled in.
public struct Mark: Hashable, Sendable {
    /// What the mark shows.
    public var content: MarkContent {
        didSet { template = Self.template(for: content) }
    }
    /// `content`'s text parsed as a template (nil for an image mark); kept in step with `content`.
    public private(set) var template: Template?
    /// A font family name for fontconfig; nil means the bundled default family.
    public var font: String?
    /// A font file of the preset's own (absolute URL), registered before rendering.
    public var fontFile: URL?
    /// The text's weight.
    public var weight: FontWeight
    /// The text's size (its em height).
    public var size: Length
    /// The text's fill colour.
    public var color: Color
    /// A stroke around the glyphs, if any.
    public var outline: Outline?
    /// A drop shadow, if any.
    public var shadow: Shadow?
    /// A box behind the text, if any.
    public var box: Box?
    /// How the lines of a multi-line text align within the block.
    public var align: TextAlign
    /// The width the text wraps at; nil never wraps.
    public var maxWidth: Length?
    /// Whether the text is Pango markup (otherwise it is plain and escaped).
    public var markup: Bool
    /// The point of the frame the mark is placed against.
    public var anchor: Anchor
    /// Space kept between the mark and the frame's edges at the anchor.
    public var margin: LengthPair
    /// A shift added after anchoring, right and down.
    public var offset: LengthPair
    /// Degrees, clockwise on screen, about the mark's centre.
    public var rotate: Double
    /// Multiplies the whole mark, 0...1.
    public var opacity: Double
    /// Repeat the mark over the frame, if set.
    public var tile: Tile?
    /// Image size; when only one is given the image keeps its aspect.
    public var width: Length?
    /// Image height (see `width`).
    public var height: Length?

    /// A mark with the default style for `content` (the `--text` look: bottom-right, white with a
    /// dark outline, 4% of the short side). These are the preset format's defaults: decoding
    /// starts from this mark and sets only the keys a preset writes.
    public init(content: MarkContent) {
        self.content = content
        template = Self.template(for: content)
        font = nil
        fontFile = nil
        weight = .normal
        size = .percent(4)
        color = .white
        outline = Outline()
        shadow = nil
        box = nil
        align = .left
        maxWidth = nil
        markup = false
        anchor = .bottomRight
        margin = LengthPair(both: .percent(3))
        offset = .zero
        rotate = 0
        opacity = 1
        tile = nil
        width = nil
        height = nil
    }
}

extension Mark {
    static func template(for content: MarkContent) -> Template? {
        switch content {
        case .text(let text), .qr(let text): Template(lenient: text)
        case .image: nil
        }
    }

    /// The mark's text for `context`, escaped for Pango when the mark uses markup ("" for images).
    public func expandedText(_ context: TemplateContext) -> String {
        template?.expand(context, escapingMarkup: markup) ?? ""
    }

    /// This mark's pixel values on a `width`×`height` frame with its text expanded for `context`.
    public func resolved(width: Int, height: Int, context: TemplateContext) -> ResolvedMark {
        resolved(width: width, height: height, expandedText: expandedText(context))
    }
}

/// A preset: named, described, with default variables and marks drawn in order.
public struct Preset: Hashable, Sendable {
    /// The preset's name (stacked presets join theirs with "+").
    public var name: String
    /// A one-line description, as `camstamp presets list` shows it.
    public var description: String
    /// Default values of template variables; `--var` and a `Stamper`'s variables override them.
    public var variables: [String: String]
    /// The marks, drawn in order (a later one over an earlier one).
    public var marks: [Mark]
    /// The file it was read from, if any (messages and relative paths).
    public var source: URL?

    /// A preset of `marks`; validated when loaded (`PresetSource.preset`) or by `validate(knownVariables:)`.
    public init(
        name: String, description: String = "", variables: [String: String] = [:],
        marks: [Mark], source: URL? = nil
    ) {
        self.name = name
        self.description = description
        self.variables = variables
        self.marks = marks
        self.source = source
    }

    /// The quick mark of `--text T`: the default style, bottom-right.
    public static func quickText(_ text: String) -> Preset {
        Preset(name: "text", description: "--text", marks: [Mark(content: .text(text))])
    }
}
