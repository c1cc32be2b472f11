// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// camstampx264enc: H.264 through libx264 as a GstVideoEncoder that lets go of each input frame
// as soon as libx264 has copied it (x264enc keeps every frame until its coded picture comes out,
// ~50 frames of lookahead and B-frames). Registered into the process, not installed as a plugin.
#pragma once
#include <gst/gst.h>

/// Registers the element factory "camstampx264enc" in this process (rank none: never chosen by
/// autoplugging). Call after gst_init; later calls do nothing. FALSE when registration failed.
gboolean camstamp_x264enc_register(void);
