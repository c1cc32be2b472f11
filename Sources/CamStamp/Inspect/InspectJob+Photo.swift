// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import Media
internal import PhotoMetadata
import Presets

extension InspectJob {
    /// A photo read by `PhotoFacts`, its path found by the worker batch uses (the coefficient
    /// stamp is tried in memory: only it knows whether a splice applies).
    func inspectPhoto(_ url: URL, data: Data, worker: PhotoWorker) throws(CamStampError) -> Inspection {
        let photo = try PhotoFacts(data)
        let upright =
            photo.orientation.swapsAxes ? (photo.height, photo.width) : (photo.width, photo.height)
        let captureDate = photo.dateTaken ?? modificationDate(url) ?? Date()
        let context = { (width: Int, height: Int) -> TemplateContext in
            var context = worker.marker.context(width: width, height: height, captureDate: captureDate)
            context.filename = url.lastPathComponent
            context.stem = url.deletingPathExtension().lastPathComponent
            context.counter = 1
            context.exif = photo.exifValues
            return context
        }
        let outputKind =
            switch options.format {
            case .keep: BatchPlan.keptKind(photo.kind)
            case .convert(let format): format
            }
        var notes = photo.metadataDamage + photo.notes
        if outputKind != photo.kind, options.format == .keep {
            notes.append("written as \(outputKind.name): this machine has no \(photo.kind.name) encoder")
        }
        var damage: String?
        let stamped = try worker.stampInCoefficients(
            data, photo: photo, outputKind: outputKind, context: context, notes: &notes, damage: &damage)
        let (path, reason) = Self.path(
            stamped.map { ($0.path, $0.spliceSkipped) },
            refusal: worker.coefficientPathRefusal(photo, outputKind: outputKind),
            damage: damage, notes: &notes)
        return Inspection(
            file: url.relativePath, kind: "photo", format: photo.kind.name, width: photo.width, height: photo.height,
            orientation: photo.orientation.rawValue, orientationMeaning: Inspection.meaning(photo.orientation.rawValue),
            uprightWidth: upright.0, uprightHeight: upright.1,
            variables: Self.variables(context(upright.0, upright.1)),
            metadata: Self.blocks(data, photo: photo).map {
                Inspection.Block(name: $0.name, detail: $0.detail, fate: $0.fate.rawValue, why: $0.why)
            },
            path: path.rawValue, reason: reason, notes: notes)
    }

    /// The path and batch's reason for it: the coefficient stamp's result, or why it was refused.
    static func path(
        _ stamped: (PhotoWorker.WritePath, String?)?, refusal: String?, damage: String?, notes: inout [String]
    ) -> (PhotoWorker.WritePath, String) {
        if let (path, skipped) = stamped {
            if path == .spliced {
                return (
                    path,
                    "a JPEG of one sequential scan: only the MCUs under the marks are coded again, the rest copied"
                )
            }
            return (
                path,
                "stamped in its DCT coefficients (only the 8×8 blocks under the marks change); not spliced: "
                    + (skipped ?? "the marks need codes its Huffman tables lack")
            )
        }
        if let refusal { return (.reencoded, refusal) }
        if let damage { return (.reencoded, "the picture data is damaged (\(damage)): decoded as far as it goes") }
        let prefix = "re-encoded, not stamped in its DCT coefficients: "
        if let index = notes.firstIndex(where: { $0.hasPrefix(prefix) }) {
            return (.reencoded, String(notes.remove(at: index).dropFirst(prefix.count)))
        }
        return (.reencoded, "decoded, marked and encoded again")
    }

    /// The values `{name}` would take: every built-in variable a photo has, its EXIF tags as
    /// `exif:TAG`, and the presets' variables.
    static func variables(_ context: TemplateContext, video: Bool = false) -> [String: String] {
        var values: [String: String] = [:]
        let videoOnly: Set<String> = ["frame", "fps", "timecode"]
        for name in Template.builtinNames where name != "exif" && (video || !videoOnly.contains(name)) {
            guard let template = try? Template("{\(name)}", variables: []) else { continue }
            let value = template.expand(context, escapingMarkup: false)
            if !value.isEmpty { values[name] = value }
        }
        for (tag, value) in context.exif { values["exif:\(tag)"] = value }
        for (name, value) in context.variables { values[name] = value }
        return values
    }

    /// The metadata blocks: segment by segment for JPEG and PNG, by kind for the other formats.
    static func blocks(_ data: Data, photo: PhotoFacts) -> [MetadataBlock] {
        switch photo.kind {
        case .jpg: return (try? MetadataInventory.blocks(jpeg: data)) ?? []
        case .png: return (try? MetadataInventory.blocks(png: data)) ?? []
        default:
            let metadata = photo.metadata
            var blocks: [MetadataBlock] = []
            if let exif = metadata.exif { blocks += MetadataInventory.exifBlocks(exif, "EXIF") }
            if let icc = metadata.icc {
                blocks.append(
                    MetadataBlock("ICC profile", "\(icc.count) bytes", .carried, "the colours are the photo's own"))
            }
            if let xmp = metadata.xmp {
                blocks.append(MetadataBlock("XMP", "\(xmp.count) bytes", .carried, "size and orientation updated"))
            }
            return blocks
        }
    }

    private func modificationDate(_ url: URL) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
    }
}
