// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors

// The preset model (`Preset`, `Mark`, `PresetSource`, `TemplateContext`…) appears in CamStamp's
// public signatures, so `import CamStamp` brings it too: a client never needs a second import.
// `make api-check` fails on a public signature that names a type `import CamStamp` does not reach.
@_exported public import Presets
