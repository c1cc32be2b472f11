// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
@testable import Media

/// The version gate of the GStreamer workarounds: read from the library this process runs
/// with, and each fix known from the releases that carry it, no earlier.
@Suite struct UpstreamFixTests {
    /// The runtime version is the one `camstamp --version` shows.
    @Test func theRuntimeIsTheLibrarysVersion() {
        #expect(GStreamer.runtime.description == GStreamer.version)
        #expect(GStreamer.runtime >= (1, 0, 0))
    }

    /// Releases compare by major, minor, then micro.
    @Test func releasesCompareInOrder() {
        #expect(GStreamer.Version(1, 22, 0) < GStreamer.Version(1, 22, 12))
        #expect(GStreamer.Version(1, 22, 12) < GStreamer.Version(1, 24, 0))
        #expect(GStreamer.Version(1, 24, 3) >= (1, 24, 3))
        #expect(!(GStreamer.Version(1, 25, 90) >= (1, 26, 0)))
        #expect(GStreamer.Version(2, 0, 0) >= (1, 26, 0))
    }

    /// decodebin3's ends from 1.26.0 on; pngdec's 16-bit RGB from 1.22.4 in the 1.22 series and
    /// from 1.24.0, not in a 1.23 development release before it.
    @Test func eachFixFromItsReleases() {
        let decodebin3 = UpstreamFix.decodebin3HoldsStreamEnds
        #expect(!decodebin3.isFixed(in: GStreamer.Version(1, 24, 12)))
        #expect(decodebin3.isFixed(in: GStreamer.Version(1, 26, 0)))
        let png = UpstreamFix.pngdecWideRGB
        #expect(!png.isFixed(in: GStreamer.Version(1, 22, 3)))
        #expect(png.isFixed(in: GStreamer.Version(1, 22, 4)))
        #expect(!png.isFixed(in: GStreamer.Version(1, 23, 0)))
        #expect(png.isFixed(in: GStreamer.Version(1, 24, 0)))
    }

    /// Debian 12's GStreamer (1.22.0) has none of them: every workaround runs there.
    @Test func debian12HasNoneOfTheFixes() {
        #expect(UpstreamFix.allCases.allSatisfy { !$0.isFixed(in: GStreamer.Version(1, 22, 0)) })
    }
}
