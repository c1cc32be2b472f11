// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// Options of `camstamp keys new DIR [--name NAME] [--ed25519]`.
public struct KeysOptions: Sendable, Equatable {
    /// The folder the four files go into.
    public var folder: URL
    /// Who the certificates name.
    public var name: String
    /// Ed25519 keys instead of ES256 (P-256).
    public var ed25519: Bool

    /// Keys for `name` in `folder`.
    public init(folder: URL, name: String, ed25519: Bool = false) {
        self.folder = folder
        self.name = name
        self.ed25519 = ed25519
    }
}

/// `camstamp keys new`: a CA and a signing certificate with the profile C2PA asks of a signer
/// (X.509 v3, key usage digitalSignature, extended key usage emailProtection and documentSigning,
/// not a CA, key identifiers), made by the openssl command: it is on every Debian system, the
/// profile then reads as the configuration below, and keys made once per studio need no library.
public struct KeysJob: Sendable {
    /// The options it runs with.
    public let options: KeysOptions
    /// The files it writes, in `options.folder`.
    public static let files = ["chain.pem", "key.pem", "ca.pem", "ca-key.pem"]

    /// A job that will make keys as `options` say.
    public init(options: KeysOptions) { self.options = options }

    static let profile = """
        [ca]
        basicConstraints = critical, CA:TRUE
        keyUsage = critical, keyCertSign, cRLSign
        subjectKeyIdentifier = hash
        authorityKeyIdentifier = keyid:always
        [signer]
        basicConstraints = critical, CA:FALSE
        keyUsage = critical, digitalSignature
        extendedKeyUsage = emailProtection, 1.3.6.1.5.5.7.3.36
        subjectKeyIdentifier = hash
        authorityKeyIdentifier = keyid, issuer
        """

    /// Makes the four files in a scratch folder beside them, then links each into place: none is
    /// replaced, and none appears half written. The keys are readable by their owner only.
    public func run(report: JobOutput = .silent) throws(CamStampError) {
        let folder = options.folder
        try StillDestination.prepareFolder(folder, option: "DIR", create: true)
        for name in Self.files where FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path) {
            throw .usage("\(folder.appendingPathComponent(name).path) already exists; choose another DIR")
        }
        let scratch = folder.appendingPathComponent(".camstamp-keys-\(UUID().uuidString)")
        do { try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: false) } catch {
            throw .failure("cannot write into \(folder.path): \(error.localizedDescription)")
        }
        defer { try? FileManager.default.removeItem(at: scratch) }
        try make(in: scratch)
        for (index, name) in Self.files.enumerated() {
            let target = folder.appendingPathComponent(name)
            guard link(scratch.appendingPathComponent(name).path, target.path) == 0 else {
                let reason = String(cString: strerror(errno))
                for done in Self.files[..<index] { unlink(folder.appendingPathComponent(done).path) }
                throw .failure("cannot write \(target.path): \(reason)")
            }
            report.result(target.path)
        }
    }

    private func make(in scratch: URL) throws(CamStampError) {
        let path = { (name: String) in scratch.appendingPathComponent(name).path }
        let profile = path("profile.cnf")
        do { try Self.profile.write(toFile: profile, atomically: false, encoding: .utf8) } catch {
            throw .failure("cannot write into \(scratch.path): \(error.localizedDescription)")
        }
        let algorithm =
            options.ed25519 ? ["-algorithm", "ed25519"] : ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"]
        let subject = { (suffix: String) in "/CN=\(Self.escaped(options.name))\(suffix)/O=\(Self.escaped(options.name))"
        }
        let previous = umask(0o077)
        defer { umask(previous) }
        try openssl(["genpkey"] + algorithm + ["-out", path("ca-key.pem")])
        try openssl(["genpkey"] + algorithm + ["-out", path("key.pem")])
        try openssl([
            "req", "-new", "-x509", "-key", path("ca-key.pem"), "-subj", subject(" Root CA"), "-days", "3650",
            "-config", profile, "-extensions", "ca", "-set_serial", Self.serial(), "-out", path("ca.pem"),
        ])
        try openssl(["req", "-new", "-key", path("key.pem"), "-subj", subject(""), "-out", path("signer.csr")])
        try openssl([
            "x509", "-req", "-in", path("signer.csr"), "-CA", path("ca.pem"), "-CAkey", path("ca-key.pem"),
            "-set_serial", Self.serial(), "-days", "730", "-extfile", profile, "-extensions", "signer",
            "-out", path("signer.pem"),
        ])
        do {
            let chain =
                try String(contentsOfFile: path("signer.pem"), encoding: .utf8)
                + String(contentsOfFile: path("ca.pem"), encoding: .utf8)
            try chain.write(toFile: path("chain.pem"), atomically: false, encoding: .utf8)
            for name in ["chain.pem", "ca.pem"] {
                try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path(name))
            }
        } catch {
            throw .failure("cannot write into \(scratch.path): \(error.localizedDescription)")
        }
    }

    /// A random positive 64-bit serial number, in hex.
    static func serial() -> String { "0x" + String(UInt64.random(in: 1...UInt64(Int64.max)), radix: 16) }

    /// `/`, `=`, `+` and `\` in a name, escaped for openssl's -subj.
    static func escaped(_ name: String) -> String {
        var out = ""
        for character in name {
            if "/=+\\".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }

    private func openssl(_ arguments: [String]) throws(CamStampError) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        do { try process.run() } catch {
            throw .failure(
                "keys new: cannot run openssl (\(error.localizedDescription)); install it: apt install openssl")
        }
        let said = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let line = String(decoding: said, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
            throw .failure("keys new: openssl \(arguments[0]) failed: \(line)")
        }
    }
}
