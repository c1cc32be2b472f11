// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import Media
import Presets

extension PhotoWorker {
    /// One photo stamped in memory, as `stamp(_:outputKind:filename:fallbackDate:counter:)` gives it.
    struct Stamped {
        /// The output's bytes in parts, in order (a JPEG's header, then its scan as the stamp
        /// left it): written one after the other, joined only for whoever needs them whole.
        var parts: [Data]
        /// The output's bytes whole.
        var data: Data {
            guard parts.count != 1 else { return parts[0] }
            return parts.reduce(into: Data(capacity: parts.reduce(0) { $0 + $1.count })) { $0.append($1) }
        }
        var kind: ImageFormat
        var width: Int
        var height: Int
        var warnings: [String]
        /// Stamped in the DCT coefficients, or decoded and re-encoded.
        var path: WritePath
        /// The invisible mark written (`--invisible`), nil without one.
        var invisible: InvisibleMarkInfo? = nil
        /// The output's instance id: its XMP's (when the source's XMP has one), the invisible
        /// mark's, and the manifest's with `--sign`.
        var instanceID: String
        /// Stamped in its coefficients with --sign: the blocks changed, for the manifest's record.
        var blocks: JPEGBlockRecord? = nil
        /// The source's one scan (`PhotoFacts.singleScan`), which its manifest search skips.
        var sourceScan: Range<Int>? = nil
    }

