// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing

@testable import Credentials

/// What Credentials decides without the SDK: a key's algorithm, a SEC 1 key as PKCS#8, a reader
/// report judged, a manifest definition. (The SDK's own work is refereed in EndToEndTests.)
@Suite struct CredentialsUnitTests {
    // Test-only keys, made with openssl genpkey / openssl ec for this test.
    static let p256PKCS8 = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgmoc6I64aGwcBAFjQ
        fZaukSJ25FuCzkBgPlbGw1+r5AChRANCAATOCRSXN1Cp6vnpSBSdMOSaHvaE4NUT
        vcP0N7daaiswhEiu3OW0rw7Tie41L4wudhN2soyiRmcKPn44c2hAUyxf
        -----END PRIVATE KEY-----
        """
    static let p256SEC1 = """
        -----BEGIN EC PRIVATE KEY-----
        MHcCAQEEIJqHOiOuGhsHAQBY0H2WrpEiduRbgs5AYD5WxsNfq+QAoAoGCCqGSM49
        AwEHoUQDQgAEzgkUlzdQqer56UgUnTDkmh72hODVE73D9De3WmorMIRIrtzltK8O
        04nuNS+MLnYTdrKMokZnCj5+OHNoQFMsXw==
        -----END EC PRIVATE KEY-----
        """
    static let ed25519 = """
        -----BEGIN PRIVATE KEY-----
        MC4CAQAwBQYDK2VwBCIEIPbVa3n391crFT5WRbrlwdroOsXsyw6EJeA0c6MdnZyO
        -----END PRIVATE KEY-----
        """

    @Test func theAlgorithmComesFromTheKey() {
        #expect(SigningIdentity.algorithm(ofKey: Self.p256PKCS8) == "es256")
        #expect(SigningIdentity.algorithm(ofKey: Self.p256SEC1) == "es256")
        #expect(SigningIdentity.algorithm(ofKey: Self.ed25519) == "ed25519")
        #expect(SigningIdentity.algorithm(ofKey: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----") == nil)
    }

    @Test func aSEC1KeyBecomesThePKCS8KeyItIsInside() throws {
        let pkcs8 = try #require(SigningIdentity.pkcs8(fromSEC1: Self.p256SEC1))
        #expect(pkcs8.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        let outer = try #require(SigningIdentity.der(pkcs8))
        let inner = try #require(SigningIdentity.der(Self.p256SEC1))
        // SEQUENCE { INTEGER 0, SEQUENCE { id-ecPublicKey, prime256v1 }, OCTET STRING { SEC 1 } }
        #expect(Array(outer.prefix(2)) == [0x30, 0x81] && outer[2] == outer.count - 3)
        #expect(
            outer.range(of: Data([0x02, 0x01, 0x00, 0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02])) != nil
        )
        #expect(outer.suffix(inner.count) == inner)
        #expect(SigningIdentity.algorithm(ofKey: pkcs8) == "es256")
        #expect(SigningIdentity.pkcs8(fromSEC1: Self.p256PKCS8) == nil, "a PKCS#8 key is left as it is")
    }

    /// A reader report as c2pa-rs writes it: `failures` codes, the state, a parent's manifest.
    static func report(state: String, failures: [String], parent: Bool = false) -> String {
        let failure = failures.map { #"{"code": "\#($0)"}"# }.joined(separator: ",")
        let ingredient = parent ? #"[{"relationship": "parentOf", "active_manifest": "urn:camera"}]"# : "[]"
        return #"""
            {"active_manifest": "urn:ours", "validation_state": "\#(state)",
             "validation_results": {"activeManifest": {"success": [{"code": "claimSignature.validated"}],
                                                      "failure": [\#(failure)]}},
             "manifests": {
              "urn:ours": {"title": "a.jpg", "claim_generator_info": [{"name": "camstamp", "version": "0.1.0"}],
                "signature_info": {"common_name": "Studio", "time": "2026-12-01T19:00:00+00:00"},
                "assertions": [{"label": "c2pa.actions.v2", "data": {"actions": [{"action": "c2pa.opened"},
                  {"action": "c2pa.addedText", "description": "A-113"}]}}],
                "ingredients": \#(ingredient)},
              "urn:camera": {"claim_generator_info": [{"name": "Pixel Camera", "version": "10"}],
                "signature_info": {"issuer": "Google"},
                "assertions": [{"label": "c2pa.actions.v2", "data": {"actions": [{"action": "c2pa.created"}]}}]}}}
            """#
    }

    @Test func theReportIsJudged() {
        let judged = { (state: String, failures: [String], anchors: Bool) in
            Verification(json: Self.report(state: state, failures: failures), anchors: anchors).state
        }
        #expect(judged("Trusted", [], true) == .trusted)
        #expect(judged("Valid", ["signingCredential.untrusted"], false) == .valid)
        #expect(judged("Valid", ["signingCredential.untrusted"], true) == .untrusted)
        #expect(judged("Invalid", ["signingCredential.untrusted", "assertion.dataHash.mismatch"], false) == .tampered)
        #expect(judged("Invalid", ["assertion.bmffHash.mismatch"], true) == .tampered)
        #expect(judged("Invalid", ["signingCredential.invalid"], true) == .invalid)
    }

    @Test func theChainGoesBackToTheCamera() {
        let verification = Verification(json: Self.report(state: "Trusted", failures: [], parent: true), anchors: true)
        #expect(verification.chain.count == 2)
        #expect(verification.chain[0].generator == "camstamp 0.1.0")
        #expect(verification.chain[0].signer == "Studio")
        #expect(verification.chain[0].signed == "2026-12-01T19:00:00+00:00")
        #expect(verification.chain[0].actions == ["c2pa.opened", #"c2pa.addedText "A-113""#])
        #expect(verification.chain[1].generator == "Pixel Camera 10")
        #expect(verification.chain[1].signer == "Google")
    }

    @Test func theDefinitionHoldsTheActionsAndAssertions() throws {
        var draft = ManifestDraft(title: "a.jpg", format: "image/jpeg", generator: ("camstamp", "0.1.0"))
        draft.opened(source: .data(Data([1, 2])), title: "a.jpg", format: "image/jpeg")
        draft.addedText("A-113")
        draft.placed(Data([3]), title: "logo.png", format: "image/png")
        draft.add(assertion: "org.example.test", data: ["n": "1"])
        let text = draft.definition.text
        #expect(text.contains(#""claim_generator_info":[{"name":"camstamp","version":"0.1.0"}]"#), "\(text)")
        #expect(text.contains(#"{"action":"c2pa.opened","parameters":{"ingredientIds":["parent"]}}"#), "\(text)")
        #expect(text.contains(#"{"action":"c2pa.addedText","description":"A-113"}"#), "\(text)")
        #expect(text.contains(#"{"action":"c2pa.placed","parameters":{"ingredientIds":["component1"]}}"#), "\(text)")
        #expect(text.contains(#"{"data":{"n":"1"},"label":"org.example.test"}"#), "\(text)")
        #expect(draft.ingredients.map(\.relationship) == ["parentOf", "componentOf"])
    }
}
