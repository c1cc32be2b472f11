// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
package import Media
import Presets

/// Options of `camstamp shoot`: take one photo and stamp it.
public struct ShootOptions: Sendable, Equatable {
    /// Where frames come from (`--source`).
    public var source: SourceSpec
    /// Preset names or JSON paths, stacked in order.
    public var presets: [String]
    /// A quick mark in the default style (`--text`).
    public var text: String?
    /// `--var` values, in command-line order (a later one wins).
    public var variables: [VariableAssignment]
    /// A file or a folder; nil means the current folder.
    public var output: URL?
    /// The capture size (`--size`); nil takes the camera's default.
    public var size: FrameSize?
    /// The capture frame rate (`--fps`); nil takes the camera's default.
    public var fps: Int?
    /// Frames thrown away first; nil means `source.defaultWarmup`.
    public var warmup: Int?
    /// The photo's format (`--format`; also picked by `-o`'s extension).
    public var format: ImageFormat
    /// The JPEG quality, 1…100 (`--quality`).
    public var quality: Int
    /// A user's own capture pipeline template.
    public var pipeline: URL?
    /// `-o -`: the photo's bytes go to stdout (and `output` is not used).
    public var toStandardOutput = false
    /// Replace an existing `-o` file (otherwise it is refused).
    public var overwrite = false
    /// Seconds to wait, with the camera running, before the (first) photo.
    public var delay: Double = 0
    /// How many photos (`--count`), `interval` seconds apart from one start to the next.
    public var count = 1
    /// `--json`: each photo as a JSON line on stdout as it is written, then a summary line.
    public var json = false
    /// Seconds from the start of one photo to the next (`--interval`).
    public var interval: Double = 0
    /// `--rotate`, `--square`, `--mirror`: what happens to the frame before it is marked.
    public var geometry = StillGeometry()
    /// `--invisible`: an invisible mark carrying a new instance id is written into every photo
    /// after its visible marks (with `--sign`, the manifest's, with its soft binding).
    public var invisible = false
    /// `--sign`: every photo signed with Content Credentials (`c2pa.created`); nil signs nothing.
    public var signing: SigningOptions?
    /// V4L2 controls set on the camera as it opens (`--control NAME=VALUE`).
    package var controls: [ExtraControl] = []
    /// `--gps`, `--strip-gps`: where the position comes from, and whether the photo keeps it.
    public var location = LocationOptions()

    /// The JPEG quality when none is given.
    public static let defaultQuality = 90

    /// Options with the defaults `camstamp shoot` has.
    public init(
        source: SourceSpec = .auto, presets: [String] = [], text: String? = nil,
        variables: [VariableAssignment] = [], output: URL? = nil, size: FrameSize? = nil,
        fps: Int? = nil, warmup: Int? = nil, format: ImageFormat = .jpg,
        quality: Int = ShootOptions.defaultQuality, pipeline: URL? = nil
    ) {
        self.source = source
        self.presets = presets
        self.text = text
        self.variables = variables
        self.output = output
        self.size = size
        self.fps = fps
        self.warmup = warmup
        self.format = format
        self.quality = quality
        self.pipeline = pipeline
    }

    /// The warm-up frame count that applies: the given one, else the source's default.
    public var effectiveWarmup: Int { warmup ?? source.defaultWarmup }
}

/// `--control NAME=VALUE`, read the way v4l2src will read it.
package enum ControlOption {
    /// One control to set, as the command line names the type without importing Media.
    package typealias Setting = ExtraControl

    package static func parse(_ text: String) throws -> ExtraControl {
        do { return try ExtraControl(parsing: text) } catch { throw OptionValueError(error.message) }
    }
}
