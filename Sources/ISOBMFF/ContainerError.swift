// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
/// Why a clip's boxes could not be rewritten; Media turns each into the `MediaError` of the same
/// name, which is what a user sees.
package enum ContainerError: Error, Equatable {
    /// The sound's edit list could not be put back into an output (`ClipAudioEdit`,
    /// `FragmentedSoundEdit`).
    case editList(reason: String)
    /// A clip's container metadata could not be carried into its output `file` (`ContainerMetadata`).
    case metadata(file: String, reason: String)
}
