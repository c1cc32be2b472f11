// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// CPangoCairo: the C API of pkg-config package pangocairo, imported as is.
#include <pango/pangocairo.h>
