// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import Credentials
internal import Watermark
import Foundation

/// Options of `camstamp verify FILE... [--trust ANCHORS.pem] [--json]`.
public struct VerifyOptions: Sendable, Equatable {
    /// The files to check.
    public var files: [URL]
    /// PEM trust anchors; nil judges signatures and hashes only.
    public var trust: URL?
    /// One JSON object per file on stdout.
    public var json: Bool
    /// `--manifests`: signed files (or folders of them) whose soft bindings an unsigned file's
    /// invisible mark is looked up in, besides the other files.
    public var manifests: [URL]
    /// `--parent SRC`: the source a coefficient-stamped JPEG was made from, compared block by block.
    public var parent: URL?
    /// `--search-marks`: an unsigned picture is searched for an invisible mark whatever it costs
    /// to decode (a HEIC or AVIF over `wholeDecodePixels` is passed over, and said so, without).
    public var searchesEveryPicture = false
    /// `--code`: a proof code; the signed files in `manifests` whose manifest it names are checked.
    public var code: String?
    /// `--serve [--port N]`: the verify page on 127.0.0.1 at this port (0: one the system picks).
    public var serve: UInt16?

    /// Checks `files`, against `trust` when given.
    public init(
        files: [URL], trust: URL? = nil, json: Bool = false, manifests: [URL] = [], parent: URL? = nil,
        searchesEveryPicture: Bool = false
    ) {
        self.searchesEveryPicture = searchesEveryPicture
        self.files = files
        self.trust = trust
        self.json = json
        self.manifests = manifests
        self.parent = parent
    }
}

/// `camstamp verify`: each file's Content Credentials read and validated by the C2PA SDK.
public struct VerifyJob: Sendable {
    /// The options it runs with.
    public let options: VerifyOptions

    /// A job that will check as `options` say.
    public init(options: VerifyOptions) { self.options = options }

    /// Says each file's state on `report`; true when every file is valid (trusted, with --trust).
    /// With `serve`, the page instead, until `interrupts` ends it.
    public func run(report: JobOutput = .silent, interrupts: Interrupts? = nil) throws(CamStampError) -> Bool {
        let checker = try Checker(options)
        if let port = options.serve {
            return try serve(port: port, checker: checker, report: report, interrupts: interrupts)
        }
        var allGood = true
        var files = options.files
        if let code = options.code {
            let found = try checker.files(namedBy: code)
            if found.isEmpty {
                report.error("--code \(code): no manifest in --manifests names it")
                allGood = false
            }
            files += found
        }
        for file in files {
            switch try checker.check(file) {
            case .unreadable(let reason):
                unreadable(file, reason, report: report)
                allGood = false
            case .checked(let result, let finding, let blocks):
                allGood = allGood && checker.isGood(result, blocks: blocks)
                report.result(
                    options.json
                        ? Self.json(file, result, mark: finding, blocks: blocks)
                        : Self.line(file, result, anchors: checker.anchors != nil, mark: finding, blocks: blocks))
            }
        }
        return allGood
    }

    /// A file nothing can be said of: one line on stderr, or with --json its object on stdout
    /// (state `unreadable` and the reason), so a script gets one object per file, always.
    private func unreadable(_ file: URL, _ reason: String, report: JobOutput) {
        guard options.json else { return report.error("\(file.path): \(reason)") }
        report.result(Self.unreadableJSON(file.path, reason))
    }

    static func unreadableJSON(_ file: String, _ reason: String) -> String {
        let object: [String: JSONValue] = [
            "file": .string(file), "state": "unreadable", "reason": .string(reason), "failures": [], "chain": [],
        ]
        return JSONValue.object(object).text
    }

