// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CC2PA
import Foundation

/// The user's certificate chain and key (`--sign`, `--sign-key`), read and checked once.
package struct SigningIdentity: Sendable, Equatable {
    /// PEM, end-entity certificate first.
    package var chain: String
    package var key: String
    /// The SDK's name of the signature algorithm, from the key: es256, es384, es512, ed25519, ps256.
    package var algorithm: String
    /// An RFC 3161 time-stamp authority (`--tsa`), or nil for none.
    package var timestampAuthority: String?
    /// The chain's file, for messages.
    package var certificateName: String

    /// Reads both files; a bad one is an error naming it and its option.
    package init(chain chainURL: URL, key keyURL: URL, timestampAuthority: String? = nil) throws(CredentialsError) {
        certificateName = chainURL.path
        chain = try Self.readPEM(chainURL, option: "--sign", expecting: "CERTIFICATE")
        key = try Self.readPEM(keyURL, option: "--sign-key", expecting: "PRIVATE KEY")
        guard let algorithm = Self.algorithm(ofKey: key) else {
            throw CredentialsError(
                "\(keyURL.path): not an ES256/ES384/ES512, Ed25519 or RSA key; make one with camstamp keys new DIR")
        }
        self.algorithm = algorithm
        self.timestampAuthority = timestampAuthority
        // The SDK reads PKCS#8 only; `openssl ecparam -genkey` writes SEC 1.
        if let pkcs8 = Self.pkcs8(fromSEC1: key) { key = pkcs8 }
    }

    /// A SEC 1 EC key (`BEGIN EC PRIVATE KEY`) as the PKCS#8 key it is inside:
    /// SEQUENCE { 0, SEQUENCE { id-ecPublicKey, curve }, OCTET STRING { the SEC 1 key } }.
    static func pkcs8(fromSEC1 pem: String) -> String? {
        guard pem.contains("BEGIN EC PRIVATE KEY"), let sec1 = der(pem) else { return nil }
        let curves: [[UInt8]] = [
            [0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07], [0x06, 0x05, 0x2B, 0x81, 0x04, 0x00, 0x22],
            [0x06, 0x05, 0x2B, 0x81, 0x04, 0x00, 0x23],
        ]
        guard let curve = curves.first(where: { sec1.range(of: Data($0)) != nil }) else { return nil }
        func element(_ tag: UInt8, _ body: [UInt8]) -> [UInt8] {
            let count = body.count
            let length: [UInt8] =
                count < 0x80
                ? [UInt8(count)]
                : count < 0x100 ? [0x81, UInt8(count)] : [0x82, UInt8(count >> 8), UInt8(count & 0xFF)]
            return [tag] + length + body
        }
        let ecPublicKey: [UInt8] = [0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01]
        let body = [0x02, 0x01, 0x00] + element(0x30, ecPublicKey + curve) + element(0x04, [UInt8](sec1))
        let base64 = Data(element(0x30, body)).base64EncodedString(options: [
            .lineLength64Characters, .endLineWithLineFeed,
        ])
        return "-----BEGIN PRIVATE KEY-----\n\(base64)\n-----END PRIVATE KEY-----\n"
    }

    /// The DER inside a PEM's first block.
    static func der(_ pem: String) -> Data? {
        var lines: [Substring] = []
        var inside = false
        for line in pem.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces)[...] }) {
            if line.hasPrefix("-----BEGIN") {
                inside = true
                continue
            }
            if line.hasPrefix("-----END") { break }
            if inside, !line.contains(":") { lines.append(line) }
        }
        return Data(base64Encoded: lines.joined())
    }

    private static func readPEM(_ url: URL, option: String, expecting label: String) throws(CredentialsError) -> String
    {
        let text: String
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw CredentialsError("\(option) \(url.path): no such file")
        }
        do { text = try String(contentsOf: url, encoding: .utf8) } catch {
            let reason = (error as NSError).localizedFailureReason ?? "cannot read it"
            throw CredentialsError("\(option) \(url.path): \(reason)")
        }
        guard text.contains("-----BEGIN "), text.contains(label + "-----") else {
            throw CredentialsError("\(option) \(url.path): no PEM \(label) in it; give a PEM file")
        }
        return text
    }

    /// The algorithm a PEM key signs with, from its header or the OIDs in its DER.
    static func algorithm(ofKey pem: String) -> String? {
        if pem.contains("BEGIN RSA PRIVATE KEY") { return "ps256" }
        guard let der = der(pem) else { return nil }
        func has(_ bytes: [UInt8]) -> Bool { der.range(of: Data(bytes)) != nil }
        if has([0x06, 0x03, 0x2B, 0x65, 0x70]) { return "ed25519" }
        if has([0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]) { return "es256" }
        if has([0x06, 0x05, 0x2B, 0x81, 0x04, 0x00, 0x22]) { return "es384" }
        if has([0x06, 0x05, 0x2B, 0x81, 0x04, 0x00, 0x23]) { return "es512" }
        if has([0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01]) { return "ps256" }
        return nil
    }
}

