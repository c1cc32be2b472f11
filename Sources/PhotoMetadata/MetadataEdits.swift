// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
/// Values a user asks to write into every output (`batch --set-metadata KEY=VALUE`), already
/// expanded from their templates: into EXIF IFD0 and XMP, and into IPTC when the photo has IPTC
/// (none is added, as the Metadata Working Group advises).
public struct MetadataEdits: Sendable, Equatable {
    /// The photographer: EXIF Artist (0x013B), XMP dc:creator, IPTC By-line (2:80).
    public var artist: String?
    /// The copyright notice: EXIF Copyright (0x8298), XMP dc:rights, IPTC CopyrightNotice (2:116).
    public var copyright: String?
    /// The pixels were not turned upright (the batch stamped the JPEG's coefficients): the EXIF and
    /// XMP Orientation stay as the source has them instead of becoming 1. Not a value to write, so
    /// it does not count in `isEmpty`.
    public var keepsOrientation = false
    /// The output's own instance id (`xmp:iid:…`): an output is a new instance of its source (XMP
    /// spec, xmpMM), so a carried packet that has an `xmpMM:InstanceID` gets this one, with the
    /// source's instance and document ids in `xmpMM:DerivedFrom`; `xmpMM:DocumentID` and
    /// `xmpMM:OriginalDocumentID` stay. Not a value to write, so it does not count in `isEmpty`.
    public var instanceID: String?

    public init(artist: String? = nil, copyright: String? = nil) {
        self.artist = artist
        self.copyright = copyright
    }

    /// True when nothing is to be written.
    public var isEmpty: Bool { artist == nil && copyright == nil }
}
