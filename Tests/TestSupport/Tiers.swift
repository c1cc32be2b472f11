// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// The two tiers: `make test` runs every suite; `make check`, the unit tier, runs the suites that
// need no camera, server, browser or GStreamer pipeline, in seconds. It hides GStreamer's
// plugins from them (so a test there that starts using an element fails at once, and says which)
// and sets CAMSTAMP_UNIT_TIER, which skips, by name, the few tests of those suites that do run
// elements.
import Foundation
import Testing

/// Whether this run is `make check`'s unit tier.
package let inUnitTier = ProcessInfo.processInfo.environment["CAMSTAMP_UNIT_TIER"] != nil

extension Trait where Self == ConditionTrait {
    /// The test runs GStreamer elements: `make test` runs it, the unit tier (`make check`) skips it.
    package static var runsGStreamerElements: Self {
        .enabled(if: !inUnitTier, "runs GStreamer elements: make test runs it, make check (the unit tier) does not")
    }
}