    /// Reads, orients, marks and encodes one photo's bytes and carries its metadata, without
    /// touching the file system (`process(_:)` reads and writes around it). `outputKind` nil keeps
    /// the photo's own format; `filename` feeds `{filename}`/`{stem}`; a photo without a
    /// DateTimeOriginal is dated `fallbackDate` (now when nil). `named` is the kind a file's name
    /// says, for a note when its content differs; `strictOption` names the setting in a failure.
    func stamp(
        _ bytes: Data, outputKind: ImageFormat?, filename: String?, fallbackDate: Date?, counter: Int?,
        named: (kind: ImageFormat, pathExtension: String)? = nil,
        strictOption: String = "strict"
    ) throws(CamStampError) -> Stamped {
        // PhotoFacts counts offsets from 0: a slice of a larger Data is copied to its own.
        let data = bytes.startIndex == 0 ? bytes : Data(bytes)
        let photo = try PhotoFacts(data, maxPixels: max(BatchOptions.maxPixels, settings.maxDecodedPixels))
        var notes = photo.notes
        // Notes are said in the warning line; damage also fails the photo under strict.
        var damage = photo.metadataDamage
        let keepsFormat = outputKind == nil
        let outputKind = outputKind ?? BatchPlan.keptKind(photo.kind)
        notes += outputNotes(photo, data, outputKind: outputKind, keepsFormat: keepsFormat, named: named)
        let captureDate = photo.dateTaken ?? fallbackDate ?? Date()
        let marker = self.marker
        // The output is a new instance: one id for its XMP, its invisible mark (--json prints it
        // beside the payload), its manifest and its proof code, chosen before any mark is drawn.
        let outputID = InvisibleMarking.newInstanceID()
        let credentials = settings.credentials
        // What a mark (and a --set-metadata value) can refer to, for this photo at this size.
        let context = { (width: Int, height: Int) -> TemplateContext in
            var context = marker.context(width: width, height: height, captureDate: captureDate)
            context.filename = filename
            context.stem = filename.map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent }
            context.counter = counter
            context.exif = photo.exifValues
            context.takeLocation(fromEXIF: photo.exifValues, fields: marker.preset.locationFields)
            credentials?.proof(&context, instanceID: outputID)
            return context
        }
        var found: String?
        let instanceID = settings.invisible ? outputID : nil
        let coefficients = try stampInCoefficients(
            data, photo: photo, outputKind: outputKind, context: context,
            notes: &notes, damage: &found)
        if settings.strict, let found {
            // Said as the decoding path says it, without decoding a photo that fails anyway.
            let said = ["the picture data is damaged (\(found))"] + damage
            throw .failure(said.joined(separator: "; ") + "; not stamped (\(strictOption))")
        }
        var decoded: (output: PipelineOutput, warning: String?)
        if let coefficients {
            decoded = (.encoded(coefficients.data), nil)
        } else {
            decoded = try reencode(
                data, photo: photo, outputKind: outputKind, damage: found, context: context, instanceID: instanceID)
        }
        // jpegdec decodes damaged data without a word: libjpeg's warning from the coefficient
        // path says it then.
        decoded.warning = decoded.warning ?? found
        if let warning = decoded.warning { damage.insert("the picture data is damaged (\(warning))", at: 0) }
        if settings.strict, !damage.isEmpty {
            throw .failure(damage.joined(separator: "; ") + "; not stamped (\(strictOption))")
        }
        if decoded.warning != nil { damage[0] += "; stamped as far as it decodes" }
        let size = outputSize(photo)
        var edits = try settings.setMetadata.edits(for: context(size.width, size.height))
        // Stamped in its coefficients, the photo keeps its stored layout: the Orientation tag stays.
        edits.keepsOrientation = coefficients != nil
        edits.instanceID = outputID
        let output: (parts: [Data], warnings: [String])
        switch decoded.output {
        case .encoded(let encoded):
            output = try photo.withMetadata(encoded, kind: outputKind, policy: settings.metadata, edits: edits)
        case .raw(let image):
            let encoded = try encode(image, as: outputKind, photo: photo, edits: edits)
            output = ([encoded.data], encoded.warnings)
        }
        return Stamped(
            parts: output.parts, kind: outputKind, width: size.width, height: size.height,
            warnings: damage + notes + output.warnings, path: coefficients?.path ?? .reencoded,
            invisible: instanceID.map { InvisibleMarkInfo(instanceID: $0) }, instanceID: outputID,
            blocks: coefficients?.blocks, sourceScan: photo.singleScan)
    }

    /// What the output does not keep of `photo` or keeps otherwise, for its warning line: a
    /// content its file's name belies, a format this machine cannot write, transparency, gamma,
    /// and bytes after the picture.
    private func outputNotes(
        _ photo: PhotoFacts, _ data: Data, outputKind: ImageFormat, keepsFormat: Bool,
        named: (kind: ImageFormat, pathExtension: String)?
    ) -> [String] {
        var notes: [String] = []
        if let named, photo.kind != named.kind {
            let name = photo.kind.name
            notes.append(
                "the file is a \(name) despite its .\(named.pathExtension) name; read as \(name)"
                    + (keepsFormat && outputKind == photo.kind
                        ? " and written as \(name) under the name the input has" : ""))
        }
        if keepsFormat, outputKind != photo.kind {
            notes.append("written as JPEG: this machine's libheif has no \(photo.kind.name) encoder")
        }
        if photo.hasAlpha, outputKind == .jpg { notes.append("its transparency is not kept (a JPEG has none)") }
        // A PNG output carries the gAMA chunk; other formats have no place for it.
        if let gamma = photo.pngGamma, outputKind != .png, settings.metadata != .stripAll {
            notes.append(
                "its PNG gamma (gAMA \(gamma); sRGB's is 0.45455) is not carried into \(outputKind.name): "
                    + "viewers show it with sRGB's tone curve, lighter or darker than the PNG; --format png keeps it")
        }
        if data[photo.pictureBytes.upperBound...].contains(where: { $0 != 0 && $0 != 0xFF }) {
            notes.append(
                "\(data.count - photo.pictureBytes.upperBound) bytes after the picture's end (such as a motion photo's video) are not carried to the output"
            )
        }
        return notes
    }

    /// The photo decoded, marked and encoded again. `damage`: what libjpeg found on the coefficient
    /// path (a frame larger than its data, say), which is then why a decoder fails, whatever its
    /// own words (GStreamer's "Internal data stream error").
    private func reencode(
        _ data: Data, photo: PhotoFacts, outputKind: ImageFormat, damage: String?,
        context: @escaping (Int, Int) -> TemplateContext, instanceID: String?
    )
        throws(CamStampError) -> (output: PipelineOutput, warning: String?)
    {
        if let why = photo.jpeg?.undecodable {
            throw .failure(
                "cannot decode this JPEG: \(why); it is stamped only as a JPEG of its own size and quality "
                    + "(without --reencode, --format, --max-size, --quality or --invisible)")
        }
        let marker = self.marker
        do {
            // Runs on the pipeline's streaming thread, while this thread waits for the result.
            return try run(data, photo: photo, outputKind: outputKind) { (frame: VideoFrame) -> Error? in
                do {
                    try marker.mark(frame, context: context(frame.width, frame.height))
                    // After the visible marks, so that it is in what they left.
                    if let instanceID { try InvisibleMarking.embed(instanceID: instanceID, into: frame) }
                } catch {
                    return MarkFailure(error: error)
                }
                return nil
            }
        } catch  where damage != nil && !error.message.hasPrefix(Self.cannotMark) {
            throw .failure("the picture data is damaged beyond repair (\(damage ?? ""))")
        }
    }
}
