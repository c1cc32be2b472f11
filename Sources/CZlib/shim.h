// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// zlib (Debian: zlib1g-dev): a PNG's iCCP profile inflated for formats that hold it raw, and a
// profile deflated into a PNG's iCCP.
#include <zlib.h>
