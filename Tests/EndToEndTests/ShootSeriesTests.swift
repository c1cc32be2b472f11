// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Media
import Testing
import TestSupport

/// `shoot --delay`, `--count/--interval`, `-o` templates, `--control` and `--source NAME`, run
/// through the built binary on the test camera and on devices that are not cameras.
@Suite(.serialized) struct ShootSeriesTests {
    func names(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test func aBurstWritesNDistinctPhotosThatAllDecode() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try camstamp([
            "shoot", "--source", "test", "--text", "photo {counter}", "--size", "320x240",
            "--count", "4", "--interval", "0.2", "-o", folder.path + "/",
        ])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let files = try names(in: folder)
        #expect(files.count == 4, "\(files)")
        // Each path is printed as its photo is written, in order.
        #expect(result.stdout == result.stdout.split(separator: "\n").map { $0 + "\n" }.joined())
        #expect(
            Set(result.stdout.split(separator: "\n").map(String.init))
                == Set(files.map { folder.appendingPathComponent($0).path }))
        var contents: Set<Data> = []
        for name in files {
            let frame = try decodeImage(folder.appendingPathComponent(name))
            #expect(frame.width == 320 && frame.height == 240, "\(name)")
            contents.insert(try Data(contentsOf: folder.appendingPathComponent(name)))
        }
        #expect(contents.count == 4, "two photos of the burst are the same bytes")
    }

    @Test func aTemplateNameNumbersThePhotosAndNeverReplacesOne() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let arguments = [
            "shoot", "--source", "test", "--text", "x", "--size", "320x240", "--count", "3",
            "--var", "job=A-113", "-o", "{job}-{date:%Y%m%d}-{counter:3}.jpg",
        ]
        let first = try camstamp(arguments, in: folder)
        #expect(first.status == 0, "stderr: \(first.stderr)")
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyyMMdd"
        // (A run across midnight would see the next day; the test takes a second.)
        let day = formatter.string(from: Date())
        let expected = (1...3).map { "A-113-\(day)-00\($0).jpg" }
        #expect(try names(in: folder) == expected)
        #expect(first.stdout == expected.map { folder.appendingPathComponent($0).path + "\n" }.joined())
        let before = try expected.map { try Data(contentsOf: folder.appendingPathComponent($0)) }
        // The same names again: refused before the camera starts, nothing replaced.
        let second = try camstamp(arguments, in: folder)
        #expect(second.status == 1)
        #expect(
            second.stderr
                == "camstamp: \(folder.path)/A-113-\(day)-001.jpg already exists; use --overwrite to replace it\n")
        #expect(second.stdout.isEmpty)
        #expect(try expected.map { try Data(contentsOf: folder.appendingPathComponent($0)) } == before)
        #expect(try names(in: folder) == expected)
    }

    @Test func aSeriesIntoOneFileNameIsRefused() throws {
        let result = try camstamp(["shoot", "--source", "test", "--text", "x", "--count", "3", "-o", "/tmp/shot.jpg"])
        #expect(result.status == 64)
        #expect(
            result.stderr
                == "camstamp: -o shot.jpg names one file but --count 3 takes 3 photos; put {counter} in the name (e.g. shot-{counter:3}.jpg) or give a folder\n"
        )
        let stdout = try camstamp(["shoot", "--source", "test", "--text", "x", "--count", "2", "-o", "-"])
        #expect(stdout.status == 64)
        #expect(
            stdout.stderr
                == "camstamp: -o - writes one photo to stdout; for --count 2 give a folder or a name with {counter}\n")
    }

    @Test func theDelayComesBeforeThePhoto() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let started = Date()
        let result = try camstamp(
            [
                "shoot", "--source", "test", "--text", "x", "--size", "320x240", "--delay", "1.5",
                "-o", "late.jpg",
            ], in: folder)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let file = folder.appendingPathComponent("late.jpg")
        let written = try #require(
            try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date)
        // A lower bound only: the photo is taken no sooner than 1.5 s after the command started.
        #expect(
            written.timeIntervalSince(started) >= 1.5, "written \(written.timeIntervalSince(started)) s after the start"
        )
        // stderr is not a terminal here: no countdown in it.
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        #expect(try decodeImage(file).width == 320)
    }

    @Test func ctrlCDuringATimeLapseKeepsEveryPhotoWritten() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let running = try RunningCamstamp([
            "shoot", "--source", "test", "--text", "{counter}", "--size", "320x240",
            "--count", "100", "--interval", "0.4", "-o", folder.path + "/tl-{counter:3}.jpg",
        ])
        // Wait for the second photo, then stop.
        let deadline = Date().addingTimeInterval(30)
        while (try? names(in: folder).filter { $0.hasSuffix(".jpg") }.count) ?? 0 < 2 && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        running.send(SIGINT)
        let result = running.finish(timeout: 20)
        #expect(result.status == 130, "stderr: \(result.stderr)")
        let files = try names(in: folder)
        #expect(files.count >= 2 && files.count < 100, "\(files)")
        #expect(files == (1...files.count).map { String(format: "tl-%03d.jpg", $0) }, "a temporary or a gap: \(files)")
        #expect(result.stderr == "interrupted: \(files.count) of 100 photos written\n")
        #expect(result.stdout == files.map { folder.appendingPathComponent($0).path + "\n" }.joined())
        for name in files {
            #expect(try decodeImage(folder.appendingPathComponent(name)).height == 240, "\(name)")
        }
    }

    // MARK: --control and cameras that cannot be used

    @Test func controlsNeedACamera() throws {
        let result = try camstamp([
            "shoot", "--source", "test", "--text", "x", "--control", "brightness=10", "-o", "/tmp/",
        ])
        #expect(result.status == 64)
        #expect(result.stderr == "camstamp: --control sets V4L2 camera controls; the test camera has none\n")
    }

    @Test func aMalformedControlValueIsRefusedNotDropped() throws {
        let result = try camstamp(["shoot", "--source", "test", "--text", "x", "--control", "brightness=1 0"])
        #expect(result.status == 64)
        #expect(
            result.stderr
                == "camstamp: --control brightness=1 0: GStreamer cannot read '1 0' as one value; give a whole number, true/false or a menu item (quote text with spaces as \"50 Hz\")\n"
        )
    }

    @Test func aDeviceThatIsNotACameraIsSaidSoWhenItsControlsAreAskedFor() throws {
        // /dev/null can be opened by anyone and answers VIDIOC_QUERYCAP with ENOTTY.
        let result = try camstamp(
            ["shoot", "--source", "/dev/null", "--text", "x", "--control", "brightness=10", "-o", "/tmp/"],
            asNobody: true)
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "camstamp: /dev/null: not a V4L2 camera (VIDIOC_QUERYCAP: Inappropriate ioctl for device)\n")
    }

    @Test func aCameraWithoutPermissionPointsAtTheVideoGroupWhenV4l2srcOpensIt() throws {
        // A character device only root may open, opened by v4l2src itself (a template of the
        // user's own, so the pre-check on --source passes): the failure comes from GStreamer
        // with the errno only in its debug text.
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        let node = folder.appendingPathComponent("video9")
        guard mknod(node.path, S_IFCHR | 0o600, makedev(1, 3)) == 0 else {
            Issue.record("mknod failed: \(String(cString: strerror(errno)))")
            return
        }
        let template = folder.appendingPathComponent("camera.pipeline")
        try "v4l2src name=camera device=\(node.path) ! videoconvert ! {caps} ! appsink name=frames"
            .write(to: template, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: template.path)
        let result = try camstamp(
            ["shoot", "--source", "/dev/null", "--pipeline", template.path, "--text", "x", "-o", "/tmp/"],
            asNobody: true)
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "camstamp: /dev/null: permission denied; add yourself to the 'video' group (sudo usermod -aG video $USER, then log in again)\n"
        )
    }

    @Test(arguments: [["shoot", "--text", "x"], ["stream", "--text", "x", "--to", "/tmp/camstamp-never.mp4"]])
    func aCameraNameIsResolvedForEveryCommand(command: [String]) throws {
        let result = try camstamp(command + ["--source", "HD Webcam"])
        #expect(result.status == 1)
        if FileManager.default.fileExists(atPath: "/dev/video0") {
            #expect(result.stderr.hasPrefix("camstamp: --source 'HD Webcam': "), "\(result.stderr)")
        } else {
            #expect(
                result.stderr
                    == "camstamp: --source 'HD Webcam': no camera found; connect one, or use `--source test` for the built-in test camera\n"
            )
        }
    }
}

private func makedev(_ major: UInt32, _ minor: UInt32) -> dev_t {
    dev_t(major) << 8 | dev_t(minor)
}
