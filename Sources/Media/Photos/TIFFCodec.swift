// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import CGstVideo
internal import CTIFF

/// A TIFF file opened with libtiff (GStreamer has no TIFF decoder of its own): the first page's
/// size, orientation and metadata, then its pixels on demand. libtiff's RGBA reader takes every
/// sample layout a scanner or editor writes (8/16-bit, grey, palette, RGB, YCbCr, strips, tiles).
public final class TIFFFile: @unchecked Sendable {
    private let tiff: OpaquePointer
    private let stream: TIFFStream
    public let width: Int
    public let height: Int
    /// The TIFF Orientation tag (1…8, the same values as EXIF's); the pixels come out as stored.
    public let orientation: Int
    public let pages: Int
    public let hasAlpha: Bool
    /// Whether the alpha is associated (ExtraSamples 1: colours stored multiplied by alpha);
    /// false for straight alpha (ExtraSamples 2) or none.
    public let alphaIsAssociated: Bool
    /// The kinds of the extra samples (TIFF ExtraSamples), first the alpha's when there is one.
    private let extraSamples: [UInt16]
    public let bitsPerSample: Int
    public let isGrey: Bool
    /// CMYK (Photometric 5, separated): libtiff's RGBA reader takes it at 8 bits a sample only.
    public let isCMYK: Bool
    public let icc: Data?
    public let xmp: Data?
    /// Whether the page has an EXIF directory (tag 34665).
    public let hasEXIF: Bool

    public init(_ data: Data) throws(MediaError) {
        stream = TIFFStream(data)
        guard let tiff = TIFFFile.open(stream, mode: "rm") else {
            throw TIFFFile.failure(stream.messages.first ?? "not a TIFF file libtiff can read")
        }
        self.tiff = tiff
        width = Int(Self.get(tiff, TIFFTAG_IMAGEWIDTH, UInt32.self) ?? 0)
        height = Int(Self.get(tiff, TIFFTAG_IMAGELENGTH, UInt32.self) ?? 0)
        let orientation = Int(Self.get(tiff, TIFFTAG_ORIENTATION, UInt16.self) ?? 1)
        self.orientation = (1...8).contains(orientation) ? orientation : 1
        bitsPerSample = Int(Self.get(tiff, TIFFTAG_BITSPERSAMPLE, UInt16.self) ?? 8)
        let photometric = Int32(Self.get(tiff, TIFFTAG_PHOTOMETRIC, UInt16.self) ?? 2)
        isGrey = photometric == PHOTOMETRIC_MINISBLACK || photometric == PHOTOMETRIC_MINISWHITE
        isCMYK = photometric == PHOTOMETRIC_SEPARATED
        var extraCount: UInt16 = 0
        var extraTypes: UnsafeMutablePointer<UInt16>?
        _ = withVaList([
            withUnsafeMutablePointer(to: &extraCount) { $0 }, withUnsafeMutablePointer(to: &extraTypes) { $0 },
        ]) {
            TIFFVGetField(tiff, UInt32(TIFFTAG_EXTRASAMPLES), $0)
        }
        extraSamples = extraTypes.map { Array(UnsafeBufferPointer(start: $0, count: Int(extraCount))) } ?? []
        hasAlpha = extraSamples.first.map { $0 != UInt16(EXTRASAMPLE_UNSPECIFIED) } ?? false
        alphaIsAssociated = extraSamples.first == UInt16(EXTRASAMPLE_ASSOCALPHA)
        icc = Self.bytes(tiff, TIFFTAG_ICCPROFILE)
        xmp = Self.bytes(tiff, TIFFTAG_XMLPACKET)
        hasEXIF = Self.get(tiff, TIFFTAG_EXIFIFD, UInt64.self) != nil
        pages = Int(TIFFNumberOfDirectories(tiff))
        _ = TIFFSetDirectory(tiff, 0)
    }

    deinit { TIFFClose(tiff) }

