// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// A regular file opened for reading, and the one way presets, fonts, logos and pipeline
/// templates are opened: a FIFO, a device or a socket is refused, never read. The path is
/// opened non-blocking (opening a FIFO without a writer would otherwise wait forever) and the
/// open descriptor is checked with fstat(2), so a file swapped for a FIFO after a stat(2) is
/// still refused.
package final class RegularFile {
    /// Why a path cannot be read as a regular file.
    package enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// Nothing is there.
        case missing
        /// A folder.
        case folder
        /// A FIFO, a device or a socket: what it is, e.g. "a FIFO (named pipe)".
        case notRegular(String)
        /// Larger than the caller reads: the file's size and the limit, in bytes.
        case tooLarge(bytes: Int, limit: Int)
        /// open(2) or read(2) failed: strerror's text.
        case failed(String)

        /// Without the path: "is a FIFO (named pipe), not a regular file".
        package var description: String {
            switch self {
            case .missing: "no such file"
            case .folder: "is a folder, not a file"
            case .notRegular(let kind): "is \(kind), not a regular file"
            case .tooLarge(let bytes, let limit): "is \(bytes) bytes, more than the \(limit) bytes read here"
            case .failed(let reason): "cannot be read (\(reason))"
            }
        }
    }

    /// The open descriptor, closed when this is released.
    package let descriptor: Int32
    /// The size fstat(2) gave when it was opened.
    package let size: Int

    /// Opens `url` (links followed) for reading, if it is a regular file.
    package init(opening url: URL) throws(Failure) {
        let fd = open(url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            throw code == ENOENT || code == ENOTDIR ? .missing : .failed(String(cString: strerror(code)))
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw .failed(reason)
        }
        if let kind = Self.kind(ofMode: info.st_mode) {
            close(fd)
            throw kind == "a folder" ? .folder : .notRegular(kind)
        }
        descriptor = fd
        size = Int(info.st_size)
    }

    deinit { close(descriptor) }

    /// What a stat(2) mode names when it is not a regular file ("a FIFO (named pipe)"), or nil.
    package static func kind(ofMode mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a folder"
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
    }

    /// Checks that `url` is a regular file that can be opened, for a library that opens it by
    /// path itself (fontconfig and FreeType with a font file).
    package static func check(_ url: URL) throws(Failure) {
        _ = try RegularFile(opening: url)
    }

    /// The whole of the regular file at `url`; `limit` bytes at most.
    package static func contents(of url: URL, limit: Int = .max) throws(Failure) -> Data {
        let file = try RegularFile(opening: url)
        guard file.size <= limit else { throw .tooLarge(bytes: file.size, limit: limit) }
        return try file.readAll(limit: limit)
    }

    /// Up to `count` bytes from the current offset; fewer only at the end of the file.
    package func read(upTo count: Int) throws(Failure) -> Data {
        var data = Data(count: count)
        var filled = 0
        let failure: Int32? = data.withUnsafeMutableBytes { buffer -> Int32? in
            while filled < count {
                let got = Glibc.read(descriptor, buffer.baseAddress! + filled, count - filled)
                if got < 0, errno == EINTR { continue }
                if got < 0 { return errno }
                if got == 0 { break }
                filled += got
            }
            return nil
        }
        if let failure { throw .failed(String(cString: strerror(failure))) }
        data.count = filled
        return data
    }

    /// The rest of the file, which may have grown since it was opened, after `prefix` (bytes the
    /// caller already read from it); `limit` bytes at most, `prefix` included. Read into one
    /// buffer sized for the file, neither zeroed first nor copied after: a photo's megabytes
    /// were cleared, read and copied twice on their way to one Data.
    package func readAll(limit: Int = .max, after prefix: Data = Data()) throws(Failure) -> Data {
        // Room for the prefix whole, whatever the size read earlier said.
        var capacity = max(64 << 10, min(size, limit) + 1, prefix.count + 1)
        guard var buffer = malloc(capacity) else { throw .failed(String(cString: strerror(ENOMEM))) }
        prefix.copyBytes(to: buffer.assumingMemoryBound(to: UInt8.self), count: prefix.count)
        var filled = prefix.count
        while true {
            if filled == capacity {
                guard filled <= limit else {
                    free(buffer)
                    throw .tooLarge(bytes: filled, limit: limit)
                }
                // The file grew since it was opened.
                let grown = min(capacity * 2, limit == .max ? .max : limit + 1)
                guard let larger = realloc(buffer, grown) else {
                    free(buffer)
                    throw .failed(String(cString: strerror(ENOMEM)))
                }
                (buffer, capacity) = (larger, grown)
            }
            let got = Glibc.read(descriptor, buffer + filled, capacity - filled)
            if got < 0, errno == EINTR { continue }
            if got < 0 {
                let reason = String(cString: strerror(errno))
                free(buffer)
                throw .failed(reason)
            }
            if got == 0 { break }
            filled += got
        }
        guard filled <= limit else {
            free(buffer)
            throw .tooLarge(bytes: filled, limit: limit)
        }
        return Data(bytesNoCopy: buffer, count: filled, deallocator: .free)
    }
}
