// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import Credentials
import Foundation
internal import Media
internal import PhotoMetadata
import Presets
internal import Watermark

/// The jobs' side of Content Credentials: the signer made once for a job, and each output's
/// manifest drafted from what the job did (Credentials makes and signs it).
final class ContentCredentials: Sendable {
    /// The claim generator's name; its version is the command line's.
    static let generator = "camstamp"
    private let version: String
    private let signer: C2PASigner
    /// `--proof-url`, `{proof}` in it.
    let proofURL: String?

    /// The certificate and key read and turned into a signer: a bad file, key or missing SDK is a
    /// usage error before any work.
    init(_ options: SigningOptions) throws(CamStampError) {
        // The authority first, asked with a wait of our own: a failure of it is not the key's.
        if let authority = options.timestampAuthority {
            do { try TimeStampAuthority.check(authority) } catch { throw .failure(error.message) }
        }
        do {
            let identity = try SigningIdentity(
                chain: options.certificate, key: options.key, timestampAuthority: options.timestampAuthority)
            signer = try C2PASigner(identity)
            version = options.version
            proofURL = options.proofURL
            try signer.probe()
        } catch {
            throw error.isLibrary ? .failure(error.message) : .usage(error.message)
        }
    }

    /// `context` with the proof code of the output whose manifest will have `instanceID`, and
    /// `--proof-url` with it in: the code is known before the marks are drawn.
    func proof(_ context: inout TemplateContext, instanceID: String) {
        let code = ProofCode(instanceID: instanceID).description
        context.proof = code
        context.proofURL = proofURL?.replacingOccurrences(of: "{proof}", with: code)
    }

    /// `{proof}` and `{proof-url}` need a signed output (the code names its manifest), and
    /// `{proof-url}` a `--proof-url`; `job` says where they are not drawn yet.
    static func checkProof(
        _ preset: Preset, signing: SigningOptions?, job unsupported: String? = nil
    ) throws(CamStampError) {
        let shown = preset.marks.compactMap(\.template).filter(\.showsProof)
        guard !shown.isEmpty else { return }
        if let unsupported {
            throw .usage(
                "{proof} and {proof-url} are not drawn by \(unsupported) yet: batch and shoot photos have them")
        }
        guard let signing else {
            throw .usage(
                "{proof} and {proof-url} need --sign CHAIN.pem --sign-key KEY.pem: the code names the manifest")
        }
        if signing.proofURL == nil, shown.contains(where: { $0.source.contains("{proof-url}") }) {
            throw .usage("{proof-url} needs --proof-url URL (e.g. https://example.org/v/{proof})")
        }
    }

    /// What the marks of an output were, as the manifest's actions name them.
    enum Mark: Sendable, Equatable {
        case text(String)
        case image(URL)
        /// A QR code of this text.
        case qr(String)
    }

    /// `output` (an `format` file, in parts read one after the other, never joined) signed: `c2pa.opened` with `source` as its parent (a manifest in
    /// the source is kept as the parent's), the marks, the metadata edits.
    /// `into` a file: the signed photo is written there (a new file) and nil returned, so no
    /// second photo-sized buffer is held; else it is returned. `instanceID`: the output's (its
    /// XMP's), which becomes the manifest's; `invisible`: an invisible mark was made from it,
    /// recorded with its soft binding. `blocks`: a photo stamped in its coefficients gets its
    /// block record (`BlockAssertion`).
    /// A signed photo: in memory (nil when it went into a file) and the warning it needs, when
    /// the source's manifest could not be carried.
    struct Signed {
        var data: Data?
        var warning: String?
    }

