// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Media
import Testing
import TestSupport

@Suite(.serialized) struct ShootTests {
    @Test func aTestCameraPhotoIsAJPEGOfTheRequestedSize() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try camstamp(
            ["shoot", "--source", "test", "--text", "© 2026 Studio", "--size", "640x480", "-o", "photo.jpg"], in: folder
        )
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let file = folder.appendingPathComponent("photo.jpg")
        #expect(result.stdout == file.path + "\n")
        let bytes = try Data(contentsOf: file)
        #expect(bytes.prefix(2) == Data([0xFF, 0xD8]), "not a JPEG")
        let frame = try decodeImage(file)
        #expect(frame.width == 640 && frame.height == 480)
        // Nothing but the photo is left in the folder: no temporary files.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["photo.jpg"])
    }

    @Test func aFolderOutputGetsAGeneratedNameAndNeverReplacesAPhoto() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try camstamp([
            "shoot", "--source", "test", "--text", "a", "--size", "320x240", "-o", folder.path + "/",
        ])
        let second = try camstamp(["shoot", "--source", "test", "--text", "b", "--size", "320x240", "-o", folder.path])
        #expect(first.status == 0 && second.status == 0, "\(first.stderr)\(second.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names.count == 2)
        #expect(
            names.allSatisfy { $0.range(of: #"^camstamp-\d{8}-\d{6}-\d+\.jpg$"#, options: .regularExpression) != nil },
            "\(names)")
    }

    @Test func theMarkIsWhereTheAnchorSaysAndNowhereElse() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let template = try writeSolidCameraTemplate(in: folder)
        let result = try camstamp(
            [
                "shoot", "--source", "test", "--pipeline", template.path, "--text", "MARK",
                "--size", "640x480", "--format", "png", "-o", "mark.png",
            ], in: folder)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let luma = try lumaPlane(decodeImage(folder.appendingPathComponent("mark.png")))
        let background = luma[0][0]
        let found = changedBounds(luma, background: background, tolerance: 6)
        let bounds = try #require(found, "no mark found")
        // --text: bottom-right, margin 3% of the short side (14.4 px at 480).
        let margin = 0.03 * 480
        #expect(abs(Double(640 - 1 - bounds.maxX) - margin) <= 3, "right edge at \(bounds.maxX)")
        #expect(abs(Double(480 - 1 - bounds.maxY) - margin) <= 3, "bottom edge at \(bounds.maxY)")
        // Text 4% of the short side tall (cap height and outline make it a little less or more).
        let height = Double(bounds.maxY - bounds.minY + 1)
        #expect(height > 0.02 * 480 && height < 0.07 * 480, "mark is \(height) px tall")
        #expect(bounds.minX > 320 && bounds.minY > 400, "mark spreads to (\(bounds.minX),\(bounds.minY))")
    }

    @Test(arguments: ["jpg", "png"])
    func aPhotoKeepsTheCamerasColours(format: String) throws {
        let folder = try temporaryFolder("colour\(format)")
        defer { try? FileManager.default.removeItem(at: folder) }
        // An HD camera delivers limited-range BT.709; the photo must still show the same colour.
        let template = try writeSolidCameraTemplate(in: folder, argb: "0xffc03020")
        let result = try camstamp(
            [
                "shoot", "--source", "test", "--pipeline", template.path, "--text", "x",
                "--size", "1280x720", "-o", "colour.\(format)",
            ], in: folder)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let frame = try decodeImage(folder.appendingPathComponent("colour.\(format)"), format: .rgbx)
        let pixel = try frame.withMapped { mapped in
            Array(mapped.plane(0)[(100 * mapped.stride(0) + 100 * 4)...].prefix(3))
        }
        let expected: [Int] = [0xC0, 0x30, 0x20]
        #expect(zip(pixel, expected).allSatisfy { abs(Int($0) - $1) <= 6 }, "RGB \(pixel), expected \(expected)")
    }

    @Test func onePresetGivesTheSameRelativeSizeAtEveryResolution() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let template = try writeSolidCameraTemplate(in: folder)
        var relative: [(width: Double, height: Double)] = []
        for (width, height) in [(640, 480), (1920, 1080)] {
            let name = "\(width).png"
            let result = try camstamp(
                [
                    "shoot", "--source", "test", "--pipeline", template.path, "--text", "Size check 2026",
                    "--size", "\(width)x\(height)", "--format", "png", "-o", name,
                ], in: folder)
            #expect(result.status == 0, "stderr: \(result.stderr)")
            let luma = try lumaPlane(decodeImage(folder.appendingPathComponent(name)))
            let found = changedBounds(luma, background: luma[0][0], tolerance: 6)
            let bounds = try #require(found, "no mark found at \(width)x\(height)")
            let short = Double(min(width, height))
            relative.append(
                (Double(bounds.maxX - bounds.minX + 1) / short, Double(bounds.maxY - bounds.minY + 1) / short))
        }
        #expect(abs(relative[0].width - relative[1].width) / relative[1].width < 0.08, "\(relative)")
        #expect(abs(relative[0].height - relative[1].height) / relative[1].height < 0.12, "\(relative)")
    }
}

