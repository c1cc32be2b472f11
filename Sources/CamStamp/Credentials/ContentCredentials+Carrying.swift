// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import Credentials
import Foundation

/// A source's manifest carried on as the parent's, or, where it cannot be carried whole, the
/// source named without it: never an output whose own manifest does not validate.
extension ContentCredentials {
    /// `draft` signed by `sign`; when the source `carried` a manifest, the output read back by the
    /// SDK, and if the manifest it kept makes the output fail (an older writer's, one that names a
    /// manifest it does not hold), signed again with the parent named only, and a warning.
    /// Never an output whose own manifest does not validate.
    func carrying(
        _ carried: Bool, _ draft: ManifestDraft, mime: String, into file: URL?,
        sign: (ManifestDraft) throws(CredentialsError) -> Data?
    ) throws(CamStampError) -> Signed {
        var first: Data?
        var why: String?
        do throws(CredentialsError) {
            first = try sign(draft)
        } catch  where carried && error.parentManifest != nil {
            why = "the C2PA SDK cannot read them: " + (error.parentManifest ?? "")
        } catch {
            throw .failure(error.message)
        }
        if why == nil {
            guard carried else { return Signed(data: first) }
            let failures = try Self.failures(first, file: file, mime: mime)
            guard !failures.isEmpty else { return Signed(data: first) }
            why = "kept, they make the output fail: " + failures.joined(separator: ", ")
        }
        let codes = why ?? ""
        var named = draft
        named.nameParentOnly(because: "its Content Credentials were left out (\(codes))")
        if let file { try? FileManager.default.removeItem(at: file) }
        let second: Data?
        do { second = try sign(named) } catch { throw .failure(error.message) }
        let left = try Self.failures(second, file: file, mime: mime)
        guard left.isEmpty else {
            if let file { try? FileManager.default.removeItem(at: file) }
            throw .failure("cannot sign it: the signed output does not validate (\(left.joined(separator: ", ")))")
        }
        return Signed(
            data: second,
            warning: "its Content Credentials (C2PA manifest) cannot be carried on (\(codes)): "
                + "the source is the parent ingredient without them")
    }

    /// What fails in a signed output (in memory, or in `file`), as the SDK validates it without
    /// trust anchors: nothing for a good one.
    private static func failures(_ data: Data?, file: URL?, mime: String) throws(CamStampError) -> [String] {
        do {
            let result: Verification
            if let data {
                result = try Verification.verify(data, format: mime, anchors: nil)
            } else if let file {
                result = try Verification.verify(file: file, format: mime, anchors: nil)
            } else {
                return []
            }
            if result.state == .valid { return [] }
            let failures = result.failures.filter { !Verification.isTrustOnly($0) }
            return failures.isEmpty ? [result.reason ?? result.state.rawValue] : failures
        } catch {
            throw .failure("cannot read the signed output back: \(error.message)")
        }
    }
}
