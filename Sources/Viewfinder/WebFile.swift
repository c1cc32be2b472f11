// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CSoup
import Foundation

/// A regular file to answer with, mapped rather than read: a recording of gigabytes costs no
/// memory of its own, libsoup writes it as the socket takes it, and answers a `Range` request
/// (a video element seeking, a download resumed) from the same mapping.
///
/// The file must not be truncated while it is served (a mapping past a file's end faults):
/// only files camstamp finished writing, in its own folder, are served this way.
public final class WebFile: @unchecked Sendable {
    /// The mapping's bytes; each answer holds a reference while libsoup writes it.
    let bytes: OpaquePointer
    /// Its size in bytes.
    public let size: Int

    /// Maps the regular file open on `descriptor` (the caller checked it is the file it means);
    /// the descriptor stays the caller's.
    public init(descriptor: Int32) throws(WebServerError) {
        var error: UnsafeMutablePointer<GError>?
        guard let mapped = g_mapped_file_new_from_fd(descriptor, 0, &error) else {
            let reason = error.map { String(cString: $0.pointee.message) } ?? "cannot map it"
            g_clear_error(&error)
            throw WebServerError(message: reason)
        }
        defer { g_mapped_file_unref(mapped) }
        guard let bytes = g_mapped_file_get_bytes(mapped) else {
            throw WebServerError(message: "cannot map it")
        }
        self.bytes = bytes
        size = Int(g_bytes_get_size(bytes))
    }

    deinit { g_bytes_unref(bytes) }
}

extension WebResponse {
    /// `file` as the body: 200 with the whole of it, or 206 with the part a `Range` asks for
    /// (libsoup answers single and multiple ranges, and 416 for one past the end).
    public static func file(_ file: WebFile, contentType: String, headers: [(String, String)] = []) -> WebResponse {
        var response = WebResponse(contentType: contentType, body: Data(), headers: headers)
        response.file = file
        return response
    }
}
