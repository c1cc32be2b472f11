// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// libwebpmux (Debian: libwebp-dev): a WebP file's RIFF chunks (VP8X, ICCP, EXIF, XMP) read and
// set without touching the VP8/VP8L bitstream.
#include <webp/mux.h>
