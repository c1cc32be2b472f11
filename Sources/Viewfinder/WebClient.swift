// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CSoup
import Foundation

/// A failure of a request, worded for the user: the server could not be reached, did not answer
/// in time, or the answer was not one.
public struct WebClientError: Error, Equatable, CustomStringConvertible, Sendable {
    public var message: String
    public var description: String { message }
}

/// An HTTP answer, copied out of libsoup.
public struct WebAnswer: Sendable {
    public var status: Int
    /// The reason phrase (`Created`, `Forbidden`).
    public var reason: String
    /// Response headers by lower-case name (the last one of a name that came twice).
    public var headers: [String: String]
    public var body: Data
}

/// HTTP requests made with libsoup (HTTPS through glib-networking), each on a session of its own,
/// synchronously on the caller's thread: WHIP's few requests per connection.
public enum WebClient {
    /// The largest answer taken: an SDP answer is a few kilobytes.
    static let largestBody = 256 * 1024

    /// Sends `method` to `url` with `headers` and `body` (of `contentType`), waiting at most
    /// `timeout` for the connection and for the answer.
    public static func send(
        _ method: String, to url: URL, headers: [(String, String)] = [], body: Data? = nil,
        contentType: String? = nil, timeout: Duration
    ) throws(WebClientError) -> WebAnswer {
        guard let message = soup_message_new(method, url.absoluteString) else {
            throw WebClientError(message: "not a URL libsoup takes")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(message)) }
        let session = soup_session_new()
        defer { g_object_unref(UnsafeMutableRawPointer(session)) }
        let seconds = UInt32(max(1, timeout.components.seconds))
        soup_session_set_timeout(session, seconds)
        soup_session_set_idle_timeout(session, seconds)
        let requestHeaders = soup_message_get_request_headers(message)
        for (name, value) in headers { soup_message_headers_append(requestHeaders, name, value) }
        if let body {
            let bytes = body.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
            soup_message_set_request_body_from_bytes(message, contentType, bytes)
            g_bytes_unref(bytes)
        }
        var error: UnsafeMutablePointer<GError>?
        guard let bytes = soup_session_send_and_read(session, message, nil, &error) else {
            let timedOut =
                error.map {
                    $0.pointee.domain == g_io_error_quark() && $0.pointee.code == G_IO_ERROR_TIMED_OUT.rawValue
                } ?? false
            let text =
                timedOut
                ? "no answer within \(seconds) s" : error.map { String(cString: $0.pointee.message) } ?? "no answer"
            if let error { g_error_free(error) }
            throw WebClientError(message: text)
        }
        defer { g_bytes_unref(bytes) }
        var length: gsize = 0
        let data = g_bytes_get_data(bytes, &length)
        let size = Int(length)
        guard size <= largestBody else {
            throw WebClientError(message: "the answer is larger than \(largestBody) bytes")
        }
        var answer = WebAnswer(
            status: Int(soup_message_get_status(message).rawValue),
            reason: soup_message_get_reason_phrase(message).map { String(cString: $0) } ?? "",
            headers: [:], body: data.map { Data(bytes: $0, count: size) } ?? Data())
        var iterator = SoupMessageHeadersIter()
        soup_message_headers_iter_init(&iterator, soup_message_get_response_headers(message))
        var name: UnsafePointer<CChar>?, value: UnsafePointer<CChar>?
        while soup_message_headers_iter_next(&iterator, &name, &value) != 0 {
            if let name, let value { answer.headers[String(cString: name).lowercased()] = String(cString: value) }
        }
        return answer
    }
}
