// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CC2PA
import Foundation

/// Bytes in memory behind a C2paStream: the asset read, or the signed asset written. camstamp
/// holds a photo whole already, so the SDK reads and writes it here, never through a file.
final class MemoryStream {
    private(set) var bytes: [UInt8]
    private var position = 0

    init(_ data: Data = Data()) { bytes = [UInt8](data) }

    var data: Data { Data(bytes) }

    /// Runs `body` with a C2paStream over this buffer, released afterwards.
    func withStream<T>(
        _ library: C2PALibrary, _ body: (OpaquePointer) throws(CredentialsError) -> T
    ) throws(CredentialsError) -> T {
        let context = OpaquePointer(Unmanaged.passUnretained(self).toOpaque())
        guard let stream = library.createStream(context, Self.read, Self.seek, Self.write, Self.flush) else {
            throw library.failure("c2pa: cannot make a stream")
        }
        defer { library.releaseStream(stream) }
        return try withExtendedLifetime(self) { () throws(CredentialsError) -> T in try body(stream) }
    }

    private static func from(_ context: OpaquePointer?) -> MemoryStream {
        Unmanaged<MemoryStream>.fromOpaque(UnsafeRawPointer(context!)).takeUnretainedValue()
    }

    private static let read: C2paReadCallback = { context, data, length in
        let stream = from(context)
        let count = max(0, min(Int(length), stream.bytes.count - stream.position))
        if count > 0, let data {
            stream.bytes.withUnsafeBufferPointer {
                data.update(from: $0.baseAddress! + stream.position, count: count)
            }
        }
        stream.position += count
        return count
    }

    private static let seek: C2paSeekCallback = { context, offset, mode in
        let stream = from(context)
        let base = mode == 1 ? stream.position : mode == 2 ? stream.bytes.count : 0
        let target = base + Int(offset)
        guard target >= 0 else { return -1 }
        stream.position = target
        return target
    }

    private static let write: C2paWriteCallback = { context, data, length in
        let stream = from(context)
        let count = Int(length)
        guard count > 0, let data else { return 0 }
        if stream.position > stream.bytes.count {
            stream.bytes.append(contentsOf: repeatElement(0, count: stream.position - stream.bytes.count))
        }
        let overlap = min(count, stream.bytes.count - stream.position)
        let source = UnsafeBufferPointer(start: data, count: count)
        if overlap > 0 {
            stream.bytes.replaceSubrange(stream.position..<stream.position + overlap, with: source[0..<overlap])
        }
        if overlap < count { stream.bytes.append(contentsOf: source[overlap...]) }
        stream.position += count
        return count
    }

    private static let flush: C2paFlushCallback = { _ in 0 }
}
