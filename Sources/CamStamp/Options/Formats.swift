// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

/// An encoded still-image format.
public enum ImageFormat: String, Sendable, Equatable, CaseIterable {
    /// JPEG (`.jpg`).
    case jpg
    /// PNG (`.png`).
    case png
    /// The formats below are batch outputs only (`batch --format`); `shoot` writes JPEG or PNG.
    /// WebP (`.webp`).
    case webp
    /// HEIC (`.heic`), through libheif's x265.
    case heic
    /// TIFF (`.tiff`).
    case tiff
    /// AVIF (`.avif`): written only by `--format keep` from an AVIF source (libheif's aom).
    case avif

    /// The file-name extension written for this format (`tif` for TIFF, as batch has always
    /// named its TIFF outputs).
    public var fileExtension: String { self == .tiff ? "tif" : rawValue }
}

/// The output format of `batch`: each input's own, or one for all.
public enum BatchFormat: Sendable, Equatable {
    /// Each output in its input's own format (read by content).
    case keep
    /// Every output in this format.
    case convert(ImageFormat)
}

/// How `batch` re-encodes the video of a clip (`--video-codec`).
public enum VideoCodecChoice: String, Sendable, Equatable, CaseIterable {
    /// H.264 4:2:0, which every player takes (the default).
    case h264
    /// HEVC (x265), smaller files at the same quality.
    case hevc
    /// VP9, for WebM.
    case vp9
    /// The source's codec where it is H.264, HEVC or VP9 (and the container holds it), else H.264.
    case keep
}

/// The container of a recorded stream, chosen by the file's extension.
public enum VideoContainer: String, Sendable, Equatable, CaseIterable {
    /// MPEG-4 (`.mp4`), written in one-second fragments so a killed recording still plays.
    case mp4
    /// Matroska (`.mkv`).
    case mkv
}
