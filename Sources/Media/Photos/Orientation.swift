// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
/// EXIF orientation (1…8) as the flip that makes the picture upright.
public enum Orientation: Int, Sendable, CaseIterable {
    case normal = 1, mirrored, rotated180, flipped, transposed, rotated90, transverse, rotated270

    /// videoflip's `video-direction` nick for this orientation. (Its older `method` property is
    /// deprecated and, set before the first buffer, is ignored in GStreamer 1.22.)
    var videoDirection: String {
        switch self {
        case .normal: "identity"
        case .mirrored: "horiz"
        case .rotated180: "180"
        case .flipped: "vert"
        case .transposed: "ul-lr"
        case .rotated90: "90r"
        case .transverse: "ur-ll"
        case .rotated270: "90l"
        }
    }

    /// Whether the upright picture swaps width and height.
    public var swapsAxes: Bool { rawValue >= 5 }
}
