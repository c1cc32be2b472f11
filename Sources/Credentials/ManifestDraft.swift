// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CC2PA
import Foundation

/// What a manifest will say, collected as camstamp works (actions, ingredients, assertions), then
/// signed into the asset in one step: the one place a manifest is made, so every job's manifest
/// has the same shape and a new assertion (a soft binding) is added here.
package struct ManifestDraft: Sendable {
    /// An asset the manifest names: the source (`parentOf`) or a logo placed on it (`componentOf`).
    /// A source that carries a manifest of its own keeps it as this ingredient's manifest.
    package struct Ingredient: Sendable {
        package var title: String
        package var format: String
        package var relationship: String
        package var asset: Asset
        /// The id the actions name it by.
        package var label: String
        /// What the ingredient's description says (why a parent is named only).
        package var description: String?

        /// The ingredient as the SDK's JSON has it.
        var json: JSONValue {
            var object: [String: JSONValue] = [
                "title": .string(title), "format": .string(format),
                "relationship": .string(relationship), "label": .string(label),
            ]
            object["description"] = description.map { .string($0) }
            return .object(object)
        }
    }

    /// An asset's bytes: in memory (a photo, a logo) or in a file (a clip, read where it lies).
    /// `named`: no bytes at all, the ingredient named by its title and type only, so nothing of
    /// it is read (no manifest, no XMP): a source whose manifest cannot be carried whole.
    package enum Asset: Sendable {
        case data(Data)
        case file(URL)
        case named

        func backing() throws(CredentialsError) -> StreamBacking? {
            switch self {
            case .data(let data): MemoryStream(data)
            case .file(let url): try FileStream(url, writing: false)
            case .named: nil
            }
        }
    }

    /// The asset's name and MIME type.
    package var title: String
    package var format: String
    /// The claim generator: camstamp and its version.
    package var generator: (name: String, version: String)
    package private(set) var actions: [JSONValue] = []
    package private(set) var ingredients: [Ingredient] = []
    package private(set) var assertions: [(label: String, data: JSONValue)] = []
    /// The manifest's instance id (`xmp:iid:…`); nil lets the SDK make one. An invisible mark's
    /// payload is made from it, so the mark names this manifest.
    package var instanceID: String?

    package init(title: String, format: String, generator: (name: String, version: String)) {
        self.title = title
        self.format = format
        self.generator = generator
    }

    /// `c2pa.opened`: the asset was made from `source`, its parent.
    package mutating func opened(source: Asset, title: String, format: String) {
        let label = "parent"
        ingredients.append(
            Ingredient(title: title, format: format, relationship: "parentOf", asset: source, label: label))
        actions.append(["action": "c2pa.opened", "parameters": ["ingredientIds": [.string(label)]]])
    }

    /// The parent named only (`Asset.named`), without its bytes and so without the manifest they
    /// carry; `why` is said in the ingredient's description.
    package mutating func nameParentOnly(because why: String) {
        for index in ingredients.indices where ingredients[index].relationship == "parentOf" {
            ingredients[index].asset = .named
            ingredients[index].description = why
        }
    }

    /// `c2pa.created`: a camera capture (`digitalCapture`), the first of its kind.
    package mutating func created(when: Date? = nil) {
        var action: [String: JSONValue] = [
            "action": "c2pa.created",
            "digitalSourceType": "http://cv.iptc.org/newscodes/digitalsourcetype/digitalCapture",
        ]
        if let when { action["when"] = .string(Self.timestamp(when)) }
        actions.append(.object(action))
    }

    /// `c2pa.addedText`: a mark's text, as it was drawn.
    package mutating func addedText(_ text: String) {
        actions.append(["action": "c2pa.addedText", "description": .string(text)])
    }

    /// `c2pa.edited`: a QR code of `text` drawn on the asset (no action of C2PA's says it better).
    package mutating func addedQRCode(_ text: String) {
        actions.append(["action": "c2pa.edited", "description": .string("QR code: \(text)")])
    }

    /// `c2pa.placed`: an image (a logo) placed on the asset, named as a `componentOf` ingredient.
    package mutating func placed(_ image: Data, title: String, format: String) {
        let label = "component\(ingredients.count)"
        ingredients.append(
            Ingredient(title: title, format: format, relationship: "componentOf", asset: .data(image), label: label))
        actions.append(["action": "c2pa.placed", "parameters": ["ingredientIds": [.string(label)]]])
    }

    /// `c2pa.edited.metadata`: the spec's action for metadata edits (GPS removed, values written).
    package mutating func editedMetadata(_ description: String) {
        actions.append(["action": "c2pa.edited.metadata", "description": .string(description)])
    }

    /// An assertion of any label: a soft binding, camstamp's own records.
    package mutating func add(assertion label: String, data: JSONValue) {
        assertions.append((label, data))
    }

    /// `c2pa.watermarked` and the `c2pa.soft-binding` assertion that records the mark: `algorithm`
    /// and the `payload` bytes it carries, over the whole asset (an empty scope). The value goes in
    /// as an array of byte values: JSON has no byte string, and the SDK's soft-binding type reads an
    /// array into the bytes the spec's `bstr` holds (its reader shows them in base64).
    package mutating func watermarked(algorithm: String, payload: [UInt8]) {
        actions.append(["action": "c2pa.watermarked", "description": "an invisible mark naming this manifest"])
        let value = JSONValue.array(payload.map { .number(Double($0)) })
        add(
            assertion: "c2pa.soft-binding",
            data: ["alg": .string(algorithm), "blocks": [["scope": [:], "value": value]]])
    }

    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    /// The manifest definition the SDK's builder takes.
    var definition: JSONValue {
        var all: [JSONValue] = [["label": "c2pa.actions.v2", "data": ["actions": .array(actions)]]]
        all += assertions.map { ["label": .string($0.label), "data": $0.data] }
        var definition: [String: JSONValue] = [
            "title": .string(title), "format": .string(format),
            "claim_generator_info": [["name": .string(generator.name), "version": .string(generator.version)]],
            "assertions": .array(all),
        ]
        let named = ingredients.filter { if case .named = $0.asset { true } else { false } }
        if !named.isEmpty { definition["ingredients"] = .array(named.map(\.json)) }
        definition["instance_id"] = instanceID.map { .string($0) }
        return .object(definition)
    }

    /// `asset` (in `format`) with this manifest signed into it: the last write of an output.
    package func sign(_ asset: Data, with signer: C2PASigner) throws(CredentialsError) -> Data {
        try sign(asset, with: signer, context: signer.context)
    }

    func sign(_ asset: Data, with signer: C2PASigner, context: OpaquePointer) throws(CredentialsError) -> Data {
        // The manifest is tens of kilobytes (no thumbnail): the output is the asset and a little more.
        let output = MemoryStream(capacity: asset.count + (256 << 10))
        try sign(MemoryStream(asset), into: output, with: signer, context: context)
        return output.data
    }

    /// `asset` signed into the file `output`, a new file (it must not exist).
    package func sign(_ asset: Data, intoFile output: URL, with signer: C2PASigner) throws(CredentialsError) {
        try sign(parts: [asset], intoFile: output, with: signer)
    }

    /// The asset whose bytes are `parts`, one after the other, signed, in memory. `jpegManifestAt`:
    /// a JPEG whose manifest camstamp embeds there itself (`sign(jpeg:manifestAt:with:)`).
    package func sign(
        parts: [Data], jpegManifestAt offset: Int? = nil, with signer: C2PASigner
    )
        throws(CredentialsError) -> Data
    {
        if let offset { return Data(try sign(jpeg: parts, manifestAt: offset, with: signer).joined()) }
        let output = MemoryStream(capacity: parts.reduce(0) { $0 + $1.count } + (256 << 10))
        try sign(PartsStream(parts), into: output, with: signer, context: signer.context)
        return output.data
    }

    /// The asset whose bytes are `parts`, one after the other, signed into the file `output`, a
    /// new file (it must not exist); the parts are read in place, not joined.
    package func sign(
        parts: [Data], jpegManifestAt offset: Int? = nil, intoFile output: URL, with signer: C2PASigner
    )
        throws(CredentialsError)
    {
        if let offset { return try sign(jpeg: parts, manifestAt: offset, intoFile: output, with: signer) }
        let destination = try FileStream(output, writing: true)
        try sign(PartsStream(parts), into: destination, with: signer, context: signer.context)
    }

    /// The file `asset` signed into `output`, a new file (it must not exist); read and written
    /// through their descriptors, never whole in memory.
    package func sign(file asset: URL, into output: URL, with signer: C2PASigner) throws(CredentialsError) {
        let destination = try FileStream(output, writing: true)
        try sign(try FileStream(asset, writing: false), into: destination, with: signer, context: signer.context)
        try destination.synchronize()
    }

    private func sign(
        _ source: StreamBacking, into output: StreamBacking, with signer: C2PASigner, context: OpaquePointer
    ) throws(CredentialsError) {
        let library = signer.library
        let builder = try builder(library, context: context)
        defer { _ = library.free(UnsafeRawPointer(builder)) }
        let written = try source.withStream(library) { (source) throws(CredentialsError) -> Int64 in
            try output.withStream(library) { (destination) throws(CredentialsError) -> Int64 in
                var manifest: UnsafePointer<UInt8>?
                defer { if let manifest { _ = library.free(manifest) } }
                return library.builderSign(builder, format, source, destination, signer.signer, &manifest)
            }
        }
        guard written >= 0 else { throw library.failure("c2pa: cannot sign \(title)") }
    }

    /// The SDK's builder of this manifest, its ingredients added (the caller frees it).
    func builder(_ library: C2PALibrary, context: OpaquePointer) throws(CredentialsError) -> OpaquePointer {
        guard let fresh = library.builderFromContext(context) else { throw library.failure("c2pa: builder") }
        guard let builder = library.builderWithDefinition(fresh, definition.text) else {
            throw library.failure("c2pa: the manifest")
        }
        do {
            for ingredient in ingredients { try add(ingredient, to: builder, library) }
        } catch {
            _ = library.free(UnsafeRawPointer(builder))
            throw error
        }
        return builder
    }

    private func add(
        _ ingredient: Ingredient, to builder: OpaquePointer, _ library: C2PALibrary
    )
        throws(CredentialsError)
    {
        // A named one is in the definition already.
        guard let backing = try ingredient.asset.backing() else { return }
        let added = try backing.withStream(library) { stream in
            library.builderAddIngredient(builder, ingredient.json.text, ingredient.format, stream)
        }
        guard added == 0 else {
            let reason = library.take(library.error()) ?? "unknown error"
            var failure = library.failure("c2pa: ingredient \(ingredient.title)", reason: reason)
            if ingredient.relationship == "parentOf" {
                failure.parentManifest = C2PALibrary.plain(reason, fallback: reason)
            }
            throw failure
        }
    }
}
