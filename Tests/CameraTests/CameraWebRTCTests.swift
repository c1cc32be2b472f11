// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

/// Issue 34 §1 in Chromium (Scripts/webrtc_test.py): the page's preview over WebRTC plays at a
/// phone's and a laptop's size (frames decoded, the mark in the picture), the shutter takes a
/// photo with it, and 50 viewers join and leave, each let go.
extension CameraTests {
    @Suite struct WebRTCPreview {
        @Test func thePagePlaysTheWebRTCPreviewAndViewersComeAndGo() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let run = try runScript("webrtc_test.py", [camstampBinary.path, folder.path], timeout: 400)
            #expect(run.status == 0, "\(run.output)")
            let line = try #require(run.output.split(separator: "\n").last { $0.hasPrefix("result ") }, "\(run.output)")
            let results = try #require(
                try JSONSerialization.jsonObject(with: Data(line.dropFirst("result ".count).utf8)) as? [String: Any])
            for size in ["390x844", "1280x800"] {
                let result = try #require(results[size] as? [String: Any], "\(results)")
                // 3 s of a 30 fps camera: most of its 90 frames decoded.
                let decoded = try #require(result["decoded"] as? Int)
                #expect(decoded >= 60, "\(size): \(decoded) frames decoded in 3 s")
                let sample = try #require(result["sample"] as? [String: Any])
                #expect(sample["width"] as? Int == 640 && sample["height"] as? Int == 480, "\(size): \(sample)")
                // The timestamp's box in the corner: not the bar above it.
                let corner = try #require(sample["corner"] as? [Int]), above = try #require(sample["above"] as? [Int])
                #expect(
                    zip(corner, above).map { abs($0 - $1) }.reduce(0, +) > 100,
                    "\(size): corner \(corner), above \(above)")
                let shot = URL(fileURLWithPath: try #require(result["shot"] as? String))
                let photo = try decodeImage(shot)
                #expect(photo.width == 640 && photo.height == 480)
            }
            let joins = try #require(results["joins"] as? [String: Any])
            // Every one of the 50 connected, decoded frames and was let go (the script fails
            // otherwise); none is left, and neither are their threads or memory. A webrtcbin
            // kept alive leaves its two threads (ICE, peer connection) and ~300 KiB: 50 of them
            // (as when a browser's mDNS candidates held each one) give +100 threads, +16 MiB.
            let threads = try #require(joins["threads"] as? [Int]), rss = try #require(joins["rss_kib"] as? [Int])
            print("WebRTC preview, 50 viewers joined and left: threads \(threads), RSS KiB \(rss)")
            #expect(threads.count == 2 && threads[1] <= threads[0] + 3, "threads before and after: \(threads)")
            #expect(rss.count == 2 && rss[1] - rss[0] <= 6 * 1024, "RSS KiB before and after: \(rss)")
            #expect(joins["left"] as? Int == 0, "\(joins)")
        }
    }
}
