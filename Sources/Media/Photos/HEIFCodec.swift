// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CGStreamer
internal import CGstVideo
import Foundation
internal import CHeif

/// A HEIF file (HEIC from a phone, or AVIF) opened with libheif: the primary picture's size and
/// metadata, then its pixels on demand. libheif applies the file's `irot`/`imir`/`clap`
/// transforms, so the picture comes out upright and its size here is the upright size: an EXIF
/// Orientation in the file describes the same turn and must not be applied again.
public final class HEIFFile: @unchecked Sendable {
    private let context: OpaquePointer
    private let handle: OpaquePointer
    /// The file's bytes, copied once into memory owned here: libheif reads from them without a
    /// copy of its own for as long as the context lives.
    private let bytes: UnsafeMutableRawBufferPointer
    public let width: Int
    public let height: Int
    public let hasAlpha: Bool
    /// Bits per sample of the coded picture (8, or 10 and 12 for HDR); it is decoded at 8.
    public let bitsPerSample: Int
    /// The top-level pictures the file holds (a burst, a Live Photo's frames): its primary one is
    /// the picture read here.
    public let pictures: Int
    /// The EXIF block as TIFF (header `II*\0`/`MM\0*` first), without HEIF's 4-byte offset.
    public private(set) var exif: Data?
    /// The XMP packet (a `mime` item of type `application/rdf+xml`).
    public private(set) var xmp: Data?
    /// The ICC profile (`colr` box of type `prof` or `rICC`).
    public private(set) var icc: Data?
    /// The `colr` nclx colour primaries (ITU-T H.273: 1 BT.709/sRGB, 12 Display P3), when the
    /// file describes its colours that way instead of with an ICC profile.
    public private(set) var nclxPrimaries: Int?

    public init(_ data: Data) throws(MediaError) {
        HEIF.start()
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, data.count), alignment: 16)
        _ = data.copyBytes(to: bytes)
        guard let context = heif_context_alloc() else {
            bytes.deallocate()
            throw HEIF.failure("cannot start libheif")
        }
        let read = heif_context_read_from_memory_without_copy(context, bytes.baseAddress, data.count, nil)
        var handle: OpaquePointer?
        let primary = read.code == heif_error_Ok ? heif_context_get_primary_image_handle(context, &handle) : read
        guard primary.code == heif_error_Ok, let handle else {
            // The message is the context's: read before the context goes (after, it read freed
            // memory: "libheif: \u{FFFD}\t…" for a cut file, now and then).
            let failure = HEIF.failure(primary)
            heif_context_free(context)
            bytes.deallocate()
            throw failure
        }
        self.bytes = bytes
        self.context = context
        self.handle = handle
        width = Int(heif_image_handle_get_width(handle))
        height = Int(heif_image_handle_get_height(handle))
        hasAlpha = heif_image_handle_has_alpha_channel(handle) != 0
        // -1 when the file does not say: taken for 8.
        bitsPerSample = max(8, Int(heif_image_handle_get_luma_bits_per_pixel(handle)))
        pictures = Int(heif_context_get_number_of_top_level_images(context))
        exif = metadata(type: "Exif").flatMap(Self.tiff(inExifItem:))
        xmp = metadata(type: "mime", contentType: "application/rdf+xml")
        let size = heif_image_handle_get_raw_color_profile_size(handle)
        if size > 0 {
            var profile = Data(count: size)
            let got = profile.withUnsafeMutableBytes { heif_image_handle_get_raw_color_profile(handle, $0.baseAddress) }
            if got.code == heif_error_Ok { icc = profile }
        }
        var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
        if heif_image_handle_get_nclx_color_profile(handle, &nclx).code == heif_error_Ok, let nclx {
            nclxPrimaries = Int(nclx.pointee.color_primaries.rawValue)
            heif_nclx_color_profile_free(nclx)
        }
    }

    deinit {
        heif_image_handle_release(handle)
        heif_context_free(context)
        bytes.deallocate()
    }

    /// The first metadata item of `type` (and `contentType` for `mime` items).
    private func metadata(type: String, contentType: String? = nil) -> Data? {
        var ids = [heif_item_id](repeating: 0, count: 16)
        let count = Int(heif_image_handle_get_list_of_metadata_block_IDs(handle, type, &ids, 16))
        for id in ids.prefix(count) {
            if let contentType {
                guard let found = heif_image_handle_get_metadata_content_type(handle, id),
                    String(cString: found) == contentType
                else { continue }
            }
            let size = heif_image_handle_get_metadata_size(handle, id)
            guard size > 0 else { continue }
            var data = Data(count: size)
            let got = data.withUnsafeMutableBytes { heif_image_handle_get_metadata(handle, id, $0.baseAddress) }
            if got.code == heif_error_Ok { return data }
        }
        return nil
    }

    /// A HEIF Exif item is a 4-byte big-endian offset to the TIFF header, then (usually
    /// `Exif\0\0` and) the TIFF block; nil when the offset points nowhere sensible.
    static func tiff(inExifItem item: Data) -> Data? {
        let b = [UInt8](item)
        guard b.count > 8 else { return nil }
        let offset = Int(b[0]) << 24 | Int(b[1]) << 16 | Int(b[2]) << 8 | Int(b[3])
        var start = 4 + offset
        // Some writers put the offset of "Exif\0\0" rather than of the TIFF header.
        if start + 6 <= b.count, b[start..<start + 6].elementsEqual([0x45, 0x78, 0x69, 0x66, 0, 0]) { start += 6 }
        guard start + 8 <= b.count, b[start] == b[start + 1], b[start] == 0x49 || b[start] == 0x4D else { return nil }
        return Data(b[start...])
    }

    /// Decodes the primary picture, upright, to packed 8-bit RGB (RGBA with alpha).
    public func decode() throws(MediaError) -> DecodedPicture {
        try GStreamer.initialize()
        return try withPixels { pixels in
            Result { () throws(MediaError) in
                try DecodedPicture.packed(width: pixels.width, height: pixels.height, alpha: hasAlpha, warning: nil) {
                    UnsafeRawPointer(pixels.base + $0 * pixels.stride)
                }
            }
        }.get()
    }

    /// libheif's decoded plane: packed 8-bit RGB (RGBA with alpha), `stride` bytes a row.
    public struct Pixels {
        public let base: UnsafeMutableRawPointer
        public let stride: Int
        public let width: Int
        public let height: Int
        public let bytesPerPixel: Int
    }

    /// Decodes the primary picture, upright, and gives `body` libheif's own plane, no copy of it:
    /// `decode` copies it into a buffer a pipeline takes, a reader of the pixels (the invisible
    /// mark's) needs no pipeline. Valid only inside `body`.
    public func withPixels<R>(_ body: (Pixels) -> R) throws(MediaError) -> R {
        var image: OpaquePointer?
        let chroma = hasAlpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB
        let decoded = heif_decode_image(handle, &image, heif_colorspace_RGB, chroma, nil)
        guard decoded.code == heif_error_Ok, let image else { throw HEIF.failure(decoded) }
        defer { heif_image_release(image) }
        let width = Int(heif_image_get_width(image, heif_channel_interleaved))
        let height = Int(heif_image_get_height(image, heif_channel_interleaved))
        var stride: Int32 = 0
        guard width > 0, height > 0, let plane = heif_image_get_plane(image, heif_channel_interleaved, &stride) else {
            throw HEIF.failure("libheif gave no picture")
        }
        return body(
            Pixels(
                base: UnsafeMutableRawPointer(plane), stride: Int(stride), width: width, height: height,
                bytesPerPixel: hasAlpha ? 4 : 3))
    }
}

