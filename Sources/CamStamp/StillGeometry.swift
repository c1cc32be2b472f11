// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
package import Media

/// What happens to a photo's pixels between the camera and the marks: a quarter turn (shoot's
/// `--rotate`), the centre square crop (`Square 1:1`, shoot's `--square`) and the left-right
/// mirror (`--mirror-photos`, shoot's `--mirror`). The marks are laid out on the result, so they sit where the preset puts them in
/// the photo as written, not in the uncropped frame.
public struct StillGeometry: Sendable, Equatable {
    /// The centred 1:1 crop of the frame.
    public var square: Bool
    /// Left and right swapped, as a selfie preview shows it.
    public var mirror: Bool
    /// Degrees clockwise the frame is turned first: 0, 90, 180 or 270 (a camera on its side).
    public var rotate: Int

    /// Nothing by default: the frame is the photo.
    public init(square: Bool = false, mirror: Bool = false, rotate: Int = 0) {
        self.square = square
        self.mirror = mirror
        self.rotate = rotate
    }

    /// Nothing to do: the frame is the photo.
    public var isIdentity: Bool { !square && !mirror && rotate % 360 == 0 }

    /// The centred square of a `width`×`height` frame: its side is the short side, its corner on
    /// even pixels so chroma lines up.
    public static func centreSquare(width: Int, height: Int) -> (x: Int, y: Int, side: Int) {
        let side = min(width, height) & ~1
        return (((width - side) / 2) & ~1, ((height - side) / 2) & ~1, side)
    }

    /// The photo for `frame`: `frame` itself when there is nothing to do, otherwise a new frame.
    package func apply(to frame: VideoFrame) throws(CamStampError) -> VideoFrame {
        guard !isIdentity else { return frame }
        var frame = frame
        if rotate % 360 != 0 {
            do { frame = try frame.rotated(quarterTurns: rotate / 90) } catch { throw .failure("photo: \(error)") }
            if !square && !mirror { return frame }
        }
        var (x, y, width, height) = (0, 0, frame.width, frame.height)
        if square {
            let crop = Self.centreSquare(width: frame.width, height: frame.height)
            (x, y, width, height) = (crop.x, crop.y, crop.side, crop.side)
        }
        do {
            return try frame.cropped(x: x, y: y, width: width, height: height, mirrored: mirror)
        } catch {
            throw .failure("photo: \(error)")
        }
    }
}
