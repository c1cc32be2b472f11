// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CSoup
import Foundation

/// The server's own accept loop, ahead of libsoup: libsoup's listener gives up for good on the
/// first failed accept (EMFILE), and it has no connection cap or timeouts. Each accepted socket is
/// counted (capped: past it, 503), given a deadline (request read, then answer written; none once
/// it carries the MJPEG stream), and handed to libsoup with `soup_server_accept_iostream`. Runs on
/// the server thread; only `forget` comes from other threads (the last ref of a stolen stream).
final class WebConnections: @unchecked Sendable {
    /// One accepted connection, until its GSocketConnection is finalised.
    final class Record {
        let socket: UnsafeMutablePointer<GSocket>
        unowned let owner: WebConnections
        var deadline: ContinuousClock.Instant?
        var bodyBytes = 0
        /// Set once the connection was taken from libsoup to answer a refusal ourselves.
        var refused: UnsafeMutablePointer<GIOStream>?
        var drained = 0
        /// Whether the connection is wrapped in TLS (what libsoup hands back does not say).
        var tls = false
        /// The client's address (per-peer cap).
        let peer: String
        /// Set once libsoup has read a request's head on this connection.
        var headersRead = false
        /// A duplicate of the descriptor, held until the first request's head is read: if libsoup
        /// gives up on the head first, the socket outlives libsoup's close so it can be answered.
        var headCopy: Int32 = -1

        init(
            socket: UnsafeMutablePointer<GSocket>, owner: WebConnections, deadline: ContinuousClock.Instant,
            peer: String
        ) {
            self.socket = socket
            self.owner = owner
            self.deadline = deadline
            self.peer = peer
        }
    }

    let limits: WebLimits
    /// HTTPS: every connection is wrapped in TLS; answers written by hand go through it too.
    let tls: WebTLS?
    private let server: UnsafeMutablePointer<SoupServer>
    private let context: OpaquePointer
    private let listener: UnsafeMutablePointer<GSocket>
    private var source: UnsafeMutablePointer<GSource>?
    private var ticker: UnsafeMutablePointer<GSource>?
    private let lock = NSLock()
    private var records: [UnsafeMutableRawPointer: Record] = [:]
    /// The record of the connection being handed to libsoup (its first message starts at once).
    private(set) var accepting: Record?
    /// Sockets refused past the cap: the 503 is out, what the client still sends is read and
    /// dropped for a moment so that closing does not reset the connection under the answer.
    private var shed: [(fd: Int32, until: ContinuousClock.Instant)] = []
    /// Kept open to be closed when descriptors run out, so that one more client can be told 503.
    private var spare: Int32 = -1

    init(
        server: UnsafeMutablePointer<SoupServer>, context: OpaquePointer, listener: UnsafeMutablePointer<GSocket>,
        limits: WebLimits, tls: WebTLS? = nil
    ) {
        self.tls = tls
        self.server = server
        self.context = context
        self.listener = listener
        self.limits = limits
        spare = open("/dev/null", O_RDONLY | O_CLOEXEC)
        var limit = rlimit()
        descriptorLimit = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 ? min(limit.rlim_cur, 1 << 20) : 1024
    }

    /// The soft limit on descriptors (raised to the hard one before the server starts).
    private let descriptorLimit: rlim_t

    var count: Int { lock.withLock { records.count } }

    func start() {
        watch()
        let tick = g_timeout_source_new(250)!
        let me = Unmanaged.passUnretained(self).toOpaque()
        g_source_set_callback(
            tick,
            { context in
                Unmanaged<WebConnections>.fromOpaque(context!).takeUnretainedValue().expire()
                return 1
            }, me, nil)
        g_source_attach(tick, context)
        ticker = tick
    }

    /// Stops accepting and closes what is left of the refused and shed connections.
    func stop() {
        for watched in [source, ticker].compactMap({ $0 }) {
            g_source_destroy(watched)
            g_source_unref(watched)
        }
        source = nil
        ticker = nil
        for entry in shed { close(entry.fd) }
        shed.removeAll()
        for record in lock.withLock({ Array(records.values) }) {
            if record.refused != nil { finishRefusal(record) }
            if record.headCopy >= 0 {
                close(record.headCopy)
                record.headCopy = -1
            }
        }
        if spare >= 0 { close(spare) }
    }

    private func watch() {
        let watched = g_socket_create_source(listener, G_IO_IN, nil)!
        let me = Unmanaged.passUnretained(self).toOpaque()
        typealias Ready = @convention(c) (UnsafeMutablePointer<GSocket>?, GIOCondition, gpointer?) -> gboolean
        let ready: Ready = { _, _, context in
            Unmanaged<WebConnections>.fromOpaque(context!).takeUnretainedValue().acceptPending() ? 1 : 0
        }
        g_source_set_callback(watched, unsafeBitCast(ready, to: GSourceFunc.self), me, nil)
        g_source_attach(watched, context)
        source = watched
    }

