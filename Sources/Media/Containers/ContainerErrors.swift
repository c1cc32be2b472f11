// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import ISOBMFF

extension MediaError {
    /// The error a user sees for the ISOBMFF room's `error`: the case of the same name.
    init(_ error: ContainerError) {
        switch error {
        case .editList(let reason): self = .editList(reason: reason)
        case .metadata(let file, let reason): self = .metadata(file: file, reason: reason)
        }
    }
}
