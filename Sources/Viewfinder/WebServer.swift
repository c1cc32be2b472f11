// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CSoup
internal import CViewfinderShim
import Foundation
import Media

/// A failure to start or run the web viewfinder, worded for the user.
public struct WebServerError: Error, Equatable, CustomStringConvertible, Sendable {
    public var message: String
    public var description: String { message }
}

/// One HTTP request, copied out of libsoup so handlers never see C.
public struct WebRequest: Sendable {
    public var method: String
    public var path: String
    public var query: [String: String]
    public var headers: [String: String]
    public var body: Data
    /// The body of an upload route, in a temporary file (removed when the last copy goes).
    public var upload: WebUpload?
    /// The peer's address (`127.0.0.1`), for messages.
    public var peer: String

    /// A request header by name, case-insensitively.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// An HTTP response.
public struct WebResponse: Sendable {
    public var status: Int
    public var contentType: String
    public var body: Data
    public var headers: [(String, String)]
    /// A file answered instead of `body` (see `WebResponse.file`).
    public var file: WebFile?

    public init(status: Int = 200, contentType: String, body: Data, headers: [(String, String)] = []) {
        self.status = status
        self.contentType = contentType
        self.body = body
        self.headers = headers
    }

    public static func json(_ data: Data, status: Int = 200, headers: [(String, String)] = []) -> WebResponse {
        WebResponse(status: status, contentType: "application/json", body: data, headers: headers)
    }

    public static func text(_ text: String, status: Int, headers: [(String, String)] = []) -> WebResponse {
        WebResponse(
            status: status, contentType: "text/plain; charset=utf-8", body: Data((text + "\n").utf8), headers: headers)
    }
}

/// What a handler does with a request: answer now, answer later from any thread (the request is
/// held open meanwhile: a photo being written), or hand the connection to the MJPEG fan-out.
public final class WebReply: @unchecked Sendable {
    fileprivate let message: OpaquePointer
    fileprivate unowned let server: WebServer
    fileprivate var answered = false
    fileprivate var paused = false
    fileprivate var inHandler = true

    fileprivate init(message: OpaquePointer, server: WebServer) {
        self.message = message
        self.server = server
        g_object_ref(UnsafeMutableRawPointer(message))
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(message)) }

    /// Sends `response`; callable once, from any thread.
    public func send(_ response: WebResponse) {
        if server.isServerThread {
            apply(response)
        } else {
            server.invoke { [self] in apply(response) }
        }
    }

    /// Sends a multipart stream from `stream`'s sink to this client from now on.
    public func stream(_ stream: MJPEGFanOut, headers: [(String, String)] = []) {
        precondition(server.isServerThread && inHandler, "an MJPEG client is attached inside the handler")
        answered = true
        // The stream has no end: no deadline for this connection from now on.
        guard let record = WebServer.record(of: message) else { return }
        record.deadline = nil
        stream.attach(message: message, socket: record.socket, tls: record.tls, headers: headers)
    }

    private func apply(_ response: WebResponse) {
        guard !answered else { return }
        answered = true
        soup_server_message_set_status(message, guint(response.status), nil)
        let headers = soup_server_message_get_response_headers(message)
        for (name, value) in response.headers { soup_message_headers_append(headers, name, value) }
        soup_message_headers_replace(headers, "Cache-Control", "no-store")
        // Each connection serves one request (the server's accept loop is its own, see WebConnections).
        soup_message_headers_replace(headers, "Connection", "close")
        if let file = response.file {
            serve(file, contentType: response.contentType)
        } else {
            response.body.withUnsafeBytes { bytes in
                soup_server_message_set_response(
                    message, response.contentType, SOUP_MEMORY_COPY,
                    bytes.baseAddress?.assumingMemoryBound(to: CChar.self), gsize(bytes.count))
            }
        }
        if paused { soup_server_message_unpause(message) }
    }

