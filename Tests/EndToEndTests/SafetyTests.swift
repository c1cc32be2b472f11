// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Media
import Testing
import TestSupport

// Sources, streams and files that used to hang, run away, report a false success or lose data.

/// A one-frame JPEG made by GStreamer, for a still image where a video is expected.
func writeStillJPEG(_ file: URL) throws {
    try writeWithGStreamer(
        "videotestsrc num-buffers=1 ! video/x-raw,width=320,height=240 ! jpegenc ! filesink location={location}",
        to: file)
}

/// The name a camstamp temporary file of process `pid` has on this machine (see TemporaryFiles).
func temporaryName(pid: Int32, for name: String) -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    gethostname(&buffer, buffer.count - 1)
    let host = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        .filter { $0.isASCII && ($0.isLetter || $0.isNumber) }.prefix(32)
    return ".camstamp-\(host)-\(pid)-1a2b3c4d.\(name).part"
}

@Suite struct StreamSafetyTests {
    @Test(arguments: ["shoot", "stream"])
    func aStillImageAsTheSourceIsRefusedAsNotAVideo(command: String) throws {
        let folder = try temporaryFolder("still\(command)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = folder.appendingPathComponent("photo.jpg")
        try writeStillJPEG(photo)
        let output = command == "shoot" ? ["-o", "out.jpg"] : ["--to", "out.mkv", "--duration", "2"]
        let result = try camstamp(
            [command, "--source", "file:" + photo.path, "--text", "x"] + output, in: folder, timeout: 20)
        #expect(result.status == 64, "stderr: \(result.stderr)")
        #expect(
            result.stderr
                == "camstamp: --source: \(photo.path) is a still image (image/jpeg), not a video; give a video file, or mark photos with camstamp batch\n"
        )
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["photo.jpg"])
    }

    @Test(arguments: [
        (
            ["--size", "16384x16384"],
            "camstamp: '--size' 16384x16384 is too large for H.264: at most 139264 blocks of 16x16 pixels a frame, e.g. 8192x4320\n"
        ),
        (
            ["--size", "641x480"],
            "camstamp: '--size' 641x480 cannot be encoded: H.264 (4:2:0) needs an even width and height, e.g. 640x480\n"
        ),
        (
            ["--size", "8x8"],
            "camstamp: '--size' 8x8 is too small for MP4: at least 16x16, e.g. 16x16; a .mkv file takes any size\n"
        ),
        (
            ["--size", "640x14"],
            "camstamp: '--size' 640x14 is too small for MP4: at least 16x16, e.g. 640x16; a .mkv file takes any size\n"
        ),
        (
            ["--fps", "100000"],
            "camstamp: '--fps' 100000 is too fast for H.264 at 1280x720: at most 4642 frames a second at that size\n"
        ),
        (
            ["--size", "320x240", "--fps", "100000"],
            "camstamp: '--fps' 100000 is too fast for H.264 at 320x240: at most 55705 frames a second at that size\n"
        ),
        (["--bitrate", "999999999"], "camstamp: '--bitrate' must be between 1 and 2048000 (got 999999999)\n"),
    ])
    func whatTheEncoderCannotTakeIsRefusedBeforeStarting(arguments: [String], message: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try camstamp(
            ["stream", "--source", "test", "--text", "x", "--duration", "2", "--to", "out.mp4"] + arguments,
            in: folder, timeout: 30)
        #expect(result.status == 64, "stderr: \(result.stderr)")
        #expect(result.stderr == message)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func durationIsAHardStopEvenWhenTheSourceCannotKeepUp() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("fast.mp4")
        // 50000 fps is within H.264's limits at 320x240, but no test camera makes it in real time:
        // counted in frames, 4 seconds of video took 15 s.
        let started = Date()
        let result = try camstamp(
            [
                "stream", "--source", "test", "--text", "x", "--size", "320x240", "--fps", "50000",
                "--duration", "4", "--to", file.path,
            ], timeout: 60)
        let elapsed = Date().timeIntervalSince(started)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(elapsed < 9, "a 4-second stream took \(elapsed) s")
        let video = try decodeVideo(file: file, limit: 200)
        #expect(video.frames >= 100, "only \(video.frames) frames playable")
    }

    @Test(arguments: ["rtp://nowhere.invalid:5004", "rtp://999.1.1.1:5004"])
    func anRTPHostThatCannotBeReachedIsAUsageError(target: String) throws {
        let result = try camstamp(
            ["stream", "--source", "test", "--text", "x", "--duration", "2", "--to", target], timeout: 20)
        #expect(result.status == 64, "stderr: \(result.stderr)")
        #expect(
            result.stderr.hasPrefix("camstamp: --to \(target): ") && result.stderr.split(separator: "\n").count == 1,
            "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func anMP4KilledAfterTwoAndAHalfSecondsKeepsAtLeastASecond() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("early.mp4")
        let running = try RunningCamstamp([
            "stream", "--source", "test", "--text", "x", "--size", "640x480", "--to", file.path,
        ])
        Thread.sleep(forTimeInterval: 2.5)
        running.send(SIGKILL)
        _ = running.finish(timeout: 10)
        let video = try decodeVideo(file: file)
        #expect(video.frames >= 30, "only \(video.frames) frames playable after SIGKILL at 2.5 s")
    }

    @Test func anExistingRecordingIsRefusedUnlessOverwrite() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("existing.mkv")
        try Data("last week's recording".utf8).write(to: file)
        let refused = try camstamp([
            "stream", "--source", "test", "--text", "x", "--size", "320x240", "--duration", "1", "--to", file.path,
        ])
        #expect(refused.status == 1, "stderr: \(refused.stderr)")
        #expect(refused.stderr == "camstamp: \(file.path) already exists; use --overwrite to replace it\n")
        #expect(try Data(contentsOf: file) == Data("last week's recording".utf8))
        let replaced = try camstamp([
            "stream", "--source", "test", "--text", "x", "--size", "320x240", "--duration", "1", "--to", file.path,
            "--overwrite",
        ])
        #expect(replaced.status == 0, "stderr: \(replaced.stderr)")
        #expect(try decodeVideo(file: file).frames >= 20)
    }

    /// `--sdp FILE` replaced an existing file without a word: it follows the recordings' rule.
    @Test func anExistingSDPFileIsRefusedUnlessOverwrite() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sdp = folder.appendingPathComponent("stream.sdp")
        try Data("notes".utf8).write(to: sdp)
        let port = String(try freePort())
        let refused = try camstamp([
            "stream", "--source", "test", "--text", "x", "--size", "320x240", "--duration", "1",
            "--to", "rtp://127.0.0.1:\(port)", "--sdp", sdp.path,
        ])
        #expect(refused.status == 1, "stderr: \(refused.stderr)")
        #expect(refused.stderr == "camstamp: \(sdp.path) already exists; use --overwrite to replace it\n")
        #expect(try Data(contentsOf: sdp) == Data("notes".utf8))
        let replaced = try camstamp([
            "stream", "--source", "test", "--text", "x", "--size", "320x240", "--duration", "1",
            "--to", "rtp://127.0.0.1:\(port)", "--sdp", sdp.path, "--overwrite",
        ])
        #expect(replaced.status == 0, "stderr: \(replaced.stderr)")
        #expect(try String(contentsOf: sdp, encoding: .utf8).contains("m=video"))
    }

    @Test func aMissingSnapshotFolderIsCreated() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let shots = folder.appendingPathComponent("stills/today")
        let running = try RunningCamstamp([
            "stream", "--source", "test", "--text", "x", "--size", "320x240",
            "--to", folder.appendingPathComponent("clip.mkv").path, "--snapshot-dir", shots.path,
        ])
        Thread.sleep(forTimeInterval: 1.5)
        running.send(SIGUSR1)
        Thread.sleep(forTimeInterval: 1)
        running.send(SIGINT)
        let result = running.finish(timeout: 20)
        #expect(result.status == 130, "stderr: \(result.stderr)")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: shots.path)) ?? []
        #expect(names.count == 1 && names[0].hasPrefix("snapshot-"), "\(names)")
        if let name = names.first { #expect(try decodeImage(shots.appendingPathComponent(name)).width == 320) }
    }
}

