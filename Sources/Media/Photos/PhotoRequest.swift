// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// What a photo pipeline is fed: JPEG, PNG or WebP bytes, or raw pictures decoded outside
/// GStreamer (`DecodedPicture`, whose caps are set per photo).
public enum PhotoCodec: Sendable {
    case jpeg, png, webp, raw

    var caps: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .webp: "image/webp"
        case .raw: "video/x-raw"
        }
    }

    var decoder: LaunchFragment {
        switch self {
        case .jpeg: LaunchFragment("jpegdec idct-method=islow")  // accurate, as djpeg: see photo-jpeg.pipeline
        case .png: LaunchFragment("pngdec")
        case .webp: LaunchFragment("webpdec")
        case .raw: LaunchFragment("identity")
        }
    }
}

/// A marked picture as packed 8-bit RGB or RGBA rows, for encoders outside GStreamer.
public struct RawImage: Sendable {
    public var pixels: Data
    public var width: Int
    public var height: Int
    /// Bytes from one row to the next (GStreamer pads rows to 4 bytes).
    public var stride: Int
    public var hasAlpha: Bool

    public init(pixels: Data, width: Int, height: Int, stride: Int, hasAlpha: Bool) {
        self.pixels = pixels
        self.width = width
        self.height = height
        self.stride = stride
        self.hasAlpha = hasAlpha
    }

    var channels: Int { hasAlpha ? 4 : 3 }
}

/// How one photo goes through the pipeline besides its pixels.
public struct PhotoRequest: Sendable {
    public var orientation: Orientation
    /// The upright output size when scaling; nil keeps the size.
    public var size: (width: Int, height: Int)?
    /// The raw format the frame is oriented and marked in (the template's `work` capsfilter), e.g.
    /// I420 for a grey JPEG so that a coloured mark stays coloured; nil keeps the decoder's.
    public var workFormat: String?
    /// The raw format the encoder is given (the `encoding` capsfilter): jpegenc encodes its input's
    /// chroma sampling (I420 4:2:0, Y42B 4:2:2, Y444 4:4:4); nil leaves it to negotiation.
    public var encodingFormat: String?
    /// The JPEG quality set on the element named `encoder`; nil keeps the template's.
    public var quality: Int?

    public init(
        orientation: Orientation, size: (width: Int, height: Int)? = nil, workFormat: String? = nil,
        encodingFormat: String? = nil, quality: Int? = nil
    ) {
        self.orientation = orientation
        self.size = size
        self.workFormat = workFormat
        self.encodingFormat = encodingFormat
        self.quality = quality
    }
}