    /// Accepts what is waiting (a bounded number per turn); false drops the watch for a retry later.
    private func acceptPending() -> Bool {
        let fd = g_socket_get_fd(listener)
        for _ in 0..<64 {
            let client = Self.acceptClient(fd)
            if client >= 0 {
                take(client)
                continue
            }
            switch errno {
            case EAGAIN, EWOULDBLOCK: return true
            case EINTR, ECONNABORTED, EPROTO: continue
            case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                if shedWithSpare(fd) { continue }
                // Nothing to spare: wait for descriptors to come back instead of spinning.
                retryLater()
                return false
            default:
                retryLater()
                return false
            }
        }
        return true
    }

    /// Out of descriptors: the spare one makes room to accept a client and tell it 503.
    private func shedWithSpare(_ listening: Int32) -> Bool {
        guard spare >= 0 else { return false }
        close(spare)
        spare = -1
        let client = Self.acceptClient(listening)
        if client >= 0 {
            // Over HTTPS there is no answer before a handshake: the client sees the close.
            if tls == nil { Self.sendAnswer(client, Self.busy) }
            close(client)
        }
        spare = open("/dev/null", O_RDONLY | O_CLOEXEC)
        return client >= 0 && spare >= 0
    }

    private func retryLater() {
        if let source {
            g_source_destroy(source)
            g_source_unref(source)
            self.source = nil
        }
        let later = g_timeout_source_new(100)!
        let me = Unmanaged.passUnretained(self).toOpaque()
        g_source_set_callback(
            later,
            { context in
                let connections = Unmanaged<WebConnections>.fromOpaque(context!).takeUnretainedValue()
                if connections.spare < 0 { connections.spare = open("/dev/null", O_RDONLY | O_CLOEXEC) }
                connections.watch()
                return 0
            }, me, nil)
        g_source_attach(later, context)
        g_source_unref(later)
    }

    private func take(_ fd: Int32) {
        // Descriptors are shared with the camera (fonts, GStreamer's polls): connections never
        // take the last `headroom` of them. A new fd is the lowest free one, so its number says
        // how many are open.
        let headroom = min(64, Int(descriptorLimit / 4))
        let peer = Self.peerAddress(fd)
        guard count < limits.maxConnections, Int(fd) < Int(descriptorLimit) - headroom else {
            shedConnection(fd, Self.busy, headroom: headroom)
            return
        }
        guard connections(from: peer) < limits.maxConnectionsPerPeer else {
            shedConnection(fd, Self.busyPeer, headroom: headroom)
            return
        }
        var error: UnsafeMutablePointer<GError>?
        guard let socket = g_socket_new_from_fd(fd, &error) else {
            if let error { g_error_free(error) }
            close(fd)
            return
        }
        g_socket_set_option(socket, gint(IPPROTO_TCP), gint(TCP_NODELAY), 1, nil)
        let local = g_socket_get_local_address(socket, nil), remote = g_socket_get_remote_address(socket, nil)
        guard let local, let remote else {
            g_object_unref(socket)
            return
        }
        let connection = g_socket_connection_factory_create_connection(socket)!
        let record = Record(socket: socket, owner: self, deadline: .now + limits.requestTimeout, peer: peer)
        record.tls = tls != nil
        // A head too large is answered in the clear on a copy of the socket: not through TLS.
        if tls == nil { record.headCopy = fcntl(fd, F_DUPFD_CLOEXEC, 0) }
        let key = UnsafeMutableRawPointer(connection)
        lock.withLock { records[key] = record }
        // Finalised when libsoup, or the MJPEG fan-out that took it, lets go: the fd is closed then.
        g_object_weak_ref(
            UnsafeMutableRawPointer(connection).assumingMemoryBound(to: GObject.self),
            { context, gone in
                Unmanaged<WebConnections>.fromOpaque(context!).takeUnretainedValue().forget(
                    UnsafeMutableRawPointer(gone!))
            }, Unmanaged.passRetained(self).toOpaque())
        accepting = record
        let plain = UnsafeMutableRawPointer(connection).assumingMemoryBound(to: GIOStream.self)
        // The TLS connection holds the plain one: the weak ref above still fires when libsoup lets go.
        if let stream = tls == nil ? plain : tls?.wrap(plain) {
            soup_server_accept_iostream(server, stream, local, remote, nil)
            if stream != plain { g_object_unref(stream) }
        }
        accepting = nil
        g_object_unref(local)
        g_object_unref(remote)
        g_object_unref(connection)
    }

