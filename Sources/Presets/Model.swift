import Foundation

/// A length in a preset: pixels, or a percentage of the short side of the upright image or frame.
public enum Length: Hashable, Sendable {
    case px(Double)
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
    public var x: Length
    public var y: Length
    public init(x: Length, y: Length) { self.x = x; self.y = y }
    public init(both: Length) { self.init(x: both, y: both) }
    public static let zero = LengthPair(both: .px(0))
}

/// A straight (not premultiplied) RGBA colour, each channel 0...1.
public struct Color: Hashable, Sendable {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }
    public static let white = Color(red: 1, green: 1, blue: 1)
    public static let black = Color(red: 0, green: 0, blue: 0)
}

/// Where a mark sits in the frame.
public enum Anchor: String, CaseIterable, Hashable, Sendable {
    case topLeft = "top-left", top, topRight = "top-right"
    case left, center, right
    case bottomLeft = "bottom-left", bottom, bottomRight = "bottom-right"
}

/// Alignment of lines within a text block.
public enum TextAlign: String, CaseIterable, Hashable, Sendable {
    case left, center, right
}

/// A font weight on the CSS scale (100 thin ... 400 normal ... 700 bold ... 900 heavy).
public struct FontWeight: Hashable, Sendable {
    public var value: Int
    public init(_ value: Int) { self.value = value }
    public static let normal = FontWeight(400)
    public static let bold = FontWeight(700)
}

public struct Outline: Hashable, Sendable {
    public var color: Color
    public var width: Length
    public init(color: Color, width: Length) { self.color = color; self.width = width }
}

public struct Shadow: Hashable, Sendable {
    public var color: Color
    public var offset: LengthPair
    public var blur: Length
    public init(color: Color, offset: LengthPair, blur: Length) {
        self.color = color; self.offset = offset; self.blur = blur
    }
}

public struct Box: Hashable, Sendable {
    public var color: Color
    public var padding: Length
    public var radius: Length
    public init(color: Color, padding: Length, radius: Length) {
        self.color = color; self.padding = padding; self.radius = radius
    }
}

public struct Tile: Hashable, Sendable {
    public var gap: Length
    public init(gap: Length) { self.gap = gap }
}

/// What a mark shows: a text template, or an image file (PNG or SVG).
public enum MarkContent: Hashable, Sendable {
    case text(String)
    /// An absolute file URL, already resolved against the preset file's folder.
    case image(URL)
}

/// One mark of a preset, as written, with every default filled in.
public struct Mark: Hashable, Sendable {
    public var content: MarkContent {
        didSet { template = Self.template(for: content) }
    }
    /// `content`'s text parsed as a template (nil for an image mark); kept in step with `content`.
    public private(set) var template: Template?
    /// A font family name for fontconfig; nil means the bundled default family.
    public var font: String?
    /// A font file of the preset's own (absolute URL), registered before rendering.
    public var fontFile: URL?
    public var weight: FontWeight
    public var size: Length
    public var color: Color
    public var outline: Outline?
    public var shadow: Shadow?
    public var box: Box?
    public var align: TextAlign
    public var maxWidth: Length?
    public var markup: Bool
    public var anchor: Anchor
    public var margin: LengthPair
    public var offset: LengthPair
    /// Degrees, clockwise on screen, about the mark's centre.
    public var rotate: Double
    /// Multiplies the whole mark, 0...1.
    public var opacity: Double
    public var tile: Tile?
    /// Image size; when only one is given the image keeps its aspect.
    public var width: Length?
    public var height: Length?

    /// A mark with the default style for `content` (the `--text` look: bottom-right, white with a
    /// dark outline, 4% of the short side).
    public init(content: MarkContent) {
        self.content = content
        template = Self.template(for: content)
        font = nil
        fontFile = nil
        weight = .normal
        size = .percent(4)
        color = .white
        outline = Outline(color: Color(red: 0, green: 0, blue: 0, alpha: 0.7), width: .percent(0.25))
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
        if case .text(let text) = content { Template(lenient: text) } else { nil }
    }

    /// Whether this is a text mark.
    public var isText: Bool {
        if case .text = content { true } else { false }
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
    public var name: String
    public var description: String
    public var variables: [String: String]
    public var marks: [Mark]
    /// The file it was read from, if any (messages and relative paths).
    public var source: URL?

    public init(name: String, description: String = "", variables: [String: String] = [:],
                marks: [Mark], source: URL? = nil) {
        self.name = name; self.description = description; self.variables = variables
        self.marks = marks; self.source = source
    }

    /// The quick mark of `--text T`: the default style, bottom-right.
    public static func quickText(_ text: String) -> Preset {
        Preset(name: "text", description: "--text", marks: [Mark(content: .text(text))])
    }
}