@Suite struct FailureTests {
    @Test func anUnknownOptionIsAUsageErrorWithASuggestion() throws {
        let result = try camstamp(["shoot", "--qualty", "80"])
        #expect(result.status == 64)
        #expect(
            result.stderr == "camstamp: unknown option '--qualty' for 'camstamp shoot'; did you mean '--quality'?\n")
        #expect(result.stdout.isEmpty)
    }

    @Test func aBadValueNamesTheOption() throws {
        let result = try camstamp(["shoot", "--source", "test", "--text", "x", "--size", "big"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("camstamp: invalid value 'big' for '--size'"))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func aMissingDeviceSaysHowToFindOne() throws {
        let result = try camstamp(["shoot", "--source", "/dev/video97", "--text", "x"])
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "camstamp: no camera at /dev/video97; `camstamp devices` lists cameras, `--source test` uses the test camera\n"
        )
    }

    @Test(.enabled(if: !FileManager.default.fileExists(atPath: "/dev/video0")))
    func noCameraAtAllSuggestsTheTestCamera() throws {
        let result = try camstamp(["shoot", "--text", "x"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("--source test"), "\(result.stderr)")
        #expect(!result.stderr.contains("CRITICAL"))
    }

    @Test func aDeviceWithoutPermissionPointsAtTheVideoGroup() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        let device = folder.appendingPathComponent("video0")
        FileManager.default.createFile(atPath: device.path, contents: Data(), attributes: [.posixPermissions: 0o600])
        let result = try camstamp(
            ["shoot", "--source", "v4l2:" + device.path, "--text", "x", "-o", "/tmp/"], asNobody: true)
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("permission denied") && result.stderr.contains("'video' group"), "\(result.stderr)")
    }

    @Test func anUnwritableOutputFolderFailsBeforeAnythingStarts() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
        let result = try camstamp(
            ["shoot", "--source", "test", "--text", "x", "-o", folder.path + "/"], asNobody: true)
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "camstamp: \(folder.path): cannot write here (permission denied); choose another folder with -o\n")
    }

    /// A disk that fills while the photo is written: one line naming the photo and what to do, no
    /// GStreamer element path, nothing left behind. Needs a small tmpfs (root, as `make test` runs
    /// on CI).
    @Test(.mountsTmpfs) func aFullDiskIsSaidInOneLineNamingThePhoto() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try mountTmpfs(at: folder, options: "size=16k")
        defer { unmount(folder) }
        let photo = folder.appendingPathComponent("photo.jpg")
        let result = try camstamp(["shoot", "--source", "test", "--text", "x", "--size", "1920x1080", "-o", photo.path])
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "camstamp: \(photo.path): cannot write the photo (the disk is full); free some space or choose another -o\n"
        )
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func aMissingOutputFolderIsAUsageError() throws {
        let result = try camstamp(["shoot", "--source", "test", "--text", "x", "-o", "/nonexistent-camstamp/photo.jpg"])
        #expect(result.status == 64)
        #expect(result.stderr == "camstamp: -o: folder /nonexistent-camstamp does not exist; create it first\n")
    }

    @Test func anUnknownTemplateVariableIsAUsageError() throws {
        let result = try camstamp(["shoot", "--source", "test", "--text", "{nosuch}"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("nosuch"), "\(result.stderr)")
    }
}