/// Writing HEIC (HEVC through x265) and AVIF (AV1 through aom) with libheif.
public enum HEIFEncoder {
    public enum Codec: Sendable { case hevc, av1 }

    /// Whether this libheif has an encoder for `codec` (Debian's libheif1 1.15 links x265 and aom).
    public static func isAvailable(_ codec: Codec) -> Bool {
        HEIF.start()
        return heif_have_encoder_for_format(codec == .hevc ? heif_compression_HEVC : heif_compression_AV1) != 0
    }

    /// `image` encoded as one primary picture (upright: no transform boxes) at `quality` (0…100),
    /// with `icc` as its colour profile and `exif` (a TIFF block) and `xmp` as metadata items.
    public static func encode(
        _ image: RawImage, codec: Codec, quality: Int, icc: Data?, exif: Data?, xmp: Data?
    ) throws(MediaError) -> Data {
        HEIF.start()
        guard let context = heif_context_alloc() else { throw HEIF.failure("cannot start libheif") }
        defer { heif_context_free(context) }
        var picture: OpaquePointer?
        let chroma = image.hasAlpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB
        try check(heif_image_create(Int32(image.width), Int32(image.height), heif_colorspace_RGB, chroma, &picture))
        guard let picture else { throw HEIF.failure("libheif made no picture") }
        defer { heif_image_release(picture) }
        try check(heif_image_add_plane(picture, heif_channel_interleaved, Int32(image.width), Int32(image.height), 8))
        var stride: Int32 = 0
        guard let plane = heif_image_get_plane(picture, heif_channel_interleaved, &stride) else {
            throw HEIF.failure("libheif gave no plane")
        }
        let rowBytes = image.width * image.channels
        image.pixels.withUnsafeBytes { source in
            for row in 0..<image.height {
                (plane + row * Int(stride)).update(
                    from: source.baseAddress!.advanced(by: row * image.stride).assumingMemoryBound(to: UInt8.self),
                    count: rowBytes)
            }
        }
        if let icc {
            try check(
                icc.withUnsafeBytes { heif_image_set_raw_color_profile(picture, "prof", $0.baseAddress, $0.count) })
        }
        var encoder: OpaquePointer?
        try check(
            heif_context_get_encoder_for_format(
                context, codec == .hevc ? heif_compression_HEVC : heif_compression_AV1, &encoder))
        guard let encoder else { throw HEIF.failure("libheif has no \(codec == .hevc ? "HEVC" : "AV1") encoder") }
        defer { heif_encoder_release(encoder) }
        try check(heif_encoder_set_lossy_quality(encoder, Int32(max(0, min(100, quality)))))
        // 4:2:0, as phones write: what every HEIC/AVIF viewer plays (Debian's aom also fails on 4:4:4).
        _ = heif_encoder_set_parameter_string(encoder, "chroma", "420")
        // libheif starts x265 at its "slow" preset: ~50 s of CPU for a 12 MP photo here, against ~6 s
        // at "medium" (x265's own default) for a file within 3 % of the size.
        if codec == .hevc { _ = heif_encoder_set_parameter_string(encoder, "preset", "medium") }
        // aom's default speed takes tens of seconds for a 12 MP photo; 6 is its quick-but-sound setting.
        if codec == .av1 { _ = heif_encoder_set_parameter_integer(encoder, "speed", 6) }
        var handle: OpaquePointer?
        try check(heif_context_encode_image(context, picture, encoder, nil, &handle))
        guard let handle else { throw HEIF.failure("libheif encoded no picture") }
        defer { heif_image_handle_release(handle) }
        if let exif {
            try check(
                exif.withUnsafeBytes {
                    heif_context_add_exif_metadata(context, handle, $0.baseAddress, Int32($0.count))
                })
        }
        if let xmp {
            try check(
                xmp.withUnsafeBytes { heif_context_add_XMP_metadata(context, handle, $0.baseAddress, Int32($0.count)) })
        }
        let sink = HEIFSink()
        var writer = heif_writer(writer_api_version: 1) { _, data, size, userdata in
            if let data, let userdata {
                Unmanaged<HEIFSink>.fromOpaque(userdata).takeUnretainedValue().data.append(
                    data.assumingMemoryBound(to: UInt8.self), count: size)
            }
            return heif_error(code: heif_error_Ok, subcode: heif_suberror_Unspecified, message: HEIF.okMessage)
        }
        try check(heif_context_write(context, &writer, Unmanaged.passUnretained(sink).toOpaque()))
        return withExtendedLifetime(sink) { sink.data }
    }

