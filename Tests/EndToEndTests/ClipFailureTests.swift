// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

/// A clip that cannot be finished (its data cut short, Ctrl-C, a full disk) fails and leaves nothing.
extension ClipBatchTests {
    /// An MP4 whose index is whole but whose data is cut short (a card pulled mid-copy) fails
    /// that clip after `ClipPipeline.stallLimit` (20 s) without progress; it hung the batch for
    /// good (no error, no end) until a second Ctrl-C.
    @Test func aClipCutShortInItsDataFailsInsteadOfHanging() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let whole = folder.appendingPathComponent("whole.mp4")
        try tool(
            "ffmpeg",
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=30:duration=2",
                "-f", "lavfi", "-i", "sine=duration=2", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac",
                "-movflags", "+faststart", whole.path,
            ])
        let data = try Data(contentsOf: whole)
        let media = try #require(data.range(of: Data("mdat".utf8))).lowerBound
        let input = folder.appendingPathComponent("cut.mp4")
        try data.prefix(media + 3000).write(to: input)
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", input.path, "-o", out.path, "--text", "x"], timeout: 90)
        #expect(result.status == 1, "stderr: \(result.stderr)")
        #expect(
            result.stderr.hasPrefix("camstamp: \(input.path): cannot mark the video: the video stopped after "),
            "\(result.stderr)")
        #expect(result.stderr.hasSuffix("0 marked, 1 failed, 0 skipped\n"), "\(result.stderr)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []) == [])
    }

    /// Ctrl-C mid-clip: exit 130, no output and no temporary file left behind.
    @Test func ctrlCMidClipLeavesNothing() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("long.mp4")
        try Clips.mp4(input, frames: 900, size: (640, 480))
        let out = folder.appendingPathComponent("out")
        let running = try RunningCamstamp(["batch", input.path, "-o", out.path, "--text", "{frame}", "--jobs", "1"])
        let deadline = Date().addingTimeInterval(30)
        func listing() -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? [] }
        while !listing().contains(where: { $0.hasSuffix(".part") }) && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.02)
        }
        #expect(listing().contains(where: { $0.hasSuffix(".part") }), "the clip never started")
        Thread.sleep(forTimeInterval: 0.3)
        running.send(SIGINT)
        let result = running.finish(timeout: 30)
        #expect(result.status == 130, "stderr: \(result.stderr)")
        #expect(listing() == [], "left behind: \(listing())")
        #expect(
            result.stderr.hasSuffix("interrupted: 0 marked, 0 failed, 0 skipped, 1 not started\n"), "\(result.stderr)")
    }

    /// A marked clip that does not fit on the output's disk is said as a photo is, naming the
    /// output and what to do (it said "cannot mark the video: No space left on the resource.",
    /// GStreamer's words, as if the video were at fault), and leaves nothing there. Needs a small
    /// tmpfs (root, as `make test` runs on CI).
    @Test(.mountsTmpfs) func aClipOnAFullDiskNamesTheOutputAndWhatToDo() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = folder.appendingPathComponent("snow.mp4")
        // Noise: its marked copy is far larger than what is left on the disk.
        try writeWithGStreamer(
            "videotestsrc pattern=snow num-buffers=60 ! video/x-raw,width=320,height=240,framerate=30/1 ! x264enc ! h264parse ! mp4mux ! filesink location={location}",
            to: clip)
        let small = try nearlyFullDisk(in: folder)
        defer { unmount(small) }
        let out = small.appendingPathComponent("out")
        let result = try camstamp(["batch", clip.path, "-o", out.path, "--text", "x"])
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "camstamp: \(clip.path): cannot write \(out.appendingPathComponent("snow.mp4").path) (the disk is full); "
                + "free some space or choose another -o folder\n0 marked, 1 failed, 0 skipped\n", "\(result.stderr)")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? [] == [])
    }
}
