// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// CGstApp: the C API of pkg-config package gstreamer-app-1.0, imported as is.
#include <gst/app/app.h>
