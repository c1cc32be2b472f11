// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Presets

/// Something in a preset that works but not as written: a character no font can show. Printed as
/// `FILE: warning: MESSAGE at PATH`.
public struct PresetWarning: Hashable, Sendable, CustomStringConvertible {
    public var file: String?
    public var path: String
    public var message: String
    public var hint: String?

    public var description: String {
        (file.map { "\($0): " } ?? "") + "warning: \(message)" + (path.isEmpty ? "" : " at \(path)")
            + (hint.map { "; \($0)" } ?? "")
    }
}

extension MarkRenderer {
    /// Picture sizes `presets check` draws every mark on: a 1080p frame and a 24-megapixel photo.
    public static let checkFrames = [(width: 1920, height: 1080), (width: 6000, height: 4000)]

    /// Checks what decoding alone cannot, so a preset fails at load time rather than on every
    /// photo: each `font-file` is a font FreeType reads, and every mark (text expanded with sample
    /// values, `variables` as given) renders on each of `frames` within the renderer's limits
    /// (image decode size, mark size, text length, tile count). Throws the first problem, naming
    /// the preset file and the mark's JSON path; returns a warning per character no font has.
    public func check(
        _ preset: Preset, variables: [String: String] = [:],
        frames: [(width: Int, height: Int)] = checkFrames
    ) throws(PresetError) -> [PresetWarning] {
        let file = preset.source?.path
        var warnings: [PresetWarning] = []
        for (index, mark) in preset.marks.enumerated() {
            let path = "$.marks[\(index)]"
            var fileFamily: String?
            if let fontFile = mark.fontFile {
                do {
                    fileFamily = try Fonts.register(fontFile: fontFile)
                } catch {
                    throw PresetError(
                        .badValue, error.description, path: path + ".font-file",
                        hint: "give a TrueType or OpenType font file (.ttf, .otf)", file: file)
                }
            }
            func sample(_ width: Int, _ height: Int) -> TemplateContext {
                TemplateContext(
                    filename: "IMG_0001.JPG", stem: "IMG_0001", counter: 1, width: width, height: height,
                    frame: 1, fps: 30, variables: preset.variables(overriddenBy: variables))
            }
            for frame in frames {
                let context = sample(frame.width, frame.height)
                let resolved = mark.resolved(width: frame.width, height: frame.height, context: context)
                do {
                    _ = try render(resolved, frameWidth: frame.width, frameHeight: frame.height)
                } catch {
                    // A size depends on the picture: say which one (a tile count already does).
                    var text = error.description
                    if error.isAboutSize, !text.contains(" picture"), let cut = text.range(of: ";") {
                        text.replaceSubrange(cut, with: " on a \(frame.width)x\(frame.height) picture;")
                    }
                    throw PresetError(
                        error.isAboutSize ? .outOfRange : .badValue, text, path: path + error.pathSuffix, file: file
                    )
                    .hintSplitOff()
                }
            }
            if case .text(let text, _) = mark.resolved(width: 1920, height: 1080, context: sample(1920, 1080)).content {
                let family = mark.font ?? fileFamily
                for character in missingGlyphs(text, family: family) {
                    let scalars = character.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }
                    warnings.append(
                        PresetWarning(
                            file: file, path: path + ".text",
                            message:
                                "no font has a glyph for '\(character)' (\(scalars.joined(separator: " "))), it will show as a box",
                            hint:
                                "install a font that has it (fonts-noto-color-emoji for emoji) or name one with \"font\" or \"font-file\""
                        ))
                }
            }
        }
        return warnings
    }

    /// The distinct characters of `text` that `family` and its fallbacks cannot show, in order
    /// (at most 10: one warning per character, not a page of them).
    func missingGlyphs(_ text: String, family: String?) -> [Character] {
        guard unknownGlyphCount(text, family: family) > 0 else { return [] }
        var seen: Set<Character> = [], missing: [Character] = []
        for character in text where !character.isWhitespace && seen.insert(character).inserted {
            if unknownGlyphCount(String(character), family: family) > 0 { missing.append(character) }
            if missing.count == 10 { break }
        }
        return missing
    }
}

extension RenderError {
    /// Whether the problem is a size or count past a limit (rather than a file that cannot be used).
    var isAboutSize: Bool {
        switch self {
        case .tooLarge, .imageTooLarge, .textTooLarge, .tooManyTiles: true
        default: false
        }
    }

    /// The key of the mark the problem is about, as a JSON path suffix.
    var pathSuffix: String {
        switch self {
        case .imageNotFound, .imageUnreadable, .imageNotPNGOrSVG, .imageFileTooLarge, .imageTooLarge: ".image"
        case .fontFileUnusable: ".font-file"
        case .invalidMarkup, .textTooLong, .textTooLarge: ".text"
        case .tooManyTiles: ".tile"
        case .qrUnencodable: ".qr"
        case .tooLarge, .fontDirectoryUnusable, .pngWriteFailed, .photoPNGUnreadable: ""
        }
    }
}

extension PresetError {
    /// A renderer message puts its advice after "; ": moved to `hint`, so the JSON path comes
    /// right after what is wrong, as in every other preset error.
    func hintSplitOff() -> PresetError {
        guard hint == nil, let cut = message.range(of: "; ") else { return self }
        var copy = self
        copy.hint = String(message[cut.upperBound...])
        copy.message = String(message[..<cut.lowerBound])
        return copy
    }
}
