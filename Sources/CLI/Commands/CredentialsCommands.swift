// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// Content Credentials: --sign on the jobs, `camstamp verify`, `camstamp keys new`.
import CamStamp
import Foundation

extension Commands {
    /// `--sign CHAIN.pem --sign-key KEY.pem [--tsa URL]`, on every job that writes photos or files.
    enum Signing {
        static let sign = Single<URL>(
            "sign", value: "CHAIN.pem",
            help: "Sign every output with Content Credentials (C2PA): a PEM certificate chain, end-entity first "
                + "(or CAMSTAMP_SIGN_CERT); camstamp keys new makes one. See docs/credentials.md."
        ) { text, _ in URL(fileURLWithPath: text) }
        static let signKey = Single<URL>(
            "sign-key", value: "KEY.pem",
            help: "The private key of --sign's certificate, ES256 or Ed25519 (or CAMSTAMP_SIGN_KEY)."
        ) { text, _ in URL(fileURLWithPath: text) }
        static let tsa = Single<String>(
            "tsa", value: "URL",
            help: "An RFC 3161 time-stamp authority (http:// or https://) the signatures are time-stamped by."
        ) { text, option in
            let scheme = URL(string: text)?.scheme?.lowercased()
            guard scheme == "http" || scheme == "https", URL(string: text)?.host != nil else {
                throw OptionValueError("'\(option)' '\(text)' is not an http:// or https:// URL")
            }
            return text
        }

        static let proofURL = Single<String>(
            "proof-url", value: "URL",
            help: "What {proof-url} (a mark's text, a QR code's) expands to: a URL with {proof} in it, "
                + "e.g. https://example.org/v/{proof}."
        ) { text, option in
            let scheme = URL(string: text.replacingOccurrences(of: "{proof}", with: "X"))?.scheme?.lowercased()
            guard text.contains("{proof}"), scheme == "http" || scheme == "https" else {
                throw OptionValueError(
                    "'\(option)' '\(text)' needs to be an http:// or https:// URL with {proof} in it")
            }
            return text
        }

        static let keys: [any OptionKey] = [sign, signKey, tsa, proofURL]

        /// A stream target, as `--sign`'s refusal names it.
        static func describe(_ target: StreamTarget) -> String {
            switch target {
            case .file(let url, _): "\(url.lastPathComponent) (Matroska)"
            case .rtp: "an RTP stream"
            case .rtmp: "an RTMP stream"
            case .srt: "an SRT stream"
            case .hls: "an HLS stream's live segments"
            case .serve: "the RTSP server's live stream"
            case .whip: "a WHIP (WebRTC) stream"
            case .v4l2: "a V4L2 device's pictures"
            }
        }

        /// The signing options from the line or the environment; nil when neither asks for signing.
        static func options(
            _ values: OptionValues, environment: [String: String] = ProcessInfo.processInfo.environment
        )
            throws -> SigningOptions?
        {
            let certificate =
                try values.get(sign)
                ?? environment["CAMSTAMP_SIGN_CERT"].map {
                    try existingFile($0, option: "CAMSTAMP_SIGN_CERT")
                }
            let key =
                try values.get(signKey)
                ?? environment["CAMSTAMP_SIGN_KEY"].map {
                    try existingFile($0, option: "CAMSTAMP_SIGN_KEY")
                }
            let authority = try values.get(tsa), proof = try values.get(proofURL)
            switch (certificate, key) {
            case (nil, nil):
                if authority != nil { throw OptionValueError("'--tsa' needs '--sign CHAIN.pem --sign-key KEY.pem'") }
                if proof != nil {
                    throw OptionValueError(
                        "'--proof-url' needs '--sign CHAIN.pem --sign-key KEY.pem': a code names a manifest")
                }
                return nil
            case (.some, nil): throw OptionValueError("'--sign' needs '--sign-key KEY.pem' (or CAMSTAMP_SIGN_KEY)")
            case (nil, .some): throw OptionValueError("'--sign-key' needs '--sign CHAIN.pem' (or CAMSTAMP_SIGN_CERT)")
            case (let certificate?, let key?):
                var options = SigningOptions(
                    certificate: certificate, key: key, timestampAuthority: authority, version: camstampVersion)
                options.proofURL = proof
                return options
            }
        }
    }

    /// `camstamp verify FILE... [--trust ANCHORS.pem] [--json]`.
    enum Verify {
        static let trust = Single<URL>(
            "trust", value: "ANCHORS.pem",
            help: "PEM trust anchors (root certificates): a file is trusted when its signer chains to one."
        ) { try existingFile($0, option: $1) }
        static let json = Flag(
            "json",
            help: "Print one JSON object per file (file, state, signer, signed, actions, chain, failures), for scripts."
        )
        static let manifests = Repeated<URL>(
            "manifests", value: "DIR_OR_FILE",
            help: "Signed files (or folders of them) in which an unsigned file's invisible mark is looked up."
        ) { path, option in
            guard PathKind(atPath: path) != .missing else {
                throw OptionValueError("'\(option)' '\(path)' does not exist")
            }
            return URL(fileURLWithPath: path)
        }

