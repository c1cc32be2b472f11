// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Media
import PhotoMetadata

/// The pixel at (x, y) of an image file as (r, g, b), decoded by GStreamer.
func rgb(_ frame: VideoFrame, _ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) {
    (try? frame.withMapped { mapped in
        let p = mapped.plane(0), offset = y * mapped.stride(0) + x * 4
        return (Int(p[offset]), Int(p[offset + 1]), Int(p[offset + 2]))
    }) ?? (0, 0, 0)
}

/// The quantisation tables (DQT payloads) of a JPEG, in file order.
func quantisationTables(_ file: URL) throws -> [Data] {
    try JPEGStructure(parsing: Data(contentsOf: file)).segments.filter { $0.marker == 0xDB }.map(\.payload)
}
