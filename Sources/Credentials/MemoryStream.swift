// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CC2PA
import Foundation

/// What a C2paStream reads and writes through: camstamp's bytes, never a path the SDK opens. The
/// subclasses hold them in memory (a photo, held whole already) or in a file (a clip).
class StreamBacking {
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int { -1 }
    func write(_ buffer: UnsafeRawBufferPointer) -> Int { -1 }
    /// The position after seeking to `offset` from the start (0), here (1) or the end (2).
    func seek(_ offset: Int, from mode: Int32) -> Int { -1 }

    /// Runs `body` with a C2paStream over this backing, released afterwards.
    final func withStream<T>(
        _ library: C2PALibrary, _ body: (OpaquePointer) throws(CredentialsError) -> T
    ) throws(CredentialsError) -> T {
        let context = OpaquePointer(Unmanaged.passUnretained(self).toOpaque())
        guard let stream = library.createStream(context, Self.read, Self.seek, Self.write, Self.flush) else {
            throw library.failure("c2pa: cannot make a stream")
        }
        defer { library.releaseStream(stream) }
        return try withExtendedLifetime(self) { () throws(CredentialsError) -> T in try body(stream) }
    }

    private static func from(_ context: OpaquePointer?) -> StreamBacking {
        Unmanaged<StreamBacking>.fromOpaque(UnsafeRawPointer(context!)).takeUnretainedValue()
    }

    private static let read: C2paReadCallback = { context, data, length in
        guard let data, length > 0 else { return 0 }
        return from(context).read(into: UnsafeMutableRawBufferPointer(start: data, count: Int(length)))
    }
    private static let seek: C2paSeekCallback = { context, offset, mode in from(context).seek(offset, from: mode) }
    private static let write: C2paWriteCallback = { context, data, length in
        guard let data, length > 0 else { return 0 }
        return from(context).write(UnsafeRawBufferPointer(start: data, count: Int(length)))
    }
    private static let flush: C2paFlushCallback = { _ in 0 }
}

/// Bytes in memory: the photo read (shared with the caller, never copied), or the signed photo
/// written (room for it reserved once).
final class MemoryStream: StreamBacking {
    private(set) var data: Data
    private var position = 0

    init(_ data: Data) { self.data = data }

    /// An empty buffer to write about `capacity` bytes into.
    init(capacity: Int) {
        data = Data()
        data.reserveCapacity(capacity)
    }

    override func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let count = max(0, min(buffer.count, data.count - position))
        if count > 0 {
            let start = data.startIndex + position
            data.copyBytes(to: buffer.bindMemory(to: UInt8.self), from: start..<start + count)
        }
        position += count
        return count
    }

    override func seek(_ offset: Int, from mode: Int32) -> Int {
        let (target, overflow) = (mode == 1 ? position : mode == 2 ? data.count : 0).addingReportingOverflow(offset)
        guard !overflow, target >= 0 else { return -1 }
        position = target
        return target
    }

    override func write(_ buffer: UnsafeRawBufferPointer) -> Int {
        if position > data.count { data.append(Data(count: position - data.count)) }
        let overlap = min(buffer.count, data.count - position)
        let start = data.startIndex + position
        if overlap > 0 { data.replaceSubrange(start..<start + overlap, with: buffer[0..<overlap]) }
        if overlap < buffer.count { data.append(contentsOf: buffer[overlap...]) }
        position += buffer.count
        return buffer.count
    }
}

/// Bytes in memory held in parts, read as one (a stamped JPEG's new header, then its scan): the
/// signer reads the photo without its parts being joined into another copy of it.
final class PartsStream: StreamBacking {
    private let parts: [Data]
    private let count: Int
    private var position = 0

    init(_ parts: [Data]) {
        self.parts = parts
        count = parts.reduce(0) { $0 + $1.count }
    }

    override func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        var copied = 0
        var start = 0
        for part in parts {
            let end = start + part.count
            defer { start = end }
            guard position + copied < end, copied < buffer.count else { continue }
            let from = position + copied - start
            let length = min(part.count - from, buffer.count - copied)
            let first = part.startIndex + from
            part.copyBytes(
                to: UnsafeMutableRawBufferPointer(rebasing: buffer[copied..<copied + length]).bindMemory(
                    to: UInt8.self),
                from: first..<first + length)
            copied += length
        }
        position += copied
        return copied
    }

    override func seek(_ offset: Int, from mode: Int32) -> Int {
        let (target, overflow) = (mode == 1 ? position : mode == 2 ? count : 0).addingReportingOverflow(offset)
        guard !overflow, target >= 0 else { return -1 }
        position = target
        return target
    }
}

/// A file, read or written in place through its descriptor: a clip is not held in memory whole.
final class FileStream: StreamBacking {
    private let descriptor: Int32
    private var position = 0

    /// Opens `url` to read, or creates it (it must not exist) to write.
    init(_ url: URL, writing: Bool) throws(CredentialsError) {
        descriptor =
            writing
            ? open(url.path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o666) : open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw CredentialsError(
                "cannot \(writing ? "write" : "read") \(url.path): \(String(cString: strerror(errno)))")
        }
    }

    deinit { close(descriptor) }

    override func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let count = pread(descriptor, buffer.baseAddress, buffer.count, off_t(position))
        if count > 0 { position += count }
        return count
    }

    override func seek(_ offset: Int, from mode: Int32) -> Int {
        var info = stat()
        guard mode != 2 || fstat(descriptor, &info) == 0 else { return -1 }
        let target = (mode == 1 ? position : mode == 2 ? Int(info.st_size) : 0) + offset
        guard target >= 0 else { return -1 }
        position = target
        return target
    }

    override func write(_ buffer: UnsafeRawBufferPointer) -> Int {
        var done = 0
        while done < buffer.count {
            let count = pwrite(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(position + done))
            guard count > 0 else { return -1 }
            done += count
        }
        position += done
        return done
    }

    /// Writes what the kernel holds of the file to its disk.
    func synchronize() throws(CredentialsError) {
        guard fsync(descriptor) == 0 else {
            throw CredentialsError("cannot write: \(String(cString: strerror(errno)))")
        }
    }
}
