// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// What a PNG says of its picture in IHDR (the chunk that must come first), for a file that is
/// whole: PNG's counterpart of `JPEGPicture`, so that no layer above reads PNG bytes itself.
public struct PNGPicture: Sendable, Equatable {
    /// Pixels across.
    public let width: Int
    /// Pixels down.
    public let height: Int
    /// Bits per sample: 1, 2, 4, 8 or 16.
    public let bitDepth: Int
    /// IHDR's colour type: 0 grey, 2 RGB, 3 palette, 4 grey and alpha, 6 RGB and alpha.
    public let colourType: Int

    /// Whether some pixels may be transparent: an alpha channel (colour types 4 and 6) or a tRNS
    /// chunk (a palette's alphas, or one colour that stands for transparent).
    public let hasTransparency: Bool
    /// The frames of an animated PNG (APNG: an `acTL` chunk before the first IDAT); 1 for a still.
    public let frames: Int

    /// Grey, with or without alpha.
    public var isGrey: Bool { colourType == 0 || colourType == 4 }

    /// The picture of `png` (already known to start with the PNG signature); nil when the file is
    /// cut short: too short for the signature, IHDR and IEND, or not ending with IEND.
    public init?(_ png: Data) {
        // Signature (8) + IHDR (12 + 13) = 33 bytes before any other chunk.
        guard png.count >= 33 else { return nil }
        let bytes = [UInt8](png)
        // IEND is the last chunk: its type sits 8 bytes from the end, before its CRC.
        guard bytes[bytes.count - 8..<bytes.count - 4].elementsEqual("IEND".utf8) else { return nil }
        func word(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        (width, height) = (word(16), word(20))
        (bitDepth, colourType) = (Int(bytes[24]), Int(bytes[25]))
        // tRNS and acTL come before the first IDAT: only the chunk headers up to there are read.
        var position = 8, sawTRNS = false, frames = 1
        while position + 8 <= bytes.count {
            let type = bytes[position + 4..<position + 8]
            if type.elementsEqual("IDAT".utf8) { break }
            if type.elementsEqual("tRNS".utf8) { sawTRNS = true }
            if type.elementsEqual("acTL".utf8), position + 12 <= bytes.count { frames = max(1, word(position + 8)) }
            position += 12 + word(position)
        }
        hasTransparency = colourType == 4 || colourType == 6 || sawTRNS
        self.frames = frames
    }

    /// True when `data` could be the beginning of a PNG: a file cut inside the signature.
    public static func couldStart(_ data: Data) -> Bool {
        PNGChunk.signature.starts(with: data)
    }
}
