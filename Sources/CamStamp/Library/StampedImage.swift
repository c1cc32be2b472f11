// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import PhotoMetadata

/// One image as `Stamper` gives it back: the encoded file, its format and size, and a report.
public struct StampedImage: Sendable, Equatable {
    /// The whole encoded file (JPEG or PNG, metadata included), ready to write or send.
    public var data: Data
    /// The encoded format.
    public var format: ImageFormat
    /// The upright width in pixels (after EXIF orientation and `maxSize`).
    public var width: Int
    /// The upright height in pixels.
    public var height: Int
    /// What went with the picture, and what a user should hear about.
    public var report: StampReport
}

/// What happened to one image besides its marks.
public struct StampReport: Sendable, Equatable {
    /// One line per thing worth telling, as `camstamp batch` prints them: damaged data stamped as
    /// far as it decodes, metadata left out, a motion photo's video not carried. Empty when all went well.
    public var warnings: [String]
    /// The metadata the output carries.
    public var metadata: CarriedMetadata
}

/// The metadata blocks an output file holds, read back from the file itself.
public struct CarriedMetadata: Sendable, Equatable {
    /// EXIF (camera, exposure, dates; Orientation is 1 since the pixels are upright).
    public var exif: Bool
    /// Whether the EXIF has a GPS position.
    public var gps: Bool
    /// An ICC colour profile.
    public var icc: Bool
    /// An XMP packet.
    public var xmp: Bool
    /// IPTC-IIM (captions, credits, keywords).
    public var iptc: Bool

    /// A value with each block present or not.
    public init(exif: Bool = false, gps: Bool = false, icc: Bool = false, xmp: Bool = false, iptc: Bool = false) {
        self.exif = exif
        self.gps = gps
        self.icc = icc
        self.xmp = xmp
        self.iptc = iptc
    }

    /// What `file` holds, read as `camstamp` reads a photo; an unreadable block counts as absent.
    init(reading file: Data) {
        guard let metadata = try? ImageMetadata(imageData: file) else {
            self.init()
            return
        }
        self.init(
            exif: metadata.exif != nil, gps: metadata.exif?.hasGPS ?? false, icc: metadata.icc != nil,
            xmp: metadata.xmp != nil, iptc: metadata.iptc != nil)
    }
}
