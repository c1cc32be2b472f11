// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import Media
import Presets

/// Loads pipeline templates: the user's own (`--pipeline`) or a shipped one from `pipelines/`.
enum Templates {
    static func load(
        _ custom: URL?, builtIn name: String, resources: Resources?
    ) throws(CamStampError) -> PipelineTemplate {
        let url: URL
        if let custom {
            url = custom
        } else {
            guard let resources else { throw Resources.notFound() }
            url = resources.pipeline(name)
        }
        Verbosity.log("pipeline template \(name): \(url.path)")
        func failure(_ why: String) -> CamStampError {
            custom == nil
                ? .failure("\(url.path): \(why)")
                : .usage("--pipeline: \(url.path): \(why); give a pipeline template file")
        }
        // Only a regular file: a FIFO given to --pipeline would wait for a writer forever.
        let data: Data
        do { data = try RegularFile.contents(of: url) } catch { throw failure(error.description) }
        guard let text = String(data: data, encoding: .utf8) else { throw failure("is not UTF-8 text") }
        return PipelineTemplate(fileText: text, origin: url.path)
    }
}
