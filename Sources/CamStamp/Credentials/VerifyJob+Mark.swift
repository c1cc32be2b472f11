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

    /// What the search for an unsigned file's invisible mark came to: the mark found, or why the
    /// picture was not searched.
    enum MarkSearch {
        case found(MarkFinding)
        case skipped(String)
    }

    /// The mark `data` carries, if it looks like one (a picture without a mark reads a payload too,
    /// but with no clear split between its 0s and 1s); matched against `known`. A picture that
    /// would cost more than `wholeDecodePixels` to decode is not searched unless `always`.
    static func search(_ data: Data, always: Bool, known: () -> [KnownBinding]) -> MarkSearch? {
        guard let photo = try? PhotoFacts(data) else { return nil }
        if let skipped = skipped(photo), !always { return .skipped(skipped) }
        guard let reading = try? readMark(data, photo: photo), reading.strength >= minimumStrength else { return nil }
        let match = known().first { reading.matches($0.payload) }
        return .found(MarkFinding(payload: reading.payload, manifest: match.map { ($0.instanceID, $0.file) }))
    }

    /// How clear the vote must be for a reading to count as a mark: an unmarked photo reads ~0.1.
    static let minimumStrength = 0.3

    /// The most pixels of a HEIC or AVIF searched for a mark without --search-marks. The mark lies
    /// in the 8×8 blocks of the picture at its full size, so it cannot be read from a smaller
    /// decode or a thumbnail, and libheif (1.15) decodes a picture whole: HEVC at about 5 MP a
    /// second on 2 cores (a 50 MP photo took 10.7 s in `heif-convert`), past any wait a verify
    /// of many files can afford. 12 MP, a phone's photo, takes about 2 s.
    static let wholeDecodePixels = 16_000_000

    /// Why `photo` is not searched by default, if it is not.
    static func skipped(_ photo: PhotoFacts) -> String? {
        guard photo.heif != nil, photo.width * photo.height > wholeDecodePixels else { return nil }
        let megapixels = (Double(photo.width * photo.height) / 1e6).rounded()
        return "not searched for an invisible mark: a \(photo.kind.name) of \(Int(megapixels)) MP is decoded whole "
            + "(more than \(wholeDecodePixels / 1_000_000) MP: --search-marks searches it)"
    }

    /// The picture decoded (upright, as batch marks it) and its mark read: a HEIC or AVIF in
    /// libheif's own picture, any other through the photo pipeline batch marks it with.
    static func readMark(_ data: Data, photo: PhotoFacts) throws(CamStampError) -> MarkReading {
        if let heif = photo.heif { return try readMark(heif) }
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

    /// libheif's picture read where it lies: no pipeline, no copy, no PNG written for nothing.
    private static func readMark(_ file: HEIFFile) throws(CamStampError) -> MarkReading {
        let read: Result<MarkReading, InvisibleMark.Failure>
        do {
            read = try file.withPixels { pixels in
                let layout = ChromaPlane.Layout.packed(bytesPerPixel: pixels.bytesPerPixel, red: 0, green: 1, blue: 2)
                let plane = ChromaPlane(
                    base: pixels.base, stride: pixels.stride, width: pixels.width, height: pixels.height,
                    layout: layout)
                do throws(InvisibleMark.Failure) { return .success(try InvisibleMark.read(plane)) } catch {
                    return .failure(error)
                }
            }
        } catch {
            throw .failure("cannot decode the picture: \(error)")
        }
        do { return try read.get() } catch { throw .failure("cannot read an invisible mark: \(error)") }
    }

    /// Carries the reading out of the pipeline's streaming thread, which the caller waits for.
    private final class ReadingBox: @unchecked Sendable { var reading: MarkReading? }

    /// `files`, each folder among them read one level deep, in name order.
    static func expanded(_ files: [URL]) -> [URL] {
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
        return expanded
    }

    /// What a signed file at hand says of itself: its manifest's instance id (a proof code's
    /// source) and the soft bindings of camstamp's invisible mark.
    struct SignedFile {
        var file: URL
        var instanceID: String?
        var bindings: [KnownBinding]
    }

    /// `file` read and its manifest validated without trust anchors; nil for a file that is no
    /// photo or has no manifest.
    static func signedFile(_ file: URL) -> SignedFile? {
        guard let data = try? Data(contentsOf: file), ContentCredentials.carriesManifest(data),
            let result = try? Verification.verify(data, format: mime(data, file), anchors: nil)
        else { return nil }
        var bindings: [KnownBinding] = []
        if let instanceID = result.instanceID {
            for binding in result.softBindings where binding.algorithm == InvisibleMark.algorithm {
                if let payload = MarkPayload(bytes: binding.value) {
                    bindings.append(KnownBinding(payload: payload, instanceID: instanceID, file: file))
                }
            }
        }
        return SignedFile(file: file, instanceID: result.instanceID, bindings: bindings)
    }

    /// The files among `signed` whose manifest the proof code `typed` names.
    static func files(namedBy typed: String, among signed: [SignedFile]) throws(CamStampError) -> [URL] {
        let code: ProofCode
        do { code = try ProofCode(typed: typed) } catch { throw .usage("--code \(typed): \(error)") }
        return signed.filter { $0.instanceID.map(ProofCode.init(instanceID:)) == code }.map(\.file)
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
