// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

/// `--json` on shoot and stream, and `--progress json` on batch and stream: what a script reads.
@Suite struct JobJSONTests {
    func objects(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// A JSON number, whole (`30`) or not (`29.97`).
    func isNumber(_ value: Any?) -> Bool { value is Int || value is Double }

    @Test func shootPrintsEachPhotoAsItIsWrittenThenASummary() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let shots = folder.appendingPathComponent("shots/")
        let result = try camstamp([
            "shoot", "--source", "test", "--text", "x", "--size", "320x240", "--count", "2",
            "-o", shots.path + "/", "--json", "-q",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = objects(result.stdout)
        #expect(lines.count == 3 && result.stdout.split(separator: "\n").count == 3, "\(result.stdout)")
        for (index, photo) in lines.prefix(2).enumerated() {
            #expect(photo["number"] as? Int == index + 1 && photo["format"] as? String == "jpg")
            #expect(photo["width"] as? Int == 320 && photo["height"] as? Int == 240)
            let frame = try decodeImage(URL(fileURLWithPath: try #require(photo["output"] as? String)))
            #expect(frame.width == 320 && frame.height == 240)
        }
        let summary = lines.last?["summary"] as? [String: Any]
        #expect(
            summary?["written"] as? Int == 2 && summary?["requested"] as? Int == 2
                && summary?["interrupted"] as? Bool == false)
        let refused = try camstamp(["shoot", "--source", "test", "-o", "-", "--json"], in: folder)
        #expect(
            refused.status == 64
                && refused.stderr == "camstamp: '--json' and '-o -' cannot be used together: stdout holds the photo\n")
    }

    /// A recording and an RTMP server that is not there: the JSON names both, counts the frames
    /// the file holds, and the outage.
    @Test func streamPrintsItsSummaryAsJSONAndItsProgressAsJSONLines() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let recording = folder.appendingPathComponent("rec.mkv")
        let rtmp = "rtmp://127.0.0.1:\(try freePort())/live/nobody"
        let result = try camstamp(
            [
                "stream", "--source", "test", "--text", "x", "--size", "320x240", "--duration", "3",
                "--to", recording.path, "--to", rtmp, "--json", "--progress", "json",
            ], timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try #require(objects(result.stdout).last?["summary"] as? [String: Any], "\(result.stdout)")
        let frames = try #require(summary["frames"] as? Int)
        let decoded = try decodedFrames(recording)
        #expect(frames > 0 && frames == decoded)
        #expect(summary["targets"] as? [String] == [recording.path, rtmp], "\(summary)")
        #expect(summary["dropped"] as? Int == 0 && summary["interrupted"] as? Bool == false)
        let outages = try #require(summary["outages"] as? [[String: Any]])
        #expect(
            outages.count == 1 && outages.first?["target"] as? String == rtmp
                && outages.first?["ever_connected"] as? Bool == false, "\(outages)")

        let progress = objects(result.stderr)
        #expect(progress.count >= 2, "\(result.stderr)")
        #expect(
            progress.dropLast().allSatisfy {
                $0["progress"] as? String == "continue" && $0["frame"] is Int && isNumber($0["fps"])
                    && $0["dropped"] is Int && isNumber($0["time"]) && isNumber($0["elapsed"])
            }, "\(result.stderr)")
        #expect(progress.last?["progress"] as? String == "end")
        // Every other stderr line is plain text, the summary among them.
        let plain = result.stderr.split(separator: "\n").filter { !$0.hasPrefix("{") }
        #expect(
            plain.contains { $0.hasPrefix("\(recording.path), \(rtmp): \(frames) frames written") },
            "\(result.stderr)")
    }

    @Test func batchProgressAsJSONLinesEndsWithEverythingDone() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = try PhotoFixtures.jpeg(width: 160, height: 120, orientation: 1, exif: nil)
        for index in 1...3 { try put(photo, "in/\(index).jpg", in: folder) }
        let input = folder.appendingPathComponent("in"), out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", input.path, "-o", out.path, "--text", "x", "--progress", "json", "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        let progress = objects(result.stderr)
        // Under -q only the records: they were asked for.
        #expect(progress.count == lines.count && progress.count >= 2, "\(result.stderr)")
        let last = try #require(progress.last)
        #expect(
            last["progress"] as? String == "end" && last["done"] as? Int == 3 && last["total"] as? Int == 3,
            "\(last)")
        #expect(isNumber(last["rate"]) && isNumber(last["elapsed"]) && isNumber(last["eta"]), "\(last)")
        let wrong = try camstamp(["batch", "in", "-o", "out", "--text", "x", "--progress", "xml"], in: folder)
        #expect(
            wrong.status == 64
                && wrong.stderr == "camstamp: invalid value 'xml' for '--progress': expected bar or json\n")
    }
}
