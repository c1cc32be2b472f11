// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// What a path names now, links followed: the one "does it exist, and is it a folder?" check, so
/// that a missing path and a file where a folder is wanted (or the other way round) are told
/// apart the same way in every layer.
package enum PathKind: Sendable, Equatable {
    /// Nothing is there (or it cannot be seen: a folder on the way is not searchable).
    case missing
    /// A folder.
    case folder
    /// Anything else: a file, a device, a FIFO.
    case file

    /// What is at `url`'s path.
    package init(of url: URL) { self.init(atPath: url.path) }

    /// What is at `path`.
    package init(atPath path: String) {
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            self = .missing
        } else {
            self = isDirectory.boolValue ? .folder : .file
        }
    }
}
