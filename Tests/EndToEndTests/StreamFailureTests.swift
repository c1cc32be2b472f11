// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Media
import Testing
import TestSupport

/// `stream` refuses what it cannot do before it starts, and says a failure mid-stream in one line.
extension StreamTests {
    @Test(arguments: [["--to", "ftp://example/x"], ["--to", "/nonexistent-camstamp/out.mp4"], ["--to", "out.avi"]])
    func aBadTargetIsAUsageErrorBeforeAnythingStarts(target: [String]) throws {
        let result = try camstamp(["stream", "--source", "test", "--text", "x"] + target)
        #expect(result.status == 64, "stderr: \(result.stderr)")
        #expect(result.stderr.hasPrefix("camstamp: ") && result.stderr.split(separator: "\n").count == 1)
    }

    /// Two targets that are one file (the same name twice, `./` before it, through a linked folder,
    /// a link to it) are refused in one line naming --to and the file, before anything is
    /// written: both recordings ran into one name, failed with "No such file or directory" or
    /// "already exists" and left a partial d.mp4.
    @Test(arguments: ["d.mp4", "./d.mp4", "linked/d.mp4", "l.mp4"])
    func oneFileGivenAsTwoTargetsIsRefusedBeforeAnythingIsWritten(second: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("linked").path, withDestinationPath: ".")
        var extra: [String] = []
        if second == "l.mp4" {
            // A link is followed to the file it names, which is there already: hence --overwrite.
            try Data("old".utf8).write(to: folder.appendingPathComponent("d.mp4"))
            try FileManager.default.createSymbolicLink(
                atPath: folder.appendingPathComponent("l.mp4").path, withDestinationPath: "d.mp4")
            extra = ["--overwrite"]
        }
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
        let result = try camstamp(
            ["stream", "--source", "test", "--text", "x", "--duration", "1", "--to", "d.mp4", "--to", second] + extra,
            in: folder)
        #expect(result.status == 64, "stderr: \(result.stderr)")
        let line = result.stderr.split(separator: "\n")
        #expect(
            line.count == 1 && line[0].hasPrefix("camstamp: --to ") && line[0].hasSuffix("; give each target once"),
            "\(result.stderr)")
        #expect(
            result.stderr.contains(folder.resolvingSymlinksInPath().appendingPathComponent("d.mp4").path)
                || result.stderr.contains(folder.appendingPathComponent("d.mp4").path), "\(result.stderr)")
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: folder.path)) == before)
        if second == "l.mp4" {
            #expect(try Data(contentsOf: folder.appendingPathComponent("d.mp4")) == Data("old".utf8))
        }
    }

    /// A folder the user cannot write into is refused before the camera starts, in the words
    /// shoot uses, not with GStreamer's element path and source file.
    @Test func anUnwritableTargetFolderFailsBeforeAnythingStarts() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
        let result = try camstamp(
            [
                "stream", "--source", "test", "--text", "x", "--to", folder.appendingPathComponent("out.mp4").path,
                "--duration", "1",
            ], asNobody: true)
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "camstamp: \(folder.path): cannot write here (permission denied); choose another folder with --to\n")
    }

    /// A disk that fills while recording (here /dev/full behind the name) is said in one line that
    /// names the file and what to do, without GStreamer's element path or its C source file.
    @Test func aFullDiskIsSaidInOneLineNamingTheRecording() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("full.mp4")
        try FileManager.default.createSymbolicLink(atPath: file.path, withDestinationPath: "/dev/full")
        let result = try camstamp([
            "stream", "--source", "test", "--text", "x", "--to", file.path, "--overwrite", "--duration", "2",
        ])
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "camstamp: \(file.path): cannot write the recording (the disk is full); free some space or choose another --to\n"
        )
    }

    /// A full disk under one of two recordings: that one is let go and the other goes on to the
    /// end, finalised; the line names the full one alone. Before, the full disk stopped both
    /// (the healthy one left unfinished, no duration in its header) and the line said both were
    /// on a full disk. Needs a small tmpfs (root, as `make test` runs on CI).
    /// The same with HLS on the full disk (it also kept the stream from ending for 10 s, its
    /// hlssink2 taking no end after a write error).
    @Test(.mountsTmpfs, arguments: ["x.mp4", "hls"])
    func aFullDiskUnderOneTargetNamesItAndTheOtherGoesOn(fullTarget: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let small = try nearlyFullDisk(in: folder)
        defer { unmount(small) }
        let full = small.appendingPathComponent(fullTarget == "hls" ? "live" : fullTarget),
            healthy = folder.appendingPathComponent("y.mkv")
        let target = fullTarget == "hls" ? "hls:" + full.path : full.path
        let result = try camstamp([
            "stream", "--source", "test", "--text", "LIVE {frame}", "--size", "640x360", "--duration", "8",
            "--audio", "auto", "--to", target, "--to", healthy.path,
        ])
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "camstamp: \(target): cannot write the \(fullTarget == "hls" ? "segments" : "recording") (the disk is full); "
                + "free some space or choose another --to\n", "\(result.stderr)")
        func duration(_ file: URL) throws -> Double? {
            Double(
                String(
                    decoding: try tool(
                        "ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", file.path]),
                    as: UTF8.self
                )
                .trimmingCharacters(in: .whitespacesAndNewlines))
        }
        // The healthy one holds all 8 s, sound included, and says its length; the full one what fitted.
        let whole = try #require(try duration(healthy))
        #expect(whole > 7.5, "healthy disk: \(whole) s")
        if fullTarget != "hls" {
            let cut = try #require(try duration(full))
            #expect(cut < 6, "full disk: \(cut) s")
            #expect(try decodeVideo(file: healthy).frames > (try decodeVideo(file: full).frames) + 30)
        }
        let streams = String(
            decoding: try tool(
                "ffprobe", ["-v", "error", "-show_entries", "stream=codec_type", "-of", "csv=p=0", healthy.path]),
            as: UTF8.self)
        #expect(streams.contains("audio"), "\(streams)")
    }

    /// HLS segments on a full disk: one line naming the hls: target and what to do, as a file
    /// target says it (it was GStreamer's element path and "No space left on the resource.").
    /// Needs a small tmpfs (root, as `make test` runs on CI).
    @Test(.mountsTmpfs) func hlsOnAFullDiskIsOneLineNamingTheTarget() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let small = try nearlyFullDisk(in: folder)
        defer { unmount(small) }
        let hls = small.appendingPathComponent("live")
        let result = try camstamp([
            "stream", "--source", "test", "--text", "LIVE {frame}", "--size", "640x360", "--duration", "30",
            "--to", "hls:" + hls.path,
        ])
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "camstamp: hls:\(hls.path): cannot write the segments (the disk is full); free some space or choose another --to\n",
            "\(result.stderr)")
    }

    /// A video file whose frames H.264 cannot take (an odd size; --size was not given to choose
    /// one): one line naming the size and the way out, and no recording without frames left
    /// behind (x264's "Can not initialize x264 encoder" and a file with no index were).
    /// A clip whose video data is damaged (its frames zeroed, its headers intact) decodes to
    /// nothing: the stream fails naming --source, and leaves no empty recording behind.
    @Test func aClipWhoseFramesCannotBeDecodedNamesTheSourceAndLeavesNoFile() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = folder.appendingPathComponent("damaged.mp4")
        try writeWithGStreamer(
            "videotestsrc num-buffers=30 ! video/x-raw,width=320,height=240,framerate=30/1 ! x264enc ! h264parse ! mp4mux ! filesink location={location}",
            to: clip)
        var bytes = [UInt8](try Data(contentsOf: clip))
        let mdat = try #require((4..<bytes.count - 4).first { bytes[$0..<$0 + 4].elementsEqual("mdat".utf8) })
        let size = bytes[(mdat - 4)..<mdat].reduce(0) { $0 << 8 | Int($1) }
        for index in (mdat + 68)..<min(bytes.count, mdat - 4 + size) { bytes[index] = 0 }
        try Data(bytes).write(to: clip)
        let file = folder.appendingPathComponent("out.mp4")
        let result = try camstamp(["stream", "--source", "file:" + clip.path, "--text", "x", "--to", file.path])
        #expect(result.status == 1)
        #expect(
            result.stderr.hasPrefix("camstamp: --source file:\(clip.path): the clip cannot be played: "),
            "\(result.stderr)")
        #expect(
            result.stderr.split(separator: "\n").count == 1 && !result.stderr.contains("/GstPipeline"),
            "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    /// A MOV holding only a timecode track (no picture, no sound) as the source, into one file and
    /// into two (the composed output probes the clip's sound elsewhere): one line naming --source
    /// and what to do; it was GStreamer's element path (/GstPipeline:…/GstQTDemux:…).
    @Test(arguments: [1, 2])
    func aClipWithOnlyATimecodeTrackIsOneLineNamingTheSource(targets: Int) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let full = folder.appendingPathComponent("full.mov"), clip = folder.appendingPathComponent("timecode.mov")
        try tool(
            "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc2=s=320x240:r=30:d=1", "-c:v", "libx264", "-timecode",
                "01:00:00:00", full.path,
            ])
        try tool("ffmpeg", ["-v", "error", "-i", full.path, "-map", "0:d", "-c", "copy", "-f", "mov", clip.path])
        let outputs = ["out.mp4", "out.mkv"].prefix(targets).flatMap {
            ["--to", folder.appendingPathComponent($0).path]
        }
        let result = try camstamp(["stream", "--source", "file:" + clip.path, "--text", "x"] + outputs)
        #expect(result.status == 1)
        #expect(
            result.stderr.hasPrefix("camstamp: --source file:\(clip.path): the clip cannot be played: ")
                && result.stderr.hasSuffix("; give another video file\n"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1 && !result.stderr.contains("/Gst"), "\(result.stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["full.mov", "timecode.mov"])
    }

    @Test func aSourceWithAnOddFrameSizeIsSaidAndLeavesNoFile() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = folder.appendingPathComponent("odd.mkv")
        try writeWithGStreamer(
            "videotestsrc num-buffers=10 ! video/x-raw,width=321,height=241,framerate=30/1 ! matroskamux ! filesink location={location}",
            to: clip)
        let file = folder.appendingPathComponent("out.mp4")
        let result = try camstamp(["stream", "--source", "file:" + clip.path, "--text", "x", "--to", file.path])
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "camstamp: capture: the source's 321x241 frames cannot be encoded: H.264 (4:2:0) needs an even width and height, "
                + "e.g. 320x240; ask for that with --size\n")
        #expect(!FileManager.default.fileExists(atPath: file.path))
        let sized = try camstamp([
            "stream", "--source", "file:" + clip.path, "--text", "x", "--to", file.path, "--size", "320x240",
        ])
        #expect(sized.status == 0, "\(sized.stderr)")
    }

    /// A snapshot that does not fit on its disk is one line naming the folder, and the stream goes
    /// on. Needs a small tmpfs (root, as `make test` runs on CI).
    @Test(.mountsTmpfs) func aSnapshotOnAFullDiskIsOneLineAndTheStreamGoesOn() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let shots = folder.appendingPathComponent("shots")
        try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
        try mountTmpfs(at: shots, options: "size=8k")
        defer { unmount(shots) }
        let file = folder.appendingPathComponent("clip.mkv")
        let running = try RunningCamstamp([
            "stream", "--source", "test", "--text", "SNAP", "--size", "1280x720", "--to", file.path,
            "--snapshot-dir", shots.path,
        ])
        Thread.sleep(forTimeInterval: 1.5)
        running.send(SIGUSR1)
        Thread.sleep(forTimeInterval: 1.5)
        running.send(SIGINT)
        let result = running.finish(timeout: 20)
        #expect(result.status == 130, "stderr: \(result.stderr)")
        #expect(
            result.stderr.split(separator: "\n").first
                == "camstamp: \(shots.path): cannot write the snapshot (the disk is full); free some space or choose another --snapshot-dir",
            "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: shots.path).isEmpty)
        #expect(try decodeVideo(file: file).frames >= 60)
    }
}
