// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

/// Issue 25 §2 in Chromium at 390×844 and 1280×800 (Scripts/camera_page_test.py): the shutter in
/// reach after 12 photos, the presets' thumbnails, a mark dragged into a user preset, the
/// gallery's delete and an album photo stamped. The script drives the page; the photos it names
/// are decoded here. The camera signs: a photo of one press of the shutter validates in c2pa-python.
extension CameraTests {
    @Suite struct PageInBrowser {
        @Test(.enabled(if: hasC2PAReferee, "c2pa-python is not installed: run make python-deps"))
        func thePageWorksAsACameraOnAPhoneAndOnALaptop() throws {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let template = try writeSolidCameraTemplate(in: folder)
            let album = try PageAPI.albumPhoto(in: folder)
            let chain = try TestChain(in: folder.appendingPathComponent("keys"))
            let run = try runScript(
                "camera_page_test.py",
                [camstampBinary.path, folder.path, template.path, album.path, chain.chain.path, chain.key.path],
                timeout: 400)
            #expect(run.status == 0, "\(run.output)")
            let line = try #require(run.output.split(separator: "\n").last { $0.hasPrefix("result ") }, "\(run.output)")
            let results = try #require(
                try JSONSerialization.jsonObject(with: Data(line.dropFirst("result ".count).utf8)) as? [String: Any])
            let albumLuma = try lumaPlane(try decodeImage(album))
            for size in ["390x844", "1280x800"] {
                let result = try #require(results[size] as? [String: Any], "\(results)")
                let before = try Self.markBounds(try #require(result["before"] as? String))
                let after = try Self.markBounds(try #require(result["after"] as? String))
                try Self.expectSignedShot(URL(fileURLWithPath: try #require(result["after"] as? String)), chain: chain)
                let dx = try #require(result["dx"] as? Double), dy = try #require(result["dy"] as? Double)
                // Where the mark was dropped on the preview, in the photo's pixels (a few pixels of rounding).
                #expect(
                    abs(Double(after.minX - before.minX) - dx) <= 4 && abs(Double(after.minY - before.minY) - dy) <= 4,
                    "\(size): dragged by (\(dx), \(dy)), the mark went from \(before) to \(after)")
                #expect((result["preset"] as? String)?.contains(#""name": "timestamp""#) == true)
                // The album photo came back marked: the same picture, changed only where the mark is.
                let marked = try lumaPlane(
                    try decodeImage(URL(fileURLWithPath: try #require(result["album"] as? String))))
                #expect(marked.count == albumLuma.count && marked.first?.count == albumLuma.first?.count)
                let bounds = try #require(changedBounds(marked, background: albumLuma[0][0], tolerance: 12), "no mark")
                #expect(bounds.maxX - bounds.minX < 400 && bounds.maxY - bounds.minY < 200, "\(size): \(bounds)")
            }
        }

        /// A photo the shutter took on the signed camera, as c2pa-python's Reader finds it.
        static func expectSignedShot(_ photo: URL, chain: TestChain) throws {
            let report = try Referee.read(photo, mime: "image/jpeg", anchors: chain.root)
            #expect(report.state == "Trusted" && report.failures.isEmpty, "\(photo.path): \(report)")
            #expect(report.actions.first == "c2pa.created", "\(report.actions)")
        }

        static func markBounds(_ path: String) throws -> (minX: Int, minY: Int, maxX: Int, maxY: Int) {
            let luma = try lumaPlane(try decodeImage(URL(fileURLWithPath: path)))
            return try #require(changedBounds(luma, background: luma[0][0], tolerance: 12), "no mark in \(path)")
        }
    }
}
