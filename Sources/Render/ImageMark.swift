// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CCairo
internal import CPangoCairo
internal import CRsvg
import Foundation
import Presets

extension MarkRenderer {
    /// Decodes a PNG (Cairo) or SVG (librsvg) and draws it at its final pixel size: `width` and/or
    /// `height` (the other follows the aspect ratio), or the natural size when neither is given.
    func renderImage(_ url: URL, width: Double?, height: Double?) throws(RenderError) -> CairoSurface {
        switch try images.image(at: url) {
        case .png(let image): try drawPNG(image, width: width, height: height, url: url)
        case .svg(let handle, _): try drawSVG(handle, width: width, height: height, url: url)
        }
    }

    private func drawPNG(
        _ image: CairoSurface, width: Double?, height: Double?, url: URL
    ) throws(RenderError) -> CairoSurface {
        let natural = (width: Double(image.width), height: Double(image.height))
        let size = try finalSize(natural: natural, width: width, height: height, url: url)
        // Always redrawn onto ARGB32: Cairo loads opaque PNGs as RGB24, whose fourth byte is undefined.
        let output = try CairoSurface(format: CAIRO_FORMAT_ARGB32, width: size.width, height: size.height)
        let cr = CairoContext(output)
        cairo_scale(cr.pointer, Double(size.width) / natural.width, Double(size.height) / natural.height)
        cairo_set_source_surface(cr.pointer, image.pointer, 0, 0)
        // GOOD filters properly when shrinking; PAD keeps the edges from fading to transparent.
        cairo_pattern_set_filter(cairo_get_source(cr.pointer), CAIRO_FILTER_GOOD)
        cairo_pattern_set_extend(cairo_get_source(cr.pointer), CAIRO_EXTEND_PAD)
        cairo_paint(cr.pointer)
        return output
    }

    private func drawSVG(
        _ handle: SVGHandle, width: Double?, height: Double?, url: URL
    ) throws(RenderError) -> CairoSurface {
        let natural = try naturalSize(of: handle, url: url, fallback: (width, height))
        // width="1e30" or viewBox="0 0 1 1e30": finite, but no mark can be drawn from it.
        let ratio = natural.width / natural.height
        guard natural.width.isFinite, natural.height.isFinite, ratio <= Self.maxAspect, ratio >= 1 / Self.maxAspect
        else {
            throw .imageUnreadable(
                url,
                reason:
                    "its size, \(pixels(natural.width))x\(pixels(natural.height)) (from its width, height or viewBox), is too far out of proportion to draw (at most \(Int(Self.maxAspect)):1); fix the SVG's width, height and viewBox"
            )
        }
        let size = try finalSize(natural: natural, width: width, height: height, url: url)
        let output = try CairoSurface(format: CAIRO_FORMAT_ARGB32, width: size.width, height: size.height)
        let cr = CairoContext(output)
        // Vector scaling to the final size: crisp at any resolution. Scaling the context (rather
        // than passing the final size as the viewport) stretches like a PNG when both sides are given.
        cairo_scale(cr.pointer, Double(size.width) / natural.width, Double(size.height) / natural.height)
        var viewport = RsvgRectangle(x: 0, y: 0, width: natural.width, height: natural.height)
        var error: UnsafeMutablePointer<GError>?
        guard rsvg_handle_render_document(handle.pointer, cr.pointer, &viewport, &error) != 0 else {
            throw .imageUnreadable(url, reason: consume(error))
        }
        return output
    }

    /// The SVG's size in pixels: its width and height, else its viewBox, else the requested size.
    private func naturalSize(
        of handle: SVGHandle, url: URL,
        fallback: (Double?, Double?)
    ) throws(RenderError) -> (width: Double, height: Double) {
        var w = 0.0, h = 0.0
        if rsvg_handle_get_intrinsic_size_in_pixels(handle.pointer, &w, &h) != 0, w > 0, h > 0 {
            return (w, h)
        }
        var hasWidth: gboolean = 0, hasHeight: gboolean = 0, hasViewBox: gboolean = 0
        var viewBox = RsvgRectangle()
        rsvg_handle_get_intrinsic_dimensions(handle.pointer, &hasWidth, nil, &hasHeight, nil, &hasViewBox, &viewBox)
        if hasViewBox != 0, viewBox.width > 0, viewBox.height > 0 { return (viewBox.width, viewBox.height) }
        if let fw = fallback.0, let fh = fallback.1, fw > 0, fh > 0 { return (fw, fh) }
        throw .imageUnreadable(url, reason: "the SVG has no size or viewBox; give the mark both a width and a height")
    }