/// An SDK context with camstamp's settings, and the signer made from an identity. One per worker
/// thread: the SDK's last error is per thread, and nothing is shared between photos.
package final class C2PASigner: @unchecked Sendable {
    let library: C2PALibrary
    let context: OpaquePointer
    let signer: OpaquePointer
    package let identity: SigningIdentity

    /// No thumbnail (c2pa-rs makes one by default, costing more than the splice of a 12 MP photo),
    /// no automatic actions (camstamp says what it did), no check of what was just signed, nothing
    /// fetched from the network.
    static let settings = """
        {"builder": {"thumbnail": {"enabled": false},
          "actions": {"auto_created_action": {"enabled": false}, "auto_opened_action": {"enabled": false},
                      "auto_placed_action": {"enabled": false}}},
         "verify": {"verify_after_sign": false, "remote_manifest_fetch": false, "ocsp_fetch": false}}
        """

    package init(_ identity: SigningIdentity) throws(CredentialsError) {
        let library = try C2PALibrary.shared()
        // Two signers of the one identity: the context's own (a context takes its signer over),
        // which signs a JPEG whose manifest camstamp embeds itself, and this one for the SDK's
        // embedding of every other format.
        guard let made = Self.signer(library, identity) else {
            throw library.failure("--sign: the certificate and key do not make a signer")
        }
        guard let owned = Self.signer(library, identity) else {
            _ = library.free(UnsafeRawPointer(made))
            throw library.failure("--sign: the certificate and key do not make a signer")
        }
        let context: OpaquePointer
        do { context = try Self.context(library, settings: Self.settings, signer: owned) } catch {
            _ = library.free(UnsafeRawPointer(made))
            throw error
        }
        self.library = library
        self.context = context
        self.identity = identity
        signer = made
    }

    private static func signer(_ library: C2PALibrary, _ identity: SigningIdentity) -> OpaquePointer? {
        identity.algorithm.withCString { alg in
            identity.chain.withCString { chain in
                identity.key.withCString { key in
                    withOptionalCString(identity.timestampAuthority) { tsa in
                        var info = C2paSignerInfo(alg: alg, sign_cert: chain, private_key: key, ta_url: tsa)
                        return library.signerFromInfo(&info)
                    }
                }
            }
        }
    }

    deinit {
        _ = library.free(UnsafeRawPointer(signer))
        _ = library.free(UnsafeRawPointer(context))
    }

    /// An 8×8 grey JPEG, the probe's asset.
    static let probeJPEG = Data(
        base64Encoded:
            "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19i"
            + "Z2hnPk1xeXBkeFxlZ2P/wAALCAAIAAgBAREA/8QAFAABAAAAAAAAAAAAAAAAAAAAAf/EABQQAQAAAAAAAAAAAAAAAAAAAAD/2gAI"
            + "AQEAAD8AH//Z")!

    /// Signs a tiny JPEG once and has the SDK check what it signed, so a certificate it refuses as a
    /// signer (a CA, one without the C2PA key usages) or a key that is not the certificate's is said
    /// before any work; the photos are then signed without that check.
    package func probe() throws(CredentialsError) {
        var draft = ManifestDraft(title: "probe", format: "image/jpeg", generator: ("camstamp", "probe"))
        draft.created()
        do {
            let settings = Self.settings.replacingOccurrences(
                of: "\"verify_after_sign\": false", with: "\"verify_after_sign\": true")
            let checking = try Self.context(library, settings: settings)
            defer { _ = library.free(UnsafeRawPointer(checking)) }
            _ = try draft.sign(Self.probeJPEG, with: self, context: checking)
        } catch {
            throw CredentialsError(
                "--sign \(identity.certificateName): not usable as a C2PA signer "
                    + "(signingCredential.invalid: \(error.message.replacingOccurrences(of: "c2pa: cannot sign probe: ", with: "")))"
                    + "; make a signing certificate with camstamp keys new DIR")
        }
    }

    static func withOptionalCString<T>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> T) -> T {
        guard let text else { return body(nil) }
        return text.withCString(body)
    }

    /// A context whose settings are `json` (the SDK's settings, as JSON) and, given one, that
    /// signs with `signer` (taken over: freed with the context, or here when none is made).
    static func context(
        _ library: C2PALibrary, settings json: String, signer: OpaquePointer? = nil
    ) throws(CredentialsError) -> OpaquePointer {
        var signer = signer
        defer { if let signer { _ = library.free(UnsafeRawPointer(signer)) } }
        guard let settings = library.settingsNew() else { throw library.failure("c2pa: settings") }
        defer { _ = library.free(UnsafeRawPointer(settings)) }
        guard library.settingsUpdate(settings, json, "json") == 0 else { throw library.failure("c2pa: settings") }
        guard let builder = library.contextBuilderNew() else { throw library.failure("c2pa: context") }
        guard library.contextBuilderSetSettings(builder, settings) == 0 else {
            _ = library.free(UnsafeRawPointer(builder))
            throw library.failure("c2pa: context")
        }
        if let given = signer {
            guard library.contextBuilderSetSigner(builder, given) == 0 else {
                _ = library.free(UnsafeRawPointer(builder))
                throw library.failure("c2pa: context")
            }
            signer = nil
        }
        guard let context = library.contextBuilderBuild(builder) else { throw library.failure("c2pa: context") }
        return context
    }
}
