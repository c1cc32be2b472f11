// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
import TestSupport

/// A source whose XMP has ids of its own (a Lightroom export): the output is a new instance of
/// it (XMP's xmpMM): a new `xmpMM:InstanceID`, the document ids kept, the source's ids in
/// `xmpMM:DerivedFrom`. With `--sign` the manifest's instance id is that new one, and with
/// `--invisible` the mark's too; the splice path stays spliced.
@Suite(.enabled(if: hasC2PAReferee, "c2pa-python is not installed: run make python-deps"))
struct XMPInstanceTests {
    static let source = (
        instance: "xmp.iid:5f0e-source", document: "xmp.did:77aa-document",
        original: "xmp.did:0001-original", older: "xmp.iid:0000-older"
    )

    /// A textured JPEG with a Lightroom export's xmpMM ids (an older DerivedFrom among them).
    static func lightroomExport(in folder: URL) throws -> URL {
        let input = folder.appendingPathComponent("in/export.jpg")
        try plasmaJPEG(input, width: 640, height: 480)
        _ = try exiftool([
            "-q", "-overwrite_original", "-XMP-xmpMM:InstanceID=\(source.instance)",
            "-XMP-xmpMM:DocumentID=\(source.document)", "-XMP-xmpMM:OriginalDocumentID=\(source.original)",
            "-XMP-xmpMM:DerivedFromInstanceID=\(source.older)", "-XMP-xmpMM:DerivedFromDocumentID=\(source.original)",
            input.path,
        ])
        return input
    }

    /// The output's xmpMM ids, as exiftool reads them.
    func ids(_ file: URL) throws -> [String: String] {
        let text = try exiftool(
            [
                "-s", "-XMP-xmpMM:InstanceID", "-XMP-xmpMM:DocumentID", "-XMP-xmpMM:OriginalDocumentID",
                "-XMP-xmpMM:DerivedFromInstanceID", "-XMP-xmpMM:DerivedFromDocumentID",
            ], file)
        var ids: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2 { ids[parts[0]] = parts[1] }
        }
        return ids
    }

    func expectDerived(_ ids: [String: String]) {
        #expect(ids["InstanceID"]?.hasPrefix("xmp:iid:") == true, "\(ids)")
        #expect(ids["DocumentID"] == Self.source.document, "\(ids)")
        #expect(ids["OriginalDocumentID"] == Self.source.original, "\(ids)")
        #expect(ids["DerivedFromInstanceID"] == Self.source.instance, "\(ids)")
        #expect(ids["DerivedFromDocumentID"] == Self.source.document, "\(ids)")
    }

    @Test(arguments: [[], ["--invisible"]])
    func theSignedOutputIsANewInstanceAndTheManifestNamesIt(extra: [String]) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let chain = try TestChain(in: folder.appendingPathComponent("keys"))
        let input = try Self.lightroomExport(in: folder)
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(
            [
                "batch", input.path, "-o", out.path, "--text", "© Studio", "--json", "--sign", chain.chain.path,
                "--sign-key", chain.key.path,
            ] + extra)
        #expect(result.status == 0, "\(result.stderr)")
        let line = try #require(result.stdout.split(separator: "\n").first)
        let photo = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let output = out.appendingPathComponent("export.jpg")
        let ids = try ids(output)
        expectDerived(ids)
        let report = try Referee.read(output, mime: "image/jpeg", anchors: chain.root)
        #expect(report.state == "Trusted" && report.failures.isEmpty, "\(report)")
        #expect(report.instanceID != nil && report.instanceID == ids["InstanceID"], "\(report) \(ids)")
        if extra.isEmpty {
            #expect(photo["path"] as? String == "spliced", "\(photo)")
        } else {
            let mark = try #require(photo["invisible"] as? [String: Any], "\(photo)")
            #expect(mark["instance_id"] as? String == ids["InstanceID"], "\(mark) \(ids)")
        }
    }

    /// Unsigned, the same: the metadata is a segment rewrite of the spliced photo.
    @Test func anUnsignedSplicedOutputIsANewInstanceToo() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try Self.lightroomExport(in: folder)
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", input.path, "-o", out.path, "--text", "x", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""path":"spliced""#), "\(result.stdout)")
        expectDerived(try ids(out.appendingPathComponent("export.jpg")))
        #expect(try exiftool(["-a", "-s", "-Warning"], out.appendingPathComponent("export.jpg")) == "")
    }
}