@Suite struct HelpTests {
    @Test(arguments: [[], ["shoot"], ["batch"], ["stream"], ["devices"], ["presets"]])
    func everyCommandHasHelp(command: [String]) throws {
        let result = try camstamp(command + ["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("USAGE"), "\(result.stdout)")
        #expect(result.stderr.isEmpty)
    }

    @Test func versionNamesTheToolAndGStreamer() throws {
        let result = try camstamp(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("camstamp "))
    }

    @Test func devicesWithNoCameraIsNotAnError() throws {
        let result = try camstamp(["devices"])
        #expect(result.status == 0, "\(result.stderr)")
    }
}

@Suite struct ShootSourceTests {
    @Test func ctrlCWhileWarmingUpExits130AndLeavesNoFile() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let running = try RunningCamstamp([
            "shoot", "--source", "test", "--text", "x", "--size", "320x240",
            "--warmup", "100000", "-o", folder.path + "/",
        ])
        Thread.sleep(forTimeInterval: 1.5)
        running.send(SIGINT)
        let result = running.finish(timeout: 15)
        #expect(result.status == 130, "stderr: \(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func aVideoFilePlaysAsACamera() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A 1-second 320x240 clip made here, then used as the camera.
        let clip = folder.appendingPathComponent("clip with space.mkv")
        try writeWithGStreamer(
            "videotestsrc num-buffers=30 ! video/x-raw,width=320,height=240,framerate=30/1 ! x264enc ! matroskamux ! filesink location={location}",
            to: clip)
        let result = try camstamp(
            ["shoot", "--source", "file:" + clip.path, "--text", "from file", "--warmup", "3", "-o", "still.jpg"],
            in: folder)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let frame = try decodeImage(folder.appendingPathComponent("still.jpg"))
        #expect(frame.width == 320 && frame.height == 240)
    }

    /// The warm-up the job uses is `ShootOptions.effectiveWarmup` (15 frames for anything but the
    /// test camera, as `ValueTests.warmupDefaultsBySource` checks): a 12-frame clip ends inside it.
    @Test func aFileSourceWarmsUpByTheOptionsDefault() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = folder.appendingPathComponent("twelve.mkv")
        try writeWithGStreamer(
            "videotestsrc num-buffers=12 ! video/x-raw,width=160,height=120,framerate=30/1 ! x264enc ! matroskamux ! filesink location={location}",
            to: clip)
        let byDefault = try camstamp(
            ["shoot", "--source", "file:" + clip.path, "--text", "x", "-o", "default.jpg"], in: folder)
        #expect(byDefault.status == 1)
        #expect(byDefault.stderr == "camstamp: capture: the source ended before a frame could be taken\n")
        let shorter = try camstamp(
            ["shoot", "--source", "file:" + clip.path, "--text", "x", "--warmup", "10", "-o", "ten.jpg"], in: folder)
        #expect(shorter.status == 0, "stderr: \(shorter.stderr)")
    }
}

@Suite struct PresetsCommandTests {
    @Test func listNamesEveryShippedPresetWithItsDescription() throws {
        let result = try camstamp(["presets", "list"])
        #expect(result.status == 0)
        let names = result.stdout.split(separator: "\n").map { String($0.split(separator: " ")[0]) }
        #expect(names == ["camera-info", "caption-cn", "credit", "logo", "proof", "timestamp"])
        #expect(
            result.stdout.split(separator: "\n").allSatisfy {
                $0.split(separator: " ", omittingEmptySubsequences: true).count > 2
            })
    }

    @Test func showPrintsTheResolvedPreset() throws {
        let result = try camstamp(["presets", "show", "credit"])
        #expect(result.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let marks = object?["marks"] as? [[String: Any]]
        #expect(object?["name"] as? String == "credit")
        #expect(marks?.first?["anchor"] as? String == "bottom-right")
        #expect(marks?.first?["opacity"] != nil, "defaults are spelled out")
    }

    @Test func checkValidatesFilesAndExits64WithTheMessages() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bad = folder.appendingPathComponent("bad.json")
        try ##"{"name": "x", "marks": [{"text": "a", "colour": "#fff"}]}"##.write(
            to: bad, atomically: true, encoding: .utf8)
        let good = packageRoot.appendingPathComponent("presets/credit.json")
        let result = try camstamp(["presets", "check", good.path, bad.path])
        #expect(result.status == 64)
        #expect(result.stdout == "\(good.path): ok\n")
        #expect(result.stderr == "camstamp: \(bad.path):1: unknown key 'colour' at $.marks[0]; did you mean 'color'?\n")
    }
}

@Suite struct InstallTests {
    @Test func foundThroughASymlinkOnThePathItStillFindsItsPresets() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("camstamp"), withDestinationURL: camstampBinary)
        // argv[0] is then the bare name "camstamp", as when a user types it.
        let shell = try runProcess("/bin/sh", ["-c", "cd / && PATH=\"$0:$PATH\" camstamp presets list", folder.path])
        #expect(shell.status == 0)
        #expect(shell.stdout.contains("credit"), "presets list printed: \(shell.stdout)")
    }
}
