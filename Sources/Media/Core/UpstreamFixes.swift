// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CGStreamer
internal import CGstApp
internal import CGstVideo

extension GStreamer {
    /// A GStreamer release, as `gst_version` gives it.
    package struct Version: Comparable, Sendable, CustomStringConvertible {
        package var major: Int
        package var minor: Int
        package var micro: Int

        package init(_ major: Int, _ minor: Int, _ micro: Int) {
            self.major = major
            self.minor = minor
            self.micro = micro
        }

        package var description: String { "\(major).\(minor).\(micro)" }

        package static func < (lhs: Version, rhs: Version) -> Bool {
            (lhs.major, lhs.minor, lhs.micro) < (rhs.major, rhs.minor, rhs.micro)
        }

        package static func >= (lhs: Version, rhs: (Int, Int, Int)) -> Bool {
            lhs >= Version(rhs.0, rhs.1, rhs.2)
        }
    }

    /// The GStreamer library this process runs with (not the headers it was built against): what
    /// says whether a workaround is still needed.
    package static let runtime: Version = {
        var major: guint = 0, minor: guint = 0, micro: guint = 0, nano: guint = 0
        gst_version(&major, &minor, &micro, &nano)
        return Version(Int(major), Int(minor), Int(micro))
    }()
}

/// The GStreamer bugs camstamp works around whose upstream fix is known, and the releases that
/// carry it (docs/gstreamer-workarounds.md lists every workaround, these and the others). Each
/// workaround asks `isFixed` and stands aside on a GStreamer that has its fix.
package enum UpstreamFix: CaseIterable, Sendable {
    /// decodebin3 holds back each stream's end until every stream has ended (gst-plugins-base
    /// 701165227f, "decodebin3: Remove custom EOS handling", issue #3666; 1.26.0):
    /// `ClipPipeline.passStreamEnds`.
    case decodebin3HoldsStreamEnds
    /// pngdec gives a 16-bit RGB PNG (colour type 2) as ARGB where its caps say RGBA
    /// (gst-plugins-good 476d350b03, "pngdec: Fix 16bit RGB images display"; 1.24.0, and 1.22.4
    /// by f44a18ee97): `PhotoFacts.isWidePNG`.
    case pngdecWideRGB

    /// Whether GStreamer `version` has the fix.
    package func isFixed(in version: GStreamer.Version) -> Bool {
        switch self {
        case .decodebin3HoldsStreamEnds: version >= (1, 26, 0)
        case .pngdecWideRGB:
            version >= (1, 24, 0) || (version.major == 1 && version.minor == 22 && version >= (1, 22, 4))
        }
    }

    /// Whether the GStreamer this process runs with has the fix.
    package var isFixed: Bool { isFixed(in: GStreamer.runtime) }
}