    /// The first page's pixels as 8-bit RGBA (RGB when it has no alpha), rows as stored: the
    /// Orientation tag is left to the caller, as EXIF's is for a JPEG.
    public func decode() throws(MediaError) -> DecodedPicture {
        try GStreamer.initialize()
        // libtiff's RGBA reader multiplies straight alpha's colours by it (8 bits, rounded down:
        // 144 at 50 % comes out 72) and hands associated alpha's on as stored. Told (in memory
        // only) that straight alpha is associated, it hands every colour on as stored; associated
        // colours are divided by their alpha below. Either way the picture is straight, as
        // GStreamer's RGBA is, and straight colours come out exact.
        if hasAlpha, !alphaIsAssociated {
            var kinds = extraSamples
            kinds[0] = UInt16(EXTRASAMPLE_ASSOCALPHA)
            let set = kinds.withUnsafeMutableBufferPointer { pointer in
                withVaList([Int32(pointer.count), pointer.baseAddress!]) {
                    TIFFVSetField(tiff, UInt32(TIFFTAG_EXTRASAMPLES), $0)
                }
            }
            guard set != 0 else {
                throw Self.failure(stream.messages.first ?? "libtiff cannot read the picture's straight alpha")
            }
        }
        var raster = [UInt32](repeating: 0, count: width * height)
        // Asking for the file's own orientation makes libtiff flip nothing: rows come as stored.
        let ok = raster.withUnsafeMutableBufferPointer {
            TIFFReadRGBAImageOriented(tiff, UInt32(width), UInt32(height), $0.baseAddress, Int32(orientation), 0)
        }
        guard ok != 0 else { throw Self.failure(stream.messages.first ?? "libtiff cannot read the picture") }
        // Each pixel is ABGR in a native word: bytes R, G, B, A in memory on a little-endian CPU.
        let warning = stream.messages.isEmpty ? nil : stream.messages.joined(separator: "; ")
        if hasAlpha {
            if alphaIsAssociated { raster.withUnsafeMutableBytes(Self.unpremultiply) }
            return try raster.withUnsafeBytes { bytes in
                Result { () throws(MediaError) in
                    try DecodedPicture.packed(width: width, height: height, alpha: true, warning: warning) {
                        bytes.baseAddress! + $0 * width * 4
                    }
                }
            }.get()
        }
        // Packed to RGB straight into the picture's buffer: no third copy of a picture that may be
        // a hundred megapixels.
        return try raster.withUnsafeBytes { source in
            Result { () throws(MediaError) in
                try DecodedPicture.filled(
                    GST_VIDEO_FORMAT_RGB, width: width, height: height, element: "decoder",
                    what: "picture"
                ) { data, stride in
                    for y in 0..<height {
                        let from = source.baseAddress!.assumingMemoryBound(to: UInt8.self) + y * width * 4
                        let to = data + y * stride
                        for x in 0..<width {
                            to[3 * x] = from[4 * x]
                            to[3 * x + 1] = from[4 * x + 1]
                            to[3 * x + 2] = from[4 * x + 2]
                        }
                    }
                    return warning
                }
            }
        }.get()
    }

    /// Packed RGBA with colours multiplied by alpha made straight: each colour divided by its
    /// alpha, rounded; a transparent pixel keeps its (black) colours.
    private static func unpremultiply(_ pixels: UnsafeMutableRawBufferPointer) {
        for i in stride(from: 0, to: pixels.count - 3, by: 4) {
            let alpha = Int(pixels[i + 3])
            guard alpha > 0, alpha < 255 else { continue }
            for c in i..<i + 3 { pixels[c] = UInt8(min(255, (Int(pixels[c]) * 255 + alpha / 2) / alpha)) }
        }
    }

