// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// CX264: the C API of pkg-config package x264 (libx264), for the clip encoder element only.
#include <stdint.h>
#include <x264.h>