    /// Each connection holds this object (the weak ref's retain), so that a viewer's connection
    /// let go after the server stopped still finds it.
    private func forget(_ connection: UnsafeMutableRawPointer) {
        defer { Unmanaged.passUnretained(self).release() }
        guard let record = lock.withLock({ records.removeValue(forKey: connection) }) else { return }
        g_object_unref(record.socket)
        if record.headCopy >= 0 {
            answerUnread(record.headCopy)
            record.headCopy = -1
        }
    }

    /// Reads what a shed client sends and drops it: a cheap lingering close.
    private func drop(_ fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 16384)
        while recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT)) > 0 {}
    }

    /// Every tick: closes connections past their deadline, drains the refused and shed ones.
    private func expire() {
        let now = ContinuousClock.now
        shed.removeAll { entry in
            var buffer = [UInt8](repeating: 0, count: 16384)
            var n = recv(entry.fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            while n > 0 { n = recv(entry.fd, &buffer, buffer.count, Int32(MSG_DONTWAIT)) }
            let done = n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) || entry.until <= now
            if done { close(entry.fd) }
            return done
        }
        for record in lock.withLock({ Array(records.values) }) {
            if record.refused != nil {
                if drain(record) || (record.deadline ?? now) <= now { finishRefusal(record) }
            } else if let deadline = record.deadline, deadline <= now {
                // libsoup sees the end of its stream and lets the connection go.
                record.deadline = nil
                g_socket_shutdown(record.socket, 1, 1, nil)
            }
        }
    }

    // MARK: Refusals

    /// Takes the connection from libsoup and answers `refusal` on it without reading the body.
    func refuse(_ message: OpaquePointer, record: Record, _ refusal: WebRefusal) {
        guard record.refused == nil, let stream = soup_server_message_steal_connection(message) else { return }
        record.refused = stream
        let fd = g_socket_get_fd(record.socket)
        if record.tls {
            WebTLS.send(Self.answer(refusal.status, refusal.text), on: stream)
        } else {
            Self.sendAnswer(fd, Self.answer(refusal.status, refusal.text))
        }
        shutdown(fd, Int32(SHUT_WR))
        record.deadline = .now + .seconds(1)
    }

    /// Drops what a refused client still sends; true once it is done (closed, or sent too much).
    private func drain(_ record: Record) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let fd = g_socket_get_fd(record.socket)
        while true {
            let n = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if n > 0 {
                record.drained += n
                if record.drained > 4 << 20 { return true }
                continue
            }
            return n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)
        }
    }

    private func finishRefusal(_ record: Record) {
        guard let stream = record.refused else { return }
        record.refused = nil
        record.deadline = nil
        g_io_stream_close(stream, nil, nil)
        g_object_unref(stream)
    }

    /// accept(2), the client's descriptor non-blocking and closed on exec (errno set on failure).
    private static func acceptClient(_ listening: Int32) -> Int32 {
        let client = accept(listening, nil, nil)
        guard client >= 0 else { return client }
        _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
        _ = fcntl(client, F_SETFD, FD_CLOEXEC)
        return client
    }

    // MARK: Shedding, peers and unread requests

    /// Answers `answer` (a 503) on a connection that is not taken, and closes it after a lingering
    /// read, so that closing does not reset it under the answer.
    private func shedConnection(_ fd: Int32, _ answer: [UInt8], headroom: Int) {
        drop(fd)
        // Over TLS no answer can go before the handshake: the connection is just closed.
        if tls == nil { Self.sendAnswer(fd, answer) }
        shutdown(fd, Int32(SHUT_WR))
        if shed.count < 64 && Int(fd) < Int(descriptorLimit) - headroom / 2 {
            shed.append((fd, .now + .seconds(1)))
        } else {
            close(fd)
        }
    }

    /// How many connections `peer` holds now.
    private func connections(from peer: String) -> Int {
        lock.withLock { records.values.reduce(0) { $0 + ($1.peer == peer ? 1 : 0) } }
    }

    /// The first request's head is read: the duplicate descriptor is not needed any more.
    func headRead(_ record: Record) {
        record.headersRead = true
        if record.headCopy >= 0 {
            close(record.headCopy)
            record.headCopy = -1
        }
    }

    /// A connection libsoup let go before it read the first request's head. If the client is still
    /// sending, libsoup gave up on the head (a header line or head past its limit, about 64 KiB)
    /// and closed without an answer, and the unread bytes would make the kernel reset the
    /// connection: the duplicate `copy` answers 431 and closes after a lingering read.
    private func answerUnread(_ copy: Int32) {
        var pending: Int32 = 0
        guard ioctl(copy, UInt(FIONREAD), &pending) == 0, pending > 0 else {
            close(copy)
            return
        }
        Self.sendAnswer(
            copy,
            Self.answer(431, "camstamp: the request's headers are too large; the camera takes headers of a few KiB"))
        shutdown(copy, Int32(SHUT_WR))
        if shed.count < 64 { shed.append((copy, .now + .seconds(1))) } else { close(copy) }
    }
}
