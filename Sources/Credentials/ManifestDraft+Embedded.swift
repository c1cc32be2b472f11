// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CC2PA
import Foundation

/// A JPEG signed by camstamp's own embedding: the SDK composes a placeholder of the manifest (its
/// APP11 segments), camstamp puts it between the parts of the photo it already holds, the SDK hashes
/// the photo around it and signs, and the signed manifest, the placeholder's size exactly, takes
/// its place. Nothing of the photo is copied or written twice: the SDK's own embedding (`sign`)
/// reads the whole photo into a buffer, parses it into segments, writes it out with a placeholder
/// and again with the manifest, a few copies of 4 MB a 12 MP photo, which cost signing a quarter
/// of a spliced batch's time.
extension ManifestDraft {
    /// The JPEG whose bytes are `parts` signed, the manifest put in at `offset` (a segment boundary
    /// of its header: after its JFIF segment, where the SDK puts it, or after SOI). The photo must
    /// carry no manifest of its own (camstamp's outputs never do: the source's is the parent's).
    /// Returns the parts with the manifest between them, never joined.
    package func sign(
        jpeg parts: [Data], manifestAt offset: Int, with signer: C2PASigner
    )
        throws(CredentialsError) -> [Data]
    {
        // The hash assertion sized as the signed one will be: one exclusion, a hash of 32 bytes.
        // (The SDK's own placeholder holds ten exclusions and its signed manifest is padded with
        // zeros to the placeholder's size, which exiftool reads as a broken JUMBF box.) The
        // exclusion's length is guessed first and set once the placeholder's size is known: a
        // guess of the same CBOR width gives the same size.
        var guess = 4096
        for _ in 0..<2 {
            var sized = self
            sized.add(assertion: "c2pa.hash.data", data: Self.dataHash(start: offset, length: guess))
            switch try sized.embedded(parts, at: offset, guess: guess, with: signer) {
            case .signed(let signed): return signed
            case .placeholder(let size): guess = size
            case .unfilled: return [try sign(parts: parts, with: signer)]
            }
        }
        // Sizes that would not settle (no such manifest is known): the SDK embeds it itself.
        return [try sign(parts: parts, with: signer)]
    }

    private enum Embedding {
        case signed([Data])
        /// The guess in the hash assertion was of another CBOR width than the placeholder's size.
        case placeholder(Int)
        /// The signed manifest does not fill its place exactly (zeros after its JUMBF box).
        case unfilled
    }

    private func embedded(
        _ parts: [Data], at offset: Int, guess: Int, with signer: C2PASigner
    ) throws(CredentialsError) -> Embedding {
        let library = signer.library
        let builder = try builder(library, context: signer.context)
        defer { _ = library.free(UnsafeRawPointer(builder)) }
        let placeholder = try Self.taken(library, "c2pa: the manifest's placeholder") { bytes in
            library.builderPlaceholder(builder, format, &bytes)
        }
        guard Self.cborWidth(guess) == Self.cborWidth(placeholder.count) else { return .placeholder(placeholder.count) }
        let (before, after) = Self.split(parts, at: offset)
        var exclusion: [UInt64] = [UInt64(offset), UInt64(placeholder.count)]
        guard library.builderSetExclusions(builder, &exclusion, 1) == 0 else {
            throw library.failure("c2pa: the manifest's place")
        }
        let hashed = try PartsStream(before + [placeholder] + after).withStream(library) { stream in
            library.builderUpdateHash(builder, format, stream)
        }
        guard hashed == 0 else { throw library.failure("c2pa: cannot hash \(title)") }
        let manifest = try Self.taken(library, "c2pa: cannot sign \(title)") { bytes in
            library.builderSignEmbeddable(builder, format, &bytes)
        }
        guard manifest.count == placeholder.count, Self.fillsItsSegments(manifest) else { return .unfilled }
        return .signed(before + [manifest] + after)
    }

    /// The SDK's hash assertion (`c2pa.hash.data`) as its JSON has it, the hash not yet made.
    static func dataHash(start: Int, length: Int) -> JSONValue {
        [
            "alg": "sha256", "name": "jumbf manifest", "pad": [],
            "exclusions": [["start": .number(Double(start)), "length": .number(Double(length))]],
            "hash": .array(Array(repeating: .number(0), count: 32)),
        ]
    }

    /// The bytes CBOR spends on an unsigned integer.
    static func cborWidth(_ value: Int) -> Int {
        value < 24 ? 1 : value < 256 ? 2 : value < 65536 ? 3 : value < 1 << 32 ? 5 : 9
    }

    /// True when a composed manifest's APP11 segments hold its JUMBF box exactly, no zeros after
    /// it: each segment has `JP`, its instance, its sequence number, and after the first the
    /// box's LBox and TBox again (ISO 19566-5).
    static func fillsItsSegments(_ composed: Data) -> Bool {
        let bytes = [UInt8](composed)
        var at = 0
        var carried = 0
        var box: Int?
        while at + 4 <= bytes.count {
            guard bytes[at] == 0xFF, bytes[at + 1] == 0xEB else { return false }
            let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            let header = box == nil ? 8 : 16
            guard length >= 2 + header, at + 2 + length <= bytes.count else { return false }
            if box == nil {
                guard length >= 2 + 8 + 4 else { return false }
                box = bytes[at + 12..<at + 16].reduce(0) { $0 << 8 | Int($1) }
            }
            carried += length - 2 - header
            at += 2 + length
        }
        return at == bytes.count && carried == box
    }

    /// As `sign(jpeg:manifestAt:with:)`, written into the file `output`, a new file (it must not exist).
    package func sign(
        jpeg parts: [Data], manifestAt offset: Int, intoFile output: URL, with signer: C2PASigner
    )
        throws(CredentialsError)
    {
        let signed = try sign(jpeg: parts, manifestAt: offset, with: signer)
        let destination = try FileStream(output, writing: true)
        for part in signed {
            let written = part.withUnsafeBytes { destination.write($0) }
            guard written == part.count else {
                throw CredentialsError("cannot write \(output.path): \(String(cString: strerror(errno)))")
            }
        }
    }

    /// The bytes a call hands back (their length its result, -1 on failure), copied and freed.
    private static func taken(
        _ library: C2PALibrary, _ doing: String, _ call: (inout UnsafePointer<UInt8>?) -> Int64
    ) throws(CredentialsError) -> Data {
        var bytes: UnsafePointer<UInt8>?
        let count = call(&bytes)
        defer { if let bytes { _ = library.free(bytes) } }
        guard count > 0, let bytes else { throw library.failure(doing) }
        return Data(bytes: bytes, count: Int(count))
    }

    /// `parts` cut at `offset` of their bytes taken as one: the parts before it and after it,
    /// sharing the parts' storage (a cut part becomes two slices of it).
    static func split(_ parts: [Data], at offset: Int) -> (before: [Data], after: [Data]) {
        var before: [Data] = []
        var after: [Data] = []
        var start = 0
        for part in parts {
            let cut = min(max(offset - start, 0), part.count)
            if cut > 0 { before.append(part.prefix(cut)) }
            if cut < part.count { after.append(part.dropFirst(cut)) }
            start += part.count
        }
        return (before, after)
    }
}
