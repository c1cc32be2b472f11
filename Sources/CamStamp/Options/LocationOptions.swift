// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// `--gps` and `--strip-gps` of shoot, camera and stream.
public struct LocationOptions: Sendable, Equatable {
    /// Where the position comes from (`--gps`, default `auto`).
    public var gps: GPSOption
    /// `--strip-gps`: photos get no EXIF GPS tags (the marks still show the position).
    public var stripGPS: Bool

    /// Options with the defaults: gpsd when it runs, the position written into photos.
    public init(gps: GPSOption = .auto, stripGPS: Bool = false) {
        self.gps = gps
        self.stripGPS = stripGPS
    }
}
