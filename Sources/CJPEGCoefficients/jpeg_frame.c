// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
#include "jpeg_frame.h"

#include <string.h>

void cs_frame_of(const struct jpeg_decompress_struct *source, cs_frame *frame) {
    memset(frame, 0, sizeof *frame);
    frame->width = (int)source->image_width;
    frame->height = (int)source->image_height;
    frame->components = source->num_components;
    frame->colour_space = source->jpeg_color_space;
    frame->max_h = source->max_h_samp_factor;
    frame->max_v = source->max_v_samp_factor;
    frame->progressive = source->progressive_mode;
    frame->arithmetic = source->arith_code;
    frame->precision = source->data_precision;
    frame->restart_interval = (int)source->restart_interval;
    for (int c = 0; c < source->num_components && c < CS_MAX_COMPONENTS; c++) {
        const jpeg_component_info *component = &source->comp_info[c];
        frame->h[c] = component->h_samp_factor;
        frame->v[c] = component->v_samp_factor;
        frame->width_in_blocks[c] = (int)component->width_in_blocks;
        frame->height_in_blocks[c] = (int)component->height_in_blocks;
        if (component->quant_table)
            for (int k = 0; k < 64; k++) frame->quant[c][k] = component->quant_table->quantval[k];
    }
}
