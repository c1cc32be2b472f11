// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// Cairo, PangoCairo and librsvg all include cairo.h (see COwners.swift): all three are imported.
internal import CCairo
internal import CPangoCairo
internal import CRsvg
import Foundation

/// A photo's PNG decoded by Cairo: 8-bit samples as B, G, R, A bytes with straight (not
/// premultiplied) alpha, rows `stride` bytes apart; GStreamer calls this layout BGRA.
public struct DecodedPNG: Sendable {
    public var width: Int
    public var height: Int
    public var stride: Int
    public var pixels: [UInt8]
    /// No pixel is transparent (Cairo read it as RGB24: the alpha bytes are 255).
    public var opaque: Bool
}

/// Cairo's PNG reader for photos GStreamer cannot decode right: GStreamer 1.22's pngdec gives
/// 16-bit PNGs with colour or alpha shifted by one sample (a 16-bit RGB photo comes out half
/// transparent with its colours rotated). Cairo reads them through libpng reduced to 8 bits,
/// which is all the output keeps anyway.
public enum PhotoPNGDecoder {
    public static func decode(_ data: Data) throws(RenderError) -> DecodedPNG {
        final class Reader {
            let data: Data
            var offset = 0
            init(_ data: Data) { self.data = data }
        }
        let reader = Reader(data)
        let surface = withExtendedLifetime(reader) {
            CairoSurface(
                adopting: cairo_image_surface_create_from_png_stream(
                    { closure, buffer, length in
                        let reader = Unmanaged<Reader>.fromOpaque(closure!).takeUnretainedValue()
                        let count = Int(length)
                        guard let buffer, reader.data.count - reader.offset >= count else {
                            return CAIRO_STATUS_READ_ERROR
                        }
                        let start = reader.data.startIndex + reader.offset
                        reader.data.copyBytes(to: buffer, from: start..<start + count)
                        reader.offset += count
                        return CAIRO_STATUS_SUCCESS
                    }, Unmanaged.passUnretained(reader).toOpaque()))
        }
        guard surface.status == CAIRO_STATUS_SUCCESS else {
            throw .photoPNGUnreadable(reason: String(cString: cairo_status_to_string(surface.status)))
        }
        let format = cairo_image_surface_get_format(surface.pointer)
        guard format == CAIRO_FORMAT_ARGB32 || format == CAIRO_FORMAT_RGB24 else {
            throw .photoPNGUnreadable(reason: "Cairo gave an unexpected pixel format (\(format.rawValue))")
        }
        let opaque = format == CAIRO_FORMAT_RGB24
        let (width, height, stride) = (surface.width, surface.height, surface.stride)
        var pixels = [UInt8](repeating: 0, count: stride * height)
        surface.withMutableBytes { source, _ in
            pixels.withUnsafeMutableBufferPointer { target in
                for y in 0..<height {
                    let row = source + y * stride, out = target.baseAddress! + y * stride
                    for x in 0..<width {
                        // Native-endian ARGB words: B, G, R, A bytes on little-endian.
                        let word = UnsafeRawPointer(row + 4 * x).loadUnaligned(as: UInt32.self)
                        let alpha = opaque ? 255 : Int(word >> 24)
                        // Cairo premultiplies; GStreamer's BGRA is straight alpha.
                        func channel(_ shift: UInt32) -> UInt8 {
                            let value = Int(word >> shift & 0xFF)
                            return alpha == 255
                                ? UInt8(value) : alpha == 0 ? 0 : UInt8(min(255, (value * 255 + alpha / 2) / alpha))
                        }
                        out[4 * x] = channel(0)
                        out[4 * x + 1] = channel(8)
                        out[4 * x + 2] = channel(16)
                        out[4 * x + 3] = UInt8(alpha)
                    }
                }
            }
        }
        return DecodedPNG(width: width, height: height, stride: stride, pixels: pixels, opaque: opaque)
    }
}
