// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CCairo
internal import CQREncode
import Foundation

/// A QR code mark: libqrencode makes the modules (level M, 8-bit, the smallest version that
/// holds the text), Cairo draws them black on white with the 4-module quiet zone a reader needs,
/// each module a whole number of pixels so no edge is blurred.
extension MarkRenderer {
    /// The side of a QR code mark whose preset gives neither `width` nor `height`: 15 % of the
    /// frame's short side (a URL's code, 29 modules and its quiet zone, gets 2-pixel modules on a
    /// 640×480 frame, 12-pixel ones on a 12 MP photo).
    static let defaultQRShare = 0.15

    func renderQR(
        _ text: String, side wanted: Double?, frameWidth: Int, frameHeight: Int
    ) throws(RenderError)
        -> CairoSurface
    {
        // Nothing to encode (a check of the preset's marks, before any photo): the white square
        // alone, of a short URL's code's size.
        let code = text.isEmpty ? nil : QRcode_encodeString8bit(text, 0, QR_ECLEVEL_M)
        guard code != nil || text.isEmpty else { throw .qrUnencodable(characters: text.count) }
        defer { if let code { QRcode_free(code) } }
        let modules = code.map { Int($0.pointee.width) } ?? 29, quiet = 4
        let total = modules + 2 * quiet
        let side = wanted ?? Double(min(frameWidth, frameHeight)) * Self.defaultQRShare
        // The nearest whole module, 2 pixels at least: a 1-pixel module does not survive a print.
        let module = max(2, Int((side / Double(total)).rounded()))
        let surface = try CairoSurface(format: CAIRO_FORMAT_ARGB32, width: module * total, height: module * total)
        let cr = CairoContext(surface)
        cairo_set_source_rgb(cr.pointer, 1, 1, 1)
        cairo_paint(cr.pointer)
        cairo_set_source_rgb(cr.pointer, 0, 0, 0)
        // Bit 0 of each byte says whether the module is dark (qrencode.h).
        for y in 0..<modules {
            guard let code else { break }
            for x in 0..<modules where code.pointee.data[y * modules + x] & 1 == 1 {
                cairo_rectangle(
                    cr.pointer, Double((x + quiet) * module), Double((y + quiet) * module), Double(module),
                    Double(module))
            }
        }
        cairo_fill(cr.pointer)
        cairo_surface_flush(surface.pointer)
        return surface
    }
}
