// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// glibc's malloc tuning (mallopt), which the Glibc module does not carry: part of every C toolchain.
#include <malloc.h>
