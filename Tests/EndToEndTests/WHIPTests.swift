// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Media
import Testing
import TestSupport

// `stream --to whip://` against a WebRTC stack nobody here wrote: aiortc (PyPI, `make
// python-deps`) as the WHIP endpoint on 127.0.0.1 (Tests/TestSupport/Scripts/whip_endpoint.py),
// which records each session it receives; the recordings are decoded and judged.

/// The endpoint, started on a free port with `options`, recording into `folder`.
final class WHIPEndpoint {
    let port: Int
    let folder: URL
    private let process: BackgroundProcess

    init(folder: URL, options: [String] = []) throws {
        self.folder = folder
        port = try freePort()
        let script = packageRoot.appendingPathComponent("Tests/TestSupport/Scripts/whip_endpoint.py").path
        process = try helper(
            refereePython, [script, String(port), folder.path] + options,
            output: folder.appendingPathComponent("endpoint.log"))
        guard waitForListener(port: port, timeout: 20) else {
            _ = process.stop()
            throw ToolFailure("the WHIP endpoint did not start: \(log)")
        }
    }

    var url: String { "whip://127.0.0.1:\(port)/whip" }

    /// events.log: posted N, track N kind, state N …, deleted N, dropped N.
    var events: [String] {
        ((try? String(contentsOf: folder.appendingPathComponent("events.log"), encoding: .utf8)) ?? "")
            .split(separator: "\n").map(String.init)
    }

    var log: String {
        String(
            ((try? String(contentsOf: folder.appendingPathComponent("endpoint.log"), encoding: .utf8)) ?? "").suffix(
                1500))
    }

    /// What session `session` received of `kind` (`video`, `audio`).
    func recording(_ session: Int, _ kind: String = "video") -> URL {
        folder.appendingPathComponent("session-\(session)-\(kind).mkv")
    }

    /// Stops the endpoint: its open sessions' recordings are finished.
    func stop() { _ = process.stop(SIGTERM, grace: 10) }
}

@Suite(.serialized, .needsMarkReferee) struct WHIPTests {
    func stream(_ folder: URL, _ targets: [String], seconds: Int, extra: [String] = []) throws -> RunningCamstamp {
        let template = try writeSolidCameraTemplate(in: folder)
        return try RunningCamstamp(
            [
                "stream", "--source", "test", "--pipeline", template.path, "--text", "LIVE",
                "--size", "640x360", "--fps", "30", "--duration", String(seconds),
            ] + targets + extra)
    }

