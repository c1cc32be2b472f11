// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// `--sign CHAIN.pem --sign-key KEY.pem [--tsa URL]`: sign every output with Content Credentials.
public struct SigningOptions: Sendable, Equatable {
    /// The PEM certificate chain, end-entity first.
    public var certificate: URL
    /// The PEM private key of the end-entity certificate (ES256 or Ed25519).
    public var key: URL
    /// An RFC 3161 time-stamp authority, or nil for none.
    public var timestampAuthority: String?
    /// The version of camstamp the manifests' claim generator names.
    public var version: String
    /// `--proof-url`: what `{proof-url}` expands to, `{proof}` in it replaced by the output's code.
    public var proofURL: String?

    /// Signs with `certificate` and `key`, time-stamped by `timestampAuthority` when given.
    public init(certificate: URL, key: URL, timestampAuthority: String? = nil, version: String) {
        self.version = version
        self.certificate = certificate
        self.key = key
        self.timestampAuthority = timestampAuthority
    }
}
