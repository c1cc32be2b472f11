import Media

/// What happens to a photo's pixels between the camera and the marks: the centre square crop
/// (`Square 1:1`, shoot's `--square`) and the left-right mirror (`--mirror-photos`, shoot's
/// `--mirror`). The marks are laid out on the result, so they sit where the preset puts them in
/// the photo as written, not in the uncropped frame.
public struct StillGeometry: Sendable, Equatable {
    /// The centred 1:1 crop of the frame.
    public var square: Bool
    /// Left and right swapped, as a selfie preview shows it.
    public var mirror: Bool

    /// Nothing by default: the frame is the photo.
    public init(square: Bool = false, mirror: Bool = false) {
        self.square = square
        self.mirror = mirror
    }

    /// Nothing to do: the frame is the photo.
    public var isIdentity: Bool { !square && !mirror }

    /// The centred square of a `width`×`height` frame: its side is the short side, its corner on
    /// even pixels so chroma lines up.
    public static func centreSquare(width: Int, height: Int) -> (x: Int, y: Int, side: Int) {
        let side = min(width, height) & ~1
        return (((width - side) / 2) & ~1, ((height - side) / 2) & ~1, side)
    }

    /// The photo for `frame`: `frame` itself when there is nothing to do, otherwise a new frame.
    package func apply(to frame: VideoFrame) throws(CamStampError) -> VideoFrame {
        guard !isIdentity else { return frame }
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
