// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

/// A PulseAudio server of the test's own (Debian `pulseaudio`), on a private socket, with a real
/// 440 Hz source: a null sink that module-sine plays a tone into, whose monitor `camtone.monitor`
/// is a microphone on a machine without a sound card. (module-sine-source, the obvious choice,
/// stalls pulsesrc after its first 0.2 s of buffer; a null sink's monitor runs in real time.) It runs as the user the tests run as (root on CI: pulseaudio warns and runs), with
/// its runtime folder and home in the test's folder, so it touches no session of anyone's.
/// (`-n`: no default.pa, so no hardware is looked for.)
final class PulseServer {
    let socket: URL
    private let runtime: URL

    static let source = "camtone.monitor"

    init(folder: URL) throws {
        runtime = folder.appendingPathComponent("pulse")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        socket = runtime.appendingPathComponent("native")
        // Started as a daemon: pulseaudio -D returns once the server is up, and leaves its pid in
        // the runtime folder. Its output goes to a log file, so no pipe of ours stays open in it.
        let log = folder.appendingPathComponent("pulseaudio.log").path
        let command =
            "HOME='\(runtime.path)' PULSE_RUNTIME_PATH='\(runtime.path)' XDG_RUNTIME_DIR='\(runtime.path)' "
            + "/usr/bin/pulseaudio -n -D --exit-idle-time=-1 --log-target=file:'\(log)' "
            + "--load='module-native-protocol-unix auth-anonymous=1 socket=\(socket.path)' "
            + "--load='module-null-sink sink_name=camtone rate=48000' --load='module-sine sink=camtone frequency=440' </dev/null >/dev/null 2>&1"
        try runTool("/bin/sh", ["-c", command], timeout: 20)
        guard FileManager.default.fileExists(atPath: socket.path) else {
            throw ToolFailure(
                "pulseaudio did not start: \(((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").suffix(600))")
        }
    }

    /// What a client (pulsesrc) needs to find this server.
    var environment: [String: String] { ["PULSE_SERVER": "unix:\(socket.path)"] }

    func stop() {
        let text = (try? String(contentsOf: runtime.appendingPathComponent("pid"), encoding: .utf8)) ?? ""
        if let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) { kill(pid, SIGTERM) }
    }
}

@Suite(.serialized) struct AudioDeviceTests {
    /// `--audio DEVICE` records that PulseAudio source: an AAC track beside the marked H.264,
    /// holding the tone (loud, not silence). pulsesrc starts up to a second or so late on a loaded
    /// machine: the pictures wait for its first sound, so the track is as long as the video.
    @Test func aPulseAudioSourceIsRecordedWithTheVideo() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pulse = try PulseServer(folder: folder)
        defer { pulse.stop() }
        let recording = folder.appendingPathComponent("rec.mp4")
        let template = try writeSolidCameraTemplate(in: folder)
        let result = try camstamp(
            [
                "stream", "--source", "test", "--pipeline", template.path, "--text", "LIVE", "--size", "640x360",
                "--fps", "30", "--to", recording.path, "--duration", "4", "--audio", PulseServer.source,
            ],
            timeout: 60, environment: pulse.environment)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(try probeCodecs(recording.path) == ["h264", "aac"])
        let durations = try runTool(
            "/usr/bin/ffprobe",
            ["-v", "error", "-show_entries", "stream=codec_type,duration", "-of", "csv=p=0", recording.path])
        var seconds: [String: Double] = [:]
        for line in durations.split(separator: "\n") {
            let fields = line.split(separator: ",")
            if fields.count == 2 { seconds[String(fields[0])] = Double(fields[1]) }
        }
        let audio = try #require(seconds["audio"], "\(durations)"),
            video = try #require(seconds["video"], "\(durations)")
        #expect(
            abs(video - 4) <= 0.2 && audio >= video - 0.5 && audio <= video + 0.2, "audio \(audio) s, video \(video) s")
        // The tone, not silence: ffmpeg's volumedetect on the decoded track.
        let detect = try ffmpegStderr(["-i", recording.path, "-map", "0:a", "-af", "volumedetect", "-f", "null", "-"])
        let mean = try #require(detect.firstMatch(of: try Regex(#"mean_volume: (-?[\d.]+) dB"#)), "\(detect)")
        #expect((Double(String(mean.output[1].substring ?? "")) ?? -99) > -30, "\(detect.suffix(300))")
        try expectMarkBottomRight(try decodeImage(recording))
    }

    /// A sound source that cannot be opened is said in one line naming --audio and where to look,
    /// and the stream that never started leaves no empty recording behind.
    @Test func aSoundSourceThatCannotBeOpenedIsSaidAndLeavesNoFile() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let recording = folder.appendingPathComponent("rec.mp4")
        let result = try camstamp(
            [
                "stream", "--source", "test", "--text", "LIVE", "--size", "320x240", "--to", recording.path,
                "--duration", "2", "--audio", "no-such-source",
            ],
            timeout: 60, environment: ["PULSE_SERVER": "unix:\(folder.path)/no-server"])
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n")
        #expect(
            lines.count == 1
                && lines[0].hasPrefix("camstamp: --audio no-such-source: the sound source cannot be opened"),
            "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: recording.path))
    }
}

/// What ffmpeg prints on stderr for `arguments` (its filters' reports), bounded.
func ffmpegStderr(_ arguments: [String], timeout: TimeInterval = 30) throws -> String {
    try runProcess(
        "/usr/bin/ffmpeg", ["-hide_banner", "-nostdin"] + arguments, stdout: .discard,
        timeout: timeout
    ).stderr
}
