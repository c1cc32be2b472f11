// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CGStreamer
internal import CGstVideo
import Foundation
internal import CTurboJPEG

extension JPEGDecoder {
    /// Decodes a 4:2:0 YCbCr JPEG to its YUV planes (the raw IDCT output, as jpegdec gives it:
    /// I420) and turns them upright by `orientation` in 8×8 blocks, for a raw
    /// photo pipeline whose videoflip then has nothing to do. nil when the photo is of another
    /// kind, or its data gives libjpeg a warning or an error: the caller's usual path (jpegdec,
    /// then libjpeg-turbo's recovery) decides what to say about those.
    public static func decodeUpright(_ data: Data, orientation: Orientation) -> DecodedPicture? {
        do { return try uprightPlanes(data, orientation: orientation) } catch { return nil }
    }

    private static func uprightPlanes(_ data: Data, orientation: Orientation) throws(MediaError) -> DecodedPicture? {
        try GStreamer.initialize()
        guard let handle = tjInitDecompress() else { throw failure("cannot start libjpeg-turbo") }
        defer { tjDestroy(handle) }
        return try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            Result { () throws(MediaError) -> DecodedPicture? in
                let source = raw.bindMemory(to: UInt8.self).baseAddress
                var width: Int32 = 0, height: Int32 = 0, sampling: Int32 = 0, colourspace: Int32 = 0
                guard
                    tjDecompressHeader3(handle, source, UInt(raw.count), &width, &height, &sampling, &colourspace) == 0,
                    colourspace == Int32(TJCS_YCbCr.rawValue)
                else { return nil }
                // 4:2:0 only: what cameras write. jpegdec's 4:4:4 output is not libjpeg's planes.
                guard sampling == Int32(TJSAMP_420.rawValue) else { return nil }
                let format = GST_VIDEO_FORMAT_I420
                let planes = Scratch(width: width, height: height, sampling: sampling)
                defer { planes.free() }
                var pointers = planes.pointers
                var strides = planes.strides
                guard
                    tjDecompressToYUVPlanes(
                        handle, source, UInt(raw.count), &pointers, width, &strides, height,
                        Int32(TJFLAG_ACCURATEDCT)) == 0
                else { return nil }
                let turned = orientation.swapsAxes ? (Int(height), Int(width)) : (Int(width), Int(height))
                return try DecodedPicture.filled(
                    format, width: turned.0, height: turned.1, element: "libjpeg-turbo", what: "YUV picture",
                    jpegColour: true
                ) { data, info in
                    // The chroma is half the size, rounded up, in libjpeg's planes as in GStreamer's.
                    let targets = (0..<3).map { plane in
                        PlaneTurn.Plane(
                            base: data + offset(info, plane),
                            width: plane > 0 ? (turned.0 + 1) / 2 : turned.0,
                            height: plane > 0 ? (turned.1 + 1) / 2 : turned.1,
                            stride: planeStride(info, plane))
                    }
                    planes.turn(into: targets, orientation)
                    return nil
                }
            }
        }.get()
    }

    private static func offset(_ info: GstVideoInfo, _ plane: Int) -> Int {
        Int(
            withUnsafeBytes(of: info.offset) {
                $0.load(fromByteOffset: plane * MemoryLayout<gsize>.stride, as: gsize.self)
            })
    }

    private static func planeStride(_ info: GstVideoInfo, _ plane: Int) -> Int {
        Int(
            withUnsafeBytes(of: info.stride) {
                $0.load(fromByteOffset: plane * MemoryLayout<gint>.stride, as: gint.self)
            })
    }

    /// libjpeg's YUV planes for one picture, as TurboJPEG sizes them.
    struct Scratch {
        var pointers: [UnsafeMutablePointer<UInt8>?] = []
        var strides: [Int32] = []

        init(width: Int32, height: Int32, sampling: Int32) {
            for plane in Int32(0)..<3 {
                let planeWidth = tjPlaneWidth(plane, width, sampling)
                let planeHeight = tjPlaneHeight(plane, height, sampling)
                strides.append(planeWidth)
                pointers.append(.allocate(capacity: Int(planeWidth) * Int(planeHeight)))
            }
        }

        func free() { for pointer in pointers { pointer?.deallocate() } }

        /// The planes as libjpeg stores them, for `targets` (the upright planes) turned back by
        /// `orientation`: the picture's sizes, on libjpeg's rows (which may be padded to a whole
        /// MCU on the right).
        func stored(for targets: [PlaneTurn.Plane], _ orientation: Orientation) -> [PlaneTurn.Plane] {
            zip(targets, zip(pointers, strides)).map { target, plane in
                PlaneTurn.Plane(
                    base: plane.0!,
                    width: orientation.swapsAxes ? target.height : target.width,
                    height: orientation.swapsAxes ? target.width : target.height,
                    stride: Int(plane.1))
            }
        }

        /// The decoded planes turned upright into `targets`.
        func turn(into targets: [PlaneTurn.Plane], _ orientation: Orientation) {
            for (plane, target) in zip(stored(for: targets, orientation), targets) {
                PlaneTurn.turn(plane, into: target, orientation)
            }
        }
    }
}
