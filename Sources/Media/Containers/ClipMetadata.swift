// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import ISOBMFF

/// What a marked MP4 or MOV clip keeps of its source's container metadata that GStreamer 1.22's
/// qtmux/mp4mux cannot write (its creation time, location, camera and `mdta` keys), put into the
/// finished output file by `ContainerMetadata` (ISOBMFF). See docs/gstreamer-workarounds.md.
public enum ClipMetadata {
    /// Sets `output`'s creation times to `created` and copies `source`'s location, make/model
    /// and `mdta` keys into it (without the location when `keepLocation` is false; the `encoder`
    /// key never: the output's encoder is not the source's). Both are MP4 or MOV files.
    public static func carry(from source: URL, into output: URL, created: Date?, keepLocation: Bool) throws(MediaError)
    {
        do {
            try ContainerMetadata.carry(from: source, into: output, created: created, keepLocation: keepLocation)
        } catch {
            throw MediaError(error)
        }
    }
}
