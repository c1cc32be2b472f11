// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// Tier 2, the entropy splice (see jpeg_coefficients.h). libjpeg only reads the headers (tables,
// sampling, colour space); the scan is walked here: Huffman-decoded just enough to know where each
// MCU starts and its DC predictors, coefficients kept only for the MCU rows the marks reach. In C
// rather than Swift for the bit loop (measured: see bench/README.md). The steps are in splice_*.c
// (splice.h); this file runs them in turn.
#include "splice.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int out_of_memory(char *text) { return splice_failure(text, CS_SPLICE_DAMAGED, "out of memory"); }

int splice_failure(char *text, int status, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(text, JMSG_LENGTH_MAX, format, arguments);
    va_end(arguments);
    return status;
}

// The coefficients kept: in each MCU row the marks reach, the MCU columns they reach there.
static int plan_kept(splice *sp, cs_wants_row wants, void *context) {
    const header *h = sp->h;
    const int mcus_x = h->mcus_x, mcus_y = h->mcus_y;
    kept_rows *kept = &sp->kept;
    kept->first = malloc(sizeof(int) * (size_t)mcus_y);
    kept->end = calloc((size_t)mcus_y, sizeof(int));
    kept->offset = malloc(sizeof(size_t) * (size_t)mcus_y);
    if (!kept->first || !kept->end || !kept->offset) return out_of_memory(sp->text);
    for (int y = 0; y < mcus_y; y++) kept->first[y] = mcus_x;
    for (int c = 0; c < h->frame.components; c++)
        for (int row = 0; row < h->frame.height_in_blocks[c]; row++) {
            int first = 0, end = 0, y = row / h->v[c];
            if (!wants(context, c, row, &first, &end) || end <= first) continue;
            first /= h->h[c];
            end = (end + h->h[c] - 1) / h->h[c];
            if (first < kept->first[y]) kept->first[y] = first;
            if (end > kept->end[y]) kept->end[y] = end < mcus_x ? end : mcus_x;
        }
    kept->layout = &h->mcu;
    for (int c = 0, sum = 0; c < h->frame.components; c++) {
        kept->component_offset[c] = sum;
        kept->h[c] = h->h[c];
        sum += h->h[c] * h->v[c];
    }
    size_t blocks = 0;
    for (int y = 0; y < mcus_y; y++) {
        kept->offset[y] = blocks;
        if (kept->end[y] > kept->first[y]) blocks += (size_t)(kept->end[y] - kept->first[y]) * (size_t)h->mcu.blocks;
        else kept->end[y] = kept->first[y] = 0;
    }
    kept->blocks = blocks;
    return 0;
}

// What the walk fills in, by MCU and by interval.
static int allocate_walk(splice *sp) {
    const size_t mcus = sp->mcus, kept = sp->kept.blocks ? sp->kept.blocks : 1;
    sp->starts = malloc(sizeof(uint64_t) * (mcus + 1));
    sp->ends = malloc(sizeof(uint64_t) * (size_t)sp->intervals);
    sp->predictors = malloc(sizeof(int) * mcus * (size_t)sp->h->frame.components);
    sp->changed = calloc(mcus + 1, 1);
    sp->kept.coefficients = malloc(sizeof(int16_t) * 64 * kept);
    sp->original = malloc(sizeof(int16_t) * 64 * kept);
    if (!sp->starts || !sp->ends || !sp->predictors || !sp->changed || !sp->kept.coefficients || !sp->original)
        return out_of_memory(sp->text);
    return 0;
}

// `filter` over the kept block rows of MCU row y, component by component. 0, or 2 when it stopped.
static int filter_row(splice *sp, int y, cs_wants_row wants, cs_filter_window filter, void *context) {
    const header *h = sp->h;
    const kept_rows *kept = &sp->kept;
    const size_t width = (size_t)(kept->end[y] - kept->first[y]);
    for (int c = 0; c < h->frame.components; c++)
        for (int by = 0; by < h->v[c]; by++) {
            int row = y * h->v[c] + by, first = 0, end = 0;
            if (row >= h->frame.height_in_blocks[c] || !wants(context, c, row, &first, &end)) continue;
            // The kept columns of this block row, from the block of the first kept MCU.
            int column = kept->first[y] * h->h[c];
            int count = (int)width * h->h[c];
            if (column + count > h->frame.width_in_blocks[c]) count = h->frame.width_in_blocks[c] - column;
            if (count <= 0) continue;
            size_t block = kept->offset[y] + width * ((size_t)kept->component_offset[c] + (size_t)by * (size_t)h->h[c]);
            int16_t *start = kept->coefficients + 64 * block;
            if (filter(context, c, row, column, start, count) != 0) return 2;
        }
    return 0;
}