    /// The mark's pixels and the test tone, as aiortc received them; the offer as WHIP wants it
    /// (send only, host candidates only, the Bearer token), and the session deleted at the end.
    @Test func aiortcReceivesTheMarkedPicturesAndTheSound() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let endpoint = try WHIPEndpoint(folder: folder, options: ["--token", "s3cret-Key"])
        defer { endpoint.stop() }
        let result = try stream(folder, ["--to", endpoint.url], seconds: 8, extra: ["--whip-token", "s3cret-Key"])
            .finish(timeout: 60)
        #expect(result.status == 0, "stderr: \(result.stderr)\nendpoint: \(endpoint.log)")
        #expect(!result.stderr.contains("trying again"), "\(result.stderr)")
        let events = endpoint.events
        #expect(events.contains("state 1 connected") && events.contains("deleted 1"), "\(events)")
        #expect(events.contains("track 1 video") && events.contains("track 1 audio"), "\(events)")
        let offer = try String(contentsOf: folder.appendingPathComponent("offer-1.sdp"), encoding: .utf8)
        let candidates = offer.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("a=candidate:") }
        #expect(!candidates.isEmpty && candidates.allSatisfy { $0.contains(" typ host") }, "\(candidates)")
        #expect(offer.contains("a=sendonly") && !offer.contains("a=sendrecv"), "\(offer)")
        #expect(offer.contains("profile-level-id=42"), "Constrained Baseline: \(offer)")
        // What aiortc received (re-encoded by its recorder): most of 8 s of pictures, the mark
        // in its corner, and the tone.
        let recording = endpoint.recording(1)
        let frames = try decodedFrames(recording)
        #expect(frames >= 180, "\(frames) frames recorded")
        try expectMarkBottomRight(try decodeImage(recording))
        let detect = try ffmpegStderr([
            "-i", endpoint.recording(1, "audio").path, "-map", "0:a", "-af", "volumedetect", "-f", "null", "-",
        ])
        let mean = try #require(detect.firstMatch(of: try Regex(#"mean_volume: (-?[\d.]+) dB"#)), "\(detect)")
        #expect((Double(String(mean.output[1].substring ?? "")) ?? -99) > -30, "\(detect.suffix(300))")
    }

    /// A wrong token is refused by the endpoint: one line says so (however often it is retried),
    /// the recording beside it gets every frame, and the stream ends well.
    @Test func aRefusedOfferIsSaidOnceAndTheRecordingGoesOn() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let endpoint = try WHIPEndpoint(folder: folder, options: ["--token", "right"])
        defer { endpoint.stop() }
        let recording = folder.appendingPathComponent("rec.mkv")
        let result = try stream(
            folder, ["--to", recording.path, "--to", endpoint.url], seconds: 5, extra: ["--whip-token", "wrong"]
        ).finish(timeout: 60)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let refusals = result.stderr.split(separator: "\n").filter { $0.contains("refused") }
        #expect(
            refusals == [
                "camstamp: \(endpoint.url): the endpoint refused the offer: HTTP 401 Unauthorized; trying again"
            ],
            "\(result.stderr)")
        #expect(endpoint.events.filter { $0.hasPrefix("posted") }.isEmpty, "\(endpoint.events)")
        let written = try framesWritten(result.stderr, expected: 150)
        #expect(try decodedFrames(recording) == written)
    }

    /// An endpoint that takes the request and never answers: the wait ends, one line says so,
    /// and the stream ends on time with its recording whole.
    @Test func anEndpointThatNeverAnswersIsSaidAndTheRecordingGoesOn() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let endpoint = try WHIPEndpoint(folder: folder, options: ["--hang"])
        defer { endpoint.stop() }
        let recording = folder.appendingPathComponent("rec.mkv")
        let result = try stream(folder, ["--to", recording.path, "--to", endpoint.url], seconds: 8)
            .finish(timeout: 60)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let lines = result.stderr.split(separator: "\n").filter { $0.contains("no answer within") }
        #expect(lines.count == 1, "\(result.stderr)")
        let written = try framesWritten(result.stderr, expected: 240)
        #expect(try decodedFrames(recording) == written)
    }

    /// The endpoint closes the session mid-stream without a word (as a server that goes away):
    /// its reports stop, camstamp says so once and publishes again, a second session is recorded.
    @Test func anEndpointThatDropsTheSessionIsRejoined() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let endpoint = try WHIPEndpoint(folder: folder, options: ["--drop-after", "3"])
        defer { endpoint.stop() }
        let result = try stream(folder, ["--to", endpoint.url], seconds: 16).finish(timeout: 60)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let lines = result.stderr.split(separator: "\n").filter { $0.contains("stopped receiving") }
        #expect(lines.count >= 1, "\(result.stderr)")
        #expect(result.stderr.contains("reconnected"), "\(result.stderr)")
        let events = endpoint.events
        #expect(events.contains("dropped 1") && events.contains("state 2 connected"), "\(events)")
        endpoint.stop()
        #expect(try decodedFrames(endpoint.recording(2)) >= 30)
    }

    /// Nobody at the address: the stream reached nobody, which is a failure.
    @Test func noEndpointAtAllIsAFailure() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = "whip://127.0.0.1:\(try freePort())/whip"
        let result = try stream(folder, ["--to", url], seconds: 3).finish(timeout: 60)
        #expect(result.status == 1, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("\(url): never connected"), "\(result.stderr)")
        #expect(result.stderr.contains("Connection refused"), "\(result.stderr)")
    }
}
