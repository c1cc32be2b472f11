// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// One key of a mark, or of a mark's outline, shadow, box or tile, in preset JSON: its name, the
/// marks that take it, and how it is read, written back and checked. Decoding, `resolvedJSON()`
/// and `validate()` all walk the tables below, so a key is added in one place. Its default is
/// the value the mark (`Mark(content:)`) or the part (`Outline()`…) starts from.
struct PresetKey<Root>: Sendable {
    /// The marks a key applies to; elsewhere it is an error ("'size' applies to text marks only").
    enum Marks: Sendable { case text, image, all }

    let name: String
    let marks: Marks
    /// Sets the key on `root` from its JSON `node`; `path` is the key's JSON path.
    let read:
        @Sendable (_ root: inout Root, _ node: JSONNode, _ path: String, PresetDecoder) throws(PresetError) -> Void
    /// The key's value as JSON, or nil to leave the key out.
    let write: @Sendable (Root, PresetWriter) -> String?
    /// Throws when the value is outside what the key allows; `path` is the key's JSON path.
    let check: @Sendable (Root, _ path: String) throws(PresetError) -> Void
}

extension Mark {
    /// The keys that say what a mark shows; a mark has exactly one of them.
    static let contentKeys = ["text", "image", "qr"]

    /// Every other key of a mark, in the order messages list them. `resolvedJSON()` writes the
    /// content key, then the keys of its kind, then the keys of every mark.
    static let keys: [PresetKey<Mark>] = [
        .optional(
            "font", .text, \.font, .string,
            check: { font, path throws(PresetError) in
                if font.trimmingCharacters(in: .whitespaces).isEmpty {
                    throw PresetError(.badValue, "font must name a font family, like \"Noto Sans\"", path: path)
                }
            }),
        .optional(
            "font-file", .text, \.fontFile, .file,
            check: { url, path throws(PresetError) in
                try checkFile(
                    url, at: path, key: "font-file", missing: "font file not found",
                    missingHint: "font paths are relative to the preset file's folder",
                    folder: "font-file is a folder", folderHint: "give the path of a .ttf or .otf file")
            }),
        .value(
            "weight", .text, \.weight, .weight,
            check: { weight, path throws(PresetError) in
                guard FontWeight.range.contains(weight.value) else { throw FontWeight.outOfRange(at: path) }
            }),
        .length("size", .text, \.size, .markPart(.positive)),  // larger than the picture is a mistake, and slow to draw
        .value("color", .text, \.color, .color),
        .part(
            "outline", .text, \.outline, Outline.keys, default: Outline(),
            example: ##"{"color": "#000000B3", "width": "0.25%"}"##),
        .part(
            "shadow", .text, \.shadow, Shadow.keys, default: Shadow(),
            example: ##"{"color": "#00000080", "offset": ["0.2%", "0.2%"], "blur": "0.3%"}"##),
        .part(
            "box", .text, \.box, Box.keys, default: Box(),
            example: ##"{"color": "#00000059", "padding": "1%", "radius": 0}"##),
        .value(
            "align", .text, \.align, .choice(TextAlign.self, .badValue, valid: "left, center or right", suggest: false)),
        .optionalLength("max-width", .text, \.maxWidth, .placement(.positive)),
        .value("markup", .text, \.markup, .bool),
        .value(
            "anchor", .all, \.anchor,
            .choice(
                Anchor.self, .badAnchor,
                valid: "one of " + Anchor.allCases.map(\.rawValue).joined(separator: ", "), suggest: true)),
        .pair(
            "margin", .all, \.margin, single: true, .placement(.nonNegative),
            hint: "use 'offset' to move a mark past the edge"),
        .pair("offset", .all, \.offset, single: false, .placement(.any)),
        .number("rotate", .all, \.rotate, -360...360, "rotate must be a number of degrees, like -30"),
        .number("opacity", .all, \.opacity, 0...1, "opacity must be a number between 0 and 1"),
        .part("tile", .all, \.tile, Tile.keys, default: Tile(), example: #"{"gap": "12%"}"#, writtenWhenOff: false),
        .optionalLength("width", .image, \.width, .placement(.positive)),
        .optionalLength("height", .image, \.height, .placement(.positive)),
    ]

    /// Every key a mark may have, as "valid keys are …" lists them.
    static let keyNames = contentKeys + keys.map(\.name)
}

extension Outline {
    static let keys: [PresetKey<Outline>] = [
        .value("color", .all, \.color, .color),
        .length("width", .all, \.width, .reach(.nonNegative)),
    ]
}

extension Shadow {
    static let keys: [PresetKey<Shadow>] = [
        .value("color", .all, \.color, .color),
        .pair("offset", .all, \.offset, single: false, .reach(.any)),
        .length("blur", .all, \.blur, .reach(.nonNegative)),
    ]
}

extension Box {
    static let keys: [PresetKey<Box>] = [
        .value("color", .all, \.color, .color),
        .length("padding", .all, \.padding, .markPart(.nonNegative)),
        .length("radius", .all, \.radius, .markPart(.nonNegative)),
    ]
}

extension Tile {
    static let keys: [PresetKey<Tile>] = [
        .length("gap", .all, \.gap, .placement(.nonNegative))
    ]
}

// MARK: Value types

/// How one type of value is read from JSON and written back.
struct PresetValue<Value>: Sendable {
    /// The value of `node`; `name` is the key, as messages call it.
    let read: @Sendable (PresetDecoder, _ node: JSONNode, _ path: String, _ name: String) throws(PresetError) -> Value
    let write: @Sendable (Value, PresetWriter) -> String
}

extension PresetValue where Value == String {
    static let string = PresetValue(
        read: { decoder, node, path, name throws(PresetError) in try decoder.string(node, path, name) },
        write: { text, _ in quoted(text) })
}

extension PresetValue where Value == URL {
    /// A path, relative to the preset file's folder when it is read and when it lies inside it.
    static let file = PresetValue(
        read: { decoder, node, path, name throws(PresetError) in decoder.resolve(try decoder.string(node, path, name))
        },
        write: { url, writer in quoted(writer.relative(url)) })
}

extension PresetValue where Value == Length {
    static let length = PresetValue(
        read: { decoder, node, path, name throws(PresetError) in try decoder.length(node, path, name) },
        write: { length, writer in writer.length(length) })
}

extension PresetValue where Value == Color {
    static let color = PresetValue(
        read: { decoder, node, path, name throws(PresetError) in try decoder.color(node, path, name) },
        write: { color, _ in quoted(color.hexString) })
}

extension PresetValue where Value == Bool {
    static let bool = PresetValue(
        read: { decoder, node, path, name throws(PresetError) in try decoder.bool(node, path, name) },
        write: { value, _ in String(value) })
}

extension PresetValue where Value == FontWeight {
    /// A name (`"bold"`) or a number; written by name when it has one.
    static let weight = PresetValue(
        read: { decoder, node, path, _ throws(PresetError) in try decoder.weight(node, path) },
        write: { weight, _ in
            FontWeight.names.first { $0.value == weight.value }.map { quoted($0.key) } ?? String(weight.value)
        })
}

extension PresetValue {
    /// One of an enum's names; `valid` says which, `suggest` adds "did you mean" to the error.
    static func choice(_ type: Value.Type, _ kind: PresetError.Kind, valid: String, suggest: Bool) -> PresetValue
    where Value: RawRepresentable & CaseIterable & Sendable, Value.RawValue == String {
        PresetValue(
            read: { decoder, node, path, name throws(PresetError) in
                if case .string(let text) = node.value, let value = Value(rawValue: text) { return value }
                let written = if case .string(let text) = node.value { "'\(text)'" } else { node.typeName }
                let hint =
                    if suggest, case .string(let text) = node.value {
                        didYouMean(text, in: Value.allCases.map(\.rawValue))
                    } else { String?.none }
                throw decoder.error(
                    kind, "\(name) must be \(valid), not \(written)", at: path, line: node.line, hint: hint)
            }, write: { value, _ in quoted(value.rawValue) })
    }
}

// MARK: Keys

extension PresetKey {
    /// A key that is always set (its default when left out).
    static func value<Value>(
        _ name: String, _ marks: Marks, _ keyPath: WritableKeyPath<Root, Value> & Sendable,
        _ type: PresetValue<Value>,
        check: @escaping @Sendable (Value, _ path: String) throws(PresetError) -> Void = { _, _ in }
    ) -> PresetKey {
        PresetKey(
            name: name, marks: marks,
            read: { root, node, path, decoder throws(PresetError) in
                root[keyPath: keyPath] = try type.read(decoder, node, path, name)
            },
            write: { root, writer in type.write(root[keyPath: keyPath], writer) },
            check: { root, path throws(PresetError) in try check(root[keyPath: keyPath], path) })
    }

    /// A key that may be unset (nil, its default): then it is left out when written, and not checked.
    static func optional<Value>(
        _ name: String, _ marks: Marks, _ keyPath: WritableKeyPath<Root, Value?> & Sendable,
        _ type: PresetValue<Value>,
        check: @escaping @Sendable (Value, _ path: String) throws(PresetError) -> Void = { _, _ in }
    ) -> PresetKey {
        PresetKey(
            name: name, marks: marks,
            read: { root, node, path, decoder throws(PresetError) in
                root[keyPath: keyPath] = try type.read(decoder, node, path, name)
            },
            write: { root, writer in root[keyPath: keyPath].map { type.write($0, writer) } },
            check: { root, path throws(PresetError) in
                if let value = root[keyPath: keyPath] { try check(value, path) }
            })
    }

    static func length(
        _ name: String, _ marks: Marks, _ keyPath: WritableKeyPath<Root, Length> & Sendable,
        _ limit: LengthLimit
    ) -> PresetKey {
        value(name, marks, keyPath, .length) { length, path throws(PresetError) in
            try limit.check(length, name, at: path)
        }
    }

    static func optionalLength(
        _ name: String, _ marks: Marks, _ keyPath: WritableKeyPath<Root, Length?> & Sendable,
        _ limit: LengthLimit
    ) -> PresetKey {
        optional(name, marks, keyPath, .length) { length, path throws(PresetError) in
            try limit.check(length, name, at: path)
        }
    }

    /// `[x, y]`, or (when `single`) one length for both; each is checked against `limit`.
    static func pair(
        _ name: String, _ marks: Marks, _ keyPath: WritableKeyPath<Root, LengthPair> & Sendable, single: Bool,
        _ limit: LengthLimit, hint: String? = nil
    ) -> PresetKey {
        let type = PresetValue<LengthPair>(
            read: { decoder, node, path, name throws(PresetError) in
                try decoder.lengthPair(node, path, name, single: single)
            },
            write: { pair, writer in "[\(writer.length(pair.x)), \(writer.length(pair.y))]" })
        return value(name, marks, keyPath, type) { pair, path throws(PresetError) in
            try limit.check(pair.x, name, at: path, hint: hint)
            try limit.check(pair.y, name, at: path, hint: hint)
        }
    }

    /// A JSON number within `range`; `typeMessage` is the error for anything but a number.
    static func number(
        _ name: String, _ marks: Marks, _ keyPath: WritableKeyPath<Root, Double> & Sendable,
        _ range: ClosedRange<Double>, _ typeMessage: String
    ) -> PresetKey {
        let type = PresetValue<Double>(
            read: { decoder, node, path, _ throws(PresetError) in try decoder.number(node, path, typeMessage) },
            write: { number, _ in number.plainDecimal })
        return value(name, marks, keyPath, type) { number, path throws(PresetError) in
            guard range.contains(number) else {
                throw PresetError(
                    .outOfRange,
                    "\(name) must be between \(range.lowerBound.plainDecimal) and \(range.upperBound.plainDecimal)",
                    path: path)
            }
        }
    }

    /// A part of a mark with keys of its own (outline, shadow, box, tile): `false` or `null` turns it
    /// off, `true` asks for `default`, an object sets some of its keys. Written as `null` when off,
    /// unless `writtenWhenOff` is false (then left out).
    static func part<Part>(
        _ name: String, _ marks: Marks, _ keyPath: WritableKeyPath<Root, Part?> & Sendable,
        _ keys: [PresetKey<Part>], default: Part, example: String,
        writtenWhenOff: Bool = true
    ) -> PresetKey where Part: Sendable {
        PresetKey(
            name: name, marks: marks,
            read: { root, node, path, decoder throws(PresetError) in
                guard
                    let fields = try decoder.optionalObject(node, path, name, keys: keys.map(\.name), example: example)
                else {
                    root[keyPath: keyPath] = nil
                    return
                }
                var part = `default`
                for key in keys {
                    if let field = fields[key.name] { try key.read(&part, field, "\(path).\(key.name)", decoder) }
                }
                root[keyPath: keyPath] = part
            },
            write: { root, writer in
                guard let part = root[keyPath: keyPath] else { return writtenWhenOff ? "null" : nil }
                let fields = keys.compactMap { key in key.write(part, writer).map { "\(quoted(key.name)): \($0)" } }
                return "{ " + fields.joined(separator: ", ") + " }"
            },
            check: { root, path throws(PresetError) in
                guard let part = root[keyPath: keyPath] else { return }
                for key in keys { try key.check(part, "\(path).\(key.name)") }
            })
    }
}

// MARK: Checks

/// How far a preset length may go. Past these a mark is a mistake, and far past them the pixel
/// arithmetic overflows (1e300 px cannot become an Int): every length is checked at load time, so
/// rendering never meets one it cannot draw.
struct LengthLimit: Sendable {
    enum Sign: Sendable { case positive, nonNegative, any }
    var sign: Sign
    var maxPercent: Double
    var maxPixels: Double

    /// Sizes of one mark's parts (font size, outline, blur, padding): at most the short side.
    static func markPart(_ sign: Sign) -> LengthLimit { LengthLimit(sign: sign, maxPercent: 100, maxPixels: 8192) }
    /// How far a text's outline and shadow reach past its glyphs (outline width, shadow offset and
    /// blur): at most `reachPercent` of the short side, and 1024 pixels (10% of a 10240-pixel
    /// side). The mark's image grows by twice the reach on each side and is drawn again for each
    /// new text: a 100% outline made a `{frame}` mark on a clip ~55 times as costly as the plain one.
    static func reach(_ sign: Sign) -> LengthLimit {
        LengthLimit(sign: sign, maxPercent: reachPercent, maxPixels: 1024)
    }
    /// The most an outline or shadow reaches, in percent of the short side; pixel values past it on
    /// a small picture are drawn at it (`Mark.resolved`).
    static let reachPercent = 10.0
    /// Positions and extents on the picture (margin, offset, gap, wrap width, image size): ten
    /// short sides, and never more pixels than Cairo can draw on one side.
    static func placement(_ sign: Sign) -> LengthLimit { LengthLimit(sign: sign, maxPercent: 1000, maxPixels: 32767) }

    /// Throws when `length`, the value of key `name` at `path`, is outside this limit.
    func check(_ length: Length, _ name: String, at path: String, hint: String? = nil) throws(PresetError) {
        switch sign {
        case .positive where !(length.value > 0):
            throw PresetError(.outOfRange, "\(name) must be greater than 0", path: path)
        case .nonNegative where !(length.value >= 0):
            throw PresetError(.outOfRange, "\(name) must be 0 or more", path: path, hint: hint)
        default: break
        }
        let (limit, unit, tail, tip): (Double, String, String, String?) =
            switch length {
            case .percent: (maxPercent, "%", " of the short side", nil)
            case .px:
                (maxPixels, "", " pixels", "use a percentage such as \"4%\" so the mark follows the picture's size")
            }
        guard abs(length.value) <= limit else {
            let most = limit.plainDecimal + unit
            throw PresetError(
                .outOfRange,
                (sign == .any ? "\(name) must be between -\(most) and \(most)" : "\(name) must be at most \(most)")
                    + tail,
                path: path, hint: tip)
        }
    }
}

/// Throws when `url` is not a regular file: `missing` or `folder` (each followed by the path) with
/// its hint; a FIFO or a device as `key` with `folderHint` (it would be opened, and a FIFO waits
/// for a writer forever).
func checkFile(
    _ url: URL, at path: String, key: String, missing: String, missingHint: String,
    folder: String, folderHint: String
) throws(PresetError) {
    switch PathKind(of: url) {
    case .missing: throw PresetError(.missingFile, "\(missing): \(url.path)", path: path, hint: missingHint)
    case .folder: throw PresetError(.badValue, "\(folder), not a file: \(url.path)", path: path, hint: folderHint)
    case .file:
        var info = stat()
        if stat(url.path, &info) == 0, let kind = RegularFile.kind(ofMode: info.st_mode) {
            throw PresetError(
                .badValue, "\(key) \(url.path) is \(kind), not a regular file", path: path,
                hint: folderHint)
        }
    }
}

extension FontWeight {
    /// The weights a preset may ask for.
    static let range = 100...900

    /// The error for a weight outside `range`.
    static func outOfRange(at path: String) -> PresetError {
        PresetError(.outOfRange, "weight must be between \(range.lowerBound) and \(range.upperBound)", path: path)
    }
}
