// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CSoup
import Foundation

/// An RFC 3161 time-stamp authority (`--tsa URL`), asked once before any work, with a wait of
/// our own: the C2PA SDK time-stamps each signature itself, but says a TSA that is down or
/// answers nonsense as a bad signing certificate, and waits 30 s (reqwest's default) for one
/// that does not answer. libsoup does the HTTP (RFC 3161 §3.4: a POST of
/// `application/timestamp-query`, answered with `application/timestamp-reply`).
package enum TimeStampAuthority {
    /// The longest wait for the authority's answer.
    package static let timeout: UInt32 = 10

    /// Asks `url` to time-stamp a digest and checks it grants one; a one-line error naming
    /// `--tsa` otherwise.
    package static func check(_ url: String) throws(CredentialsError) {
        guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""),
            parsed.host != nil
        else {
            throw CredentialsError("--tsa \(url): not an http:// or https:// URL")
        }
        let reply = try post(request(digest: [UInt8](repeating: 0x5A, count: 32)), to: url)
        guard let status = status(ofReply: reply) else {
            throw CredentialsError("--tsa \(url): the answer is not an RFC 3161 time-stamp reply; nothing is written")
        }
        guard status <= 1 else {
            throw CredentialsError(
                "--tsa \(url): the time-stamp authority refused the request (PKIStatus \(status)); nothing is written")
        }
    }

    /// A DER TimeStampReq (RFC 3161 §2.4.1): version 1, the SHA-256 `digest`, certReq true.
    static func request(digest: [UInt8]) -> [UInt8] {
        let sha256: [UInt8] = [0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00]
        let algorithm = [0x30, UInt8(sha256.count)] + sha256
        let imprint =
            [0x30, UInt8(algorithm.count + 2 + digest.count)] + algorithm + [0x04, UInt8(digest.count)] + digest
        let body = [0x02, 0x01, 0x01] + imprint + [0x01, 0x01, 0xFF]
        return [0x30, UInt8(body.count)] + body
    }

    /// The PKIStatus of a DER TimeStampResp (`SEQUENCE { SEQUENCE { INTEGER status … } … }`), or
    /// nil for bytes that are not one.
    static func status(ofReply reply: [UInt8]) -> Int? {
        var at = 0
        func header(_ tag: UInt8) -> Int? {
            guard at + 2 <= reply.count, reply[at] == tag else { return nil }
            var length = Int(reply[at + 1])
            at += 2
            if length & 0x80 != 0 {
                let bytes = length & 0x7F
                guard (1...3).contains(bytes), at + bytes <= reply.count else { return nil }
                length = reply[at..<at + bytes].reduce(0) { $0 << 8 | Int($1) }
                at += bytes
            }
            return length
        }
        guard let outer = header(0x30), outer + at == reply.count, header(0x30) != nil,
            let length = header(0x02), length == 1, at < reply.count
        else { return nil }
        return Int(reply[at])
    }

    /// `body` POSTed to `url`; the answer's bytes when it is an HTTP 200.
    private static func post(_ body: [UInt8], to url: String) throws(CredentialsError) -> [UInt8] {
        guard let session = soup_session_new() else { throw CredentialsError("--tsa \(url): cannot start libsoup") }
        defer { g_object_unref(UnsafeMutableRawPointer(session)) }
        soup_session_set_timeout(session, timeout)
        guard let message = soup_message_new("POST", url) else {
            throw CredentialsError("--tsa \(url): not a URL libsoup takes")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(message)) }
        let bytes = body.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        soup_message_set_request_body_from_bytes(message, "application/timestamp-query", bytes)
        g_bytes_unref(bytes)
        var error: UnsafeMutablePointer<GError>?
        let answer = soup_session_send_and_read(session, message, nil, &error)
        defer { if let answer { g_bytes_unref(answer) } }
        if let error {
            let reason = String(cString: error.pointee.message)
            let timedOut = error.pointee.code == Int32(G_IO_ERROR_TIMED_OUT.rawValue)
            g_error_free(error)
            throw CredentialsError(
                timedOut
                    ? "--tsa \(url): no answer within \(timeout) s; nothing is written"
                    : "--tsa \(url): the time-stamp authority does not answer (\(reason)); nothing is written")
        }
        let status = soup_message_get_status(message)
        guard status.rawValue == 200 else {
            throw CredentialsError(
                "--tsa \(url): the time-stamp authority answered HTTP \(status.rawValue); nothing is written")
        }
        guard let answer else { return [] }
        var size: gsize = 0
        guard let data = g_bytes_get_data(answer, &size) else { return [] }
        return [UInt8](UnsafeRawBufferPointer(start: data, count: Int(size)))
    }
}
