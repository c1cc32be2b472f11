// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

extension PipelineTemplate {
    /// The template filled in, as a fragment to place into another template: the stream's encode
    /// head (`stream-encode.pipeline`) goes into each one-target template's `{encode}` and into the
    /// composed output. Validated as `render` validates: only checked values went in.
    public func fragment(_ values: [String: Value]) throws(MediaError) -> LaunchFragment {
        LaunchFragment(try render(values).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
