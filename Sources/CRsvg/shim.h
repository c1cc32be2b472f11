// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// CRsvg: the C API of pkg-config package librsvg-2.0, imported as is.
#include <librsvg/rsvg.h>
