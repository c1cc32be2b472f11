// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import Credentials
import Foundation

/// One file checked as `verify` checks it, for the command line and the page alike.
extension VerifyJob {
    /// What is known of a file: its manifest's verdict (with the invisible mark an unsigned one
    /// carries and the block record's finding), or why nothing can be said of it.
    enum Answer {
        case checked(Verification, MarkSearch?, BlockFinding?)
        case unreadable(String)
    }

    /// The trust anchors, the parent and the signed files' marks, read once for every file.
    final class Checker: @unchecked Sendable {
        let anchors: String?
        let parent: (url: URL, data: Data)?
        let options: VerifyOptions
        private let lock = NSLock()
        /// Each signed file read so far, by path, with the size and time it had then: a file is
        /// read again only when it changed, and one added (a camera's new photo) is read when met.
        private var read: [String: (stamp: [Int], signed: SignedFile?)] = [:]

        init(_ options: VerifyOptions) throws(CamStampError) {
            self.options = options
            var anchors: String?
            if let trust = options.trust {
                do { anchors = try String(contentsOf: trust, encoding: .utf8) } catch {
                    throw .usage("--trust \(trust.path): cannot read it")
                }
                guard anchors?.contains("BEGIN CERTIFICATE") == true else {
                    throw .usage("--trust \(trust.path): no PEM certificate in it")
                }
            }
            self.anchors = anchors
            if let url = options.parent {
                do { parent = (url, try Data(contentsOf: url)) } catch {
                    throw .usage("--parent \(url.path): cannot read it")
                }
            } else {
                parent = nil
            }
        }

        /// The signed files among `files` (folders read one level deep), each read once while
        /// it stays as it was.
        func signedFiles(in files: [URL]) -> [SignedFile] {
            VerifyJob.expanded(files).compactMap { file in
                var status = stat()
                guard stat(file.path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
                let stamp = [
                    Int(status.st_size), Int(status.st_mtim.tv_sec), Int(status.st_mtim.tv_nsec), Int(status.st_ino),
                ]
                if let known = lock.withLock({ read[file.path] }), known.stamp == stamp { return known.signed }
                let signed = VerifyJob.signedFile(file)
                lock.withLock { read[file.path] = (stamp, signed) }
                return signed
            }
        }

        /// The marks of the signed files at hand (the FILE arguments and --manifests), asked
        /// for on each unsigned file with a mark.
        func lookUp() -> [KnownBinding] { signedFiles(in: options.files + options.manifests).flatMap(\.bindings) }

        /// The signed files in --manifests whose manifest the proof code `typed` names.
        func files(namedBy typed: String) throws(CamStampError) -> [URL] {
            try VerifyJob.files(namedBy: typed, among: signedFiles(in: options.manifests))
        }

        /// `file` read and judged; a missing SDK is an error of the job, not of the file.
        func check(_ file: URL) throws(CamStampError) -> Answer {
            do {
                let data = try Data(contentsOf: file)
                var result = try Verification.verify(data, format: VerifyJob.mime(data, file), anchors: anchors)
                if result.position == nil { result.position = VerifyJob.exifPosition(data) }
                var finding: MarkSearch?
                if result.state == .unsigned {
                    finding = VerifyJob.search(data, always: options.searchesEveryPicture, known: lookUp)
                }
                return .checked(result, finding, VerifyJob.blockFinding(data, result, parent: parent))
            } catch let error as CredentialsError {
                if error.isLibrary { throw .failure(error.message) }
                return .unreadable(error.message)
            } catch {
                let exists = FileManager.default.fileExists(atPath: file.path)
                return .unreadable(exists ? "cannot read it" : "no such file")
            }
        }

        /// Whether a file passes: trusted (valid, without --trust), and its pixels outside the
        /// marks not found to differ from the parent's.
        func isGood(_ result: Verification, blocks: BlockFinding?) -> Bool {
            (result.state == .trusted || (anchors == nil && result.state == .valid)) && blocks?.good != false
        }
    }
}
