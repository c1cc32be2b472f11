// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import Media
internal import Viewfinder

// The WebRTC preview's signalling, shaped as WHEP (a WHEP player works too): `POST /api/webrtc`
// with the viewer's SDP offer is answered `201 Created` with camstamp's answer and the
// session's URL (`Location: /api/webrtc/ID`); `DELETE` on that URL lets the viewer go. Behind the
// same token, Origin and Host checks as every other route.
extension CameraAPI {
    /// Answers the WebRTC routes; false for any other.
    func handleWebRTC(_ request: WebRequest, _ reply: WebReply, headers: [(String, String)]) -> Bool {
        let base = "/api/webrtc"
        guard request.path == base || request.path.hasPrefix(base + "/") else { return false }
        guard let viewers else {
            reply.send(.text("camstamp: this camera has no WebRTC preview", status: 404))
            return true
        }
        switch (request.method, request.path) {
        case ("POST", base):
            guard request.header("content-type")?.lowercased().hasPrefix("application/sdp") == true else {
                reply.send(.text("camstamp: POST an SDP offer (Content-Type: application/sdp)", status: 415))
                return true
            }
            guard let offer = String(data: request.body, encoding: .utf8), offer.hasPrefix("v=0") else {
                reply.send(.text("camstamp: the body is not an SDP offer", status: 400))
                return true
            }
            // A join waits for a keyframe and ICE gathering: off the server's thread.
            let thread = Thread {
                do throws(WebRTCJoinError) {
                    let (id, answer) = try viewers.join(offer: offer)
                    reply.send(
                        WebResponse(
                            status: 201, contentType: "application/sdp", body: Data(answer.utf8),
                            headers: headers + [("Location", "\(base)/\(id)"), ("Cache-Control", "no-store")]))
                } catch {
                    reply.send(.text("camstamp: \(error.description)", status: error.status, headers: headers))
                }
            }
            thread.name = "camstamp.webrtc-join"
            thread.start()
        case ("DELETE", let path) where path.hasPrefix(base + "/"):
            let id = String(path.dropFirst(base.count + 1))
            if viewers.leave(id: id) {
                reply.send(WebResponse(status: 200, contentType: "text/plain", body: Data(), headers: headers))
            } else {
                reply.send(.text("camstamp: no WebRTC viewer '\(id)'", status: 404, headers: headers))
            }
        default:
            reply.send(.text("camstamp: \(request.method) is not allowed on \(request.path)", status: 405))
        }
        return true
    }
}
