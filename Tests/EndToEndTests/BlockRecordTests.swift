// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

/// Issue 24 §2: a signed JPEG stamped in its coefficients carries camstamp's block record
/// (`org.camstamp.blocks.1`), which c2pa-python's Reader shows in a Trusted manifest; `verify` says
/// its pixels outside the marks are the parent's, by the record's hash and block by block against
/// `--parent SRC`, and says so of no other source nor of a forged record.
@Suite(.enabled(if: hasC2PAReferee, "c2pa-python is not installed: run make python-deps"))
struct BlockRecordTests {
    /// c2pa-python's view: validation state, failure codes, and our assertion's data (or null).
    static let assertionScript =
        Referee.reading("path, anchors = sys.argv[1:3]", mime: "\"image/jpeg\"") + """
            active = store["manifests"][store["active_manifest"]]
            record = next((a["data"] for a in active["assertions"] if a["label"] == "org.camstamp.blocks.1"), None)
            failures = store.get("validation_results", {}).get("activeManifest", {}).get("failure", [])
            print(json.dumps({"state": store.get("validation_state"), "failures": [c["code"] for c in failures],
                              "record": json.dumps(record) if record is not None else None}))
            """

    /// Our assertion, copied as it is into a manifest c2pa-python's Builder signs onto `photo`.
    static let forgeScript = """
        import json, sys, c2pa
        photo, dst, record, chain, key = sys.argv[1:6]
        manifest = {"claim_generator_info": [{"name": "forger", "version": "1"}], "title": "forged.jpg",
            "assertions": [{"label": "c2pa.actions.v2", "data": {"actions": [{"action": "c2pa.created",
                "digitalSourceType": "http://cv.iptc.org/newscodes/digitalsourcetype/digitalCapture"}]}},
                           {"label": "org.camstamp.blocks.1", "data": json.loads(open(record).read())}]}
        info = c2pa.C2paSignerInfo(b"es256", open(chain, "rb").read(), open(key, "rb").read(), None)
        with c2pa.Builder(manifest) as builder, open(photo, "rb") as s, open(dst, "w+b") as d:
            builder.sign(c2pa.Signer.from_info(info), "image/jpeg", s, d)
        """

    struct RefereeView: Decodable {
        var state: String
        var failures: [String]
        var record: String?
    }

    static func referee(_ file: URL, _ chain: TestChain) throws -> RefereeView {
        let output = try tool(refereePython, ["-c", assertionScript, file.path, chain.root.path])
        return try JSONDecoder().decode(RefereeView.self, from: output)
    }

    /// `input` marked and signed into `folder/out`, by `path` (spliced, or coefficients with
    /// CAMSTAMP_SPLICE=0); the output.
    static func signed(
        _ input: URL, _ folder: URL, _ chain: TestChain, path: String = "spliced"
    ) throws -> URL {
        let result = try camstamp(
            [
                "batch", input.path, "-o", folder.appendingPathComponent("out").path, "--text", "Job A-113",
                "--sign", chain.chain.path, "--sign-key", chain.key.path, "--json",
            ], environment: path == "spliced" ? [:] : ["CAMSTAMP_SPLICE": "0"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"path\":\"\(path)\""), "\(result.stdout)")
        return folder.appendingPathComponent("out").appendingPathComponent(input.lastPathComponent)
    }

