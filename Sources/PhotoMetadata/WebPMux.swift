// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CWebPMux
import Foundation

/// One libwebpmux object (`WebPMux`) over a copy of a WebP file: its metadata chunks read and
/// set, then the file assembled again with the VP8/VP8L (and ALPH) bitstream untouched and the
/// `VP8X` header's flags and canvas size written by the library.
final class WebPMux {
    private let mux: OpaquePointer

    /// Parses `file` (`WebPMuxCreate`, copying the bytes: the mux outlives the caller's buffer).
    init(_ file: Data) throws(MetadataError) {
        let created: OpaquePointer? = file.withUnsafeBytes { raw in
            var data = WebPData(bytes: raw.bindMemory(to: UInt8.self).baseAddress, size: raw.count)
            return WebPMuxCreate(&data, 1)
        }
        guard let created else { throw .webpMux(operation: "WebPMuxCreate", code: Int(WEBP_MUX_BAD_DATA.rawValue)) }
        mux = created
    }

    deinit { WebPMuxDelete(mux) }

    /// The payload of the chunk `fourCC` (`ICCP`, `EXIF`, `XMP `), nil when there is none.
    func chunk(_ fourCC: String) -> Data? {
        var data = WebPData()
        // Points into the mux's own copy: copied out before the mux goes.
        guard WebPMuxGetChunk(mux, fourCC, &data) == WEBP_MUX_OK, let bytes = data.bytes else { return nil }
        return Data(bytes: bytes, count: data.size)
    }

    /// Sets the chunk `fourCC` to `payload`, replacing any there (`WebPMuxSetChunk`, copying it).
    func setChunk(_ fourCC: String, _ payload: Data) throws(MetadataError) {
        let status = payload.withUnsafeBytes { raw in
            var data = WebPData(bytes: raw.bindMemory(to: UInt8.self).baseAddress, size: raw.count)
            return WebPMuxSetChunk(mux, fourCC, &data, 1)
        }
        guard status == WEBP_MUX_OK else {
            throw .webpMux(operation: "WebPMuxSetChunk \(fourCC)", code: Int(status.rawValue))
        }
    }

    /// The file again (`WebPMuxAssemble`): `VP8X` first when a metadata chunk needs it.
    func assemble() throws(MetadataError) -> Data {
        var data = WebPData()
        defer { WebPDataClear(&data) }
        let status = WebPMuxAssemble(mux, &data)
        guard status == WEBP_MUX_OK, let bytes = data.bytes else {
            throw .webpMux(operation: "WebPMuxAssemble", code: Int(status.rawValue))
        }
        return Data(bytes: bytes, count: data.size)
    }

    /// A `WebPMuxError` code in words.
    static func describe(_ code: Int) -> String {
        switch Int32(code) {
        case WEBP_MUX_NOT_FOUND.rawValue: "not found"
        case WEBP_MUX_INVALID_ARGUMENT.rawValue: "invalid argument"
        case WEBP_MUX_BAD_DATA.rawValue: "bad data"
        case WEBP_MUX_MEMORY_ERROR.rawValue: "out of memory"
        case WEBP_MUX_NOT_ENOUGH_DATA.rawValue: "not enough data"
        default: "error \(code)"
        }
    }
}
