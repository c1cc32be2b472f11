// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import CTurboJPEG

/// JPEG encoding of packed RGBx rows with libjpeg-turbo, for pictures made in memory (a preset's
/// preview): no pipeline to start for one small picture.
public enum JPEGEncoder {
    /// A baseline 4:2:0 JPEG of `pixels` (R, G, B and an unused byte per pixel, rows `stride`
    /// bytes apart) at `quality` (1…100).
    public static func encodeRGBx(
        _ pixels: [UInt8], width: Int, height: Int, stride: Int, quality: Int
    ) throws(MediaError) -> Data {
        guard width > 0, height > 0, stride >= 4 * width, pixels.count >= stride * (height - 1) + 4 * width else {
            throw failure("a \(width)x\(height) picture needs \(stride * height) bytes, \(pixels.count) given")
        }
        guard let handle = tjInitCompress() else { throw failure("cannot start libjpeg-turbo") }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>?
        var length: UInt = 0
        let status = pixels.withUnsafeBufferPointer { source in
            tjCompress2(
                handle, source.baseAddress, Int32(width), Int32(stride), Int32(height), Int32(TJPF_RGBX.rawValue),
                &output, &length, Int32(TJSAMP_420.rawValue), Int32(min(100, max(1, quality))), 0)
        }
        defer { if let output { tjFree(output) } }
        guard status == 0, let output else {
            throw failure(tjGetErrorStr2(handle).map { String(cString: $0) } ?? "unknown libjpeg-turbo error")
        }
        return Data(bytes: output, count: Int(length))
    }

    private static func failure(_ message: String) -> MediaError {
        .picture(library: "libjpeg-turbo", message: message)
    }
}
