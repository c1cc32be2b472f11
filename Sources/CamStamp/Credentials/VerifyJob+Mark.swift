// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import Credentials
import Foundation
internal import Media
import Presets
internal import Watermark

/// `verify` on a file without a manifest: the invisible mark in its pixels, looked up among the
/// soft bindings of the signed files at hand (`--manifests` and the other FILE arguments).
extension VerifyJob {
    /// What an unsigned file's mark says: its payload and, when one is at hand, the manifest it names.
    struct MarkFinding {
        var payload: MarkPayload
        var manifest: (instanceID: String, file: URL)?
    }

    /// A signed manifest's soft binding of camstamp's mark, and where it was found.
    struct KnownBinding {
        var payload: MarkPayload
        var instanceID: String
        var file: URL
    }

    /// The mark `data` carries, if it looks like one (a picture without a mark reads a payload too,
    /// but with no clear split between its 0s and 1s); matched against `known`.
    static func finding(_ data: Data, known: () -> [KnownBinding]) -> MarkFinding? {
        guard let reading = try? readMark(data), reading.strength >= minimumStrength else { return nil }
        let match = known().first { reading.matches($0.payload) }
        return MarkFinding(payload: reading.payload, manifest: match.map { ($0.instanceID, $0.file) })
    }

    /// How clear the vote must be for a reading to count as a mark: an unmarked photo reads ~0.1.
    static let minimumStrength = 0.3

    /// The picture decoded (upright, as batch marks it) and its mark read.
    static func readMark(_ data: Data) throws(CamStampError) -> MarkReading {
        let photo = try PhotoFacts(data)
        var templates: [String: PipelineTemplate] = [:]
        for name in ["photo-jpeg", "photo-png", "photo-webp", "photo-raw"] {
            templates[name] = try Templates.load(nil, builtIn: name, resources: Resources.locate())
        }
        let worker = PhotoWorker(
            settings: .init(
                keepsFormat: true, strict: false, existing: .refuse, metadata: .stripAll, templates: templates,
                setMetadata: try MetadataTemplates([], variables: [])),
            marker: FrameMarker(preset: Preset.stacking([]), variables: [:]))
        let box = ReadingBox()
        _ = try worker.run(data, photo: photo, outputKind: .png) { frame in
            do throws(CamStampError) { box.reading = try InvisibleMarking.read(frame) } catch { return error }
            return nil
        }
        guard let reading = box.reading else { throw .failure("no picture to read a mark from") }
        return reading
    }

    /// Carries the reading out of the pipeline's streaming thread, which the caller waits for.
    private final class ReadingBox: @unchecked Sendable { var reading: MarkReading? }

    /// The soft bindings of camstamp's mark in the signed files among `files` (folders are read one
    /// level deep); a file that is no photo or has no manifest is passed over.
    static func knownBindings(_ files: [URL]) -> [KnownBinding] {
        var expanded: [URL] = []
        for file in files {
            var folder: ObjCBool = false
            if FileManager.default.fileExists(atPath: file.path, isDirectory: &folder), folder.boolValue {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: file.path)) ?? []
                expanded += names.sorted().map { file.appendingPathComponent($0) }
            } else {
                expanded.append(file)
            }
        }
        var known: [KnownBinding] = []
        for file in expanded {
            guard let data = try? Data(contentsOf: file), ContentCredentials.carriesManifest(data),
                let result = try? Verification.verify(data, format: mime(data, file), anchors: nil),
                let instanceID = result.instanceID
            else { continue }
            for binding in result.softBindings where binding.algorithm == InvisibleMark.algorithm {
                if let payload = MarkPayload(bytes: binding.value) {
                    known.append(KnownBinding(payload: payload, instanceID: instanceID, file: file))
                }
            }
        }
        return known
    }

    /// The words after `unsigned` in a file's line.
    static func words(_ finding: MarkFinding) -> String {
        guard let manifest = finding.manifest else {
            return "unsigned; invisible mark \(finding.payload.hex), no manifest at hand carries it"
        }
        return "unsigned, but its invisible mark names manifest \(manifest.instanceID) (in \(manifest.file.path))"
    }

    /// `--json`'s `invisible` object.
    static func json(_ finding: MarkFinding) -> JSONValue {
        var object: [String: JSONValue] = [
            "algorithm": .string(InvisibleMark.algorithm), "payload": .string(finding.payload.hex),
        ]
        object["instance_id"] = finding.manifest.map { .string($0.instanceID) }
        object["manifest_file"] = finding.manifest.map { .string($0.file.path) }
        return .object(object)
    }
}
