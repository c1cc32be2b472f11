// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Media
import Testing
import TestSupport

// `stream --to v4l2:/dev/videoN` (issue 34 §3): the marked pictures into a v4l2loopback device,
// read back from its other side as a call app would (v4l2src). A loopback device needs the
// kernel module, which containers and CI cannot load: there the test that needs one is skipped,
// saying why; the errors a user meets without one are tested everywhere.

/// A v4l2loopback device to write into: one already there, or one `modprobe` makes; else why not.
let loopbackDevice: (path: String?, reason: String) = {
    func output() -> String? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/dev")) ?? []
        return names.filter { $0.hasPrefix("video") }.sorted().map { "/dev/" + $0 }
            .first { (try? VideoLoopback.check($0)) != nil }
    }
    if let found = output() { return (found, "") }
    let modprobe = ["/usr/sbin/modprobe", "/sbin/modprobe"].first { FileManager.default.isExecutableFile(atPath: $0) }
    let load = try? modprobe.map {
        try runProcess($0, ["v4l2loopback", "exclusive_caps=1", "card_label=camstamp"], timeout: 30)
    }
    if load?.status == 0, let made = output() { return (made, "") }
    let why = load.map { $0.stderr.split(separator: "\n").first.map(String.init) ?? "status \($0.status)" }
    return (
        nil,
        "no v4l2loopback device, and the module cannot be loaded here (modprobe: \(why ?? "not installed")); "
            + "docs/stream.md says how to set one up"
    )
}()

@Suite(.serialized) struct V4L2OutputTests {
    /// Without a device, or with one that takes no video, the stream does not start: one line
    /// naming the target and what to do, and no other target's file is left behind.
    @Test func aMissingOrWrongDeviceIsOneLineAndNothingStarts() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plain = folder.appendingPathComponent("plain.txt")
        try Data("x".utf8).write(to: plain)
        let recording = folder.appendingPathComponent("rec.mkv")
        let cases = [
            ("/dev/video-camstamp-none", "no such device; make one with: sudo modprobe v4l2loopback exclusive_caps=1"),
            ("/dev/null", "is not a V4L2 device"),
            (plain.path, "is not a video device"),
        ]
        for (device, said) in cases {
            let result = try camstamp(
                [
                    "stream", "--source", "test", "--text", "LIVE", "--size", "320x240", "--to", recording.path, "--to",
                    "v4l2:\(device)",
                    "--duration", "2",
                ],
                timeout: 60)
            #expect(result.status != 0, "\(device): \(result.stderr)")
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1, "\(device): \(result.stderr)")
            #expect(result.stderr.contains("--to v4l2:\(device): \(said)"), "\(device): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: recording.path), "\(device): a recording was left")
        }
    }

    /// The marked pictures reach a call app: v4l2src on the device's other side reads frames of
    /// the stream's size with the mark where it is drawn; a file beside it is recorded too.
    @Test(.enabled(if: loopbackDevice.path != nil, Comment(rawValue: loopbackDevice.reason)))
    func theMarkedFeedIsACameraForCalls() throws {
        let device = try #require(loopbackDevice.path)
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let template = try writeSolidCameraTemplate(in: folder)
        let recording = folder.appendingPathComponent("rec.mkv")
        let running = try RunningCamstamp([
            "stream", "--source", "test", "--pipeline", template.path, "--text", "LIVE", "--size", "640x360",
            "--fps", "30", "--to", "v4l2:\(device)", "--to", recording.path, "--duration", "8",
        ])
        Thread.sleep(forTimeInterval: 2)
        let frames = folder.appendingPathComponent("frame%02d.png").path
        try tool(
            "/usr/bin/gst-launch-1.0",
            [
                "-q", "v4l2src", "device=\(device)", "num-buffers=20", "!", "videoconvert", "!", "pngenc", "!",
                "multifilesink", "location=\(frames)",
            ],
            timeout: 30)
        let result = running.finish(timeout: 30)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let last = folder.appendingPathComponent("frame19.png")
        let frame = try decodeImage(last)
        #expect(frame.width == 640 && frame.height == 360)
        try expectMarkBottomRight(frame)
        try expectMarkBottomRight(try decodeImage(recording))
    }
}