    /// `image` as an 8-bit RGB(A) TIFF, LZW-compressed with the horizontal predictor, upright
    /// (Orientation 1), with `icc` (tag 34675) and `xmp` (tag 700).
    public static func encode(_ image: RawImage, icc: Data?, xmp: Data?) throws(MediaError) -> Data {
        let stream = TIFFStream(Data())
        guard let tiff = open(stream, mode: "w") else {
            throw failure(stream.messages.first ?? "libtiff cannot start a file")
        }
        var closed = false
        defer { if !closed { TIFFClose(tiff) } }
        func set(_ tag: Int32, _ values: CVarArg...) throws(MediaError) {
            guard withVaList(values, { TIFFVSetField(tiff, UInt32(tag), $0) }) != 0 else {
                throw failure(stream.messages.first ?? "libtiff refused tag \(tag)")
            }
        }
        try set(TIFFTAG_IMAGEWIDTH, UInt32(image.width))
        try set(TIFFTAG_IMAGELENGTH, UInt32(image.height))
        try set(TIFFTAG_BITSPERSAMPLE, Int32(8))
        try set(TIFFTAG_SAMPLESPERPIXEL, Int32(image.channels))
        try set(TIFFTAG_PHOTOMETRIC, Int32(PHOTOMETRIC_RGB))
        try set(TIFFTAG_PLANARCONFIG, Int32(PLANARCONFIG_CONTIG))
        try set(TIFFTAG_ORIENTATION, Int32(ORIENTATION_TOPLEFT))
        // LZW with the horizontal predictor: lossless, read by every TIFF reader (Deflate is not baseline).
        try set(TIFFTAG_COMPRESSION, Int32(COMPRESSION_LZW))
        try set(TIFFTAG_PREDICTOR, Int32(PREDICTOR_HORIZONTAL))
        // Required by the TIFF 6 baseline; 72 dpi says "no physical size", as cameras do.
        try set(TIFFTAG_XRESOLUTION, Double(72))
        try set(TIFFTAG_YRESOLUTION, Double(72))
        try set(TIFFTAG_RESOLUTIONUNIT, Int32(RESUNIT_INCH))
        try set(TIFFTAG_ROWSPERSTRIP, UInt32(max(1, 256 * 1024 / max(1, image.width * image.channels))))
        var alphaKind = UInt16(EXTRASAMPLE_UNASSALPHA)
        if image.hasAlpha {
            try withUnsafeMutablePointer(to: &alphaKind) { pointer throws(MediaError) in
                try set(TIFFTAG_EXTRASAMPLES, Int32(1), pointer)
            }
        }
        for (tag, bytes) in [(TIFFTAG_ICCPROFILE, icc), (TIFFTAG_XMLPACKET, xmp)] {
            guard let bytes, !bytes.isEmpty else { continue }
            // libtiff copies the value when it is set; the copy here only has to outlive the call.
            let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
            defer { copy.deallocate() }
            bytes.copyBytes(to: copy, count: bytes.count)
            try set(tag, UInt32(bytes.count), copy)
        }
        let written = image.pixels.withUnsafeBytes { pixels -> Bool in
            for row in 0..<image.height {
                let line = UnsafeMutableRawPointer(mutating: pixels.baseAddress! + row * image.stride)
                if TIFFWriteScanline(tiff, line, UInt32(row), 0) < 0 { return false }
            }
            return true
        }
        guard written else { throw failure(stream.messages.first ?? "libtiff cannot write the picture") }
        closed = true
        TIFFClose(tiff)
        guard stream.messages.isEmpty else { throw failure(stream.messages.joined(separator: "; ")) }
        return stream.data
    }

