// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CSoup
internal import CViewfinderShim
import Foundation
import Media

/// Sends a `multipartmux ! multisocketsink` stream to HTTP clients. libsoup answers the request
/// line and writes the response headers; then the connection is taken from it and handed to
/// multisocketsink, which writes every part to every client without blocking: a client that stops
/// reading falls behind alone, is resynced to the latest part head, and is dropped past its limit.
public final class MJPEGFanOut: @unchecked Sendable {
    private let sink: Element
    public let boundary: String
    private let lock = NSLock()
    /// The connections taken from libsoup, by their socket; released when multisocketsink lets go
    /// of the socket (`client-socket-removed`), or they would linger in CLOSE-WAIT.
    private var connections: [UnsafeMutableRawPointer: UnsafeMutableRawPointer] = [:]

    /// `sink` is the pipeline's multisocketsink; `boundary` the one multipartmux writes.
    public init(sink: Element, boundary: String) throws(MediaError) {
        self.sink = sink
        self.boundary = boundary
        // New clients start on a part head; a slow one is moved to the newest part when it has 4
        // parts waiting, and dropped when it has 120 (four seconds of a stalled client).
        try sink.set("sync", false)
        try sink.set("sync-method", "latest-keyframe")
        try sink.set("recover-policy", "keyframe")
        try sink.set("buffers-soft-max", 4)
        try sink.set("buffers-max", 120)
        try sink.set("enable-last-sample", false)
        let me = Unmanaged.passUnretained(self).toOpaque()
        let removed:
            @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = {
                _, socket, context in
                guard let socket, let context else { return }
                Unmanaged<MJPEGFanOut>.fromOpaque(context).takeUnretainedValue().release(socket: socket)
            }
        // The sink lives as long as this object (it holds `sink`), so an unretained pointer is safe;
        // the handler is disconnected in deinit.
        handlerID = g_signal_connect_data(
            sink.unsafeObject.assumingMemoryBound(to: GObject.self), "client-socket-removed",
            unsafeBitCast(removed, to: GCallback.self), me, nil, GConnectFlags(rawValue: 0))
    }

    private var handlerID: gulong = 0

    deinit {
        g_signal_handler_disconnect(sink.unsafeObject.assumingMemoryBound(to: GObject.self), handlerID)
        for (_, stream) in connections { g_object_unref(stream) }
    }

    /// How many clients are being sent the stream now.
    public var clientCount: Int { lock.withLock { connections.count } }

    /// Called on the server thread for a GET of the stream.
    func attach(
        message: OpaquePointer, socket: UnsafeMutablePointer<GSocket>, tls: Bool, headers: [(String, String)]
    ) {
        soup_server_message_set_status(message, 200, nil)
        let responseHeaders = soup_server_message_get_response_headers(message)
        soup_message_headers_replace(responseHeaders, "Content-Type", "multipart/x-mixed-replace; boundary=\(boundary)")
        soup_message_headers_replace(responseHeaders, "Cache-Control", "no-store")
        soup_message_headers_replace(responseHeaders, "Connection", "close")
        for (name, value) in headers { soup_message_headers_append(responseHeaders, name, value) }
        soup_message_headers_set_encoding(responseHeaders, SOUP_ENCODING_EOF)
        let wroteHeaders: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = {
            message, context in
            guard let message, let context else { return }
            let attachment = Unmanaged<Attachment>.fromOpaque(context).takeUnretainedValue()
            attachment.fanOut.take(OpaquePointer(message), socket: attachment.socket, tls: attachment.tls)
        }
        // The message holds the attachment (and so this object and a ref to the socket) until it is
        // finalised (the destroy notify).
        g_object_ref(socket)
        let context = Unmanaged.passRetained(Attachment(fanOut: self, socket: socket, tls: tls)).toOpaque()
        g_signal_connect_data(
            UnsafeMutableRawPointer(message).assumingMemoryBound(to: GObject.self), "wrote-headers",
            unsafeBitCast(wroteHeaders, to: GCallback.self), context,
            { context, _ in if let context { Unmanaged<Attachment>.fromOpaque(context).release() } },
            GConnectFlags(rawValue: 0))
    }

    /// The headers are out: the connection is ours now, the socket multisocketsink's to write to.
    private func take(_ message: OpaquePointer, socket: UnsafeMutablePointer<GSocket>, tls: Bool) {
        guard let stream = soup_server_message_steal_connection(message) else { return }
        // Over HTTPS multisocketsink writes the clear stream into a socket pair that GIO carries
        // through TLS to the client; each client still falls behind (and is dropped) alone.
        var target = socket
        if tls {
            guard let plain = WebTLS.plainSocket(splicedTo: stream) else {
                g_io_stream_close(stream, nil, nil)
                g_object_unref(stream)
                return
            }
            target = plain
        }
        let socketKey = UnsafeMutableRawPointer(target)
        lock.withLock { connections[socketKey] = UnsafeMutableRawPointer(stream) }
        camstamp_multisocketsink_add(sink.unsafeObject.assumingMemoryBound(to: GstElement.self), target)
        if target != socket { g_object_unref(target) }
    }

    /// multisocketsink is done with `socket` (the client left, or fell too far behind).
    private func release(socket: UnsafeMutableRawPointer) {
        guard let stream = lock.withLock({ connections.removeValue(forKey: socket) }) else { return }
        g_io_stream_close(stream.assumingMemoryBound(to: GIOStream.self), nil, nil)
        g_object_unref(stream)
    }
}

/// What a viewer's message holds until its headers are out: the fan-out and the client's socket.
private final class Attachment {
    let fanOut: MJPEGFanOut
    let socket: UnsafeMutablePointer<GSocket>
    let tls: Bool
    init(fanOut: MJPEGFanOut, socket: UnsafeMutablePointer<GSocket>, tls: Bool) {
        self.fanOut = fanOut
        self.socket = socket
        self.tls = tls
    }
    deinit { g_object_unref(socket) }
}
