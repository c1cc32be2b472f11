// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import CJPEGCoefficients

/// Whether a JPEG's entropy-coded data is damaged (a bad Huffman code, data cut short, bytes
/// before a marker), as the coefficient path says it. jpegdec decodes such a photo without a
/// word (its libjpeg messages go nowhere), so the decoding path asks here: a sequential Huffman
/// scan is walked as the splice walks it (which also finds what libjpeg-turbo lets pass, bytes
/// left over in a restart interval), any other JPEG is read by libjpeg; nothing is decoded to
/// pixels.
public enum JPEGDamage {
    /// What is damaged in `jpeg`, in libjpeg's words, or nil when it reads cleanly.
    public static func warning(in jpeg: Data) -> String? {
        // No row wanted: the scan is walked and copied, nothing changed.
        let (status, message) = call(jpeg) { input, count, output, length, text in
            cs_splice_coefficients(
                input, count, { _, _ in 0 }, { _, _, _, _, _ in 0 }, { _, _, _, _, _, _ in 0 }, nil, output, length,
                text)
        }
        switch status {
        case 0: return nil
        case CS_SPLICE_DAMAGED: return message
        default:
            // Not one sequential Huffman scan: libjpeg reads every coefficient, stopped before writing.
            let (read, warning) = call(jpeg) { input, count, output, length, text in
                cs_rewrite_coefficients(input, count, { _, _ in 1 }, { _, _, _, _, _ in 0 }, nil, output, length, text)
            }
            return read == 1 ? warning : nil
        }
    }

    /// One call into the shim: its status and message; the output it allocated is freed.
    private static func call(
        _ jpeg: Data,
        _ body: (
            UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>,
            UnsafeMutablePointer<Int>, UnsafeMutablePointer<CChar>
        ) -> Int32
    ) -> (Int32, String) {
        var message = [CChar](repeating: 0, count: Int(CS_MESSAGE_LENGTH))
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        let status = jpeg.withUnsafeBytes { raw in
            message.withUnsafeMutableBufferPointer { text in
                body(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, &output, &length, text.baseAddress!)
            }
        }
        free(output)
        return (status, String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
}