    /// The mapping as the whole body (libsoup cuts a `Range` from it). A large file takes longer
    /// than the answer's deadline to write: each write the socket takes moves the deadline on,
    /// so only a client that stops reading is cut off.
    private func serve(_ file: WebFile, contentType: String) {
        soup_message_headers_set_content_type(soup_server_message_get_response_headers(message), contentType, nil)
        soup_message_headers_replace(soup_server_message_get_response_headers(message), "Accept-Ranges", "bytes")
        let body = soup_server_message_get_response_body(message)
        soup_message_body_append_bytes(body, file.bytes)
        soup_message_body_complete(body)
        let wrote: @convention(c) (OpaquePointer?, guint, gpointer?) -> Void = { message, _, _ in
            guard let message, let record = WebServer.record(of: message) else { return }
            record.deadline = .now + record.owner.limits.answerTimeout
        }
        g_signal_connect_data(
            UnsafeMutableRawPointer(message).assumingMemoryBound(to: GObject.self), "wrote-body-data",
            unsafeBitCast(wrote, to: GCallback.self), nil, nil, GConnectFlags(rawValue: 0))
    }
}

/// An HTTP server (libsoup 3) on a GLib main loop of its own thread. libsoup is not thread-safe:
/// everything that touches it runs on that thread, reached from others through
/// `g_main_context_invoke_full`.
public final class WebServer: @unchecked Sendable {
    public typealias Handler = @Sendable (WebRequest, WebReply) -> Void

    /// The port it listens on (the one the system chose when 0 was asked).
    public private(set) var port: UInt16 = 0
    private let context: OpaquePointer
    private var loop: OpaquePointer?
    private var server: OpaquePointer?
    private let handler: Handler
    private var thread: Thread?
    private let started = DispatchSemaphore(value: 0)
    private let stopped = DispatchSemaphore(value: 0)
    private var startError: WebServerError?
    fileprivate var serverThreadID: pthread_t?
    let limits: WebLimits
    private let guard_: WebGuard
    var connections: WebConnections?
    private let tls: WebTLS?

    /// Listens on `address` (an IPv4 or IPv6 literal) and `port`, and calls `handler` on the
    /// server thread for each request. With `tls` (a PEM certificate and key path) it speaks HTTPS.
    public init(
        address: String, port: UInt16, limits: WebLimits = WebLimits(),
        tls: (certificate: String, key: String)? = nil,
        handler: @escaping Handler
    ) throws(WebServerError) {
        self.handler = handler
        self.limits = limits
        self.tls = try tls.map { files throws(WebServerError) in
            try WebTLS(certificate: files.certificate, key: files.key)
        }
        guard_ = WebGuard(boundAddress: address, scheme: tls == nil ? "http" : "https")
        Self.raiseDescriptorLimit()
        context = g_main_context_new()
        let thread = Thread { [self] in run(address: address, port: port) }
        thread.name = "camstamp web"
        self.thread = thread
        thread.start()
        started.wait()
        if let startError {
            stopped.wait()
            throw startError
        }
    }

    deinit {
        g_main_context_unref(context)
    }

    fileprivate var isServerThread: Bool {
        guard let serverThreadID else { return false }
        return pthread_equal(serverThreadID, pthread_self()) != 0
    }

    private func run(address: String, port requested: UInt16) {
        serverThreadID = pthread_self()
        g_main_context_push_thread_default(context)
        defer {
            g_main_context_pop_thread_default(context)
            stopped.signal()
        }
        guard let server = camstamp_soup_server_new("camstamp") else {
            startError = WebServerError(message: "cannot create the HTTP server")
            started.signal()
            return
        }
        self.server = OpaquePointer(server)
        defer {
            g_object_unref(UnsafeMutableRawPointer(server))
            self.server = nil
        }
        guard let listener = listen(address: address, port: requested) else {
            started.signal()
            return
        }
        defer { g_object_unref(listener) }
        let connections = WebConnections(
            server: server, context: context, listener: listener, limits: limits, tls: tls)
        self.connections = connections
        connectSignals(server)
        connections.start()
        defer { connections.stop() }
        let me = Unmanaged.passUnretained(self).toOpaque()
        soup_server_add_handler(
            server, nil,
            { _, message, path, query, context in
                guard let message, let context else { return }
                Unmanaged<WebServer>.fromOpaque(context).takeUnretainedValue().handle(message, path: path, query: query)
            }, me, nil)
        let loop = g_main_loop_new(context, 0)
        self.loop = loop
        started.signal()
        g_main_loop_run(loop)
        soup_server_disconnect(server)
        g_main_loop_unref(loop)
    }

