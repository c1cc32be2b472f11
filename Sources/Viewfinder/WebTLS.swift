// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CSoup
import Foundation

/// The certificate the page is served with over HTTPS, through GLib's TLS backend
/// (glib-networking, GnuTLS). Each accepted connection is wrapped in a `GTlsServerConnection`
/// before libsoup sees it; the handshake happens on libsoup's first read, under the request's
/// deadline like the rest of it.
final class WebTLS: @unchecked Sendable {
    private let certificate: UnsafeMutablePointer<GTlsCertificate>

    /// Loads the PEM certificate (chain) and private key at the two paths.
    init(certificate path: String, key: String) throws(WebServerError) {
        guard g_tls_backend_supports_tls(g_tls_backend_get_default()) != 0 else {
            throw WebServerError(
                message: "GLib has no TLS backend; install glib-networking (make deps) to serve HTTPS")
        }
        var error: UnsafeMutablePointer<GError>?
        guard let certificate = g_tls_certificate_new_from_files(path, key, &error) else {
            let why = error.map { String(cString: $0.pointee.message) } ?? "unknown reason"
            if let error { g_error_free(error) }
            throw WebServerError(
                message: "--tls-cert \(path) --tls-key \(key): \(why); give a PEM certificate and its private key")
        }
        self.certificate = certificate
    }

    deinit { g_object_unref(certificate) }

    /// `connection` inside a TLS server connection (a new reference), or nil when GIO refuses.
    func wrap(_ connection: UnsafeMutablePointer<GIOStream>) -> UnsafeMutablePointer<GIOStream>? {
        var error: UnsafeMutablePointer<GError>?
        guard let wrapped = g_tls_server_connection_new(connection, certificate, &error) else {
            if let error { g_error_free(error) }
            return nil
        }
        return UnsafeMutableRawPointer(wrapped).assumingMemoryBound(to: GIOStream.self)
    }

    /// Writes `bytes` through `stream` (libsoup's stream over the TLS connection): a short answer
    /// fits in a fresh socket's send buffer.
    static func send(_ bytes: [UInt8], on stream: UnsafeMutablePointer<GIOStream>) {
        var written: gsize = 0
        _ = bytes.withUnsafeBytes {
            g_output_stream_write_all(
                g_io_stream_get_output_stream(stream), $0.baseAddress, gsize($0.count), &written, nil, nil)
        }
    }

    /// Splices `client` (libsoup's stream over a TLS connection) to one end of a new socket pair and returns the other
    /// end's socket (a new reference), which multisocketsink can write to in the clear as to any
    /// client: GIO carries it through TLS. Closing either side closes both.
    static func plainSocket(splicedTo client: UnsafeMutablePointer<GIOStream>) -> UnsafeMutablePointer<GSocket>? {
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            return nil
        }
        guard let sinkEnd = g_socket_new_from_fd(ends[0], nil) else {
            close(ends[0])
            close(ends[1])
            return nil
        }
        guard let spliceEnd = g_socket_new_from_fd(ends[1], nil) else {
            close(ends[1])
            g_object_unref(sinkEnd)
            return nil
        }
        let connection = g_socket_connection_factory_create_connection(spliceEnd)!
        g_object_unref(spliceEnd)
        let pair = UnsafeMutableRawPointer(connection).assumingMemoryBound(to: GIOStream.self)
        let flags = GIOStreamSpliceFlags(
            rawValue: G_IO_STREAM_SPLICE_CLOSE_STREAM1.rawValue | G_IO_STREAM_SPLICE_CLOSE_STREAM2.rawValue)
        g_io_stream_splice_async(
            client, pair, flags, G_PRIORITY_DEFAULT, nil,
            { _, result, _ in _ = g_io_stream_splice_finish(result, nil) }, nil)
        g_object_unref(connection)
        return sinkEnd
    }
}
