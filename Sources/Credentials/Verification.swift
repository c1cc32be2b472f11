// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CC2PA
import Foundation

/// What a file's Content Credentials say, as the SDK validated them.
package struct Verification: Sendable, Equatable {
    package enum State: String, Sendable {
        /// Signed, nothing changed since, and the signer chains to a `--trust` anchor.
        case trusted
        /// Signed and nothing changed since; no `--trust` anchors were given to judge the signer by.
        case valid
        /// Signed and nothing changed since, but the signer does not chain to a `--trust` anchor.
        case untrusted
        /// The asset or the manifest changed after signing (a hash does not match).
        case tampered
        /// A manifest that does not validate for another reason (a bad signature or certificate),
        /// or one the SDK cannot read at all (`reason` says why: an unknown algorithm, a
        /// prerelease manifest, boxes nested too deep).
        case invalid
        /// The manifest is not in the file but at `remoteURL`, which verify does not fetch.
        case remote
        /// No manifest at all.
        case unsigned
    }

    /// One manifest of the chain, newest first.
    package struct Step: Sendable, Equatable {
        package var title: String?
        package var generator: String?
        package var signer: String?
        package var signed: String?
        package var actions: [String]
    }

    /// A soft binding the active manifest records: the algorithm and the value of each block.
    package struct SoftBinding: Sendable, Equatable {
        package var algorithm: String
        package var value: [UInt8]
    }

    package var state: State
    /// Why the SDK could not read the manifest at all (an `invalid` state with no chain).
    package var reason: String?
    /// Where a `remote` manifest is.
    package var remoteURL: String?
    /// The active manifest's instance id and soft bindings (an invisible mark's payload).
    package var instanceID: String?
    package var softBindings: [SoftBinding] = []
    /// The active manifest's assertions of camstamp's own (labels `org.camstamp.…`): label to the
    /// data's JSON text.
    package var ownAssertions: [String: String] = [:]
    /// Where the asset was made, as the active manifest states it (or, filled in by the caller,
    /// the file's EXIF).
    package var position: Position?
    /// The failure codes (`assertion.dataHash.mismatch`, …), and the success codes.
    package var failures: [String]
    package var successes: [String]
    /// The active manifest first, then its parent's, back to the first one.
    package var chain: [Step]
    /// The reader's JSON, for `--json`.
    package var json: String?

    /// Reads and validates `asset` (of MIME type `format`); `anchors` is a PEM bundle of trust anchors.
    package static func verify(
        _ asset: Data, format: String, anchors: String?
    ) throws(CredentialsError)
        -> Verification
    {
        try verify(MemoryStream(asset), format: format, anchors: anchors)
    }

    /// The file `asset` read and validated where it lies, never whole in memory (a clip).
    package static func verify(
        file asset: URL, format: String, anchors: String?
    ) throws(CredentialsError)
        -> Verification
    {
        try verify(try FileStream(asset, writing: false), format: format, anchors: anchors)
    }

    private static func verify(
        _ asset: StreamBacking, format: String, anchors: String?
    ) throws(CredentialsError)
        -> Verification
    {
        let library = try C2PALibrary.shared()
        var settings: JSONValue = ["verify": ["remote_manifest_fetch": false, "ocsp_fetch": false]]
        if let anchors {
            settings = [
                "verify": ["remote_manifest_fetch": false, "ocsp_fetch": false, "verify_trust": true],
                "trust": ["trust_anchors": .string(anchors)],
            ]
        }
        let context = try C2PASigner.context(library, settings: settings.text)
        defer { _ = library.free(UnsafeRawPointer(context)) }
        guard let fresh = library.readerFromContext(context) else { throw library.failure("c2pa: reader") }
        let reader = try asset.withStream(library) { stream in
            library.readerWithStream(fresh, format, stream)
        }
        guard let reader else { return try unread(library.take(library.error()) ?? "") }
        defer { _ = library.free(UnsafeRawPointer(reader)) }
        guard let text = library.take(library.readerJSON(reader)) else { throw library.failure("c2pa: reader") }
        return Verification(json: text, anchors: anchors != nil)
    }

    /// What a file the SDK made no reader for is, from the SDK's error: unsigned (no manifest),
    /// remote (a manifest URL in its XMP, not fetched), or invalid with the SDK's reason. A file
    /// of a type the SDK does not read is an error: nothing can be said of it.
    static func unread(_ error: String) throws(CredentialsError) -> Verification {
        if error.contains("JumbfNotFound") || error.contains("ManifestNotFound") || error.contains("NotFound") {
            return Verification(state: .unsigned, failures: [], successes: [], chain: [], json: nil)
        }
        if error.hasPrefix("NotSupported") {
            throw CredentialsError("not a photo or clip the C2PA SDK reads (\(error))")
        }
        if error.hasPrefix("Remote"), let from = error.range(of: "from url ") {
            var remote = Verification(state: .remote, failures: [], successes: [], chain: [], json: nil)
            remote.remoteURL = String(error[from.upperBound...]).trimmingCharacters(in: .whitespaces)
            return remote
        }
        var invalid = Verification(state: .invalid, failures: [], successes: [], chain: [], json: nil)
        invalid.reason = C2PALibrary.plain(error, fallback: "the manifest cannot be read")
        return invalid
    }

    init(state: State, failures: [String], successes: [String], chain: [Step], json: String?) {
        self.state = state
        self.failures = failures
        self.successes = successes
        self.chain = chain
        self.json = json
    }

    /// The reader's JSON, judged.
    init(json text: String, anchors: Bool) {
        let root = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
        let results = (root["validation_results"] as? [String: Any])?["activeManifest"] as? [String: Any] ?? [:]
        func codes(_ key: String) -> [String] {
            (results[key] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
        }
        failures = codes("failure")
        successes = codes("success")
        json = text
        chain = Self.chain(root)
        let manifests = root["manifests"] as? [String: Any] ?? [:]
        if let label = root["active_manifest"] as? String, let active = manifests[label] as? [String: Any] {
            instanceID = active["instance_id"] as? String
            softBindings = Self.softBindings(active)
            ownAssertions = Self.ownAssertions(active)
            position = Self.position(active)
        }
        let stateName = root["validation_state"] as? String
        if failures.contains(where: { $0.hasSuffix(".mismatch") || $0.contains("hash") && $0.contains("mismatch") }) {
            state = .tampered
        } else if stateName == "Trusted" {
            state = .trusted
        } else if failures.allSatisfy(Self.isTrustOnly) && stateName != "Invalid" {
            state = anchors ? .untrusted : .valid
        } else {
            state = .invalid
        }
    }

    /// A failure that says only who is not trusted (the signer's certificate, a CAWG identity's),
    /// not that anything is wrong: judged against `--trust` anchors, or by none.
    package static func isTrustOnly(_ code: String) -> Bool { code.hasSuffix(".untrusted") }

    /// From the active manifest back along each one's parent ingredient.
    static func chain(_ root: [String: Any]) -> [Step] {
        let manifests = root["manifests"] as? [String: Any] ?? [:]
        var label = root["active_manifest"] as? String
        var steps: [Step] = []
        var seen: Set<String> = []
        while let current = label, !seen.contains(current), let manifest = manifests[current] as? [String: Any] {
            seen.insert(current)
            steps.append(step(manifest))
            let ingredients = manifest["ingredients"] as? [[String: Any]] ?? []
            label = ingredients.first { $0["relationship"] as? String == "parentOf" }?["active_manifest"] as? String
        }
        return steps
    }

    /// The manifest's `c2pa.soft-binding` blocks; the reader gives a value in base64 (or, from an
    /// older reader, as the array of byte values it was written as).
    static func softBindings(_ manifest: [String: Any]) -> [SoftBinding] {
        var found: [SoftBinding] = []
        for assertion in manifest["assertions"] as? [[String: Any]] ?? [] {
            guard (assertion["label"] as? String)?.hasPrefix("c2pa.soft-binding") == true,
                let data = assertion["data"] as? [String: Any], let algorithm = data["alg"] as? String
            else { continue }
            for block in data["blocks"] as? [[String: Any]] ?? [] {
                if let text = block["value"] as? String, let bytes = Data(base64Encoded: text) {
                    found.append(SoftBinding(algorithm: algorithm, value: [UInt8](bytes)))
                } else if let numbers = block["value"] as? [Int], numbers.allSatisfy({ (0...255).contains($0) }) {
                    found.append(SoftBinding(algorithm: algorithm, value: numbers.map { UInt8($0) }))
                }
            }
        }
        return found
    }

    static func ownAssertions(_ manifest: [String: Any]) -> [String: String] {
        var found: [String: String] = [:]
        for assertion in manifest["assertions"] as? [[String: Any]] ?? [] {
            guard let label = assertion["label"] as? String, label.hasPrefix("org.camstamp."),
                let data = assertion["data"], JSONSerialization.isValidJSONObject(data),
                let text = try? JSONSerialization.data(withJSONObject: data)
            else { continue }
            found[label] = String(decoding: text, as: UTF8.self)
        }
        return found
    }

    static func step(_ manifest: [String: Any]) -> Step {
        let signature = manifest["signature_info"] as? [String: Any] ?? [:]
        let generator = (manifest["claim_generator_info"] as? [[String: Any]])?.first.map { info in
            [info["name"] as? String, info["version"] as? String].compactMap { $0 }.joined(separator: " ")
        }
        var actions: [String] = []
        for assertion in manifest["assertions"] as? [[String: Any]] ?? [] {
            guard let label = assertion["label"] as? String, label.hasPrefix("c2pa.actions") else { continue }
            let list = (assertion["data"] as? [String: Any])?["actions"] as? [[String: Any]] ?? []
            actions += list.compactMap { action in
                guard let name = action["action"] as? String else { return nil }
                // What was drawn: a text, a QR code (`c2pa.edited`, "QR code: …").
                if let text = action["description"] as? String,
                    name == "c2pa.addedText" || (name == "c2pa.edited" && text.hasPrefix("QR code: "))
                {
                    return "\(name) \"\(text)\""
                }
                return name
            }
        }
        return Step(
            title: manifest["title"] as? String, generator: generator ?? manifest["claim_generator"] as? String,
            signer: (signature["common_name"] as? String) ?? (signature["issuer"] as? String),
            signed: signature["time"] as? String, actions: actions)
    }
}
