// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

/// Issue 24: `--sign` writes Content Credentials that c2pa-python's Reader, trusting only the
/// test's own root, finds Trusted; tampering is caught; a CA may not sign; a camera's manifest is
/// kept as the parent's; `verify` and `keys new` work. c2pa-python is the referee throughout.
@Suite(.enabled(if: hasC2PAReferee, "c2pa-python is not installed: run make python-deps"))
struct CredentialsTests {
    func signed(_ input: URL, _ folder: URL, _ chain: TestChain, extra: [String] = []) throws -> RunResult {
        try camstamp(
            [
                "batch", input.path, "-o", folder.appendingPathComponent("out").path, "--text", "Job A-113",
                "--sign", chain.chain.path, "--sign-key", chain.key.path, "--json",
            ] + extra)
    }

    @Test func splicedJPEGIsTrustedWithItsActions() throws {
        let folder = try temporaryFolder()
        let chain = try TestChain(in: folder.appendingPathComponent("keys"))
        let input = folder.appendingPathComponent("in/photo.jpg")
        try plasmaJPEG(input)
        let result = try signed(input, folder, chain, extra: ["--strip-gps"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"path\":\"spliced\""), "the photo stays spliced: \(result.stdout)")
        let output = folder.appendingPathComponent("out/photo.jpg")
        let report = try Referee.read(output, mime: "image/jpeg", anchors: chain.root)
        #expect(report.state == "Trusted")
        #expect(report.failures == [])
        #expect(report.successes.contains("claimSignature.validated"))
        #expect(report.successes.contains("assertion.dataHash.match"))
        #expect(report.generator == "camstamp")
        #expect(report.actions.first == "c2pa.opened")
        #expect(report.actions.contains("c2pa.addedText: Job A-113"))
        #expect(report.actions.contains { $0.hasPrefix("c2pa.edited.metadata") })
        #expect(report.relationships == ["parentOf"])
        // exiftool reads the JUMBF boxes too.
        let jumbf = try exiftool(["-G1", "-a", "-JUMBF:all"], output)
        #expect(jumbf.contains("JUMD Label") && jumbf.contains(": c2pa"), "\(jumbf)")
        let verified = try camstamp(["verify", output.path, "--trust", chain.root.path])
        #expect(verified.status == 0, "\(verified.stderr)")
        #expect(verified.stdout.contains("trusted; signed by Test Signer"), "\(verified.stdout)")
        #expect(verified.stdout.contains("c2pa.addedText \"Job A-113\""), "\(verified.stdout)")
    }

