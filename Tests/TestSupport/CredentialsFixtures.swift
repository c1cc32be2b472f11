// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// Content Credentials fixtures: a certificate chain minted with openssl (root → intermediate →
// signer), a camera's signed photo made with c2pa-python's Builder, and c2pa-python's Reader as
// the referee (never camstamp's own reader).
import Foundation
import Testing
import TestSupport

/// A root, an intermediate and an end-entity signer with C2PA's profile, in `folder`.
package struct TestChain {
    package var root: URL
    /// The signer's certificate then the intermediate's: what --sign takes.
    package var chain: URL
    package var key: URL
    /// The same key in PKCS#8, for c2pa-python.
    package var pkcs8Key: URL
    /// The intermediate CA's certificate (with the root's) and key: a CA, which may not sign.
    package var intermediateChain: URL
    package var intermediateKey: URL

    package static let profile = """
        [root]
        basicConstraints = critical, CA:TRUE
        keyUsage = critical, keyCertSign, cRLSign
        subjectKeyIdentifier = hash
        authorityKeyIdentifier = keyid:always
        [intermediate]
        basicConstraints = critical, CA:TRUE, pathlen:0
        keyUsage = critical, keyCertSign, cRLSign, digitalSignature
        subjectKeyIdentifier = hash
        authorityKeyIdentifier = keyid:always
        extendedKeyUsage = emailProtection
        [signer]
        basicConstraints = critical, CA:FALSE
        keyUsage = critical, digitalSignature
        extendedKeyUsage = emailProtection
        subjectKeyIdentifier = hash
        authorityKeyIdentifier = keyid, issuer
        """

    package init(in folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = { (name: String) in folder.appendingPathComponent(name).path }
        try Self.profile.write(toFile: path("profile.cnf"), atomically: true, encoding: .utf8)
        // The signer's key in SEC 1 (`ecparam -genkey`), which camstamp turns into the PKCS#8 the SDK
        // reads; the others in PKCS#8, as c2pa-python's signer (the camera) needs its key.
        for name in ["root", "intermediate", "signer"] {
            try tool(
                "openssl",
                ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", path("\(name)-key.pem")])
        }
        try tool("openssl", ["ec", "-in", path("signer-key.pem"), "-out", path("signer-sec1.pem")])
        try tool(
            "openssl",
            [
                "req", "-new", "-x509", "-key", path("root-key.pem"), "-subj", "/CN=Test Root/O=camstamp tests",
                "-days", "30", "-config", path("profile.cnf"), "-extensions", "root", "-out", path("root.pem"),
            ])
        try Self.issue("intermediate", by: "root", subject: "/CN=Test Intermediate/O=camstamp tests", in: folder)
        try Self.issue("signer", by: "intermediate", subject: "/CN=Test Signer/O=camstamp tests", in: folder)
        let read = { (name: String) in try String(contentsOfFile: path(name), encoding: .utf8) }
        try (read("signer.pem") + read("intermediate.pem")).write(
            toFile: path("chain.pem"), atomically: true, encoding: .utf8)
        try (read("intermediate.pem") + read("root.pem")).write(
            toFile: path("intermediate-chain.pem"), atomically: true, encoding: .utf8)
        root = folder.appendingPathComponent("root.pem")
        chain = folder.appendingPathComponent("chain.pem")
        key = folder.appendingPathComponent("signer-sec1.pem")
        pkcs8Key = folder.appendingPathComponent("signer-key.pem")
        intermediateChain = folder.appendingPathComponent("intermediate-chain.pem")
        intermediateKey = folder.appendingPathComponent("intermediate-key.pem")
    }

    private static func issue(_ name: String, by issuer: String, subject: String, in folder: URL) throws {
        let path = { (name: String) in folder.appendingPathComponent(name).path }
        try tool(
            "openssl", ["req", "-new", "-key", path("\(name)-key.pem"), "-subj", subject, "-out", path("\(name).csr")])
        try tool(
            "openssl",
            [
                "x509", "-req", "-in", path("\(name).csr"), "-CA", path("\(issuer).pem"), "-CAkey",
                path("\(issuer)-key.pem"), "-set_serial", "\(Int.random(in: 1000...999_999))", "-days", "30",
                "-extfile", path("profile.cnf"), "-extensions", name, "-out", path("\(name).pem"),
            ])
    }
}

/// What c2pa-python's Reader says of a file, trusting `anchors` only.
package struct RefereeReport: Decodable {
    package var state: String
    package var successes: [String]
    package var failures: [String]
    /// The active manifest's actions (`c2pa.addedText: TEXT` for text), its claim generator's name.
    package var actions: [String]
    package var generator: String
    /// The active manifest's ingredients' relationships, and the parent's manifest's claim
    /// generator when the parent carried one.
    package var relationships: [String]
    package var parentGenerator: String?
    /// The parent ingredient's instance id: its XMP's (`xmpMM:InstanceID`) when it has one.
    package var parentInstanceID: String?
    /// The active manifest's instance id (`xmp:iid:…`).
    package var instanceID: String?
}

package enum Referee {
    /// Python that unpacks `arguments` (`path, anchors = sys.argv[1:3]`: `path` and `anchors`
    /// among them), reads `path` (a `mime` file, a Python expression) with c2pa-python's Reader,
    /// `anchors` the only trust anchors, into `store`; a script goes on from there.
    package static func reading(_ arguments: String, mime: String) -> String {
        """
        import json, sys, c2pa
        \(arguments)
        settings = {"verify": {"verify_trust": True, "remote_manifest_fetch": False},
                    "trust": {"trust_anchors": open(anchors).read()}}
        context = c2pa.Context(c2pa.Settings.from_json(json.dumps(settings)))
        with open(path, "rb") as f:
            store = json.loads(c2pa.Reader(\(mime), f, context=context).json())

        """
    }

    /// c2pa-python's Reader over `file` with `anchors` as the only trust anchors.
    package static let script =
        reading("path, mime, anchors = sys.argv[1:4]", mime: "mime") + """
            results = store.get("validation_results", {}).get("activeManifest", {})
            manifests = store["manifests"]
            active = manifests[store["active_manifest"]]
            actions = []
            for assertion in active["assertions"]:
                if assertion["label"].startswith("c2pa.actions"):
                    for a in assertion["data"]["actions"]:
                        actions.append(a["action"] + (": " + a["description"] if "description" in a else ""))
            parent = next((i for i in active.get("ingredients", []) if i["relationship"] == "parentOf"), None)
            parent_manifest = manifests.get(parent.get("active_manifest")) if parent else None
            print(json.dumps({
                "state": store.get("validation_state"),
                "successes": [c["code"] for c in results.get("success", [])],
                "failures": [c["code"] for c in results.get("failure", [])],
                "actions": actions,
                "generator": active["claim_generator_info"][0]["name"],
                "relationships": [i["relationship"] for i in active.get("ingredients", [])],
                "parentGenerator": parent_manifest["claim_generator_info"][0]["name"] if parent_manifest else None,
                "parentInstanceID": parent.get("instance_id") if parent else None,
                "instanceID": active.get("instance_id")}))
            """

    package static func read(_ file: URL, mime: String, anchors: URL) throws -> RefereeReport {
        let output = try tool(refereePython, ["-c", script, file.path, mime, anchors.path])
        return try JSONDecoder().decode(RefereeReport.self, from: output)
    }

    /// A camera's photo: `source` signed by c2pa-python's Builder with a `c2pa.created` manifest
    /// whose claim generator is "Pixel Camera", as a Pixel or a Leica writes one.
    package static func cameraPhoto(_ source: URL, to output: URL, chain: TestChain) throws {
        let script = """
            import json, sys, c2pa
            src, dst, chain, key = sys.argv[1:5]
            manifest = {"claim_generator_info": [{"name": "Pixel Camera", "version": "10"}], "title": "PXL.jpg",
                "assertions": [{"label": "c2pa.actions.v2", "data": {"actions": [{"action": "c2pa.created",
                "digitalSourceType": "http://cv.iptc.org/newscodes/digitalsourcetype/digitalCapture"}]}}]}
            info = c2pa.C2paSignerInfo(b"es256", open(chain, "rb").read(), open(key, "rb").read(), None)
            with c2pa.Builder(manifest) as builder, open(src, "rb") as s, open(dst, "w+b") as d:
                builder.sign(c2pa.Signer.from_info(info), "image/jpeg", s, d)
            """
        try FileManager.default.createDirectory(
            at: output.deletingLastPathComponent(), withIntermediateDirectories: true)
        try tool(refereePython, ["-c", script, source.path, output.path, chain.chain.path, chain.pkcs8Key.path])
    }
}

/// A textured baseline JPEG (ImageMagick's plasma, fixed seed), which batch splices.
package func plasmaJPEG(_ file: URL, width: Int = 640, height: Int = 480) throws {
    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    let ppm = file.deletingPathExtension().appendingPathExtension("ppm")
    try tool("convert", ["-seed", "3", "-size", "\(width)x\(height)", "plasma:fractal", ppm.path])
    try tool("cjpeg", ["-quality", "90", "-outfile", file.path, ppm.path])
    try FileManager.default.removeItem(at: ppm)
}

/// c2pa-python is importable in the tests' Python (make python-deps installs it from the wheel
/// make fetched).
package let hasC2PAReferee: Bool = {
    refereeInstalled && (try? runProcess(refereePython, ["-c", "import c2pa"], timeout: 60).status) == 0
}()
