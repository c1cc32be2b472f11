// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// Manifests camstamp did not write, made with c2pa-python's Builder: a v1 claim and a v2 claim
// (two generations of writers), a remote manifest, and two a reader cannot take whole (a parent
// whose manifest names a manifest the store lacks; a signature with an algorithm nobody knows).
import Foundation
import Testing

package enum OtherWriter: String, CaseIterable, Sendable {
    /// A v1 claim (`claim_version: 1`, a `claim_generator` string), as writers before 2024 made.
    case claimV1 = "v1"
    /// A v2 claim, today's.
    case claimV2 = "v2"
    /// No manifest in the file: its XMP's `dcterms:provenance` names one at a URL on 127.0.0.1
    /// that nothing serves.
    case remote
    /// A v2 manifest whose parent ingredient's manifest is not in the store (its label changed):
    /// what a reader calls `ingredient.manifest.missing`, as c2pa-rs' adobe-20220124 fixture.
    case missingIngredient = "missing"
    /// A v2 manifest whose COSE signature names algorithm -1: no reader takes it.
    case unknownAlgorithm = "alg"
    /// A v2 claim with an `stds.exif` assertion stating where the photo was taken (the C2PA
    /// specification's example: `39,21.102N`, `74,26.5737W`, Atlantic City), as a camera writes it.
    case located

    /// The URL `remote` names.
    package static let remoteURL = "http://127.0.0.1:9/manifests/photo.c2pa"

    static let script = """
        import io, json, sys, c2pa
        src, dst, chain, key, kind, url = sys.argv[1:7]
        info = c2pa.C2paSignerInfo(b"es256", open(chain, "rb").read(), open(key, "rb").read(), None)
        def manifest(action):
            a = {"action": action}
            if action == "c2pa.created":
                a["digitalSourceType"] = "http://cv.iptc.org/newscodes/digitalsourcetype/digitalCapture"
            else:
                a["parameters"] = {"ingredientIds": ["parent"]}
            return {"claim_generator_info": [{"name": "Other Writer", "version": "1"}], "title": "photo.jpg",
                "assertions": [{"label": "c2pa.actions.v2", "data": {"actions": [a]}}]}
        def sign(m, source, parent=None, remote=False):
            out = io.BytesIO()
            with c2pa.Builder(m) as b:
                if parent is not None:
                    b.add_ingredient({"title": "first.jpg", "relationship": "parentOf", "label": "parent"},
                        "image/jpeg", io.BytesIO(parent))
                if remote:
                    b.set_no_embed()
                    b.set_remote_url(url)
                b.sign(c2pa.Signer.from_info(info), "image/jpeg", io.BytesIO(source), out)
            return out.getvalue()
        photo = open(src, "rb").read()
        created = manifest("c2pa.created")
        if kind == "v1":
            created["claim_version"] = 1
            created["claim_generator"] = "Other_Writer/1.0"
            out = sign(created, photo)
        elif kind == "v2":
            out = sign(created, photo)
        elif kind == "located":
            created["assertions"].append({"label": "stds.exif", "data": {
                "@context": {"exif": "http://ns.adobe.com/exif/1.0/"},
                "exif:GPSLatitude": "39,21.102N", "exif:GPSLongitude": "74,26.5737W"}})
            out = sign(created, photo)
        elif kind == "remote":
            out = sign(created, photo, remote=True)
        elif kind == "missing":
            first = sign(created, photo)
            out = sign(manifest("c2pa.opened"), first, parent=first)
            store = json.loads(c2pa.Reader("image/jpeg", io.BytesIO(out)).json())
            label = next(l for l in store["manifests"] if l != store["active_manifest"]).encode()
            # Its first occurrence is its own description box: the last character changed there.
            at = out.index(label) + len(label) - 1
            out = out[:at] + (b"0" if out[at:at + 1] != b"0" else b"1") + out[at + 1:]
        else:
            out = sign(created, photo)
            # COSE_Sign1 (tag 18) after the signature box's "cbor" type; its protected header, a
            # byte string with a 2-byte length, a map whose first entry is alg (1): -7, ES256.
            at = out.index(b"cbor\\xd2\\x84\\x59", out.rindex(b"c2pa.signature")) + 9
            assert out[at:at + 3] == b"\\xa2\\x01\\x26", out[at:at + 3].hex()
            out = out[:at + 2] + b"\\x20" + out[at + 3:]
        open(dst, "wb").write(out)
        """

    /// `source` (a JPEG) signed by this writer with `chain`'s signer, into `output`.
    package func sign(_ source: URL, to output: URL, chain: TestChain) throws {
        try FileManager.default.createDirectory(
            at: output.deletingLastPathComponent(), withIntermediateDirectories: true)
        try tool(
            refereePython,
            [
                "-c", Self.script, source.path, output.path, chain.chain.path, chain.pkcs8Key.path, rawValue,
                Self.remoteURL,
            ])
    }
}
