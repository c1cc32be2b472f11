// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// CGexiv2: the C API of pkg-config package gexiv2 (exiv2's C wrapper), imported as is.
#include <gexiv2/gexiv2.h>
