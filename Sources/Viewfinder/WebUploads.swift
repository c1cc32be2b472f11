// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CSoup
import Foundation

/// A route that takes a file (a photo from the phone's album) rather than small JSON: its body
/// is streamed to a temporary file as it arrives, never held in memory, up to its own limit.
public struct WebUploadRoute: Sendable {
    /// `POST`.
    public var method: String
    /// `/api/stamp`.
    public var path: String
    /// Larger bodies get 413, before they are read when their length is declared.
    public var maxBytes: Int
    /// The whole body must be in within this time from the request's start (the idle timeout
    /// applies between chunks).
    public var timeout: Duration
    /// Whether a request may send its body, from its Cookie and Authorization headers and its raw
    /// query: one without the camera's token is refused before a byte of it reaches the disk.
    public var admits: @Sendable (_ cookie: String?, _ authorization: String?, _ query: String?) -> Bool

    public init(
        method: String, path: String, maxBytes: Int, timeout: Duration = .seconds(300),
        admits: @escaping @Sendable (_ cookie: String?, _ authorization: String?, _ query: String?) -> Bool = {
            _, _, _ in true
        }
    ) {
        self.method = method
        self.path = path
        self.maxBytes = maxBytes
        self.timeout = timeout
        self.admits = admits
    }
}

/// An uploaded body in a temporary file, removed when the last reference goes.
public final class WebUpload: @unchecked Sendable {
    /// The temporary file holding the body.
    public let url: URL
    private let handle: FileHandle
    private(set) var bytes = 0
    private(set) var failure: String?
    private let lock = NSLock()
    private var discarded = false

    init(folder: URL) throws(WebServerError) {
        let url = folder.appendingPathComponent(".camstamp-upload-\(UUID().uuidString)")
        // O_EXCL and 0600: the file is ours alone, whatever the folder holds.
        let fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw WebServerError(message: "cannot create \(url.path): \(String(cString: strerror(errno)))")
        }
        self.url = url
        handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    }

    deinit { discard() }

    /// Removes the file now (it is removed with the last reference otherwise).
    public func discard() {
        lock.withLock {
            guard !discarded else { return }
            discarded = true
            unlink(url.path)
        }
    }

    /// Appends one chunk; a write failure (a full disk) is kept and answered once the body is in.
    func append(_ chunk: UnsafeRawBufferPointer) {
        bytes += chunk.count
        guard failure == nil, let base = chunk.baseAddress else { return }
        var written = 0
        while written < chunk.count {
            let n = write(handle.fileDescriptor, base + written, chunk.count - written)
            if n < 0 {
                if errno == EINTR { continue }
                failure =
                    "cannot write the upload to \(url.deletingLastPathComponent().path): "
                    + String(cString: strerror(errno))
                return
            }
            written += n
        }
    }

    /// The body is complete: the file is closed for writing. Throws what went wrong writing it.
    func finish() throws(WebServerError) {
        try? handle.synchronize()
        if let failure { throw WebServerError(message: failure) }
    }
}

extension WebLimits {
    /// The upload route `method` `path` names, if any.
    func upload(method: String, path: String) -> WebUploadRoute? {
        uploads.first { $0.method == method && $0.path == path }
    }
}

extension WebServer {
    /// An upload's body goes to its file, not into libsoup's buffer.
    func startUpload(
        _ route: WebUploadRoute, message: OpaquePointer, record: WebConnections.Record, cookie: String?,
        authorization: String?
    ) {
        let query = soup_server_message_get_uri(message).flatMap { g_uri_get_query($0) }.map { String(cString: $0) }
        guard route.admits(cookie, authorization, query) else {
            connections?.refuse(
                message, record: record,
                WebRefusal(
                    status: 401, text: "camstamp: a token is required: open the URL camstamp printed (…/?token=…)"))
            return
        }
        do throws(WebServerError) {
            record.upload = try WebUpload(folder: limits.uploadFolder)
        } catch {
            connections?.refuse(message, record: record, WebRefusal(status: 500, text: "camstamp: \(error.message)"))
            return
        }
        record.uploadRoute = route
        record.uploadDeadline = .now + route.timeout
        soup_message_body_set_accumulate(soup_server_message_get_request_body(message), 0)
    }

    /// One chunk of a request's body: counted against its cap, and written out for an upload.
    static func received(_ bytes: OpaquePointer, message: OpaquePointer, record: WebConnections.Record) {
        let limits = record.owner.limits
        var size: gsize = 0
        let data = g_bytes_get_data(bytes, &size)
        record.bodyBytes += Int(size)
        guard record.bodyBytes <= (record.uploadRoute?.maxBytes ?? limits.maxBody) else {
            record.upload = nil
            record.owner.refuse(message, record: record, WebGuard.tooLarge(limits, upload: record.uploadRoute))
            return
        }
        guard let upload = record.upload, let uploadDeadline = record.uploadDeadline else { return }
        upload.append(UnsafeRawBufferPointer(start: data, count: Int(size)))
        // A body in progress is not idle: the idle timeout runs again from each chunk, up to the route's own.
        record.deadline = min(.now + limits.requestTimeout, uploadDeadline)
    }
}
