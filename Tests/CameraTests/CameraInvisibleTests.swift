// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

/// `camera --invisible`: a shot from the page carries the invisible mark of the instance id its
/// manifest (`--sign`) names, which `verify` finds again from a stripped copy; the shutter's
/// answer names it.
extension CameraTests {
    @Suite(.needsMarkReferee) struct InvisibleMark {
        @Test func aShotCarriesTheMarkOfItsManifestsInstanceID() throws {
            let folder = try temporaryFolder("camera-invisible")
            defer { try? FileManager.default.removeItem(at: folder) }
            // A camera filming a generated photo: a file source does not run live in camera.
            let clip = try photoClip(in: folder, frames: 1)
            let scene = clip.deletingLastPathComponent().appendingPathComponent("scene.jpg")
            let template = folder.appendingPathComponent("scene.pipeline")
            try """
            multifilesrc location=\(scene.path) loop=true caps=image/jpeg,framerate=5/1 ! jpegdec ! videoconvert ! \
            videoscale ! {rate} ! {caps} ! appsink name=frames
            """.write(to: template, atomically: true, encoding: .utf8)
            let keys = folder.appendingPathComponent("keys")
            let made = try camstamp(["keys", "new", keys.path, "--name", "Studio Nord"])
            #expect(made.status == 0, "\(made.stderr)")
            let camera = try CameraProcess(
                [
                    "--source", "test", "--fps", "5", "--pipeline", template.path, "-o", "shots", "--text", "Site 7",
                    "--invisible",
                    "--sign", keys.appendingPathComponent("chain.pem").path,
                    "--sign-key", keys.appendingPathComponent("key.pem").path,
                ], in: folder)
            let shot = try http("POST", camera.base + "/api/shoot").json
            #expect(camera.stop().status == 130)
            let path = try #require(shot["path"] as? String, "\(shot)")
            // The manifest's instance id is the mark's: verify finds the signed photo from a
            // copy whose metadata (and manifest) exiftool stripped.
            let stripped = folder.appendingPathComponent("stripped.jpg")
            try FileManager.default.copyItem(at: URL(fileURLWithPath: path), to: stripped)
            _ = try exiftool(["-q", "-all=", "-overwrite_original", stripped.path])
            let found = try camstamp([
                "verify", stripped.path, "--manifests", folder.appendingPathComponent("shots").path,
            ])
            #expect(found.stdout.contains("unsigned, but its invisible mark names manifest xmp:iid:"), "\(found)")
            #expect(found.stdout.contains("(in \(path))"), "\(found.stdout)")
            // The shutter's answer says the mark as `batch --json` does: the id verify named.
            let mark = try #require(shot["invisible"] as? [String: Any], "\(shot)")
            let id = try #require(mark["instance_id"] as? String)
            #expect(found.stdout.contains("names manifest \(id)"), "\(found.stdout) vs \(id)")
            let payload = try #require(mark["payload"] as? String)
            #expect(payload.count == 16 && payload.allSatisfy(\.isHexDigit), "\(payload)")
            #expect(mark["algorithm"] as? String != nil)
        }
    }
}
