// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import ISOBMFF

/// The GStreamer half of `ClipMediaDurations` (ISOBMFF): the durations are handed to qtdemux by
/// a pad probe on the file source. See docs/gstreamer-workarounds.md.
extension ClipMediaDurations {
    /// Has the pipeline's file source reading `file` give qtdemux these durations; nothing when
    /// no file source reads it (a user's template).
    func install(on pipeline: Pipeline, reading file: URL) {
        for change in changes {
            _ = ClipAudioEdit.rewrite(change.offset, with: change.bytes, on: pipeline, reading: file)
        }
    }
}
