// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// CGstVideo: the C API of pkg-config package gstreamer-video-1.0, imported as is.
#include <gst/video/video.h>
