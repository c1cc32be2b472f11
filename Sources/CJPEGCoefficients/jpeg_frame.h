// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// The frame libjpeg read, as the shim's readers of coefficients hand it on (cs_frame).
#ifndef CS_JPEG_FRAME_H
#define CS_JPEG_FRAME_H

#include <stdio.h>
#include <jpeglib.h>
#include "jpeg_coefficients.h"

// `frame` filled from `source` after jpeg_read_header: size, colours, sampling, each component's
// size in blocks and quantisation table (at most CS_MAX_COMPONENTS of them).
void cs_frame_of(const struct jpeg_decompress_struct *source, cs_frame *frame);

#endif