@Suite struct ShootOutputTests {
    @Test func anExistingFileIsRefusedUnlessOverwrite() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = folder.appendingPathComponent("photo.jpg")
        try Data("not yet a photo".utf8).write(to: photo)
        let refused = try camstamp(["shoot", "--source", "test", "--text", "x", "--size", "320x240", "-o", photo.path])
        #expect(refused.status == 1, "stderr: \(refused.stderr)")
        #expect(refused.stderr == "camstamp: \(photo.path) already exists; use --overwrite to replace it\n")
        #expect(try Data(contentsOf: photo) == Data("not yet a photo".utf8))
        let replaced = try camstamp([
            "shoot", "--source", "test", "--text", "x", "--size", "320x240", "-o", photo.path, "--overwrite",
        ])
        #expect(replaced.status == 0, "stderr: \(replaced.stderr)")
        #expect(try decodeImage(photo).width == 320)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["photo.jpg"])
    }

    @Test func aFolderThatDoesNotExistYetIsCreated() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try camstamp(
            ["shoot", "--source", "test", "--text", "x", "--size", "320x240", "-o", "shots/2026/"], in: folder)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let shots = folder.appendingPathComponent("shots/2026")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: shots.path)) ?? []
        #expect(names.count == 1 && names[0].hasPrefix("camstamp-") && names[0].hasSuffix(".jpg"), "\(names)")
        #expect(result.stdout == shots.appendingPathComponent(names.first ?? "?").path + "\n")
    }

    @Test(arguments: ["a.webp", "a.gif", "notes.txt", "shots"])
    func anExtensionThatIsNotJPEGOrPNGIsRefused(name: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try camstamp(
            ["shoot", "--source", "test", "--text", "x", "--size", "320x240", "-o", name], in: folder)
        #expect(result.status == 64, "stderr: \(result.stderr)")
        #expect(
            result.stderr
                == "camstamp: invalid value '\(name)' for '-o': expected a .jpg, .jpeg or .png file, a folder (end it with /) or - for stdout\n"
        )
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func dashWritesTheJPEGToStdoutAndNothingElse() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (status, raw, stderr) = try camstampRawStdout(
            ["shoot", "--source", "test", "--text", "x", "--size", "320x240", "-o", "-"], in: folder)
        #expect(status == 0, "stderr: \(stderr)")
        #expect(raw.prefix(3) == Data([0xFF, 0xD8, 0xFF]), "stdout starts with \(Array(raw.prefix(4)))")
        #expect(raw.suffix(2) == Data([0xFF, 0xD9]), "stdout holds more than the JPEG")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "a file was left in the folder")
        let file = folder.appendingPathComponent("from-stdout.jpg")
        try raw.write(to: file)
        let frame = try decodeImage(file)
        #expect(frame.width == 320 && frame.height == 240)
    }
}

