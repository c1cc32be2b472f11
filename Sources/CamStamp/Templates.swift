import Foundation
internal import Media

/// Loads pipeline templates: the user's own (`--pipeline`) or a shipped one from `pipelines/`.
enum Templates {
    static func load(_ custom: URL?, builtIn name: String, resources: Resources?) throws(CamStampError) -> PipelineTemplate {
        let url: URL
        if let custom {
            url = custom
        } else {
            guard let resources else { throw Resources.notFound() }
            url = resources.pipeline(name)
        }
        Verbosity.log("pipeline template \(name): \(url.path)")
        do { return try PipelineTemplate(contentsOf: url) } catch {
            throw custom == nil ? .failure(error.description) : .usage("--pipeline: \(error)")
        }
    }
}
