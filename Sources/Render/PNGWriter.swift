// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CCairo
internal import CPangoCairo
internal import CRsvg
import Foundation

extension Bitmap {
    /// Writes the bitmap as a PNG with alpha (`cairo_surface_write_to_png`): for debugging overlays
    /// and for tests that need an image file.
    public func writePNG(to url: URL) throws {
        guard !isEmpty else { throw RenderError.pngWriteFailed(url, reason: "the bitmap is empty") }
        var copy = pixels
        let status = copy.withUnsafeMutableBufferPointer { bytes in
            // The surface borrows `bytes` and is destroyed before the buffer goes away.
            let surface = CairoSurface(
                adopting: cairo_image_surface_create_for_data(
                    bytes.baseAddress, CAIRO_FORMAT_ARGB32, Int32(width), Int32(height), Int32(stride)))
            guard surface.status == CAIRO_STATUS_SUCCESS else { return surface.status }
            return cairo_surface_write_to_png(surface.pointer, url.path)
        }
        guard status == CAIRO_STATUS_SUCCESS else {
            throw RenderError.pngWriteFailed(url, reason: String(cString: cairo_status_to_string(status)))
        }
    }
}
