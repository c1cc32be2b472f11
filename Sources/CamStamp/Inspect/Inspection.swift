// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// What camstamp sees in one photo or clip (`camstamp inspect`): its size and orientation, the
/// template variables batch would fill, its metadata and what becomes of each block, and the
/// path batch would take, with batch's own reason.
public struct Inspection: Sendable, Equatable, Encodable {
    /// One metadata block and its fate in a marked output.
    public struct Block: Sendable, Equatable, Encodable {
        /// What it is: "EXIF", "maker note", "C2PA manifest (JUMBF)"…
        public var name: String
        /// Where it is and how large: "APP1, 1234 bytes".
        public var detail: String
        /// "carried" or "dropped".
        public var fate: String
        /// Why, or what is edited in it.
        public var why: String
    }

    /// The file as given.
    public var file: String
    /// "photo" or "clip".
    public var kind: String
    /// The format by content: JPEG, PNG, WebP, HEIC, AVIF, TIFF; MP4, MOV, MKV, WebM.
    public var format: String
    /// The picture's width as stored.
    public var width: Int
    /// The picture's height as stored.
    public var height: Int
    /// The EXIF orientation (1…8; 1 when the photo has none).
    public var orientation: Int
    /// What the orientation asks a viewer to do, in words.
    public var orientationMeaning: String
    /// The width once upright: what the marks are laid out on.
    public var uprightWidth: Int
    /// The height once upright.
    public var uprightHeight: Int
    /// The template variables batch would fill for it, by name (`exif:Model`, `date`…).
    public var variables: [String: String]
    /// The metadata blocks, in file order.
    public var metadata: [Block]
    /// "spliced", "coefficients" or "reencoded", as `batch --json` says it.
    public var path: String
    /// Why batch takes that path.
    public var reason: String
    /// What batch would also say of it (left-out pages, damage, a format written otherwise).
    public var notes: [String]

    enum CodingKeys: String, CodingKey {
        case file, kind, format, width, height, orientation, variables, metadata, path, reason, notes
        case orientationMeaning = "orientation_meaning", uprightWidth = "upright_width"
        case uprightHeight = "upright_height"
    }

    /// The human block: a heading line with the file, then indented lines.
    public var text: String {
        var lines = ["\(file): \(format) \(kind), \(width)×\(height)"]
        let turned = orientation == 1 ? "" : ", shown \(uprightWidth)×\(uprightHeight)"
        lines.append("  orientation  \(orientation) (\(orientationMeaning))\(turned)")
        lines.append("  batch        \(path): \(reason)")
        for note in notes { lines.append("               note: \(note)") }
        if metadata.isEmpty {
            lines.append("  metadata     none")
        } else {
            let width = metadata.map(\.name.count).max() ?? 0
            for (index, block) in metadata.enumerated() {
                let label = index == 0 ? "  metadata     " : String(repeating: " ", count: 15)
                let name = block.name.padding(toLength: width, withPad: " ", startingAt: 0)
                lines.append("\(label)\(name)  \(block.fate): \(block.why) (\(block.detail))")
            }
        }
        let names = variables.keys.sorted()
        let nameWidth = names.map(\.count).max() ?? 0
        for (index, name) in names.enumerated() {
            let label = index == 0 ? "  variables    " : String(repeating: " ", count: 15)
            let braced = "{\(name)}".padding(toLength: nameWidth + 2, withPad: " ", startingAt: 0)
            lines.append("\(label)\(braced)  \(variables[name]!)")
        }
        return lines.joined(separator: "\n")
    }

    /// EXIF orientation values in words (EXIF 2.32, tag 0x0112).
    static func meaning(_ orientation: Int) -> String {
        switch orientation {
        case 2: "mirrored left to right"
        case 3: "turned 180°"
        case 4: "mirrored top to bottom"
        case 5: "mirrored along the main diagonal"
        case 6: "turn 90° clockwise to view"
        case 7: "mirrored along the other diagonal"
        case 8: "turn 90° counter-clockwise to view"
        default: "upright as stored"
        }
    }
}
