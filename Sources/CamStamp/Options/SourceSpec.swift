// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// Where frames come from (`--source`).
public enum SourceSpec: Sendable, Equatable {
    /// The first camera found; the job reports a clear error when there is none.
    case auto
    /// The built-in moving test pattern.
    case test
    /// A V4L2 device node such as `/dev/video0`.
    case v4l2(device: String)
    /// A video file played as if it were a camera.
    case file(URL)
    /// A camera by the name `camstamp devices` prints (`HD Webcam`): exact, else a unique
    /// case-insensitive prefix or part of one; resolved when the job starts.
    case named(String)

    /// Parses `auto`, `test`, `/dev/videoN`, `v4l2:/dev/videoN`, `file:PATH`, or else a camera name.
    public init(parsing text: String, option: String = "--source") throws {
        let expected = "auto, test, /dev/videoN, v4l2:/dev/videoN, file:PATH or a camera name"
        switch text {
        case "auto": self = .auto
        case "test": self = .test
        case _ where text.hasPrefix("v4l2:"):
            let device = String(text.dropFirst("v4l2:".count))
            guard device.hasPrefix("/"), device.count > 1 else {
                throw OptionValueError.invalid(text, for: option, expected: expected)
            }
            self = .v4l2(device: device)
        case _ where text.hasPrefix("/dev/") && text.count > "/dev/".count:
            self = .v4l2(device: text)
        case _ where text.hasPrefix("file:"):
            let path = String(text.dropFirst("file:".count))
            guard !path.isEmpty else {
                throw OptionValueError.invalid(text, for: option, expected: expected)
            }
            self = .file(URL(fileURLWithPath: path))
        case _ where text.hasPrefix("/") || text.trimmingCharacters(in: .whitespaces).isEmpty:
            throw OptionValueError.invalid(text, for: option, expected: expected)
        default:
            self = .named(text)
        }
    }

    /// The frames thrown away before the first photo when `--warmup` is not given: a camera needs
    /// time for auto-exposure to settle, the test pattern does not.
    public var defaultWarmup: Int {
        self == .test ? 0 : 15
    }
}