    /// The MIME type the SDK reads `data` as: by content for photos and ISO BMFF, else by name.
    static func mime(_ data: Data, _ file: URL) -> String {
        if let format = ImageFormat.sniff(data.prefix(64)) { return ContentCredentials.mime(format) }
        let bytes = [UInt8](data.prefix(12))
        if bytes.count == 12, bytes[4...7] == [0x66, 0x74, 0x79, 0x70] {
            return bytes[8...11] == [0x71, 0x74, 0x20, 0x20] ? "video/quicktime" : "video/mp4"
        }
        return file.pathExtension.lowercased()
    }

    /// `FILE: STATE: signed by WHO at WHEN with WHAT; ACTIONS; from: PARENT ← …`.
    static func line(
        _ file: URL, _ result: Verification, anchors: Bool, mark: MarkSearch? = nil, blocks: BlockFinding? = nil
    ) -> String {
        switch mark {
        case .found(let finding): return "\(file.path): \(words(finding))"
        case .skipped(let why): return "\(file.path): unsigned; \(why)"
        case nil: break
        }
        var parts = ["\(file.path): \(result.state.rawValue)"]
        if let url = result.remoteURL { parts.append("its manifest is at \(url), which verify does not fetch") }
        if let reason = result.reason { parts.append("the manifest cannot be read: \(reason)") }
        if let first = result.chain.first {
            var signed = "signed by \(first.signer ?? "an unnamed signer")"
            if let generator = first.generator { signed += " with \(generator)" }
            parts.append(signed)
            // The SDK gives a time only from an RFC 3161 token (its genTime): the signer's own
            // clock is no proof and is not said.
            if let when = first.signed { parts.append("time-stamped at \(when) by a time-stamp authority") }
            if !first.actions.isEmpty { parts.append(first.actions.joined(separator: ", ")) }
        }
        if let place = result.position.flatMap(words) { parts.append(place) }
        let older = result.chain.dropFirst().map { step in
            [step.generator, step.signer.map { "signed by \($0)" }].compactMap { $0 }.joined(separator: ", ")
        }
        if !older.isEmpty { parts.append("from: " + older.joined(separator: " ← ")) }
        // Without --trust every self-made signer is untrusted: not a failure of the file.
        let failures = result.failures.filter { !Verification.isTrustOnly($0) || anchors }
        if !failures.isEmpty { parts.append("failures: " + failures.joined(separator: ", ")) }
        if let blocks { parts.append(words(blocks)) }
        return parts.joined(separator: "; ")
    }

    static func json(
        _ file: URL, _ result: Verification, mark: MarkSearch? = nil, blocks: BlockFinding? = nil, name: String? = nil
    ) -> String {
        func step(_ step: Verification.Step) -> JSONValue {
            var object: [String: JSONValue] = ["actions": .array(step.actions.map { .string($0) })]
            object["title"] = step.title.map { .string($0) }
            object["generator"] = step.generator.map { .string($0) }
            object["signer"] = step.signer.map { .string($0) }
            object["signed"] = step.signed.map { .string($0) }
            return .object(object)
        }
        var object: [String: JSONValue] = [
            "file": .string(name ?? file.path), "state": .string(result.state.rawValue),
            "failures": .array(result.failures.map { .string($0) }),
            "chain": .array(result.chain.map(step)),
        ]
        object["reason"] = result.reason.map { .string($0) }
        object["remote_url"] = result.remoteURL.map { .string($0) }
        if let first = result.chain.first {
            object["signer"] = first.signer.map { .string($0) }
            object["signed"] = first.signed.map { .string($0) }
            object["time_stamp"] = first.signed.map { _ in .string("rfc3161") }
            object["actions"] = .array(first.actions.map { .string($0) })
        }
        object["proof"] = result.instanceID.map { .string(ProofCode(instanceID: $0).description) }
        switch mark {
        case .found(let finding): object["invisible"] = json(finding)
        case .skipped(let why): object["invisible"] = ["skipped": .string(why)]
        case nil: break
        }
        object["outside_marks"] = blocks.map(json)
        object["location"] = result.position.flatMap(json)
        return JSONValue.object(object).text
    }
}