    func sign(
        _ output: [Data], format: ImageFormat, source: Data, sourceName: String, sourceFormat: ImageFormat,
        marks: [Mark], metadataEdit: String?, instanceID: String? = nil, invisible: Bool = false,
        blocks: JPEGBlockRecord? = nil, sourceScan: Range<Int>? = nil,
        into file: URL? = nil
    ) throws(CamStampError) -> Signed {
        var draft = ManifestDraft(
            title: sourceName, format: Self.mime(format), generator: (Self.generator, version))
        let parent = Self.parentView(source, scan: sourceScan)
        draft.opened(source: .data(parent), title: sourceName, format: Self.mime(sourceFormat))
        add(marks, to: &draft)
        if let metadataEdit { draft.editedMetadata(metadataEdit) }
        draft.instanceID = instanceID
        if invisible, let instanceID { Self.watermarked(instanceID, draft: &draft) }
        if let blocks { draft.add(assertion: BlockAssertion.label, data: BlockAssertion.json(blocks)) }
        let carried = parent.count == source.count && Self.carriesManifest(source, skipping: sourceScan)
        let place = format == .jpg ? Self.manifestPlace(output) : nil
        let signed = try carrying(carried, draft, mime: Self.mime(format), into: file) {
            draft throws(CredentialsError) in
            guard let file else { return try draft.sign(parts: output, jpegManifestAt: place, with: signer) }
            try draft.sign(parts: output, jpegManifestAt: place, intoFile: file, with: signer)
            return nil
        }
        if format == .heic || format == .avif { try Self.checkDecodes(signed.data, file: file, format: format) }
        return signed
    }

    /// Where a JPEG's manifest goes when camstamp embeds it: after its JFIF segment, or after SOI
    /// when it has none, as the SDK puts it. Nil for a JPEG that has APP11 segments (a manifest
    /// the SDK would take out first; camstamp's outputs never carry one) or whose header is not in
    /// its first part: the SDK embeds those itself.
    static func manifestPlace(_ parts: [Data]) -> Int? {
        // The header is the first part; its SOS (at most 14 bytes) may begin the next. Only so
        // much is copied to be parsed, not the scan's first 256 KB.
        guard let first = parts.first else { return nil }
        let limit = min(1 << 18, first.count + 64)
        var head = Data()
        for part in parts where head.count < limit { head.append(part.prefix(limit - head.count)) }
        guard let header = try? JPEGStructure(parsing: head), !header.segments.contains(where: { $0.marker == 0xEB })
        else { return nil }
        guard let jfif = header.segments.lastIndex(where: { $0.marker == 0xE0 }) else { return 2 }
        let next = header.segments.index(after: jfif)
        return next < header.segments.endIndex ? header.segments[next].offset : header.scanOffset
    }

    /// A signed HEIC or AVIF is read back before it is kept. c2pa-rs 0.91 moves the offsets of
    /// items kept in the `idat` box as if they were in the file, and libheif keeps a grid's layout
    /// there (it writes a grid for some pictures, small ones and ones of odd size): such a file,
    /// trusted by a verifier, no longer decodes. Decoding costs far less than the encode before it.
    private static func checkDecodes(_ data: Data?, file: URL?, format: ImageFormat) throws(CamStampError) {
        let name = format.rawValue.uppercased()
        let bytes: Data
        if let data {
            bytes = data
        } else if let file {
            do { bytes = try Data(contentsOf: file) } catch {
                throw .failure("cannot read the signed \(name) back: \(error.localizedDescription)")
            }
        } else {
            return
        }
        do { _ = try HEIFFile(bytes).decode() } catch {
            throw .failure(
                "cannot sign this picture as \(name): signed, it no longer decodes (\(error)); "
                    + "the C2PA SDK breaks the grid libheif wrote for it: sign it as JPEG or PNG (--format jpg)")
        }
    }

    /// A marked clip (`output`, a finished MP4 or MOV) signed into `signed`, a new file: `c2pa.opened`
    /// with `source` as its parent, the marks. Both are read where they lie. Returns the warning
    /// for a source whose manifest could not be carried, as `sign`'s.
    func signClip(
        _ output: URL, into signed: URL, format: String, source: URL, sourceFormat: String, marks: [Mark],
        metadataEdit: String?
    ) throws(CamStampError) -> String? {
        var draft = ManifestDraft(title: source.lastPathComponent, format: format, generator: (Self.generator, version))
        draft.opened(source: .file(source), title: source.lastPathComponent, format: sourceFormat)
        add(marks, to: &draft)
        if let metadataEdit { draft.editedMetadata(metadataEdit) }
        let carried = Self.clipCarriesManifest(source)
        return try carrying(carried, draft, mime: format, into: signed) { draft throws(CredentialsError) in
            try draft.sign(file: output, into: signed, with: signer)
            return nil
        }.warning
    }

