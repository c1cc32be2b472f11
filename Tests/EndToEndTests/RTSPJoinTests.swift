// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

// `stream --serve rtsp://`: a viewer who joins a shared media between keyframes starts at one.

@Suite(.serialized) struct RTSPJoinTests {
    /// What a decoder says when it is given pictures that refer to what it never got.
    static let decodeErrors = [
        "non-existing PPS", "decode_slice_header error", "Missing reference picture",
        "concealing", "no frame!",
    ]

    @Test func viewersWhoJoinMidGOPStartAtAWholePicture() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let port = try freePort()
        let url = "rtsp://127.0.0.1:\(port)/live"
        // Large pictures at 60 fps: x264 takes a while to answer a viewer's keyframe request, so
        // without the gate a joining viewer was sent several delta pictures first.
        let running = try RunningCamstamp([
            "stream", "--source", "test", "--text", "RTSP", "--size", "1280x720",
            "--fps", "60", "--duration", "16", "--serve", url,
        ])
        #expect(waitForListener(port: port))
        Thread.sleep(forTimeInterval: 2)
        // The first viewer makes the shared media and stays; the others join it, one at a time.
        let first = try helper(
            "/usr/bin/ffmpeg",
            [
                "-v", "error", "-rtsp_transport", "tcp", "-i", url, "-t", "10",
                "-f", "null", "-",
            ],
            output: folder.appendingPathComponent("first.log"))
        defer { _ = first.stop() }
        Thread.sleep(forTimeInterval: 1.3)
        for index in 1...4 {
            // TCP: no packet is lost on the way, so any decoding error is the server's doing.
            let log = folder.appendingPathComponent("viewer\(index).log")
            // Decoded (showinfo says what each picture is) and, as it came, copied into a file.
            let copy = folder.appendingPathComponent("viewer\(index).mkv")
            let viewer = try helper(
                "/usr/bin/ffmpeg",
                [
                    "-v", "info", "-rtsp_transport", "tcp", "-i", url,
                    "-map", "0:v", "-t", "1.5", "-vf", "showinfo", "-f", "null",
                    "-",
                    "-map", "0:v", "-t", "1.5", "-c", "copy", "-y", copy.path,
                ],
                output: log)
            let deadline = Date().addingTimeInterval(20)
            while viewer.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
            _ = viewer.stop()
            let lines = viewer.stderr.split(separator: "\n")
            // What came before the second picture is the join; a loaded machine can make the
            // server drop packets later for a TCP viewer that reads too slowly, which is not this.
            let joined = lines.prefix { !($0.contains("Parsed_showinfo") && $0.contains(" n:   1 ")) }
            let errors = joined.filter { line in Self.decodeErrors.contains { line.contains($0) } }
            #expect(errors.isEmpty, "viewer \(index): \(errors.count) decoding errors: \(errors.prefix(3))")
            // showinfo's first picture: a keyframe, and an I picture.
            let firstPicture = lines.first { $0.contains("Parsed_showinfo") && $0.contains(" n:   0 ") }
            #expect(
                firstPicture?.contains("iskey:1 type:I") == true,
                "viewer \(index): \(firstPicture.map(String.init) ?? viewer.stderr)")
            // The first packet the viewer was sent is a keyframe's, not a delta before it.
            let flags = try runTool(
                "/usr/bin/ffprobe",
                [
                    "-v", "error", "-select_streams", "v:0", "-show_entries",
                    "packet=flags", "-of", "csv=p=0", copy.path,
                ])
            let firstPacket = flags.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            #expect(firstPacket.hasPrefix("K"), "viewer \(index): the first packet's flags are '\(firstPacket)'")
            // Between keyframes (one a second) each time.
            Thread.sleep(forTimeInterval: 0.4)
        }
        _ = first.stop()
        let result = running.finish(timeout: 40)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(!first.stderr.contains("non-existing PPS"), "first viewer: \(first.stderr)")
    }
}
