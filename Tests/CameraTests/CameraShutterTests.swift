// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Media
import Testing
import TestSupport

/// Zero shutter lag and the page's video: the shot is the frame a viewer saw when it pressed,
/// and `POST /api/record` records the marked feed as `stream` records a file.
extension CameraTests {
    @Suite struct Shutter {
        /// The frame number in large digits in the middle: every frame looks different.
        static func writeFrameCounterPreset(in folder: URL) throws -> URL {
            let url = folder.appendingPathComponent("counter.json")
            try """
            {"name": "counter", "marks": [{"text": "{frame}", "size": "30%", "color": "#FFFFFF", "anchor": "center"}]}
            """.write(to: url, atomically: true, encoding: .utf8)
            return url
        }

        /// The shot's frame is read from its pixels (the preview part it matches), and is the
        /// frame the viewer had on screen when it pressed, within one frame.
        ///
        /// The camera can only know when the press arrives, so the press must arrive before the
        /// part after next leaves: at 5 frames a second that leaves the test 0.2 to 0.4 s to read
        /// a part and send the press, which a loaded machine keeps; at 30 it left 33 to 66 ms,
        /// and the press often came two frames late (the product was right, the test too slow).
        @Test func theShotIsTheFrameOnScreenWhenTheShutterIsPressed() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let preset = try Self.writeFrameCounterPreset(in: folder)
            let template = try writeSolidCameraTemplate(in: folder)
            let camera = try CameraProcess(
                [
                    "--source", "test", "--pipeline", template.path, "--size", "640x360", "--fps", "5",
                    "--preset", preset.path,
                ],
                in: folder)
            let viewer = MJPEGParts(camera.base + "/stream.mjpg", keep: 400)
            defer { viewer.stop() }
            try viewer.waitFor(5)
            var presses: [(shown: Int, path: String, frame: Int?)] = []
            for _ in 0..<10 {
                // Pressed just after a part came in, as a thumb reacts to what it sees.
                try viewer.waitFor(1)
                let shown = try #require(viewer.latest?.frame, "the parts carry no X-Frame")
                let answer = try http("POST", camera.base + "/api/shoot")
                let path = try #require(answer.json["path"] as? String, "\(answer.text)")
                presses.append((shown, path, answer.json["frame"] as? Int))
                try viewer.waitFor(3)
            }
            #expect(camera.stop().status == 130)
            let parts = viewer.parts
            for (round, press) in presses.enumerated() {
                let shot = try lumaPlane(decodeImage(URL(fileURLWithPath: press.path)))
                let candidates = try parts.filter { abs(($0.frame ?? -100) - press.shown) <= 5 }.map { part in
                    (frame: part.frame!, difference: meanDifference(try lumaOfJPEG(part.jpeg, in: folder), shot) ?? 255)
                }
                let best = try #require(candidates.min { $0.difference < $1.difference })
                #expect(best.difference < 2, "round \(round): no preview part looks like the photo")
                #expect(
                    abs(best.frame - press.shown) <= 1,
                    "round \(round): the photo is frame \(best.frame), the viewer showed \(press.shown) when it pressed"
                )
                #expect(press.frame == best.frame)
            }
        }

        @Test func aRecordingIsTheMarkedFeedAsAnMP4() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let camera = try CameraProcess.flatMarked(in: folder)
            let viewer = MJPEGParts(camera.base + "/stream.mjpg")
            defer { viewer.stop() }
            #expect(try http("POST", camera.base + "/api/record", json: ["action": "stop"]).status == 409)
            let started = try http("POST", camera.base + "/api/record", json: ["action": "start"])
            #expect(started.status == 200, "\(started.text)")
            let again = try http("POST", camera.base + "/api/record", json: ["action": "start"])
            #expect(again.status == 409 && (again.json["error"] as? String)?.contains("already recording") == true)
            try viewer.waitFor(60)
            let state = try http("GET", camera.base + "/api/state").json["recording"] as? [String: Any]
            #expect(state?["recording"] as? Bool == true && (state?["seconds"] as? Double ?? 0) > 0, "\(state ?? [:])")
            let stopped = try http("POST", camera.base + "/api/record", json: ["action": "stop"])
            let path = try #require(stopped.json["path"] as? String, "\(stopped.text)")
            let url = try #require(stopped.json["url"] as? String)
            #expect(path.hasPrefix(folder.appendingPathComponent("shots").path) && path.hasSuffix(".mp4"))
            let served = try http("GET", camera.base + url)
            #expect(served.status == 200 && served.headers["content-type"] == "video/mp4")
            let after = try http("GET", camera.base + "/api/state").json["recording"] as? [String: Any]
            #expect(after?["recording"] as? Bool == false, "\(after ?? [:])")
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(served.body == bytes && served.headers["accept-ranges"] == "bytes")
            // A video element seeking, a download resumed: the part asked for, and 416 past the end.
            let part = try http("GET", camera.base + url, headers: ["Range": "bytes=100-1099"])
            #expect(part.status == 206 && part.headers["content-range"] == "bytes 100-1099/\(bytes.count)")
            #expect(part.body == bytes[100..<1100])
            let past = try http("GET", camera.base + url, headers: ["Range": "bytes=\(bytes.count + 10)-"])
            #expect(past.status == 416, "\(past.status)")
            #expect(camera.stop().status == 130)
            let video = try decodeVideo(file: URL(fileURLWithPath: path))
            #expect(video.frames >= 30 && video.duration >= 1, "\(video.frames) frames, \(video.duration) s")
            #expect(video.kept?.width == 640 && video.kept?.height == 360)
            try expectMarkBottomRight(video.kept)
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("shots").path)
            #expect(left == [(path as NSString).lastPathComponent], "\(left)")
        }

        /// Ctrl-C while recording: the recording is finished (its index written) before the exit.
        @Test func aRecordingUnderWayIsFinishedOnCtrlC() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let camera = try CameraProcess(["--source", "test", "--size", "640x360", "--text", "MARK"], in: folder)
            let viewer = MJPEGParts(camera.base + "/stream.mjpg")
            defer { viewer.stop() }
            let started = try http("POST", camera.base + "/api/record", json: ["action": "start"])
            let path = try #require(started.json["path"] as? String, "\(started.text)")
            try viewer.waitFor(45)
            #expect(camera.stop().status == 130)
            let video = try decodeVideo(file: URL(fileURLWithPath: path))
            #expect(video.frames >= 30, "\(video.frames) frames")
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(!names.contains { $0.hasPrefix(".camstamp") }, "a temporary is left: \(names)")
        }

        /// Fragmented and written through as it goes: a recording killed with SIGKILL plays.
        @Test func aRecordingKilledHardIsPlayable() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let camera = try CameraProcess.flatMarked(in: folder)
            let viewer = MJPEGParts(camera.base + "/stream.mjpg")
            defer { viewer.stop() }
            let started = try http("POST", camera.base + "/api/record", json: ["action": "start"])
            let path = try #require(started.json["path"] as? String, "\(started.text)")
            // Past the first one-second fragment.
            try viewer.waitFor(75)
            #expect(camera.stop(signal: SIGKILL).status != 0)
            let video = try decodeVideo(file: URL(fileURLWithPath: path))
            #expect(video.frames >= 25, "\(video.frames) frames after the kill")
            try expectMarkBottomRight(video.kept)
        }
    }
}
