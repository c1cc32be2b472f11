// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// CGStreamer: the C API of pkg-config package gstreamer-1.0, imported as is.
#include <gst/gst.h>
