// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// libheif (Debian: libheif-dev): HEIF/HEIC and AVIF read and written, with their irot/imir
// transforms, EXIF/XMP metadata items and colour profiles.
#include <libheif/heif.h>
