// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

@Suite struct StreamHomeTemplateTests {
    /// A stream-mkv.pipeline of one's own under CAMSTAMP_HOME that writes the encode head out, as
    /// the shipped one did before `{encode}`, still records: `{bitrate}` and `{keyint}` are given.
    @Test func aTemplateThatWritesTheEncodeHeadOutStillRecords() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let home = folder.appendingPathComponent("home")
        for part in ["presets", "fonts", "pipelines"] {
            try FileManager.default.copyItem(
                at: packageRoot.appendingPathComponent(part), to: home.appendingPathComponent(part))
        }
        let own =
            "identity name=pace sync=true signal-handoffs=false ! queue name=mark ! videoconvert"
            + " ! video/x-raw,format=I420 ! x264enc name=encoder speed-preset=veryfast tune=zerolatency"
            + " bitrate={bitrate} key-int-max={keyint} ! h264parse ! matroskamux name=mux"
            + " ! filesink name=out buffer-mode=unbuffered location={location}\n"
        try own.write(
            to: home.appendingPathComponent("pipelines/stream-mkv.pipeline"), atomically: true, encoding: .utf8)
        let file = folder.appendingPathComponent("out.mkv")
        let result = try camstamp(
            [
                "stream", "--source", "test", "--text", "x", "--size", "320x240", "--duration", "1",
                "--to", file.path,
            ],
            timeout: 30, environment: ["CAMSTAMP_HOME": home.path])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let video = try decodeVideo(file: file, keep: 0)
        #expect(video.frames > 0)
        #expect(video.h264["media"] == "video/x-h264")
    }
}
