// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import Media
import Presets

/// A raw video frame a program owns: its format, size, and one byte array per plane with that
/// plane's stride (bytes per row, padding included). Make one from your own decoder's or
/// camera's memory, or an empty one with `init(format:width:height:)`, and mark it with
/// `Stamper.mark(_:date:frameNumber:fps:cancellation:)`.
public struct PixelBuffer: Sendable, Equatable {
    /// The pixel layouts camstamp blends in, by their GStreamer names.
    public enum Format: String, CaseIterable, Sendable {
        /// Planar YUV 4:2:0: Y, then U and V at half width and half height.
        case i420 = "I420"
        /// YUV 4:2:0: Y, then one plane of interleaved U,V pairs at half height.
        case nv12 = "NV12"
        /// Packed YUV 4:2:2: Y0 U Y1 V, 4 bytes per two pixels.
        case yuy2 = "YUY2"
        /// Packed B, G, R and an unused byte, 4 bytes per pixel.
        case bgrx = "BGRx"
        /// Packed B, G, R, A (straight alpha), 4 bytes per pixel.
        case bgra = "BGRA"
        /// Packed R, G, B and an unused byte, 4 bytes per pixel.
        case rgbx = "RGBx"
        /// Packed R, G, B, A (straight alpha), 4 bytes per pixel.
        case rgba = "RGBA"

        /// The planes of a `width`×`height` frame: the bytes one row of pixels takes in each
        /// plane (without padding) and how many rows each plane has.
        public func planeSizes(width: Int, height: Int) -> [(rowBytes: Int, rows: Int)] {
            let halfWidth = (width + 1) / 2, halfHeight = (height + 1) / 2
            switch self {
            case .i420: return [(width, height), (halfWidth, halfHeight), (halfWidth, halfHeight)]
            case .nv12: return [(width, height), (2 * halfWidth, halfHeight)]
            case .yuy2: return [(4 * halfWidth, height)]
            case .bgrx, .bgra, .rgbx, .rgba: return [(4 * width, height)]
            }
        }

        /// GStreamer's own name for it (the raw values are the same).
        var media: PixelFormat { PixelFormat(rawValue: rawValue)! }
    }

    /// One plane's bytes: `rows` rows of `stride` bytes each (see `Format.planeSizes`).
    public struct Plane: Sendable, Equatable {
        /// The plane's pixels, row after row, `stride` bytes apart.
        public var bytes: [UInt8]
        /// Bytes from the start of one row to the next: at least the row's own bytes.
        public var stride: Int

        /// A plane over `bytes` whose rows are `stride` bytes apart.
        public init(bytes: [UInt8], stride: Int) {
            self.bytes = bytes
            self.stride = stride
        }
    }

    /// How the pixels are laid out.
    public let format: Format
    /// The frame's width in pixels.
    public let width: Int
    /// The frame's height in pixels.
    public let height: Int
    /// One entry per plane of `format`, in its order (Y, U, V for I420).
    public var planes: [Plane]

    /// The largest side a frame may have: GStreamer's video sizes are 32-bit, and a frame of
    /// 2 gigapixels would not fit in memory anyway.
    public static let maxSide = 32768

    /// A `width`×`height` frame of zero bytes with rows padded to 4 bytes, as GStreamer lays them out.
    public init(format: Format, width: Int, height: Int) throws(CamStampError) {
        try Self.checkSize(format, width, height)
        self.format = format
        self.width = width
        self.height = height
        planes = format.planeSizes(width: width, height: height).map { size in
            let stride = (size.rowBytes + 3) & ~3
            return Plane(bytes: [UInt8](repeating: 0, count: stride * size.rows), stride: stride)
        }
    }

    /// A frame over planes the caller filled. Throws a usage error naming the plane when the
    /// count, a stride or a plane's length does not fit `format` at `width`×`height`.
    public init(format: Format, width: Int, height: Int, planes: [Plane]) throws(CamStampError) {
        try Self.check(format, width, height, planes)
        self.format = format
        self.width = width
        self.height = height
        self.planes = planes
    }