/// Runs camstamp and returns its exit status, stdout as bytes (a photo written with `-o -`) and stderr.
func camstampRawStdout(_ arguments: [String], in directory: URL) throws -> (Int32, Data, String) {
    let result = try camstamp(arguments, in: directory)
    return (result.status, result.output, result.stderr)
}

@Suite struct FileSafetyTests {
    @Test func aLaterRunRemovesTheTemporariesOfKilledRunsButNotOfLiveOnes() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        // A camstamp run killed with SIGKILL: its pid is gone, its temporary is stale.
        let killed = try RunningCamstamp([
            "stream", "--source", "test", "--text", "x", "--size", "320x240",
            "--to", folder.appendingPathComponent("k.mkv").path,
        ])
        Thread.sleep(forTimeInterval: 0.5)
        killed.send(SIGKILL)
        _ = killed.finish(timeout: 10)
        let stale = out.appendingPathComponent(temporaryName(pid: killed.pid, for: "a.jpg"))
        // This test process is alive: its temporary is a concurrent writer's and must stay.
        let live = out.appendingPathComponent(temporaryName(pid: getpid(), for: "b.jpg"))
        let other = out.appendingPathComponent(".someone-else.part")
        for file in [stale, live, other] { try Data("half a photo".utf8).write(to: file) }
        let input = try put(
            PhotoFixtures.jpeg(width: 160, height: 120, orientation: 1, exif: nil), "in/c.jpg", in: folder)
        let result = try camstamp(["batch", input.path, "-o", out.path, "--text", "x"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: stale.path), "the stale temporary is still there")
        #expect(FileManager.default.fileExists(atPath: live.path), "a live temporary was removed")
        #expect(FileManager.default.fileExists(atPath: other.path), "a file of another naming was removed")
        // shoot cleans its folder the same way.
        try Data("half a photo".utf8).write(to: stale)
        let shot = try camstamp(["shoot", "--source", "test", "--text", "x", "--size", "320x240", "-o", out.path + "/"])
        #expect(shot.status == 0, "stderr: \(shot.stderr)")
        #expect(
            !FileManager.default.fileExists(atPath: stale.path) && FileManager.default.fileExists(atPath: live.path))
    }

    @Test func aSymlinkLoopIsFollowedOnceAndEachPhotoMarkedOnce() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = try PhotoFixtures.jpeg(width: 160, height: 120, orientation: 1, exif: nil)
        let input = folder.appendingPathComponent("in")
        try put(photo, "a.jpg", in: input)
        try put(photo, "sub/b.jpg", in: input)
        try put(photo, "sub/deeper/c.jpg", in: input)
        // A link back to the top, as a careless `ln -s .. loop` leaves.
        try FileManager.default.createSymbolicLink(
            atPath: input.appendingPathComponent("sub/deeper/loop").path, withDestinationPath: "../..")
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", input.path, "-o", out.path, "--recursive", "--text", "x"], timeout: 60)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(listing(out) == ["a.jpg", "sub/b.jpg", "sub/deeper/c.jpg"])
        #expect(result.stderr.hasSuffix("3 marked, 0 failed, 0 skipped\n"), "\(result.stderr)")
    }

    @Test func aFIFOAndADeviceAreRefusedByNameWithoutBlocking() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in")
        try put(PhotoFixtures.jpeg(width: 160, height: 120, orientation: 1, exif: nil), "good.jpg", in: input)
        let fifo = input.appendingPathComponent("pipe.jpg")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", input.path, "/dev/zero", "-o", out.path, "--text", "x"], timeout: 20)
        #expect(result.status == 1, "stderr: \(result.stderr)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(
            lines.contains(
                "camstamp: \(fifo.path): not a photo file but a FIFO (named pipe); give photo files or folders of them"),
            "\(lines)")
        #expect(
            lines.contains(
                "camstamp: /dev/zero: not a photo file but a character device; give photo files or folders of them"),
            "\(lines)")
        #expect(lines.last == "1 marked, 2 failed, 0 skipped", "\(lines)")
        #expect(listing(out) == ["good.jpg"])
    }

    /// With --recursive, a subfolder that cannot be listed (a card's lost+found) is one failed line,
    /// not the end of the batch: it stopped every photo before any was stamped.
    @Test func aSubfolderThatCannotBeListedIsOneFailureAndTheRestAreStamped() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: folder.path)
        let input = folder.appendingPathComponent("in")
        try put(PhotoFixtures.jpeg(width: 160, height: 120, orientation: 1, exif: nil), "good.jpg", in: input)
        let locked = input.appendingPathComponent("lost+found")
        try put(PhotoFixtures.jpeg(width: 160, height: 120, orientation: 1, exif: nil), "hidden.jpg", in: locked)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: locked.path)
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", input.path, "-o", out.path, "--recursive", "--text", "x"], asNobody: true)
        #expect(result.status == 1, "stderr: \(result.stderr)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "camstamp: \(locked.path): cannot list the folder (You don’t have permission.)",
                "1 marked, 1 failed, 0 skipped",
            ], "\(lines)")
        #expect(listing(out) == ["good.jpg"])
    }

    @Test func theSummaryAfterCtrlCCountsWhatWasNotStarted() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = try PhotoFixtures.jpeg(width: 1600, height: 1200, orientation: 1, exif: nil)
        let count = 200
        for index in 0..<count { try put(photo, String(format: "in/%03d.jpg", index), in: folder) }
        try put(Data("<x:xmpmeta/>".utf8), "in/000.xmp", in: folder)
        let out = folder.appendingPathComponent("out")
        let running = try RunningCamstamp([
            "batch", folder.appendingPathComponent("in").path, "-o", out.path, "--text", "x", "--jobs", "1",
        ])
        let deadline = Date().addingTimeInterval(20)
        while listing(out).count < 3 && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        running.send(SIGINT)
        let result = running.finish(timeout: 30)
        #expect(result.status == 130, "\(result.stderr)")
        let last = result.stderr.split(separator: "\n").last.map(String.init) ?? ""
        let marked = listing(out).count
        #expect(
            last == "interrupted: \(marked) marked, 0 failed, 1 skipped, \(count - marked) not started",
            "\(result.stderr)")
        #expect(marked < count, "the batch was not interrupted")
    }
}
