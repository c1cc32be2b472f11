// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors

/// camstamp's version (semantic versioning): the package's release tag, what `camstamp --version`
/// prints, and the version a client names in `.package(url:from:)`.
public let camstampVersion = "0.2.0"
