// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// CGstRtspServer: the C API of pkg-config package gstreamer-rtsp-server-1.0, imported as is.
#include <gst/rtsp-server/rtsp-server.h>
