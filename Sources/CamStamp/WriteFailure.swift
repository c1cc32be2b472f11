// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import Media

extension CamStampError {
    /// A GStreamer sink that could not write `path` (a full disk, a folder made read-only
    /// meanwhile), said in one line that names the file and what to do instead of GStreamer's
    /// element path and C source file; nil when `error` is not such a failure.
    static func unwritable(_ error: Error, path: String, what: String, option: String) -> CamStampError? {
        guard let media = error as? MediaError else { return nil }
        switch media.resourceProblem {
        case .noSpaceLeft?:
            return .failure(
                "\(path): cannot write \(what) (the disk is full); free some space or choose another \(option)")
        case .cannotWrite?, .permissionDenied?:
            let reason = media.systemReason.map { $0.prefix(1).lowercased() + $0.dropFirst() } ?? "\(media)"
            return .failure("\(path): cannot write \(what) (\(reason)); choose another \(option)")
        default:
            return nil
        }
    }
}