    /// Checks that `planes` hold a `width`×`height` frame of `format`: checked again before each
    /// marking, since `planes` may have been replaced since.
    static func check(_ format: Format, _ width: Int, _ height: Int, _ planes: [Plane]) throws(CamStampError) {
        try checkSize(format, width, height)
        let sizes = format.planeSizes(width: width, height: height)
        guard planes.count == sizes.count else {
            throw .usage("pixel buffer: \(format.rawValue) has \(sizes.count) plane(s), \(planes.count) given")
        }
        for (index, (plane, size)) in zip(planes, sizes).enumerated() {
            guard plane.stride >= size.rowBytes else {
                throw .usage(
                    "pixel buffer: plane \(index) has a stride of \(plane.stride) bytes, less than the \(size.rowBytes) of one \(width)-pixel \(format.rawValue) row"
                )
            }
            let needed = plane.stride * (size.rows - 1) + size.rowBytes
            guard plane.bytes.count >= needed else {
                throw .usage(
                    "pixel buffer: plane \(index) has \(plane.bytes.count) bytes, \(needed) needed for \(size.rows) rows of stride \(plane.stride)"
                )
            }
        }
    }

    private static func checkSize(_ format: Format, _ width: Int, _ height: Int) throws(CamStampError) {
        guard (1...maxSide).contains(width), (1...maxSide).contains(height) else {
            throw .usage("pixel buffer: a \(width)×\(height) frame; each side must be 1…\(maxSide) pixels")
        }
    }
}

extension FrameMarker {
    /// Blends the marks into `buffer` in its own format (no conversion to RGB), as `context`
    /// resolves them. The frame is copied into a GStreamer buffer and back (about a millisecond
    /// at 1080p); a frame the marks leave alone is not copied at all. YUV frames are taken to use
    /// GStreamer's default colorimetry for their size (BT.601 for SD, BT.709 for HD).
    public func mark(_ buffer: inout PixelBuffer, context: TemplateContext) throws(CamStampError) {
        try PixelBuffer.check(buffer.format, buffer.width, buffer.height, buffer.planes)
        let composition = try composition(width: buffer.width, height: buffer.height, context: context)
        if composition.isEmpty { return }
        let frame: VideoFrame
        do { frame = try VideoFrame(width: buffer.width, height: buffer.height, format: buffer.format.media) } catch {
            throw .failure("pixel buffer: \(error)")
        }
        let sizes = buffer.format.planeSizes(width: buffer.width, height: buffer.height)
        let source = buffer
        var planes = buffer.planes
        do {
            try frame.withMapped { mapped in
                for (index, size) in sizes.enumerated() {
                    Self.copyRows(
                        size, from: source.planes[index].bytes, stride: source.planes[index].stride,
                        to: mapped.plane(index), stride: mapped.stride(index))
                }
            }
            try composition.blend(into: frame)
            try frame.withMapped { mapped in
                for (index, size) in sizes.enumerated() {
                    let plane = mapped.plane(index)
                    let frameStride = mapped.stride(index)
                    let stride = planes[index].stride
                    planes[index].bytes.withUnsafeMutableBytes { target in
                        for row in 0..<size.rows {
                            target.baseAddress!.advanced(by: row * stride)
                                .copyMemory(
                                    from: plane.baseAddress!.advanced(by: row * frameStride), byteCount: size.rowBytes)
                        }
                    }
                }
            }
        } catch {
            throw .failure("pixel buffer: \(error)")
        }
        buffer.planes = planes
    }

    /// Copies `size.rows` rows of `size.rowBytes` bytes between two strides.
    private static func copyRows(
        _ size: (rowBytes: Int, rows: Int), from source: [UInt8], stride sourceStride: Int,
        to target: UnsafeMutableRawBufferPointer, stride targetStride: Int
    ) {
        source.withUnsafeBytes { source in
            for row in 0..<size.rows {
                target.baseAddress!.advanced(by: row * targetStride)
                    .copyMemory(from: source.baseAddress!.advanced(by: row * sourceStride), byteCount: size.rowBytes)
            }
        }
    }
}
