// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// CSoup: the C API of pkg-config package libsoup-3.0, imported as is.
#include <libsoup/soup.h>
