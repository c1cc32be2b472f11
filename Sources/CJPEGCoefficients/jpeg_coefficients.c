// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
#include "jpeg_coefficients.h"
#include "jpeg_errors.h"
#include "jpeg_frame.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>

// libjpeg's Huffman code builder (ITU T.81 K.2), exported by libjpeg-turbo and libjpeg 6b alike
// but declared only in their internal jchuff.h.
EXTERN(void) jpeg_gen_optimal_table(j_compress_ptr cinfo, JHUFF_TBL *htbl, long freq[]);

// Whether symbol `symbol` may occur in an 8-bit baseline block: DC categories 0-11; for AC every
// run/size pair, the end-of-block and the 16-zero run.
static int needed(int symbol, int dc) {
    if (dc) return symbol <= 11;
    return symbol == 0x00 || symbol == 0xF0 || ((symbol & 0x0F) >= 1 && (symbol & 0x0F) <= 10);
}

// The source's table for the output. Camera and cjpeg files carry tables that code every symbol a
// block can need (the standard ones): copied as they are. Optimised files (ImageMagick's, say) code
// only the symbols their own blocks use, and a changed block may need another: the same code lengths
// then, as nearly as a code that also gives the missing symbols (long) codes allows. Either way the
// output is written in one pass, without gathering statistics over every block first.
static void output_table(j_compress_ptr target, const JHUFF_TBL *source, JHUFF_TBL *table, int dc) {
    long freq[257] = {0};
    int missing = 0, k = 0;
    for (int length = 1; length <= 16; length++)
        for (int i = 0; i < source->bits[length] && k < 256; i++, k++)
            freq[source->huffval[k]] = 1L << (17 - length);
    for (int symbol = 0; symbol < 256; symbol++)
        if (needed(symbol, dc) && !freq[symbol]) {
            freq[symbol] = 1;
            missing = 1;
        }
    if (missing)
        jpeg_gen_optimal_table(target, table, freq);
    else
        *table = *source;
    table->sent_table = FALSE;
}

// Whether every symbol `table` codes is one an 8-bit block can have. A table that also codes, say,
// an AC coefficient of 14 bits (damage, or a crafted file) makes libjpeg decode coefficients past
// 8-bit JPEG's range without a warning, and its encoder then writes codes no table has: a file cut
// short, as jpegtran's is.
static int codes_only_needed(const JHUFF_TBL *table, int dc) {
    int total = 0;
    for (int length = 1; length <= 16; length++) total += table->bits[length];
    for (int k = 0; k < total && k < 256; k++)
        if (!needed(table->huffval[k], dc)) return 0;
    return 1;
}

static void choose_huffman_tables(struct jpeg_decompress_struct *source, struct jpeg_compress_struct *target) {
    for (int i = 0; i < NUM_HUFF_TBLS; i++) {
        if (source->dc_huff_tbl_ptrs[i]) {
            if (!target->dc_huff_tbl_ptrs[i]) target->dc_huff_tbl_ptrs[i] = jpeg_alloc_huff_table((j_common_ptr)target);
            output_table(target, source->dc_huff_tbl_ptrs[i], target->dc_huff_tbl_ptrs[i], 1);
        }
        if (source->ac_huff_tbl_ptrs[i]) {
            if (!target->ac_huff_tbl_ptrs[i]) target->ac_huff_tbl_ptrs[i] = jpeg_alloc_huff_table((j_common_ptr)target);
            output_table(target, source->ac_huff_tbl_ptrs[i], target->ac_huff_tbl_ptrs[i], 0);
        }
    }
    for (int c = 0; c < source->num_components; c++) {
        target->comp_info[c].dc_tbl_no = source->comp_info[c].dc_tbl_no;
        target->comp_info[c].ac_tbl_no = source->comp_info[c].ac_tbl_no;
    }
    target->optimize_coding = FALSE;
}