// The marks: the kept blocks changed in place; an MCU is changed when any of its blocks is.
static int apply_marks(splice *sp, cs_wants_row wants, cs_filter_window filter, void *context) {
    const kept_rows *kept = &sp->kept;
    memcpy(sp->original, kept->coefficients, sizeof(int16_t) * 64 * kept->blocks);
    for (int y = 0; y < sp->h->mcus_y; y++) {
        if (kept->end[y] <= kept->first[y]) continue;
        if (filter_row(sp, y, wants, filter, context)) return 2;
        for (int mx = kept->first[y]; mx < kept->end[y]; mx++)
            for (int b = 0; b < sp->h->mcu.blocks; b++) {
                const int16_t *now = kept_block(kept, mx, y, b);
                if (memcmp(now, sp->original + (now - kept->coefficients), 64 * sizeof(int16_t))) {
                    sp->changed[(size_t)y * (size_t)sp->h->mcus_x + (size_t)mx] = 1;
                    break;
                }
            }
    }
    return 0;
}

// Each step in turn: 0 with the output in sp->w, 2 when a callback stopped, else a CS_SPLICE_
// status with sp->text saying why.
static int run_splice(splice *sp, cs_prepare prepare, cs_wants_row wants, cs_filter_window filter, void *context) {
    table_cache *tables = thread_tables();
    if (!(sp->h = calloc(1, sizeof *sp->h)) || !tables) return out_of_memory(sp->text);
    int status = read_header(sp->input, sp->input_length, sp->h, tables, sp->text);
    if (status) return status;
    const header *h = sp->h;
    sp->mcus = (size_t)h->mcus_x * (size_t)h->mcus_y;
    sp->per_interval = h->frame.restart_interval ? (size_t)h->frame.restart_interval : sp->mcus;
    sp->intervals = (int)((sp->mcus + sp->per_interval - 1) / sp->per_interval);
    // Every block takes two bits at least (a DC and an end-of-block code): a frame larger than its
    // scan can hold is damaged (whatever prepare makes of the photo), and would cost memory by
    // the MCU for nothing.
    const size_t scan_bytes = sp->input_length - h->scan_start;
    if (sp->mcus > scan_bytes * 4 / (size_t)h->mcu.blocks + 1)
        return splice_failure(sp->text, CS_SPLICE_DAMAGED, "the header gives a %d×%d picture, more than its %zu bytes "
                              "of data can hold", h->frame.width, h->frame.height, scan_bytes);
    if (prepare(context, &sp->h->frame) != 0) return 2;
    if ((status = read_scan(sp->input, sp->input_length, h->scan_start, sp->intervals, &sp->s, sp->text))
        || (status = plan_kept(sp, wants, context)) || (status = allocate_walk(sp)) || (status = walk_scan(sp))
        || (status = apply_marks(sp, wants, filter, context)))
        return status;
    return write_output(sp);
}

int cs_splice_coefficients(const unsigned char *input, size_t input_length, cs_prepare prepare,
                           cs_wants_row wants, cs_filter_window filter, void *context, unsigned char **output,
                           size_t *output_length, char message[CS_MESSAGE_LENGTH]) {
    *output = NULL;
    *output_length = 0;
    message[0] = 0;
    splice *sp = calloc(1, sizeof *sp);
    if (!sp) {
        snprintf(message, CS_MESSAGE_LENGTH, "out of memory");
        return CS_SPLICE_DAMAGED;
    }
    sp->input = input;
    sp->input_length = input_length;
    int status = run_splice(sp, prepare, wants, filter, context);
    if (!status) {
        *output = sp->w.data;
        *output_length = sp->w.length;
        sp->w.data = NULL;
    } else if (status != 2) {
        snprintf(message, CS_MESSAGE_LENGTH, "%s", sp->text);
    }
    free(sp->w.data);
    free_scan(&sp->s);
    free(sp->h);
    free(sp->starts);
    free(sp->ends);
    free(sp->predictors);
    free(sp->changed);
    free(sp->kept.first);
    free(sp->kept.end);
    free(sp->kept.offset);
    free(sp->kept.coefficients);
    free(sp->original);
    free(sp);
    return status;
}