    /// The SDK is given a parent without a manifest less its scan (`ContentCredentials.parentView`):
    /// what it records of it, read from the header (the XMP's instance id), is still there.
    @Test func theParentsXMPInstanceIDIsTheIngredients() throws {
        let folder = try temporaryFolder()
        let chain = try TestChain(in: folder.appendingPathComponent("keys"))
        let input = folder.appendingPathComponent("in/photo.jpg")
        try plasmaJPEG(input)
        try exiftool(["-overwrite_original", "-XMP-xmpMM:InstanceID=xmp.iid:parent-1234"], input)
        let result = try signed(input, folder, chain)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"path\":\"spliced\""), "the photo stays spliced: \(result.stdout)")
        let report = try Referee.read(
            folder.appendingPathComponent("out/photo.jpg"), mime: "image/jpeg", anchors: chain.root)
        #expect(report.state == "Trusted" && report.failures == [], "\(report.failures)")
        #expect(report.parentInstanceID == "xmp.iid:parent-1234")
    }

    /// libheif writes a grid for some pictures (here one of odd size), its layout in `idat`, and
    /// the SDK's signing moves that layout's offset: the signed file is refused, in one line, and
    /// not written. A picture written without a grid is signed, and decodes.
    @Test func aSignedHEICThatNoLongerDecodesIsRefused() throws {
        let folder = try temporaryFolder()
        let chain = try TestChain(in: folder.appendingPathComponent("keys"))
        let odd = folder.appendingPathComponent("in/odd.jpg"), even = folder.appendingPathComponent("in/even.jpg")
        try plasmaJPEG(odd, width: 639, height: 479)
        try plasmaJPEG(even)
        let result = try signed(folder.appendingPathComponent("in"), folder, chain, extra: ["--format", "heic"])
        #expect(result.status == 1, "\(result.stderr)")
        let said = result.stderr.split(separator: "\n").filter { $0.contains("odd.jpg") }
        #expect(said.count == 1 && said[0].contains("cannot sign this picture as HEIC"), "\(result.stderr)")
        let out = folder.appendingPathComponent("out")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == ["even.heic"])
        let report = try Referee.read(out.appendingPathComponent("even.heic"), mime: "image/heic", anchors: chain.root)
        #expect(report.state == "Trusted" && report.failures == [], "\(report.failures)")
        let png = folder.appendingPathComponent("even.png")
        try tool("heif-convert", [out.appendingPathComponent("even.heic").path, png.path])
        #expect(try lumaPlane(decodeImage(png)).count == 480)
    }

    @Test func aFlippedByteIsADataHashMismatch() throws {
        let folder = try temporaryFolder()
        let chain = try TestChain(in: folder.appendingPathComponent("keys"))
        let input = folder.appendingPathComponent("in/photo.jpg")
        try plasmaJPEG(input)
        #expect(try signed(input, folder, chain).status == 0)
        let output = folder.appendingPathComponent("out/photo.jpg")
        var bytes = try Data(contentsOf: output)
        // In the entropy-coded data, well before the end of the picture.
        bytes[bytes.count - 500] ^= 0x10
        let tampered = folder.appendingPathComponent("tampered.jpg")
        try bytes.write(to: tampered)
        let report = try Referee.read(tampered, mime: "image/jpeg", anchors: chain.root)
        #expect(report.failures.contains("assertion.dataHash.mismatch"), "\(report.failures)")
        let verified = try camstamp(["verify", tampered.path, "--trust", chain.root.path])
        #expect(verified.status == 1)
        #expect(verified.stdout.contains("tampered"), "\(verified.stdout)")
        #expect(verified.stdout.contains("assertion.dataHash.mismatch"), "\(verified.stdout)")
    }

    @Test func aCACertificateMayNotSign() throws {
        let folder = try temporaryFolder()
        let chain = try TestChain(in: folder.appendingPathComponent("keys"))
        let input = folder.appendingPathComponent("in/photo.jpg")
        try plasmaJPEG(input)
        let result = try camstamp([
            "batch", input.path, "-o", folder.appendingPathComponent("out").path, "--text", "x",
            "--sign", chain.intermediateChain.path, "--sign-key", chain.intermediateKey.path,
        ])
        #expect(result.status == 64)
        #expect(result.stderr.contains("signingCredential.invalid"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path))
    }

    @Test func aCameraManifestIsKeptAsTheParentsManifest() throws {
        let folder = try temporaryFolder()
        let chain = try TestChain(in: folder.appendingPathComponent("keys"))
        let plain = folder.appendingPathComponent("plain.jpg")
        try plasmaJPEG(plain)
        let input = folder.appendingPathComponent("in/PXL_0001.jpg")
        try Referee.cameraPhoto(plain, to: input, chain: chain)
        #expect(try signed(input, folder, chain).status == 0)
        let report = try Referee.read(
            folder.appendingPathComponent("out/PXL_0001.jpg"), mime: "image/jpeg", anchors: chain.root)
        #expect(report.state == "Trusted", "\(report.failures)")
        #expect(report.parentGenerator == "Pixel Camera")
        let verified = try camstamp([
            "verify", folder.appendingPathComponent("out/PXL_0001.jpg").path, "--trust", chain.root.path,
        ])
        #expect(verified.stdout.contains("from: Pixel Camera 10"), "\(verified.stdout)")

        // Unsigned, the manifest is left out with one warning saying --sign carries it on.
        let unsigned = try camstamp([
            "batch", input.path, "-o", folder.appendingPathComponent("unsigned").path, "--text", "x",
        ])
        #expect(unsigned.status == 0)
        let warnings = unsigned.stderr.split(separator: "\n").filter { $0.contains("Content Credentials") }
        #expect(warnings.count == 1 && warnings[0].contains("--sign carries them on"), "\(unsigned.stderr)")
        let left = try camstamp(["verify", folder.appendingPathComponent("unsigned/PXL_0001.jpg").path])
        #expect(left.status == 1 && left.stdout.contains(": unsigned"), "\(left.stdout)")
    }

    @Test(.runsGStreamerElements) func pngAndMP4AreSigned() throws {
        let folder = try temporaryFolder()
        let chain = try TestChain(in: folder.appendingPathComponent("keys"))
        let input = folder.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        try tool(
            "convert", ["-seed", "5", "-size", "320x240", "plasma:fractal", input.appendingPathComponent("a.png").path])
        try writeWithGStreamer(
            "videotestsrc num-buffers=20 ! video/x-raw,width=320,height=240,framerate=20/1 ! x264enc ! mp4mux "
                + "! filesink location={location}",
            to: input.appendingPathComponent("b.mp4"))
        let result = try signed(input, folder, chain)
        #expect(result.status == 0, "\(result.stderr)")
        for (name, mime, hash) in [
            ("a.png", "image/png", "assertion.dataHash.match"),
            ("b.mp4", "video/mp4", "assertion.bmffHash.match"),
        ] {
            let report = try Referee.read(
                folder.appendingPathComponent("out/\(name)"), mime: mime, anchors: chain.root)
            #expect(report.state == "Trusted", "\(name): \(report.failures)")
            #expect(report.successes.contains(hash), "\(name): \(report.successes)")
            #expect(report.actions.contains("c2pa.addedText: Job A-113"), "\(name)")
        }
    }

    @Test(.runsGStreamerElements) func aShotIsACreatedCapture() throws {
        let folder = try temporaryFolder()
        let chain = try TestChain(in: folder.appendingPathComponent("keys"))
        let photo = folder.appendingPathComponent("shot.jpg")
        let result = try camstamp([
            "shoot", "--source", "test", "-o", photo.path, "--text", "Site 7",
            "--sign", chain.chain.path, "--sign-key", chain.key.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try Referee.read(photo, mime: "image/jpeg", anchors: chain.root)
        #expect(report.state == "Trusted", "\(report.failures)")
        #expect(report.actions.first == "c2pa.created")
        #expect(report.actions.contains("c2pa.addedText: Site 7"))
        #expect(report.relationships == [])
    }

    @Test(.runsGStreamerElements) func aFinishedRecordingIsSignedAndALiveTargetRefused() throws {
        let folder = try temporaryFolder()
        let chain = try TestChain(in: folder.appendingPathComponent("keys"))
        let recording = folder.appendingPathComponent("rec.mp4")
        let sign = ["--sign", chain.chain.path, "--sign-key", chain.key.path]
        let result = try camstamp(
            ["stream", "--source", "test", "--to", recording.path, "--duration", "1", "--text", "Live"] + sign)
        #expect(result.status == 0, "\(result.stderr)")
        let report = try Referee.read(recording, mime: "video/mp4", anchors: chain.root)
        #expect(report.state == "Trusted", "\(report.failures)")
        #expect(report.successes.contains("assertion.bmffHash.match"))
        #expect(report.actions == ["c2pa.created", "c2pa.addedText: Live"])
        let live = try camstamp(["stream", "--source", "test", "--to", "rtp://127.0.0.1:5004"] + sign)
        #expect(live.status == 64)
        #expect(live.stderr.contains("signs finished MP4 recordings only: an RTP stream"), "\(live.stderr)")
    }

    @Test(arguments: [false, true]) func keysNewMakesASignerTheRefereeTrusts(ed25519: Bool) throws {
        let folder = try temporaryFolder("keys-\(ed25519)")
        let keys = folder.appendingPathComponent("keys")
        let made = try camstamp(["keys", "new", keys.path, "--name", "Studio Nord"] + (ed25519 ? ["--ed25519"] : []))
        #expect(made.status == 0, "\(made.stderr)")
        for (name, mode) in [("key.pem", 0o600), ("ca-key.pem", 0o600), ("chain.pem", 0o644), ("ca.pem", 0o644)] {
            let attributes = try FileManager.default.attributesOfItem(atPath: keys.appendingPathComponent(name).path)
            #expect((attributes[.posixPermissions] as? Int) == mode, "\(name)")
        }
        let key = try Data(contentsOf: keys.appendingPathComponent("key.pem"))
        let again = try camstamp(["keys", "new", keys.path])
        #expect(again.status == 64 && again.stderr.contains("already exists"), "\(again.stderr)")
        #expect(try Data(contentsOf: keys.appendingPathComponent("key.pem")) == key, "never replaced")

        let input = folder.appendingPathComponent("in/photo.jpg")
        try plasmaJPEG(input, width: 320, height: 240)
        let result = try camstamp(
            ["batch", input.path, "-o", folder.appendingPathComponent("out").path, "--text", "x"],
            environment: [
                "CAMSTAMP_SIGN_CERT": keys.appendingPathComponent("chain.pem").path,
                "CAMSTAMP_SIGN_KEY": keys.appendingPathComponent("key.pem").path,
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try Referee.read(
            folder.appendingPathComponent("out/photo.jpg"), mime: "image/jpeg",
            anchors: keys.appendingPathComponent("ca.pem"))
        #expect(report.state == "Trusted", "\(report.failures)")
    }
}
