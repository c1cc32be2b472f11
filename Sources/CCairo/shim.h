// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// CCairo: the C API of pkg-config package cairo, imported as is.
#include <cairo.h>