    /// A captured photo, the temporary file `photo` that becomes the output, signed in place:
    /// `c2pa.created` (a digital capture at `date`), the marks; `invisible` as `sign`'s.
    func signCapture(
        _ photo: URL, format: ImageFormat, date: Date, marks: [Mark], invisible: String? = nil,
        instanceID: String? = nil
    ) throws(CamStampError) {
        var draft = ManifestDraft(
            title: photo.lastPathComponent, format: Self.mime(format), generator: (Self.generator, version))
        draft.instanceID = instanceID
        draft.created(when: date)
        add(marks, to: &draft)
        if let invisible { Self.watermarked(invisible, draft: &draft) }
        do {
            let signed = try draft.sign(try Data(contentsOf: photo), with: signer)
            if format == .heic || format == .avif { try Self.checkDecodes(signed, file: nil, format: format) }
            try signed.write(to: photo)
        } catch let error as CamStampError {
            throw error
        } catch let error as CredentialsError {
            throw .failure("photo: \(error.message)")
        } catch {
            throw .failure("photo: cannot sign \(photo.path): \(error.localizedDescription)")
        }
    }

    /// A finished recording signed where it lies: `c2pa.created`, the marks; written into a
    /// temporary file beside it and renamed over it.
    func signRecording(_ file: URL, marks: [Mark]) throws(CamStampError) {
        var draft = ManifestDraft(
            title: file.lastPathComponent, format: "video/mp4", generator: (Self.generator, version))
        draft.created()
        add(marks, to: &draft)
        let signed = TemporaryFiles.temporaryURL(in: file.deletingLastPathComponent(), for: file.lastPathComponent)
        TemporaryFiles.shared.add(signed)
        defer { TemporaryFiles.shared.remove(signed) }
        do { try draft.sign(file: file, into: signed, with: signer) } catch {
            try? FileManager.default.removeItem(at: signed)
            throw .failure("\(file.path): cannot sign it: \(error.message)")
        }
        guard rename(signed.path, file.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: signed)
            throw .failure("\(file.path): cannot sign it: \(reason)")
        }
    }

    /// The manifest of a photo whose invisible mark was made from `instanceID`: that id, the
    /// `c2pa.watermarked` action and the soft binding of the mark's payload.
    private static func watermarked(_ instanceID: String, draft: inout ManifestDraft) {
        draft.instanceID = instanceID
        draft.watermarked(algorithm: InvisibleMark.algorithm, payload: MarkPayload(instanceID: instanceID).bytes)
    }

    private func add(_ marks: [Mark], to draft: inout ManifestDraft) {
        for mark in marks {
            switch mark {
            case .text(let text): draft.addedText(text)
            case .qr(let text): draft.addedQRCode(text)
            case .image(let url):
                // A logo that cannot be read again is named by its action alone.
                if let bytes = try? Data(contentsOf: url) {
                    let svg = url.pathExtension.lowercased() == "svg"
                    draft.placed(bytes, title: url.lastPathComponent, format: svg ? "image/svg+xml" : "image/png")
                }
            }
        }
    }

    /// The marks a composition was drawn from, in order, each text once.
    static func marks(_ contents: [ResolvedMark.Content]) -> [Mark] {
        var marks: [Mark] = []
        for content in contents {
            let mark: Mark =
                switch content {
                case .text(let text, _): .text(text)
                case .image(let url): .image(url)
                case .qr(let text): .qr(text)
                }
            if !marks.contains(mark) { marks.append(mark) }
        }
        return marks
    }

    static func mime(_ format: ImageFormat) -> String {
        switch format {
        case .jpg: "image/jpeg"
        case .png: "image/png"
        case .webp: "image/webp"
        case .heic: "image/heic"
        case .tiff: "image/tiff"
        case .avif: "image/avif"
        }
    }

    /// The parent as the SDK is given it: a JPEG without a manifest, `scan` (its one scan, from
    /// the SOS marker to the EOI) left empty. The SDK reads a parent's XMP and looks for its
    /// manifest, and records nothing of its picture data when it has none (no hash; no thumbnail,
    /// which camstamp turns off), yet it read the whole photo twice to find that out. A parent with
    /// a manifest is given whole: the SDK checks its hash of the picture.
    static func parentView(_ source: Data, scan: Range<Int>?) -> Data {
        guard let scan, scan.lowerBound + 4 <= scan.upperBound, scan.upperBound <= source.count,
            !carriesManifest(source, skipping: scan)
        else { return source }
        let start = source.startIndex, sos = start + scan.lowerBound
        let length = Int(source[sos + 2]) << 8 | Int(source[sos + 3])
        guard sos + 2 + length <= start + scan.upperBound - 2 else { return source }
        var view = Data(capacity: scan.lowerBound + 2 + length + 2 + (source.count - scan.upperBound))
        view.append(source[start..<(sos + 2 + length)])
        view.append(contentsOf: [0xFF, 0xD9])
        view.append(source[(start + scan.upperBound)...])
        return view
    }

    /// Whether `data` carries a C2PA manifest store: a JUMBF description box of type c2pa
    /// (`jumd` then the type's first bytes, `c2pa`), wherever the format keeps it.
    /// Searched with memchr(3) and memcmp(3): `Data.range(of:)` compares byte by byte in Swift,
    /// and every photo's whole file is searched, less `skipping`: a JPEG's one scan, from its SOS
    /// marker to its EOI, which holds no segment (a box cannot straddle the markers at its ends:
    /// their bytes are no box's).
    static func carriesManifest(_ data: Data, skipping: Range<Int>? = nil) -> Bool {
        guard let skipping, skipping.lowerBound >= 0, skipping.upperBound <= data.count else {
            return carriesManifest(in: data)
        }
        let start = data.startIndex
        return carriesManifest(in: data[start..<(start + skipping.lowerBound)])
            || carriesManifest(in: data[(start + skipping.upperBound)...])
    }

    private static func carriesManifest(in data: Data) -> Bool {
        let box = Array("jumdc2pa".utf8)
        return data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress, raw.count >= box.count else { return false }
            let last = base + (raw.count - box.count)
            var from = base
            while from <= last, let hit = memchr(from, Int32(box[0]), last - from + 1) {
                if memcmp(hit, box, box.count) == 0 { return true }
                from = UnsafeRawPointer(hit) + 1
            }
            return false
        }
    }

    /// Whether an MP4 or MOV file carries a C2PA manifest store: a top-level `uuid` box of C2PA's
    /// type, found by reading the boxes' headers only.
    static func clipCarriesManifest(_ url: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        let c2pa: [UInt8] = [
            0xD8, 0xFE, 0xC3, 0xD6, 0x1B, 0x0E, 0x48, 0x3C, 0x92, 0x97, 0x58, 0x28, 0x87, 0x7E, 0xC4, 0x81,
        ]
        var offset: UInt64 = 0
        for _ in 0..<10_000 {
            guard (try? handle.seek(toOffset: offset)) != nil,
                let header = try? handle.read(upToCount: 32), header.count >= 8
            else { return false }
            let bytes = [UInt8](header)
            var size = bytes[0..<4].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            var body = 8
            if size == 1, bytes.count >= 16 {
                size = bytes[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                body = 16
            }
            if bytes[4..<8] == [0x75, 0x75, 0x69, 0x64], bytes.count >= body + 16,
                Array(bytes[body..<body + 16]) == c2pa
            {
                return true
            }
            guard size >= 8 else { return false }
            offset += size
        }
        return false
    }

    /// The warning for a source whose manifest an unsigned output leaves out.
    static let manifestDropped =
        "its Content Credentials (C2PA manifest) are left out: they would not match the marked output; "
        + "--sign carries them on as the signed output's parent ingredient"
}
