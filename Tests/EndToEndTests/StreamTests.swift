// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Media
import Testing
import TestSupport

@Suite struct StreamTests {
    @Test(arguments: ["mp4", "mkv"])
    func threeSecondsToAFileDecodeBackAsH264With420AndTheMark(container: String) throws {
        let folder = try temporaryFolder("stream\(container)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let template = try writeSolidCameraTemplate(in: folder)
        let file = folder.appendingPathComponent("clip.\(container)")
        let result = try camstamp([
            "stream", "--source", "test", "--pipeline", template.path, "--text", "REC {time}",
            "--size", "640x360", "--fps", "30", "--duration", "3", "--to", file.path,
        ])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let written = try framesWritten(result.stderr, expected: 90)
        let video = try decodeVideo(file: file)
        #expect(video.h264["media"] == "video/x-h264")
        #expect(video.h264["chroma-format"] == "4:2:0", "\(video.h264)")
        #expect(abs(video.duration - 3) <= 0.5, "duration \(video.duration)")
        #expect(abs(video.frames - written) <= 3, "\(video.frames) frames, \(written) written")
        #expect(video.kept?.width == 640 && video.kept?.height == 360)
        try expectMarkBottomRight(video.kept)
    }

    /// The marks are blended frame by frame inside the pipeline: `{frame}` differs from one frame
    /// to the next (the frames' own numbers, not one mark rendered once), in the mark's corner only.
    @Test func theFrameNumberIsMarkedOnEachFrame() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let template = try writeSolidCameraTemplate(in: folder)
        let file = folder.appendingPathComponent("numbers.mkv")
        let result = try camstamp([
            "stream", "--source", "test", "--pipeline", template.path, "--text", "{frame}",
            "--size", "640x360", "--fps", "30", "--duration", "2", "--to", file.path,
        ])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let first = try #require(try decodeVideo(file: file, keep: 20).kept),
            next = try #require(try decodeVideo(file: file, keep: 21).kept)
        try expectMarkBottomRight(first)
        let (a, b) = (try lumaPlane(first), try lumaPlane(next))
        var changed: [(x: Int, y: Int)] = []
        for y in 0..<first.height {
            for x in 0..<first.width where abs(Int(a[y][x]) - Int(b[y][x])) > 24 { changed.append((x, y)) }
        }
        #expect(changed.count > 20, "frames 20 and 21 look the same")
        #expect(
            changed.allSatisfy { $0.x > first.width / 2 && $0.y > first.height * 3 / 4 }, "changes outside the mark")
    }

    @Test func ctrlCFinalisesAPlayableMP4AndExits130() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("live.mp4")
        let running = try RunningCamstamp([
            "stream", "--source", "test", "--text", "x", "--size", "320x240", "--to", file.path,
        ])
        Thread.sleep(forTimeInterval: 2.5)
        running.send(SIGINT)
        let result = running.finish(timeout: 20)
        #expect(result.status == 130, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("frames written"), "\(result.stderr)")
        let video = try decodeVideo(file: file)
        #expect(video.frames >= 30, "only \(video.frames) frames playable")
        #expect(video.duration >= 1)
    }

    @Test func aCtrlCOrASnapshotRequestRightAtStartIsNeverLost() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("early.mkv")
        let running = try RunningCamstamp([
            "stream", "--source", "test", "--text", "x", "--size", "320x240", "--to", file.path,
            "--snapshot-dir", folder.path,
        ])
        // Both signals arrive while camstamp is still starting up: as soon as it takes them (20 ms
        // after the spawn, still mapping its libraries, a SIGUSR1 would end it as the kernel's
        // default does).
        #expect(running.waitUntilSignalsAreTaken())
        running.send(SIGUSR1)
        running.send(SIGINT)
        let result = running.finish(timeout: 20)
        #expect(result.status == 130, "stderr: \(result.stderr)")
    }

    /// --snapshot-dir whose JPEG template does not load is refused before the camera starts: it
    /// was loaded with try?, and every SIGUSR1 then wrote nothing and said nothing (exit 0).
    @Test func snapshotsThatCannotBeWrittenAreRefusedAtStart() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The shipped files, but for the still-jpeg pipeline.
        let home = folder.appendingPathComponent("home")
        for part in ["presets", "fonts", "pipelines"] {
            try FileManager.default.copyItem(
                at: packageRoot.appendingPathComponent(part), to: home.appendingPathComponent(part))
        }
        let template = home.appendingPathComponent("pipelines/still-jpeg.pipeline")
        try FileManager.default.removeItem(at: template)
        let file = folder.appendingPathComponent("out.mkv"), shots = folder.appendingPathComponent("shots")
        let result = try camstamp(
            [
                "stream", "--source", "test", "--text", "x", "--size", "320x240", "--duration", "1",
                "--to", file.path, "--snapshot-dir", shots.path,
            ],
            timeout: 30, environment: ["CAMSTAMP_HOME": home.path])
        #expect(result.status == 1, "stderr: \(result.stderr)")
        #expect(result.stderr.hasPrefix("camstamp: ") && result.stderr.contains(template.path), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test(arguments: ["mp4", "mkv"])
    func aHardKillStillLeavesAPlayableFile(container: String) throws {
        let folder = try temporaryFolder("kill\(container)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("crash.\(container)")
        let running = try RunningCamstamp([
            "stream", "--source", "test", "--text", "x", "--size", "320x240", "--to", file.path,
        ])
        Thread.sleep(forTimeInterval: 3.5)
        running.send(SIGKILL)
        _ = running.finish(timeout: 10)
        let video = try decodeVideo(file: file)
        // Fragments are a second long: at most the last one or two are lost.
        #expect(video.frames >= 30, "only \(video.frames) frames playable after SIGKILL")
    }

    /// A clip played as the camera, killed mid-recording: the MKV's header says no duration, as a
    /// camera's killed recording does; it said the clip's whole 10 s while it held about 2
    /// (players showed a 10 s bar that stopped short).
    @Test func aKilledRecordingOfAClipDoesNotClaimTheClipsDuration() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = folder.appendingPathComponent("ten.mp4"), file = folder.appendingPathComponent("crash.mkv")
        try writeWithGStreamer(
            "videotestsrc num-buffers=300 ! video/x-raw,width=320,height=240,framerate=30/1 ! x264enc ! h264parse ! mp4mux ! filesink location={location}",
            to: clip)
        let running = try RunningCamstamp(["stream", "--source", "file:" + clip.path, "--text", "x", "--to", file.path])
        Thread.sleep(forTimeInterval: 2.5)
        running.send(SIGKILL)
        _ = running.finish(timeout: 10)
        #expect(try decodeVideo(file: file).frames >= 10)
        let duration = String(
            decoding: try tool(
                "ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", file.path]),
            as: UTF8.self
        )
        .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(duration == "N/A", "the killed recording says it lasts \(duration) s")
    }

    @Test func rtpOnLoopbackIsReceivedAndDecodedWithTheMark() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let template = try writeSolidCameraTemplate(in: folder)
        let port = Int.random(in: 20000...40000)
        let sdp = folder.appendingPathComponent("stream.sdp")
        var sender: RunningCamstamp?
        let video = try decodeVideo(rtpPort: port, keep: 20, limit: 40, timeout: .seconds(20)) {
            sender = try RunningCamstamp([
                "stream", "--source", "test", "--pipeline", template.path, "--text", "RTP",
                "--size", "640x360", "--duration", "4", "--to", "rtp://127.0.0.1:\(port)",
                "--sdp", sdp.path,
            ])
        }
        let result = try #require(sender).finish(timeout: 20)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(video.frames >= 30, "received \(video.frames) frames")
        try expectMarkBottomRight(video.kept)
        let description = try String(contentsOf: sdp, encoding: .utf8)
        #expect(description.contains("m=video \(port) RTP/AVP 96"))
        #expect(description.contains("a=rtpmap:96 H264/90000"))
        #expect(description.contains("sprop-parameter-sets="))
        #expect(result.stdout == description)
    }

    @Test func sigusr1WritesAMarkedSnapshotWhileTheStreamGoesOn() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let template = try writeSolidCameraTemplate(in: folder)
        let shots = folder.appendingPathComponent("shots")
        try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("clip.mkv")
        let running = try RunningCamstamp([
            "stream", "--source", "test", "--pipeline", template.path, "--text", "SNAP",
            "--size", "640x360", "--to", file.path, "--snapshot-dir", shots.path,
        ])
        Thread.sleep(forTimeInterval: 1.5)
        running.send(SIGUSR1)
        Thread.sleep(forTimeInterval: 1.5)
        running.send(SIGINT)
        let result = running.finish(timeout: 20)
        #expect(result.status == 130, "stderr: \(result.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: shots.path)
        #expect(names.count == 1 && names[0].hasPrefix("snapshot-") && names[0].hasSuffix(".jpg"), "\(names)")
        guard let name = names.first else { return }
        #expect(result.stdout.contains(name))
        let still = try decodeImage(shots.appendingPathComponent(name))
        #expect(still.width == 640 && still.height == 360)
        try expectMarkBottomRight(still)
        // The stream went on after the snapshot: about 3 s of frames, not 1.5.
        let video = try decodeVideo(file: file)
        #expect(video.frames >= 70, "\(video.frames) frames")
    }
}
