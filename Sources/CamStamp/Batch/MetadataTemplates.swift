import Foundation
import PhotoMetadata
import Presets

/// The `--set-metadata` values, parsed once when the batch starts (an unknown variable is a usage
/// error there, as in a mark) and expanded for each photo with the context its marks get.
struct MetadataTemplates: Sendable {
    private let templates: [(key: MetadataAssignment.Key, template: Template)]

    /// `variables` are the names a mark may use besides the built-in ones: the preset's and `--var`.
    init(_ assignments: [MetadataAssignment], variables: Set<String>) throws(CamStampError) {
        var templates: [(key: MetadataAssignment.Key, template: Template)] = []
        for assignment in assignments {
            do {
                templates.append((assignment.key, try Template(assignment.template, variables: variables)))
            } catch {
                throw .usage("--set-metadata \(assignment.key.rawValue): \(error)")
            }
        }
        self.templates = templates
    }

    /// The values for one photo; a later assignment of a key wins, and one that expands to nothing
    /// writes nothing (the photo keeps what it had).
    func edits(for context: TemplateContext) -> MetadataEdits {
        var edits = MetadataEdits()
        for (key, template) in templates {
            let value = template.expand(context, escapingMarkup: false)
            let text = value.isEmpty ? nil : value
            switch key {
            case .artist: edits.artist = text ?? edits.artist
            case .copyright: edits.copyright = text ?? edits.copyright
            }
        }
        return edits
    }
}