    private func handle(_ message: OpaquePointer, path: UnsafePointer<CChar>?, query: OpaquePointer?) {
        var request = WebRequest(
            method: String(cString: soup_server_message_get_method(message)),
            path: path.map { String(cString: $0) } ?? "/", query: [:], headers: [:], body: Data(),
            peer: soup_server_message_get_remote_host(message).map { String(cString: $0) } ?? "?")
        if let query {
            var iterator = GHashTableIter()
            g_hash_table_iter_init(&iterator, query)
            var key: gpointer?, value: gpointer?
            while g_hash_table_iter_next(&iterator, &key, &value) != 0 {
                if let key, let value {
                    request.query[String(cString: key.assumingMemoryBound(to: CChar.self))] = String(
                        cString: value.assumingMemoryBound(to: CChar.self))
                }
            }
        }
        var iterator = SoupMessageHeadersIter()
        soup_message_headers_iter_init(&iterator, soup_server_message_get_request_headers(message))
        var name: UnsafePointer<CChar>?, value: UnsafePointer<CChar>?
        while soup_message_headers_iter_next(&iterator, &name, &value) != 0 {
            if let name, let value { request.headers[String(cString: name).lowercased()] = String(cString: value) }
        }
        if let body = soup_server_message_get_request_body(message), body.pointee.length > 0,
            let data = body.pointee.data
        {
            request.body = Data(bytes: data, count: Int(body.pointee.length))
        }
        if let record = Self.record(of: message), let upload = record.upload {
            record.upload = nil
            do { try upload.finish() } catch {
                WebReply(message: message, server: self).send(.text("camstamp: \(error.message)", status: 500))
                return
            }
            request.upload = upload
        }
        let reply = WebReply(message: message, server: self)
        handler(request, reply)
        reply.inHandler = false
        if !reply.answered {
            // Answered later from another thread: hold the request open until then.
            reply.paused = true
            soup_server_message_pause(message)
        }
    }

    /// A listening socket on `address`:`port`, or nil with `startError` set.
    private func listen(address: String, port requested: UInt16) -> UnsafeMutablePointer<GSocket>? {
        func failed(_ error: UnsafeMutablePointer<GError>?) -> UnsafeMutablePointer<GSocket>? {
            let reason = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            if let error { g_error_free(error) }
            startError = WebServerError(message: "cannot listen on \(address):\(requested) (\(reason))")
            return nil
        }
        guard let socketAddress = g_inet_socket_address_new_from_string(address, guint(requested)) else {
            startError = WebServerError(message: "\(address) is not an IP address")
            return nil
        }
        defer { g_object_unref(socketAddress) }
        var error: UnsafeMutablePointer<GError>?
        let family = g_socket_address_get_family(socketAddress)
        guard let socket = g_socket_new(family, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, &error) else {
            return failed(error)
        }
        g_socket_set_listen_backlog(socket, 511)
        guard g_socket_bind(socket, socketAddress, 1, &error) != 0, g_socket_listen(socket, &error) != 0 else {
            g_object_unref(socket)
            return failed(error)
        }
        if let local = g_socket_get_local_address(socket, nil) {
            let inet = UnsafeMutableRawPointer(local).assumingMemoryBound(to: GInetSocketAddress.self)
            port = UInt16(g_inet_socket_address_get_port(inet))
            g_object_unref(local)
        }
        return socket
    }

