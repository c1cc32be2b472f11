// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CZlib
import Foundation

/// Why the profile in a PNG's iCCP chunk could not be taken out.
public enum ICCPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No NUL-terminated name of 1 to 79 bytes, or a compression method other than 0 (deflate).
    case badHeader
    /// The profile's zlib stream is damaged or cut short; zlib's own words.
    case notInflated(String)
    /// It inflates to more than `limit` bytes: a PNG may claim anything, and a few kilobytes of
    /// deflated zeros would otherwise take all the memory there is.
    case tooLarge(limit: Int)
    /// It inflates, but to something that is not an ICC profile (no header, or its size or
    /// `acsp` signature wrong): carried, it would be garbage a viewer refuses or misreads.
    case notAProfile

    public var description: String {
        switch self {
        case .badHeader: "the PNG's iCCP chunk has no profile name or an unknown compression method"
        case .notInflated(let why): "the PNG's compressed profile does not inflate (\(why))"
        case .tooLarge(let limit): "the PNG's compressed profile inflates to more than \(limit >> 20) MiB"
        case .notAProfile:
            "the PNG's iCCP chunk inflates to something that is not an ICC profile (no valid profile header)"
        }
    }
}

/// zlib itself, for the compressed profile a PNG keeps in its iCCP chunk.
enum Zlib {
    /// `bytes` as a zlib stream, deflated at the best compression (a profile is small and written
    /// once). zlib fails here only for want of memory; stored (uncompressed) blocks need none and
    /// hold the same profile, so they stand in then.
    static func deflate(_ bytes: [UInt8]) -> [UInt8] {
        var size = compressBound(uLong(bytes.count))
        var out = [UInt8](repeating: 0, count: Int(size))
        let code = out.withUnsafeMutableBufferPointer { target in
            bytes.withUnsafeBufferPointer { source in
                compress2(target.baseAddress, &size, source.baseAddress, uLong(source.count), Z_BEST_COMPRESSION)
            }
        }
        guard code == Z_OK else { return zlibStored(bytes) }
        return Array(out.prefix(Int(size)))
    }

    /// The bytes of the zlib stream `data`, at most `limit` of them. Data after the stream's end is
    /// ignored, as libpng does.
    static func inflate(_ data: Data, limit: Int) throws(ICCPError) -> Data {
        var stream = z_stream()
        guard inflateInit_(&stream, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .notInflated("zlib could not start")
        }
        defer { inflateEnd(&stream) }
        var input = [UInt8](data)
        var out = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let failure: ICCPError? = input.withUnsafeMutableBufferPointer { source in
            stream.next_in = source.baseAddress
            stream.avail_in = uInt(source.count)
            while true {
                let (code, produced) = buffer.withUnsafeMutableBufferPointer { target in
                    stream.next_out = target.baseAddress
                    stream.avail_out = uInt(target.count)
                    let code = CZlib.inflate(&stream, Z_NO_FLUSH)
                    return (code, target.count - Int(stream.avail_out))
                }
                out.append(contentsOf: buffer[..<produced])
                if out.count > limit { return .tooLarge(limit: limit) }
                switch code {
                case Z_STREAM_END: return nil
                case Z_OK: continue
                // No progress possible: the input ran out before the stream's end.
                case Z_BUF_ERROR: return .notInflated("the stream is cut short")
                default: return .notInflated(stream.msg.map { String(cString: $0) } ?? "zlib error \(code)")
                }
            }
        }
        if let failure { throw failure }
        return out
    }
}
