// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// The headers, read by libjpeg (which checks most of what they say), and what libjpeg checks
// only once it starts decoding, which the splice never does: table selectors, the scan's
// parameters, the tables' codes.
#include "splice.h"
#include "jpeg_errors.h"
#include "jpeg_frame.h"

#include <setjmp.h>
#include <string.h>


// Component c's tables: its quantisation table into the frame, its Huffman tables checked,
// extended (extend_table) and built. 0, or a CS_SPLICE_ status.
static int component_tables(struct jpeg_decompress_struct *info, header *h, table_cache *tables, int c, char *text) {
    jpeg_component_info *component = &info->comp_info[c];
    // libjpeg reads these selectors (a byte, a nibble each) without checking them against its
    // four slots: it does that as it starts decoding, which is never done here.
    if (component->quant_tbl_no < 0 || component->quant_tbl_no >= NUM_QUANT_TBLS || component->dc_tbl_no < 0
        || component->dc_tbl_no >= NUM_HUFF_TBLS || component->ac_tbl_no < 0 || component->ac_tbl_no >= NUM_HUFF_TBLS)
        return splice_failure(text, CS_SPLICE_DAMAGED, "a table selector out of range");
    JQUANT_TBL *quant = info->quant_tbl_ptrs[component->quant_tbl_no];
    int slots[2] = {component->dc_tbl_no, component->ac_tbl_no};
    JHUFF_TBL *read_tables[2] = {info->dc_huff_tbl_ptrs[slots[0]], info->ac_huff_tbl_ptrs[slots[1]]};
    if (!quant || !read_tables[0] || !read_tables[1])
        return splice_failure(text, CS_SPLICE_DAMAGED, "a missing or invalid table");
    for (int k = 0; k < 2; k++) {
        int slot = slots[k];
        if (!valid_table(read_tables[k], k))
            return splice_failure(text, CS_SPLICE_DAMAGED, "Bogus Huffman table definition");
        if (!h->read[k][slot]) {
            h->source[k][slot] = *read_tables[k];
            h->read[k][slot] = 1;
            h->extended[k][slot] = extend_table(&h->source[k][slot], k) > 0;
        }
    }
    h->dc[c] = built_table(tables, &h->source[0][slots[0]], 0);
    h->ac[c] = h->dc[c] ? built_table(tables, &h->source[1][slots[1]], 1) : NULL;
    if (!h->ac[c])
        return splice_failure(text, CS_SPLICE_DAMAGED, "a missing or invalid table");
    for (int k = 0; k < 64; k++) h->frame.quant[c][k] = quant->quantval[k];
    return 0;
}

// The frame as libjpeg read it, and each component's sampling and size in blocks. 0, or a
// CS_SPLICE_ status.
static int read_frame(struct jpeg_decompress_struct *info, header *h, table_cache *tables, char *text) {
    cs_frame *frame = &h->frame;
    cs_frame_of(info, frame);  // the quantisation tables are not latched yet: component_tables reads them
    h->saw_jfif = info->saw_JFIF_marker;
    h->density_unit = info->density_unit;
    h->x_density = info->X_density;
    h->y_density = info->Y_density;
    h->scan_components = info->comps_in_scan;
    if (info->progressive_mode || info->arith_code || info->data_precision != 8
        || info->num_components > CS_MAX_COMPONENTS || info->comps_in_scan != info->num_components)
        return splice_failure(text, CS_SPLICE_NOT_BASELINE, "not one sequential Huffman scan");
    // What libjpeg warns about only once it starts decoding (jdhuff.c), in its words.
    if (info->Ss != 0 || info->Se != DCTSIZE2 - 1 || info->Ah != 0 || info->Al != 0)
        return splice_failure(text, CS_SPLICE_DAMAGED, "Invalid SOS parameters for sequential JPEG");
    for (int c = 0; c < info->num_components; c++) {
        jpeg_component_info *component = &info->comp_info[c];
        if (info->cur_comp_info[c] != component)
            return splice_failure(text, CS_SPLICE_NOT_BASELINE, "scan components out of frame order");
        h->h[c] = component->h_samp_factor;
        h->v[c] = component->v_samp_factor;
        int status = component_tables(info, h, tables, c, text);
        if (status) return status;
    }
    return 0;
}

// The MCU: how many there are, and its blocks in scan order. 0, or CS_SPLICE_DAMAGED.
static int mcu_layout(const struct jpeg_decompress_struct *info, header *h, char *text) {
    layout *mcu = &h->mcu;
    const unsigned max_h = (unsigned)info->max_h_samp_factor, max_v = (unsigned)info->max_v_samp_factor;
    mcu->blocks = 0;
    if (info->num_components == 1) {
        h->mcus_x = h->frame.width_in_blocks[0];
        h->mcus_y = h->frame.height_in_blocks[0];
        h->h[0] = h->v[0] = 1;
    } else {
        h->mcus_x = (int)((info->image_width + 8u * max_h - 1) / (8u * max_h));
        h->mcus_y = (int)((info->image_height + 8u * max_v - 1) / (8u * max_v));
    }
    for (int c = 0; c < info->num_components; c++)
        for (int y = 0; y < h->v[c]; y++)
            for (int x = 0; x < h->h[c]; x++) {
                if (mcu->blocks >= 10) return splice_failure(text, CS_SPLICE_DAMAGED, "more than 10 blocks in an MCU");
                int b = mcu->blocks++;
                mcu->component[b] = c;
                mcu->x[b] = x;
                mcu->y[b] = y;
                mcu->dc[b] = h->dc[c];
                mcu->ac[b] = h->ac[c];
            }
    return 0;
}

int read_header(const unsigned char *input, size_t length, header *h, table_cache *tables, char *text) {
    struct jpeg_decompress_struct info;
    cs_error_state error;
    jmp_buf escape;
    info.err = cs_catch_errors(&error, &escape, text);
    jpeg_create_decompress(&info);
    if (setjmp(escape)) {
        jpeg_destroy_decompress(&info);
        return CS_SPLICE_DAMAGED;
    }
    jpeg_mem_src(&info, input, (unsigned long)length);
    jpeg_read_header(&info, TRUE);
    int status = read_frame(&info, h, tables, text);
    if (!status) status = mcu_layout(&info, h, text);
    if (!status) h->scan_start = (size_t)(info.src->next_input_byte - input);
    jpeg_destroy_decompress(&info);
    return status;
}
