// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CGStreamer
internal import CGstVideo
import Foundation
internal import CTurboJPEG

/// A 4:2:0 YCbCr JPEG re-encoded as a 4:2:0 JPEG of the same size without a pipeline: libjpeg-turbo
/// decodes it to its YUV planes (no colour conversion, no upsampling), they are turned upright in
/// 8×8 blocks when the orientation asks, the marks are drawn on the I420 frame as the photo
/// pipeline draws them, and libjpeg-turbo encodes the planes again. What the photo pipeline does
/// with such a photo, less its threads, its buffer pools and the copies its elements make.
public enum JPEGDirectReencode {
    /// Why a photo that was decoded still has no output.
    public enum Failure: Error, CustomStringConvertible {
        /// What the marks returned: the photo must not go out unmarked.
        case mark(Error)
        /// libjpeg-turbo could not encode the marked planes, or the frame could not be made.
        case encode(MediaError)

        public var description: String {
            switch self {
            case .mark(let error): "\(error)"
            case .encode(let error): error.description
            }
        }
    }

    /// `data` decoded, turned upright by `orientation`, marked by `mark` (called once, on this
    /// thread, with the upright I420 frame to draw on in place) and encoded at `quality` with the
    /// same 4:2:0 sampling. nil, before `mark` is called, when the photo is not an even-sized 4:2:0
    /// YCbCr JPEG or its data gives libjpeg a warning or an error: the caller's usual path decides
    /// what to say about those.
    public static func reencode(
        _ data: Data, orientation: Orientation, quality: Int, mark: (VideoFrame) -> Error?
    ) throws(Failure) -> Data? {
        do { try GStreamer.initialize() } catch { throw .encode(error) }
        guard let frame = decode(data, orientation: orientation) else { return nil }
        if let error = mark(frame) { throw .mark(error) }
        do { return try encode(frame, quality: quality, expectedSize: data.count) } catch { throw .encode(error) }
    }

    /// The upright I420 frame, or nil (see `reencode`).
    private static func decode(_ data: Data, orientation: Orientation) -> VideoFrame? {
        guard let handle = tjInitDecompress() else { return nil }
        defer { tjDestroy(handle) }
        return data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> VideoFrame? in
            let source = raw.bindMemory(to: UInt8.self).baseAddress
            var width: Int32 = 0, height: Int32 = 0, sampling: Int32 = 0, colourspace: Int32 = 0
            // Even sides only: libjpeg's 4:2:0 planes are then GStreamer's I420 planes, row for row.
            guard
                tjDecompressHeader3(handle, source, UInt(raw.count), &width, &height, &sampling, &colourspace) == 0,
                colourspace == Int32(TJCS_YCbCr.rawValue), sampling == Int32(TJSAMP_420.rawValue),
                width % 2 == 0, height % 2 == 0
            else { return nil }
            let turned = orientation.swapsAxes ? (Int(height), Int(width)) : (Int(width), Int(height))
            guard let frame = try? uprightFrame(width: turned.0, height: turned.1) else { return nil }
            let decoded = try? frame.withMapped { (mapped: MappedFrame) throws(MediaError) -> Bool in
                func decode(into planes: [PlaneTurn.Plane]) -> Bool {
                    var pointers: [UnsafeMutablePointer<UInt8>?] = planes.map { $0.base }
                    var strides = planes.map { Int32($0.stride) }
                    return tjDecompressToYUVPlanes(
                        handle, source, UInt(raw.count), &pointers, width, &strides, height,
                        Int32(TJFLAG_ACCURATEDCT)) == 0
                }
                let targets = (0..<3).map { plane in
                    PlaneTurn.Plane(
                        base: mapped.plane(plane).baseAddress!.assumingMemoryBound(to: UInt8.self),
                        width: plane > 0 ? turned.0 / 2 : turned.0, height: plane > 0 ? turned.1 / 2 : turned.1,
                        stride: mapped.stride(plane))
                }
                // Upright already: decoded straight into the frame.
                guard orientation != .normal else { return decode(into: targets) }
                let planes = JPEGDecoder.Scratch(width: width, height: height, sampling: sampling)
                defer { planes.free() }
                guard decode(into: planes.stored(for: targets, orientation)) else { return false }
                planes.turn(into: targets, orientation)
                return true
            }
            return decoded == true ? frame : nil
        }
    }

    /// A new I420 frame described as jpegdec describes its output (BT.601 full range, JPEG
    /// chroma siting), so that the marks are blended in it as in jpegdec's frame. Not cleared:
    /// the decoder writes every byte the picture holds.
    private static func uprightFrame(width: Int, height: Int) throws(MediaError) -> VideoFrame {
        guard var info = DecodedPicture.videoInfo(GST_VIDEO_FORMAT_I420, width: width, height: height, jpegColour: true)
        else {
            throw .picture(library: "libjpeg-turbo", message: "cannot describe a \(width)x\(height) YUV picture")
        }
        let caps = gst_video_info_to_caps(&info)!
        defer { gst_caps_unref(caps) }
        return VideoFrame(adopting: gst_buffer_new_allocate(nil, info.size, nil), caps: caps, info: info)
    }

    /// The frame's planes as a baseline 4:2:0 JPEG, with the accurate DCT (as jpegenc writes it
    /// in the photo pipeline). The output buffer starts a little larger than `expectedSize` (the
    /// source's size, which a re-encoding at its own quality about keeps): libjpeg-turbo's own
    /// starts at 4 KB and is copied at each doubling.
    private static func encode(_ frame: VideoFrame, quality: Int, expectedSize: Int) throws(MediaError) -> Data {
        guard let handle = tjInitCompress() else { throw JPEGDecoder.failure("cannot start libjpeg-turbo") }
        defer { tjDestroy(handle) }
        let (width, height) = (Int32(frame.width), Int32(frame.height))
        return try frame.withMapped { (mapped: MappedFrame) throws(MediaError) -> Data in
            var planes: [UnsafePointer<UInt8>?] = (0..<3).map {
                UnsafePointer(mapped.plane($0).baseAddress!.assumingMemoryBound(to: UInt8.self))
            }
            var strides = (0..<3).map { Int32(mapped.stride($0)) }
            let capacity = min(Int(Int32.max), expectedSize + expectedSize / 4 + 65536)
            var output: UnsafeMutablePointer<UInt8>? = tjAlloc(Int32(capacity))
            var length: UInt = output == nil ? 0 : UInt(capacity)
            let status = tjCompressFromYUVPlanes(
                handle, &planes, width, &strides, height, Int32(TJSAMP_420.rawValue), &output, &length,
                Int32(min(100, max(1, quality))), Int32(TJFLAG_ACCURATEDCT))
            guard status == 0, let output else {
                if let output { tjFree(output) }
                throw JPEGDecoder.failure(
                    tjGetErrorStr2(handle).map { String(cString: $0) } ?? "unknown libjpeg-turbo error")
            }
            return Data(bytesNoCopy: output, count: Int(length), deallocator: .custom { pointer, _ in tjFree(pointer) })
        }
    }
}
