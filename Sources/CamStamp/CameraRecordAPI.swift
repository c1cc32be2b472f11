// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import Viewfinder

/// `POST /api/record` (`{"action": "start"}` or `{"action": "stop"}`, answered on stop with the
/// file's `{path, url}`; 409 for a start while recording or a stop while not) and
/// `GET /recordings/NAME` (only the recordings this camera finished).
extension CameraAPI {
    struct RecordingJSON: Encodable {
        var recording: Bool
        var path: String?
        var seconds: Double?
        var frames: Int?
        var dropped: Int?
    }

    /// What `/api/state` says of the recording: whether one is under way, its file and length.
    var recordingJSON: RecordingJSON {
        guard let status = recorder?.status else { return RecordingJSON(recording: false) }
        return RecordingJSON(
            recording: true, path: status.path, seconds: (status.seconds * 10).rounded() / 10,
            frames: status.frames, dropped: status.dropped)
    }

    /// Whether `request` is one of the recording's, and answered.
    func handleRecording(_ request: WebRequest, _ reply: WebReply, headers: [(String, String)]) -> Bool {
        if request.path == "/api/record" {
            guard request.method == "POST" else {
                reply.send(.text("camstamp: \(request.method) is not allowed on \(request.path)", status: 405))
                return true
            }
            record(request.body, reply, headers: headers)
            return true
        }
        guard request.method == "GET", request.path.hasPrefix("/recordings/") else { return false }
        let name = String(request.path.dropFirst("/recordings/".count))
        guard let recording = recorder?.recording(named: name), let file = Self.file(of: recording) else {
            reply.send(.text("camstamp: no recording named '\(name)' from this camera", status: 404))
            return true
        }
        var extra = headers
        if request.query["download"] != nil {
            extra.append(("Content-Disposition", "attachment; filename=\"\(recording.name)\""))
        }
        reply.send(.file(file, contentType: "video/mp4", headers: extra))
        return true
    }

    private func record(_ body: Data, _ reply: WebReply, headers: [(String, String)]) {
        let action = (try? JSONSerialization.jsonObject(with: body.isEmpty ? Data("{}".utf8) : body))
            .flatMap { ($0 as? [String: Any])?["action"] as? String }
        guard let recorder, let action, ["start", "stop"].contains(action) else {
            let message =
                recorder == nil
                ? "record: this camera cannot record"
                : "record: send {\"action\": \"start\"} or {\"action\": \"stop\"}"
            reply.send(.json(Self.encode(["error": message]), status: 400, headers: headers))
            return
        }
        if action == "start" {
            do {
                let target = try recorder.start()
                reply.send(.json(Self.encode(["path": target.path, "recording": "started"]), headers: headers))
            } catch {
                reply.send(Self.refusal(error, headers: headers))
            }
            return
        }
        recorder.stop { result in
            switch result {
            case .success(let file):
                let url =
                    "/recordings/"
                    + (file.name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? file.name)
                reply.send(.json(Self.encode(["path": file.path, "url": url]), headers: headers))
            case .failure(let error):
                reply.send(Self.refusal(error, headers: headers))
            }
        }
    }

    private static func refusal(_ error: CameraRecorder.Refusal, headers: [(String, String)]) -> WebResponse {
        let status =
            switch error {
            case .alreadyRecording, .notRecording: 409
            case .failed: 500
            }
        return .json(encode(["error": error.message]), status: status, headers: headers)
    }
}