    @Test(arguments: ["spliced", "coefficients"])
    func theRecordIsTrustedAndVerifySaysTheParentsPixels(path: String) throws {
        let folder = try temporaryFolder()
        let chain = try TestChain(in: folder.appendingPathComponent("keys"))
        let input = folder.appendingPathComponent("in/photo.jpg")
        try plasmaJPEG(input)
        let output = try Self.signed(input, folder, chain, path: path)
        let view = try Self.referee(output, chain)
        #expect(view.state == "Trusted")
        #expect(view.failures == [])
        let record = try #require(view.record, "the referee shows org.camstamp.blocks.1")
        let data = try #require(JSONSerialization.jsonObject(with: Data(record.utf8)) as? [String: Any])
        // Tier 1 hashes the blocks as its pass goes; a splice would need a second read, so none.
        let hashed = path == "coefficients"
        #expect(data["alg"] as? String == (hashed ? "sha256" : nil), "\(record)")
        #expect((data["hash"] as? String)?.count == (hashed ? 64 : nil), "\(record)")
        // 640×480 in 4:2:0: 80×60 luma blocks and 40×30 of each chroma.
        #expect(data["total_blocks"] as? Int == 80 * 60 + 2 * 40 * 30, "\(record)")
        let changed = try #require(data["changed_blocks"] as? Int)
        #expect(changed > 0 && changed < 80 * 60 / 4, "\(record)")
        let verified = try camstamp(["verify", output.path, "--trust", chain.root.path])
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
        let words =
            hashed
            ? "outside the marks: the parent's pixels (\(changed) of 7,200 blocks changed"
            : "outside the marks: not checked (\(changed) of 7,200 blocks changed"
        #expect(verified.stdout.contains(words), "\(verified.stdout)")
        let json = try camstamp(["verify", output.path, "--trust", chain.root.path, "--json"])
        let object = try #require(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let outside = try #require(object["outside_marks"] as? [String: Any], "\(json.stdout)")
        #expect(outside["parents_pixels"] as? Bool == (hashed ? true : nil))
        #expect(outside["checked"] as? Bool == hashed)
        #expect(outside["changed_blocks"] as? Int == changed)
    }

    @Test func parentComparesBlockByBlock() throws {
        let folder = try temporaryFolder()
        let chain = try TestChain(in: folder.appendingPathComponent("keys"))
        let input = folder.appendingPathComponent("in/photo.jpg")
        try plasmaJPEG(input)
        let output = try Self.signed(input, folder, chain)
        let good = try camstamp(["verify", output.path, "--trust", chain.root.path, "--parent", input.path])
        #expect(good.status == 0, "\(good.stdout)\(good.stderr)")
        #expect(good.stdout.contains("block for block those of \(input.path)"), "\(good.stdout)")
        // Another photo of the same size and tables: every block compares, most differ.
        let other = folder.appendingPathComponent("other.jpg")
        let ppm = folder.appendingPathComponent("other.ppm")
        try tool("convert", ["-seed", "4", "-size", "640x480", "plasma:fractal", ppm.path])
        try tool("cjpeg", ["-quality", "90", "-outfile", other.path, ppm.path])
        let bad = try camstamp(["verify", output.path, "--trust", chain.root.path, "--parent", other.path])
        #expect(bad.status == 1, "\(bad.stdout)\(bad.stderr)")
        #expect(bad.stdout.contains("outside the marks: not the parent's pixels ("), "\(bad.stdout)")
        #expect(bad.stdout.contains("it is not the parent"), "\(bad.stdout)")
        // One of another layout cannot be compared block for block: said so, exit 1.
        let small = folder.appendingPathComponent("small.jpg")
        try plasmaJPEG(small, width: 320, height: 240)
        let smaller = try camstamp(["verify", output.path, "--parent", small.path])
        #expect(smaller.status == 1)
        #expect(smaller.stdout.contains("is not the parent: their blocks are laid out"), "\(smaller.stdout)")
    }

