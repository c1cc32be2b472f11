// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import PhotoMetadata
import Presets

/// The `--set-metadata` values, parsed once when the batch starts (an unknown variable is a usage
/// error there, as in a mark) and expanded for each photo with the context its marks get.
struct MetadataTemplates: Sendable {
    private let templates: [(key: MetadataAssignment.Key, template: Template)]

    /// `variables` are the names a mark may use besides the built-in ones: the preset's and `--var`.
    init(_ assignments: [MetadataAssignment], variables: Set<String>) throws(CamStampError) {
        var templates: [(key: MetadataAssignment.Key, template: Template)] = []
        for assignment in assignments {
            // The same bound as a mark's text: a credit is a line, and one too long for the EXIF
            // segment would cost the photo its whole EXIF.
            guard assignment.template.count <= Self.maxCharacters else {
                throw .usage(
                    "--set-metadata \(assignment.key.rawValue): the value has \(assignment.template.count) characters, "
                        + "more than the \(Self.maxCharacters) a credit may have")
            }
            do {
                templates.append((assignment.key, try Template(assignment.template, variables: variables)))
            } catch {
                throw .usage("--set-metadata \(assignment.key.rawValue): \(error)")
            }
        }
        self.templates = templates
    }

    /// The most characters a value may have, before and after expansion (a mark's own bound).
    static let maxCharacters = Mark.maxTextCharacters

    /// The values for one photo; a later assignment of a key wins, and one that expands to nothing
    /// writes nothing (the photo keeps what it had). A value that a long variable (`{exif:…}`)
    /// makes too long fails the photo, as an over-long mark does, rather than its EXIF.
    func edits(for context: TemplateContext) throws(CamStampError) -> MetadataEdits {
        var edits = MetadataEdits()
        for (key, template) in templates {
            let value = template.expand(context, escapingMarkup: false)
            guard value.count <= Self.maxCharacters else {
                throw .failure(
                    "--set-metadata \(key.rawValue): the value has \(value.count) characters once its variables are "
                        + "filled in, more than the \(Self.maxCharacters) a credit may have")
            }
            let text = value.isEmpty ? nil : value
            switch key {
            case .artist: edits.artist = text ?? edits.artist
            case .copyright: edits.copyright = text ?? edits.copyright
            }
        }
        return edits
    }
}