    private static func open(_ stream: TIFFStream, mode: String) -> OpaquePointer? {
        guard let options = TIFFOpenOptionsAlloc() else { return nil }
        defer { TIFFOpenOptionsFree(options) }
        let context = Unmanaged.passUnretained(stream).toOpaque()
        // libtiff prints errors and warnings to stderr unless told otherwise: keep them with the file.
        let handler: TIFFErrorHandlerExtR = { _, context, module, format, arguments in
            guard let context, let format else { return 1 }
            var text = [CChar](repeating: 0, count: 512)
            if let arguments { _ = vsnprintf(&text, text.count, format, arguments) }
            let stream = Unmanaged<TIFFStream>.fromOpaque(context).takeUnretainedValue()
            if stream.messages.count < 8 {
                stream.messages.append(
                    String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            }
            return 1
        }
        TIFFOpenOptionsSetErrorHandlerExtR(options, handler, context)
        // Warnings (unknown private tags, as cameras write) are not failures: dropped.
        TIFFOpenOptionsSetWarningHandlerExtR(options, { _, _, _, _, _ in 1 }, nil)
        return TIFFClientOpenExt(
            "memory", mode, context,
            { context, buffer, size in
                Unmanaged<TIFFStream>.fromOpaque(context!).takeUnretainedValue().read(buffer, Int(size))
            },
            { context, buffer, size in
                Unmanaged<TIFFStream>.fromOpaque(context!).takeUnretainedValue().write(buffer, Int(size))
            },
            { context, offset, whence in
                Unmanaged<TIFFStream>.fromOpaque(context!).takeUnretainedValue().seek(offset, whence)
            }, { _ in 0 },
            { context in
                UInt64(Unmanaged<TIFFStream>.fromOpaque(context!).takeUnretainedValue().data.count)
            }, { _, _, _ in 0 }, { _, _, _ in }, options)
    }

    private static func get<T: FixedWidthInteger>(_ tiff: OpaquePointer, _ tag: Int32, _: T.Type) -> T? {
        var value: T = 0
        let found = withUnsafeMutablePointer(to: &value) { pointer in
            withVaList([pointer]) { TIFFVGetField(tiff, UInt32(tag), $0) }
        }
        return found != 0 ? value : nil
    }

    /// A (count, pointer) tag's bytes: ICC profile, XMP packet.
    private static func bytes(_ tiff: OpaquePointer, _ tag: Int32) -> Data? {
        var count: UInt32 = 0
        var pointer: UnsafeMutableRawPointer?
        let found = withUnsafeMutablePointer(to: &count) { countPointer in
            withUnsafeMutablePointer(to: &pointer) { dataPointer in
                withVaList([countPointer, dataPointer]) { TIFFVGetField(tiff, UInt32(tag), $0) }
            }
        }
        guard found != 0, count > 0, let pointer else { return nil }
        return Data(bytes: pointer, count: Int(count))
    }

    static func failure(_ message: String) -> MediaError {
        .picture(library: "libtiff", message: message)
    }
}

/// The bytes libtiff reads from or writes to, and what it said meanwhile.
private final class TIFFStream {
    var data: Data
    var position = 0
    var messages: [String] = []

    init(_ data: Data) { self.data = data }

    func read(_ buffer: UnsafeMutableRawPointer?, _ size: Int) -> Int64 {
        guard let buffer, position < data.count else { return 0 }
        let count = min(size, data.count - position)
        data.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress! + position, byteCount: count) }
        position += count
        return Int64(count)
    }

    func write(_ buffer: UnsafeMutableRawPointer?, _ size: Int) -> Int64 {
        guard let buffer else { return 0 }
        let end = position + size
        if end > data.count { data.append(Data(count: end - data.count)) }
        data.withUnsafeMutableBytes { $0.baseAddress!.advanced(by: position).copyMemory(from: buffer, byteCount: size) }
        position = end
        return Int64(size)
    }

    func seek(_ offset: UInt64, _ whence: Int32) -> UInt64 {
        let base =
            switch whence {
            case SEEK_CUR: position
            case SEEK_END: data.count
            default: 0
            }
        let target = base + Int(Int64(bitPattern: offset))
        guard target >= 0 else { return UInt64.max }
        position = target
        return UInt64(target)
    }
}