    /// A server keeps many sockets open: the soft limit on descriptors goes up to the hard one.
    private static func raiseDescriptorLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }

    /// Each request's connection record, and the checks made on its headers before the body is read.
    private func connectSignals(_ server: UnsafeMutablePointer<SoupServer>) {
        let me = Unmanaged.passUnretained(self).toOpaque()
        let started: @convention(c) (gpointer?, OpaquePointer?, gpointer?) -> Void = { _, message, context in
            guard let message, let context else { return }
            Unmanaged<WebServer>.fromOpaque(context).takeUnretainedValue().started(message)
        }
        let read: @convention(c) (gpointer?, OpaquePointer?, gpointer?) -> Void = { _, message, _ in
            guard let message, let record = WebServer.record(of: message) else { return }
            record.deadline = .now + record.owner.limits.answerTimeout
        }
        for (name, callback) in [("request-started", started), ("request-read", read)] {
            g_signal_connect_data(
                UnsafeMutableRawPointer(server).assumingMemoryBound(to: GObject.self), name,
                unsafeBitCast(callback, to: GCallback.self), me, nil, GConnectFlags(rawValue: 0))
        }
    }

    private static let recordKey = "camstamp-connection"

    fileprivate static func record(of message: OpaquePointer) -> WebConnections.Record? {
        g_object_get_data(UnsafeMutableRawPointer(message).assumingMemoryBound(to: GObject.self), recordKey)
            .map { Unmanaged<WebConnections.Record>.fromOpaque($0).takeUnretainedValue() }
    }

    private func started(_ message: OpaquePointer) {
        guard let record = connections?.accepting else { return }
        record.headersRead = false
        let object = UnsafeMutableRawPointer(message).assumingMemoryBound(to: GObject.self)
        g_object_set_data_full(object, Self.recordKey, Unmanaged.passRetained(record).toOpaque()) {
            if let record = $0 { Unmanaged<WebConnections.Record>.fromOpaque(record).release() }
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        let headers: @convention(c) (OpaquePointer?, gpointer?) -> Void = { message, context in
            guard let message, let context else { return }
            Unmanaged<WebServer>.fromOpaque(context).takeUnretainedValue().gotHeaders(message)
        }
        let chunk: @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void = { message, bytes, _ in
            guard let message, let bytes, let record = WebServer.record(of: message) else { return }
            WebServer.received(bytes, message: message, record: record)
        }
        let flags = GConnectFlags(rawValue: 0)
        g_signal_connect_data(object, "got-headers", unsafeBitCast(headers, to: GCallback.self), me, nil, flags)
        g_signal_connect_data(object, "got-chunk", unsafeBitCast(chunk, to: GCallback.self), me, nil, flags)
    }

    /// Host, Origin and the body's length, before anything reads the body or any handler runs.
    private func gotHeaders(_ message: OpaquePointer) {
        guard let record = Self.record(of: message), let connections else { return }
        let headers = soup_server_message_get_request_headers(message)
        func header(_ name: String) -> String? {
            // Repeated headers joined: a foreign Host or Origin cannot hide behind a second, own one
            // (`get_one` gives the last).
            soup_message_headers_get_list(headers, name).map { String(cString: $0) }
        }
        let length: Int? =
            soup_message_headers_get_encoding(headers) == SOUP_ENCODING_CONTENT_LENGTH
            ? Int(soup_message_headers_get_content_length(headers)) : nil
        connections.headRead(record)
        let method = String(cString: soup_server_message_get_method(message))
        let path = soup_server_message_get_uri(message).flatMap { g_uri_get_path($0) }.map { String(cString: $0) }
        let upload = path.flatMap { limits.upload(method: method, path: $0) }
        do {
            try WebGuard.checkFraming(contentLength: header("Content-Length"))
            try guard_.check(
                method: method, host: header("Host"), origin: header("Origin"), referer: header("Referer"),
                contentLength: length, limits: limits, upload: upload)
        } catch {
            connections.refuse(message, record: record, error)
            return
        }
        if let upload {
            startUpload(
                upload, message: message, record: record, cookie: header("Cookie"),
                authorization: header("Authorization"))
        }
    }

    /// Runs `body` on the server thread.
    func invoke(_ body: @escaping () -> Void) {
        let box = Unmanaged.passRetained(Invocation(body)).toOpaque()
        g_main_context_invoke_full(
            context, G_PRIORITY_DEFAULT,
            { box in
                Unmanaged<Invocation>.fromOpaque(box!).takeUnretainedValue().body()
                return 0
            }, box, { box in Unmanaged<Invocation>.fromOpaque(box!).release() })
    }

    /// Stops serving and waits for the server thread to end.
    public func stop() {
        guard let thread else { return }
        self.thread = nil
        _ = thread
        invoke { [self] in if let loop { g_main_loop_quit(loop) } }
        stopped.wait()
    }
}

private final class Invocation {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}