    /// Whole-pixel output size; aspect kept when only one side is given.
    private func finalSize(
        natural: (width: Double, height: Double), width: Double?, height: Double?,
        url: URL
    ) throws(RenderError) -> (width: Int, height: Int) {
        guard natural.width > 0, natural.height > 0 else { throw .imageUnreadable(url, reason: "the image is empty") }
        let w = width.flatMap { $0 > 0 ? $0 : nil }, h = height.flatMap { $0 > 0 ? $0 : nil }
        let size: (Double, Double) =
            switch (w, h) {
            case let (w?, h?): (w, h)
            case let (w?, nil): (w, w * natural.height / natural.width)
            case let (nil, h?): (h * natural.width / natural.height, h)
            case (nil, nil): (natural.width, natural.height)
            }
        let rounded = (width: max(1, size.0.rounded()), height: max(1, size.1.rounded()))
        do {
            return try CairoSurface.size(width: rounded.width, height: rounded.height)
        } catch {
            throw .imageTooLarge(url, width: rounded.width, height: rounded.height)
        }
    }

    /// Wider or taller than this, an image (an SVG's declared size) is a mistake: drawn at a mark's
    /// size one side would be a fraction of a pixel or the other beyond any surface.
    static let maxAspect = 10_000.0
}

/// What an image file holds, told by its first bytes (and `.svg`/`.svgz` for SVG).
enum ImageKind {
    case png, svg

    init(of url: URL, head: Data) throws(RenderError) {
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            // The size is in the IHDR chunk that must come first: refuse a huge PNG before Cairo
            // tries to allocate it (a 30000² logo failed with "out of memory").
            if head.count >= 24 {
                let bytes = Array(head.prefix(24))
                func word(_ i: Int) -> Int { bytes[i..<i + 4].reduce(0) { $0 << 8 | Int($1) } }
                let (width, height) = (word(16), word(20))
                if width > CairoSurface.maxSide || height > CairoSurface.maxSide
                    || width * height > CairoSurface.maxPixels
                {
                    throw .imageFileTooLarge(url, width: width, height: height)
                }
            }
            self = .png
            return
        }
        let ext = url.pathExtension.lowercased()
        let text = String(decoding: head, as: UTF8.self)
        if ext == "svg" || ext == "svgz" || text.contains("<svg") {
            self = .svg
            return
        }
        throw .imageNotPNGOrSVG(url)
    }
}

extension RegularFile {
    /// Opens a mark's image, or says why it cannot be used.
    static func image(_ url: URL) throws(RenderError) -> RegularFile {
        do { return try RegularFile(opening: url) } catch {
            switch error {
            case .missing: throw .imageNotFound(url)
            case .folder:
                throw .imageUnreadable(url, reason: "it is a folder, not a file; give the path of a PNG or SVG file")
            case .notRegular, .tooLarge, .failed:
                throw .imageUnreadable(url, reason: "it \(error); give the path of a PNG or SVG file")
            }
        }
    }
}

typealias SVGHandle = GObjectRef<UnsafeMutablePointer<RsvgHandle>>

/// The largest SVG file a mark decodes: logos are kilobytes, a detailed drawing a few megabytes.
let maxSVGBytes = 10 << 20

/// Decoded images by file, so a logo is decoded once per renderer, not once per frame size or
/// photo. An entry is used only while the file's size and modification time are unchanged.
final class ImageCache {
    enum Image {
        case png(CairoSurface)
        /// The folder its references are resolved in lives as long as the handle: librsvg loads
        /// them when it draws.
        case svg(SVGHandle, SVGFolder?)
    }

    private struct Key: Hashable {
        var path: String, size: Int, modified: Date
    }

    private var entries: [Key: Image] = [:]
    /// Kept small: marks use a handful of logos.
    private let capacity = 16