    @Test func aRecordCopiedOntoOtherPixelsIsNotTheParents() throws {
        let folder = try temporaryFolder()
        let chain = try TestChain(in: folder.appendingPathComponent("keys"))
        let input = folder.appendingPathComponent("in/photo.jpg")
        try plasmaJPEG(input)
        // Tier 1's record, which has a hash.
        let output = try Self.signed(input, folder, chain, path: "coefficients")
        let record = folder.appendingPathComponent("record.json")
        try #require(try Self.referee(output, chain).record).write(to: record, atomically: true, encoding: .utf8)
        // The source decoded and encoded again at the same quality: the same tables and layout,
        // blocks that differ by a step here and there.
        let reencoded = folder.appendingPathComponent("reencoded.jpg")
        let pixels = try tool("djpeg", [input.path])
        _ = try tool("cjpeg", ["-quality", "90", "-outfile", reencoded.path], stdin: pixels)
        let forged = folder.appendingPathComponent("forged.jpg")
        try tool(
            refereePython,
            [
                "-c", Self.forgeScript, reencoded.path, forged.path, record.path, chain.chain.path,
                chain.pkcs8Key.path,
            ])
        #expect(try Self.referee(forged, chain).state == "Trusted", "the forgery's signature itself is good")
        let verified = try camstamp(["verify", forged.path, "--trust", chain.root.path])
        #expect(verified.status == 1, "\(verified.stdout)\(verified.stderr)")
        #expect(
            verified.stdout.contains(
                "outside the marks: not the parent's pixels (the blocks outside the recorded marks do not match"),
            "\(verified.stdout)")
        let json = try camstamp(["verify", forged.path, "--trust", chain.root.path, "--json"])
        #expect(json.stdout.contains("\"parents_pixels\":false"), "\(json.stdout)")
    }

    /// A forged record or file that claims billions of blocks is refused, not allocated: verify
    /// answers in one line (exit 1) instead of being killed for memory.
    @Test func aRecordOrFileClaimingBillionsOfBlocksIsRefused() throws {
        let folder = try temporaryFolder()
        let chain = try TestChain(in: folder.appendingPathComponent("keys"))
        let input = folder.appendingPathComponent("in/photo.jpg")
        try plasmaJPEG(input)
        let huge =
            #"{"alg": "sha256", "hash": "\#(String(repeating: "0", count: 64))", "changed_blocks": 0, "components": "#
            + #"[{"blocks_wide": 65535, "blocks_high": 65535, "h": 1, "v": 1, "changed": []}]}"#
        let record = try put(Data(huge.utf8), "huge.json", in: folder)
        let forged = folder.appendingPathComponent("forged.jpg")
        try tool(
            refereePython,
            ["-c", Self.forgeScript, input.path, forged.path, record.path, chain.chain.path, chain.pkcs8Key.path])
        let verified = try camstamp(["verify", forged.path, "--trust", chain.root.path])
        #expect(verified.status == 1, "\(verified.stdout)\(verified.stderr)")
        #expect(
            verified.stdout.contains("its block record (org.camstamp.blocks.1) does not read"), "\(verified.stdout)")
        // A parent whose header claims 60000×60000 pixels, with a few bytes of data.
        var header = try Data(contentsOf: input)
        let frame = try #require(header.firstRange(of: Data([0xFF, 0xC0])), "a baseline frame header")
        header.replaceSubrange(frame.lowerBound + 5..<frame.lowerBound + 9, with: [0xEA, 0x60, 0xEA, 0x60])
        let claim = try put(header, "claim.jpg", in: folder)
        let output = try Self.signed(input, folder, chain, path: "coefficients")
        let compared = try camstamp(["verify", output.path, "--trust", chain.root.path, "--parent", claim.path])
        #expect(compared.status == 1, "\(compared.stdout)\(compared.stderr)")
        #expect(compared.stdout.contains("over camstamp's limit of 12000000"), "\(compared.stdout)")
    }

    @Test func aPNGSaysNothingOfBlocksUnlessAskedForAParent() throws {
        let folder = try temporaryFolder()
        let chain = try TestChain(in: folder.appendingPathComponent("keys"))
        let input = folder.appendingPathComponent("in/photo.png")
        try FileManager.default.createDirectory(
            at: input.deletingLastPathComponent(), withIntermediateDirectories: true)
        try tool("convert", ["-seed", "3", "-size", "320x240", "plasma:fractal", input.path])
        let result = try camstamp([
            "batch", input.path, "-o", folder.appendingPathComponent("out").path, "--text", "x",
            "--sign", chain.chain.path, "--sign-key", chain.key.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let output = folder.appendingPathComponent("out/photo.png")
        let verified = try camstamp(["verify", output.path])
        #expect(verified.status == 0)
        #expect(!verified.stdout.contains("outside the marks"), "\(verified.stdout)")
        // Asked for, the comparison says it has nothing to compare with.
        let asked = try camstamp(["verify", output.path, "--parent", input.path])
        #expect(asked.status == 1, "\(asked.stdout)\(asked.stderr)")
        #expect(asked.stdout.contains("no block record (org.camstamp.blocks.1) to compare with"), "\(asked.stdout)")
    }
}
