// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Presets

/// `batch PHOTO -o FILE` and `batch PHOTO -o -`: one photo into one file, or onto stdout, where
/// `-o` otherwise names the folder a batch writes into.
public enum BatchSingleOutput: Sendable, Equatable {
    /// The file, written as a batch writes (a temporary moved into place; `--overwrite` to replace).
    case file(URL)
    /// The photo's bytes on stdout, nothing else (messages go to stderr), as `shoot -o -`.
    case standardOutput

    /// The extensions that make `-o` a photo file rather than a folder, and the format each names.
    public static let fileFormats: [String: ImageFormat] = [
        "jpg": .jpg, "jpeg": .jpg, "png": .png, "webp": .webp, "heic": .heic, "tif": .tiff, "tiff": .tiff,
        "avif": .avif,
    ]

    /// What `-o` means, when it names one output rather than a folder: `-`, or a path with a photo
    /// extension that is not a folder already (a folder `out.jpg/` from an earlier run stays one).
    public init?(output: String) {
        if output == "-" {
            self = .standardOutput
            return
        }
        let url = URL(fileURLWithPath: output)
        guard !output.hasSuffix("/"), PathKind(of: url) != .folder,
            Self.fileFormats[url.pathExtension.lowercased()] != nil
        else { return nil }
        self = .file(url)
    }

    /// The format the file's extension names; nil for stdout (the photo's own, or --format).
    public var format: ImageFormat? {
        guard case .file(let url) = self else { return nil }
        return Self.fileFormats[url.pathExtension.lowercased()]
    }

    /// Where the plan says the output goes (for stdout, a name in messages only).
    var url: URL {
        switch self {
        case .file(let url): url.standardizedFileURL
        case .standardOutput: URL(fileURLWithPath: "/dev/stdout")
        }
    }

    /// `-o NAME` as typed, for messages.
    var option: String {
        switch self {
        case .file(let url): "-o \(url.lastPathComponent)"
        case .standardOutput: "-o -"
        }
    }

    /// Why `inputs` cannot go to one output: several of them, or a folder; nil for one photo.
    func refusal(_ inputs: [URL]) -> String? {
        let remedy = "for more, make -o a folder (end it with /)"
        if inputs.count != 1 {
            return "\(option) takes one photo, not \(inputs.count) inputs; \(remedy)"
        }
        if PathKind(of: inputs[0]) == .folder {
            return "\(option) takes one photo, not the folder \(inputs[0].path); \(remedy)"
        }
        return nil
    }
}