    func image(at url: URL) throws(RenderError) -> Image {
        // stat(2), not FileManager's attributes: those look up the owner's and group's names
        // (reading /etc/passwd and /etc/group) and the extended attributes, for every photo.
        var info = stat()
        let key =
            stat(url.path, &info) == 0
            ? Key(
                path: url.path, size: Int(info.st_size),
                modified: Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9))
            : nil
        if let key, let image = entries[key] { return image }
        let image = try Self.decode(url)
        if let key {
            if entries.count >= capacity { entries.removeAll() }
            entries[key] = image
        }
        return image
    }

    private static func decode(_ url: URL) throws(RenderError) -> Image {
        let file = try RegularFile.image(url)
        let head: Data
        do { head = try file.read(upTo: 1024) } catch { throw .imageUnreadable(url, reason: "it \(error)") }
        switch try ImageKind(of: url, head: head) {
        case .png: return .png(try png(file, url: url))
        case .svg: return try svg(file, url: url)
        }
    }

    /// Decodes the PNG from the open file (not by path again: the path may name another file by now).
    private static func png(_ file: RegularFile, url: URL) throws(RenderError) -> CairoSurface {
        guard lseek(file.descriptor, 0, SEEK_SET) == 0 else {
            throw .imageUnreadable(url, reason: String(cString: strerror(errno)))
        }
        let image = withExtendedLifetime(file) {
            CairoSurface(
                adopting: cairo_image_surface_create_from_png_stream(
                    { closure, buffer, length in
                        let file = Unmanaged<RegularFile>.fromOpaque(closure!).takeUnretainedValue()
                        guard let buffer, let chunk = try? file.read(upTo: Int(length)), chunk.count == Int(length)
                        else {
                            return CAIRO_STATUS_READ_ERROR
                        }
                        chunk.copyBytes(to: buffer, count: chunk.count)
                        return CAIRO_STATUS_SUCCESS
                    }, Unmanaged.passUnretained(file).toOpaque()))
        }
        guard image.status == CAIRO_STATUS_SUCCESS else {
            throw .imageUnreadable(url, reason: String(cString: cairo_status_to_string(image.status)))
        }
        return image
    }

    /// Parses the SVG from the open file's bytes; its references are resolved in an `SVGFolder`.
    private static func svg(_ file: RegularFile, url: URL) throws(RenderError) -> Image {
        // librsvg holds the whole document tree: a 50 MB SVG took 2 GB and 14 s, per thread.
        func tooLarge(_ bytes: Int) -> RenderError {
            .imageUnreadable(
                url,
                reason: "the SVG is \(bytes >> 20) MB, more than the \(maxSVGBytes >> 20) MB a mark's "
                    + "image may be; simplify it or export it as a PNG")
        }
        guard file.size <= maxSVGBytes else { throw tooLarge(file.size) }
        guard lseek(file.descriptor, 0, SEEK_SET) == 0 else {
            throw .imageUnreadable(url, reason: String(cString: strerror(errno)))
        }
        let data: Data
        do { data = try file.readAll(limit: maxSVGBytes) } catch {
            if case .tooLarge(let bytes, _) = error { throw tooLarge(bytes) }
            throw .imageUnreadable(url, reason: "it \(error)")
        }
        // A gzipped SVG's references cannot be read here: it gets no base, so librsvg opens none.
        let gzipped = data.starts(with: [0x1F, 0x8B])
        if !gzipped { try SVGReferences.check(data, of: url) }
        let bytes = data.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(bytes) }
        let stream = g_memory_input_stream_new_from_bytes(bytes)
        defer { g_object_unref(stream) }
        // Resolved in a private folder of copies: see SVGFolder.
        let folder = gzipped ? nil : try SVGFolder(svg: data, of: url)
        let base = folder.flatMap { g_file_new_for_path($0.base.path) }
        defer { if let base { g_object_unref(UnsafeMutableRawPointer(base)) } }
        var error: UnsafeMutablePointer<GError>?
        guard let pointer = rsvg_handle_new_from_stream_sync(stream, base, RSVG_HANDLE_FLAGS_NONE, nil, &error) else {
            throw .imageUnreadable(url, reason: consume(error))
        }
        let handle = SVGHandle(adopting: pointer)
        rsvg_handle_set_dpi(handle.pointer, 96)
        return .svg(handle, folder)
    }
}
