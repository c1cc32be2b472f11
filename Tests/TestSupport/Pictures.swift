// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// Pictures the tests draw with ImageMagick, with their colour type said rather than left to the
// tool: ImageMagick writes the smallest type that holds the pixels it has, and what it thinks it
// has changed within Debian 12 (6.9.11.60+dfsg-1.6+deb12u16 keeps an `xc:gray50` canvas in the
// Gray colour space, so red drawn on it is written as its luma, 54, and a JPEG of it has one
// component). A fixture that comes out as another type fails as a fixture, naming the version.
import Foundation
import Testing

/// The colour type of a picture a test makes.
package enum PictureColour: Sendable {
    /// Three colour channels, whatever the pixels.
    case rgb
    /// Three colour channels and alpha.
    case rgba
    /// One grey channel.
    case grey

    /// What `identify -format %[channels]` may say of a file of this type (`rgb` for linear RGB,
    /// a PNG with gamma 1.0).
    var channels: [String] {
        switch self {
        case .rgb: ["srgb", "rgb"]
        case .rgba: ["srgba", "rgba"]
        case .grey: ["gray"]
        }
    }

    /// The output options that fix the type for `file`'s format. PNG takes its own define (its
    /// writer reduces a grey-looking `-type TrueColor` picture to grey); the depth stays the
    /// caller's.
    func outputOptions(for file: URL) -> [String] {
        if file.pathExtension.lowercased() == "png" {
            let type = [PictureColour.rgb: "2", .rgba: "6", .grey: "0"][self]!
            return ["-define", "png:color-type=\(type)"]
        }
        let type = [PictureColour.rgb: "TrueColor", .rgba: "TrueColorAlpha", .grey: "Grayscale"][self]!
        return ["-type", type]
    }
}

/// Draws `file` with ImageMagick's `convert`: `drawing` (its inputs and operators), then the
/// options that make the output `colour`, then the file; and checks what was written.
package func makePicture(
    _ file: URL, _ drawing: [String], colour: PictureColour = .rgb, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    try tool("convert", drawing + colour.outputOptions(for: file) + [file.path], sourceLocation: sourceLocation)
    try expectPictureColour(file, colour)
}

/// Throws when `file` (its first picture) is not of the colour type `colour`: the fixture is not
/// what the test thinks it is, which is a broken test machine, not a product failure.
package func expectPictureColour(_ file: URL, _ colour: PictureColour) throws {
    let said = String(decoding: try tool("identify", ["-format", "%[channels]", file.path + "[0]"]), as: UTF8.self)
    guard !colour.channels.contains(said.trimmingCharacters(in: .whitespacesAndNewlines)) else { return }
    throw ToolFailure(
        "fixture \(file.lastPathComponent) is \(said), not \(colour.channels[0]), as made by ImageMagick "
            + imageMagickVersion + "; say its colour type where it is made")
}

/// The installed ImageMagick package's version, as `dpkg-query` reports it.
private let imageMagickVersion: String = {
    guard let result = try? runProcess("dpkg-query", ["-W", "-f=${Version}", "imagemagick-6.q16"]), result.status == 0
    else { return "(version unknown)" }
    return result.stdout
}()
