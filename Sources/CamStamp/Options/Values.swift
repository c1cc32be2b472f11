// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// A frame size in pixels (`--size WxH`).
public struct FrameSize: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// Pixels across.
    public var width: Int
    /// Pixels down.
    public var height: Int
    /// A size of `width`×`height` pixels.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public var description: String { "\(width)x\(height)" }
}

/// One `--var KEY=VALUE`; kept in command-line order so that a later one wins.
public struct VariableAssignment: Sendable, Equatable, Hashable {
    /// The variable's name, as `{KEY}` uses it.
    public var key: String
    /// Its value (may be empty).
    public var value: String
    /// Sets `key` to `value`.
    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}

/// One `--set-metadata KEY=TEMPLATE`: a value written into every output's metadata, its template
/// expanded per photo like a mark's text.
public struct MetadataAssignment: Sendable, Equatable, Hashable {
    /// What can be set, by the EXIF tag name a user knows.
    public enum Key: String, Sendable, CaseIterable {
        /// EXIF Artist, XMP dc:creator, IPTC By-line.
        case artist = "Artist"
        /// EXIF Copyright, XMP dc:rights, IPTC CopyrightNotice.
        case copyright = "Copyright"
    }

    /// Which metadata field is written.
    public var key: Key
    /// The value, a template expanded per photo like a mark's text.
    public var template: String
    /// Writes `template` into `key`.
    public init(key: Key, template: String) {
        self.key = key
        self.template = template
    }
}

/// What `batch` does when an output file already exists.
public enum ExistingFilePolicy: Sendable, Equatable {
    /// Fail that input and go on (the default: nothing is overwritten by surprise).
    case refuse
    /// Leave the existing file and count the input as skipped (`--skip-existing`).
    case skip
    /// Replace the existing file (`--overwrite`).
    case overwrite
}

/// What `batch` keeps of each photo's metadata.
public enum MetadataPolicy: Sendable, Equatable {
    /// Keep EXIF, ICC, XMP and IPTC (orientation reset, thumbnails dropped).
    case keep
    /// Everything but the GPS position.
    case stripGPS
    /// Drop all metadata (`--strip-metadata`).
    case stripAll
}
