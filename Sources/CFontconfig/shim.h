// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// CFontconfig: the C API of pkg-config package fontconfig, imported as is.
#include <fontconfig/fontconfig.h>
