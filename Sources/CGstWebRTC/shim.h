// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// CGstWebRTC: the C API of pkg-config package gstreamer-webrtc-1.0 (webrtcbin's session
// descriptions and states) and the SDP messages of gstreamer-sdp-1.0 it carries, imported as is.
#include <gst/webrtc/webrtc.h>
#include <gst/sdp/sdp.h>