    private static func check(_ error: heif_error) throws(MediaError) {
        guard error.code == heif_error_Ok else { throw HEIF.failure(error) }
    }
}

/// Collects what heif_context_write writes.
private final class HEIFSink {
    var data = Data()
}

enum HEIF {
    /// heif_init once per process: it loads libheif's plugins (counted; never undone here).
    private static let started: Bool = { heif_init(nil).code == heif_error_Ok }()
    /// A message for success: libheif wants one, and a static string outlives every call.
    static var okMessage: UnsafePointer<CChar> {
        UnsafeRawPointer(("Success" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self)
    }

    static func start() { _ = started }

    static func failure(_ error: heif_error) -> MediaError {
        // One line: libheif ends some messages with a newline.
        let message = error.message.map {
            String(cString: $0).split(whereSeparator: \.isNewline).joined(separator: " ")
        }
        return failure(message.flatMap { $0.isEmpty ? nil : $0 } ?? "error \(error.code.rawValue)")
    }

    static func failure(_ message: String) -> MediaError {
        .picture(library: "libheif", message: message)
    }
}

extension DecodedPicture {
    /// A picture of packed 8-bit RGB (RGBA with `alpha`) rows, copied from `row(y)` into a
    /// GstBuffer laid out as GStreamer wants it (rows padded to 4 bytes).
    static func packed(
        width: Int, height: Int, alpha: Bool, warning: String?,
        row: (Int) -> UnsafeRawPointer
    ) throws(MediaError) -> DecodedPicture {
        let rowBytes = width * (alpha ? 4 : 3)
        return try filled(
            alpha ? GST_VIDEO_FORMAT_RGBA : GST_VIDEO_FORMAT_RGB, width: width, height: height,
            element: "decoder", what: "picture"
        ) { data, stride in
            for y in 0..<height {
                (data + y * stride).update(from: row(y).assumingMemoryBound(to: UInt8.self), count: rowBytes)
            }
            return warning
        }
    }
}