        static let parent = Single<URL>(
            "parent", value: "SRC",
            help: "The source a JPEG stamped in its coefficients was made from: its blocks are compared one by one."
        ) { try existingFile($0, option: $1) }

        static let code = Single<String>(
            "code", value: "CODE",
            help: "A proof code as printed on a photo ({proof}, e.g. K7M2-9QXD-4): the signed file in --manifests "
                + "whose manifest it names is verified."
        ) { text, _ in text }

        static let serve = Flag(
            "serve",
            help: "Serve the verify page on 127.0.0.1 (a photo or clip dropped on it is checked here; "
                + "nothing leaves the machine) until Ctrl-C."
        )
        static let port = Single<Int>(
            "port", value: "N", help: "The verify page's port (with --serve).", default: "8090; 0 picks a free one"
        ) { try NumberOption.integer($0, option: $1, in: 0...65535) }

        static let searchMarks = Flag(
            "search-marks",
            help:
                "Search every unsigned HEIC and AVIF for an invisible mark, even one over 16 MP (decoded whole: slow)."
        )

        static let spec = CommandSpec(
            "verify",
            overview: "Check the Content Credentials (C2PA) of photos and clips: who signed, when, what was done.",
            arguments: [
                ArgumentSpec("FILE", arity: .zeroOrMore, help: "JPEG, PNG, WebP, HEIC, AVIF, TIFF, MP4, MOV.")
            ],
            keys: [trust, json, manifests, parent, searchMarks, code, serve, port],
            discussion: "Each file is trusted (its signer chains to --trust), valid (signed and unchanged; no "
                + "--trust given), untrusted, tampered (changed after signing), invalid, remote (its manifest at a "
                + "URL, not fetched) or unsigned; --json gives one object per file, unreadable ones too. Exit status: "
                + "0 when every file is valid (trusted, with --trust), 1 otherwise. An unsigned photo's invisible "
                + "mark (batch --invisible) names the manifest it belongs to when one at hand carries it. A JPEG "
                + "stamped in its coefficients says whether its pixels outside the marks are the parent's (by the "
                + "hash camstamp recorded, and block by block against --parent SRC); 1 when they are not.")

        static func options(_ values: OptionValues) throws -> VerifyOptions {
            let code = try values.get(code), manifests = try values.get(manifests)
            let serving = values.get(serve), port = try values.get(port)
            if values.positionals.isEmpty && code == nil && !serving {
                throw OptionValueError("verify needs FILE..., '--code CODE' or '--serve'")
            }
            if port != nil && !serving { throw OptionValueError("'--port' needs '--serve'") }
            if serving && (!values.positionals.isEmpty || code != nil || values.get(json)) {
                throw OptionValueError("'--serve' checks what the page is given: no FILE, '--code' or '--json'")
            }
            if code != nil && manifests.isEmpty {
                throw OptionValueError("'--code' needs '--manifests DIR_OR_FILE': where the signed originals are")
            }
            var options = VerifyOptions(
                files: values.positionals.map { URL(fileURLWithPath: $0) }, trust: try values.get(trust),
                json: values.get(json), manifests: manifests, parent: try values.get(parent),
                searchesEveryPicture: values.get(searchMarks))
            options.code = code
            if serving { options.serve = UInt16(port ?? 8090) }
            return options
        }
    }

    /// `camstamp keys new DIR [--name NAME]`.
    enum Keys {
        static let name = Single<String>(
            "name", value: "NAME", help: "The studio or person the certificates name.", default: "camstamp user")
        static let ed25519 = Flag("ed25519", help: "Ed25519 keys instead of ES256 (P-256).")
        static let new = CommandSpec(
            "new",
            overview: "Make a CA and a signing certificate for --sign, in DIR: chain.pem, key.pem, ca.pem, ca-key.pem.",
            arguments: [ArgumentSpec("DIR", help: "The folder to write into; no existing file is replaced.")],
            keys: [name, ed25519],
            discussion: "The chain proves a file was not changed since it was signed with this key; other people's "
                + "verifiers call it untrusted until they trust ca.pem (docs/credentials.md).")
        static let spec = CommandSpec(
            "keys", overview: "Make signing keys for Content Credentials.",
            usage: "camstamp keys new DIR [--name NAME]",
            subcommands: [new])

        static func options(_ values: OptionValues) throws -> KeysOptions {
            KeysOptions(
                folder: URL(fileURLWithPath: values.positionals[0]), name: try values.get(name) ?? "camstamp user",
                ed25519: values.get(ed25519))
        }
    }
}
