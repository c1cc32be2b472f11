// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// libtiff (Debian: libtiff-dev): TIFF read (any bit depth, colour model, page) and written.
#include <tiffio.h>
