// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Presets

/// A rendered overlay: Cairo ARGB32, premultiplied, native-endian 32-bit pixels (B,G,R,A bytes on
/// little-endian), rows `stride` bytes apart. This is the layout GStreamer's overlay composition
/// takes as is.
public struct Bitmap: Hashable, Sendable {
    public var width: Int
    public var height: Int
    /// Bytes from one row to the next (at least `4 * width`).
    public var stride: Int
    /// `stride * height` bytes.
    public var pixels: [UInt8]

    public init(width: Int, height: Int, stride: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0 && stride >= 4 * width, "bad bitmap geometry")
        precondition(pixels.count >= stride * height, "bitmap needs stride * height bytes")
        self.width = width
        self.height = height
        self.stride = stride
        self.pixels = pixels
    }

    /// A 0×0 bitmap: what an empty text renders to.
    public static let empty = Bitmap(width: 0, height: 0, stride: 0, pixels: [])

    public var isEmpty: Bool { width == 0 || height == 0 }

    /// One premultiplied pixel, channels 0...255.
    public struct Pixel: Hashable, Sendable {
        public var red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8
        public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
            self.red = red
            self.green = green
            self.blue = blue
            self.alpha = alpha
        }
    }

    /// The pixel at (`x`, `y`), read as the native-endian 32-bit word Cairo wrote.
    public subscript(x: Int, y: Int) -> Pixel {
        get {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x),\(y)) outside \(width)x\(height)")
            let i = y * stride + 4 * x
            let word = pixels.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: i, as: UInt32.self) }
            return Pixel(
                red: UInt8(truncatingIfNeeded: word >> 16), green: UInt8(truncatingIfNeeded: word >> 8),
                blue: UInt8(truncatingIfNeeded: word), alpha: UInt8(truncatingIfNeeded: word >> 24))
        }
        set {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x),\(y)) outside \(width)x\(height)")
            let word =
                UInt32(newValue.alpha) << 24 | UInt32(newValue.red) << 16
                | UInt32(newValue.green) << 8 | UInt32(newValue.blue)
            let i = y * stride + 4 * x
            pixels.withUnsafeMutableBytes { $0.storeBytes(of: word, toByteOffset: i, as: UInt32.self) }
        }
    }
}

/// A rendered mark and where it goes: `origins` are integer top-left corners in frame pixels, one
/// for a plain mark, one per tile for a tiled mark (tiles may lie partly outside the frame). An
/// empty bitmap has no origins.
public struct RenderedMark: Hashable, Sendable {
    public var bitmap: Bitmap
    public var origins: [Point]
    public init(bitmap: Bitmap, origins: [Point]) {
        self.bitmap = bitmap
        self.origins = origins
    }
}

/// Why a mark could not be rendered; `description` is a one-line message for the user.
public enum RenderError: Error, Equatable, Sendable, CustomStringConvertible {
    case imageNotFound(URL)
    case imageUnreadable(URL, reason: String)
    case imageNotPNGOrSVG(URL)
    case invalidMarkup(String)
    case fontFileUnusable(URL, reason: String)
    case fontDirectoryUnusable(URL, reason: String)
    case tooLarge(width: Int, height: Int)
    case pngWriteFailed(URL, reason: String)
    /// The image file itself has more pixels than a mark may decode.
    case imageFileTooLarge(URL, width: Int, height: Int)
    /// The image would be drawn larger than a mark may be (its own size, or the mark's width/height).
    case imageTooLarge(URL, width: Double, height: Double)
    /// The expanded text has more characters than `Mark.maxTextCharacters`.
    case textTooLong(characters: Int)
    /// So many characters at this size that the laid-out text would exceed the pixel cap.
    case textTooLarge(characters: Int, fontSize: Double)
    /// A tiled mark would need more copies than `MarkRenderer.maxTiles` on this frame.
    case tooManyTiles(count: Double, frameWidth: Int, frameHeight: Int)
    /// A photo's PNG that Cairo's reader (libpng) refused; `reason` is Cairo's status.
    case photoPNGUnreadable(reason: String)
    /// A QR code mark's expanded text that libqrencode cannot encode (too long for version 40).
    case qrUnencodable(characters: Int)

    public var description: String {
        switch self {
        case .imageNotFound(let url): "image not found: \(url.path)"
        case .imageUnreadable(let url, let reason): "cannot read image \(url.path): \(reason)"
        case .imageNotPNGOrSVG(let url): "image is not PNG or SVG: \(url.path)"
        case .invalidMarkup(let message): "invalid Pango markup: \(message)"
        case .fontFileUnusable(let url, let reason): "font file unusable: \(url.path): \(reason)"
        case .fontDirectoryUnusable(let url, let reason): "font folder unusable: \(url.path): \(reason)"
        case .tooLarge(let width, let height):
            "mark too large to render: \(width)x\(height) pixels (at most \(CairoSurface.maxSide) a side and \(CairoSurface.maxPixels >> 20) megapixels); make it smaller"
        case .pngWriteFailed(let url, let reason): "cannot write PNG \(url.path): \(reason)"
        case .photoPNGUnreadable(let reason): "cannot decode the PNG (\(reason))"
        case .qrUnencodable(let characters): "a QR code cannot hold this text (\(characters) characters)"
        case .imageFileTooLarge(let url, let width, let height):
            "image \(url.path) is \(width)x\(height) pixels, more than a mark can use (at most \(CairoSurface.maxSide) a side and \(CairoSurface.maxPixels >> 20) megapixels); scale it down, e.g. to 2000 pixels wide"
        case .imageTooLarge(let url, let width, let height):
            "image \(url.path) would be drawn at \(pixels(width))x\(pixels(height)) pixels, more than a mark can be (at most \(CairoSurface.maxSide) a side and \(CairoSurface.maxPixels >> 20) megapixels); give the mark a smaller width or height, or fix the image's own size (an SVG's width, height and viewBox)"
        case .textTooLong(let characters):
            "mark text has \(characters) characters once its variables are filled in, more than the \(Mark.maxTextCharacters) a mark can show; shorten the values that fill it ({exif:…}, {filename}, --var)"
        case .textTooLarge(let characters, let fontSize):
            "mark text of \(characters) characters at \(pixels(fontSize)) pixels would cover more than \(CairoSurface.maxPixels >> 20) megapixels; make it shorter or its size smaller"
        case .tooManyTiles(let count, let frameWidth, let frameHeight):
            "a tiled mark would need \(pixels(count)) copies on a \(frameWidth)x\(frameHeight) picture, more than \(MarkRenderer.maxTiles); make the mark larger or its tile gap wider"
        }
    }
}

/// A pixel size or count for a message: whole numbers as such, absurd ones in exponent form.
func pixels(_ value: Double) -> String {
    guard value.isFinite, abs(value) < 1e12 else { return String(format: "%g", value) }
    return value == value.rounded() ? String(Int(value)) : String(format: "%.4g", value)
}
