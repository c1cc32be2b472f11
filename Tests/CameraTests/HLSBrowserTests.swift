// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

/// Issue 11 §3: `stream --to hls:DIR` writes a playlist a browser plays. Debian's Chromium plays
/// HLS itself (no hls.js): the script streams, serves the folder on 127.0.0.1 and watches the
/// <video> play it.
@Suite struct HLSBrowserTests {
    @Test func chromiumPlaysTheHLSPlaylist() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "camstamp-hls-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try runScript(
            "hls_test.py", [camstampBinary.path, folder.path, folder.appendingPathComponent("hls.png").path])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("played:"), "\(run.output)")
    }
}