int cs_rewrite_coefficients(const unsigned char *input, size_t input_length, cs_prepare prepare,
                            cs_filter filter, void *context, unsigned char **output,
                            size_t *output_length, char message[CS_MESSAGE_LENGTH]) {
    struct jpeg_decompress_struct source;
    struct jpeg_compress_struct target;
    // A warning is damage as an error is: such a photo takes the re-encoding path.
    cs_error_state source_error, target_error;
    // volatile: read after longjmp. libjpeg's memory destination grows into a buffer of its own
    // when `initial`, ours, is too small (a failure after that leaks it: libjpeg does not say where).
    unsigned char *volatile buffer = NULL;
    unsigned char *volatile initial = NULL;
    unsigned long buffer_length = 0;
    volatile int status = 0;
    char text[JMSG_LENGTH_MAX] = "";
    // One escape for both structs: setjmp may only stand alone in a condition.
    jmp_buf escape;

    *output = NULL;
    *output_length = 0;
    message[0] = 0;
    source.err = cs_catch_errors(&source_error, &escape, text);
    target.err = cs_catch_errors(&target_error, &escape, text);
    jpeg_create_decompress(&source);
    jpeg_create_compress(&target);
    if (setjmp(escape)) {
        snprintf(message, CS_MESSAGE_LENGTH, "%s", text);
        jpeg_destroy_compress(&target);
        jpeg_destroy_decompress(&source);
        free(initial);
        return status ? status : 1;
    }
    jpeg_mem_src(&source, input, (unsigned long)input_length);
    jpeg_read_header(&source, TRUE);
    jvirt_barray_ptr *coefficients = jpeg_read_coefficients(&source);

    cs_frame frame;
    cs_frame_of(&source, &frame);
    if (source.num_components > CS_MAX_COMPONENTS || prepare(context, &frame) != 0) {
        status = 2;
        snprintf(text, sizeof text, "stopped before writing");
        longjmp(escape, 1);
    }

    for (int i = 0; i < NUM_HUFF_TBLS && !source.progressive_mode; i++)
        if ((source.dc_huff_tbl_ptrs[i] && !codes_only_needed(source.dc_huff_tbl_ptrs[i], 1))
            || (source.ac_huff_tbl_ptrs[i] && !codes_only_needed(source.ac_huff_tbl_ptrs[i], 0))) {
            snprintf(text, sizeof text, "a Huffman table codes a coefficient size no 8-bit JPEG has");
            longjmp(escape, 1);
        }
    jpeg_copy_critical_parameters(&source, &target);
    target.restart_interval = source.restart_interval;
    if (source.progressive_mode)
        jpeg_simple_progression(&target);
    else
        choose_huffman_tables(&source, &target);
    // Room for the input's size and a little more, so the output is rarely copied to grow.
    buffer_length = (unsigned long)(input_length + input_length / 16 + 65536);
    buffer = initial = malloc(buffer_length);
    if (!buffer) {
        snprintf(text, sizeof text, "out of memory for a %lu-byte output", buffer_length);
        longjmp(escape, 1);
    }
    jpeg_mem_dest(&target, (unsigned char **)&buffer, &buffer_length);
    jpeg_write_coefficients(&target, coefficients);

    // After jpeg_write_coefficients, as jpegtran's filters do: the arrays are written at finish.
    for (int c = 0; c < source.num_components; c++) {
        jpeg_component_info *component = &source.comp_info[c];
        for (JDIMENSION row = 0; row < component->height_in_blocks; row++) {
            JBLOCKARRAY rows = (*source.mem->access_virt_barray)((j_common_ptr)&source, coefficients[c], row, 1, TRUE);
            if (filter(context, c, (int)row, (short *)rows[0], (int)component->width_in_blocks) != 0) {
                status = 2;
                snprintf(text, sizeof text, "stopped while changing the coefficients");
                longjmp(escape, 1);
            }
        }
    }
    jpeg_finish_compress(&target);
    jpeg_finish_decompress(&source);
    // Grown: libjpeg moved the data into a buffer of its own (malloc'd, ours to free now).
    if (buffer != initial) free(initial);
    jpeg_destroy_compress(&target);
    jpeg_destroy_decompress(&source);
    *output = buffer;
    *output_length = buffer_length;
    return 0;
}
