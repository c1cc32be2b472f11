// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// A C shim over libjpeg's coefficient API (Debian: libjpeg62-turbo-dev), for what Swift cannot do:
// libjpeg reports a fatal error by calling error_exit, which must not return — it has to longjmp
// back past libjpeg's frames, and Swift has no setjmp/longjmp. Everything else is in Swift (Media).
#ifndef CAMSTAMP_JPEG_COEFFICIENTS_H
#define CAMSTAMP_JPEG_COEFFICIENTS_H

#include <stddef.h>
// The stamp's DCT passes (here too, so that a module cache built before it sees it).
#include "jpeg_dct.h"

#define CS_MAX_COMPONENTS 4
#define CS_MESSAGE_LENGTH 200

/// The frame as libjpeg read it: what the Swift side needs to plan its changes.
typedef struct {
    int width, height;
    int components;
    /// libjpeg's J_COLOR_SPACE of the file (1 grey, 2 RGB, 3 YCbCr, 4 CMYK, 5 YCCK).
    int colour_space;
    int max_h, max_v;
    int h[CS_MAX_COMPONENTS], v[CS_MAX_COMPONENTS];
    int width_in_blocks[CS_MAX_COMPONENTS], height_in_blocks[CS_MAX_COMPONENTS];
    /// Each component's quantisation table, natural (row-major) order.
    unsigned short quant[CS_MAX_COMPONENTS][64];
    int progressive, arithmetic, precision, restart_interval;
} cs_frame;

/// Called once the coefficients are read; returns 0 to go on, anything else to stop.
typedef int (*cs_prepare)(void *context, const cs_frame *frame);
/// Called for each row of blocks of each component (count blocks of 64 coefficients, natural
/// order), which it may change in place; returns 0 to go on, anything else to stop.
typedef int (*cs_filter)(void *context, int component, int row, short *blocks, int count);

/// Reads `input`, lets `prepare` and `filter` change its quantised DCT coefficients, and writes
/// them as a new JPEG (same tables, sampling, restart interval; progressive if the input was,
/// else sequential with the input's own Huffman tables, missing codes added; no markers copied) into `*output` (malloc'd, the
/// caller frees). Returns 0; 1 for a libjpeg error or warning (damaged data), `message` saying
/// which; 2 when a callback stopped.
int cs_rewrite_coefficients(const unsigned char *input, size_t input_length, cs_prepare prepare,
                            cs_filter filter, void *context, unsigned char **output,
                            size_t *output_length, char message[CS_MESSAGE_LENGTH]);

/// Whether the marks may change block row `row` of `component` (nonzero: yes), and in which
/// block columns: [*first, *end).
typedef int (*cs_wants_row)(void *context, int component, int row, int *first, int *end);
/// cs_filter for some of a row: `count` blocks from block column `first`.
typedef int (*cs_filter_window)(void *context, int component, int row, int first, short *blocks, int count);

/// cs_splice_coefficients' results besides 0 (done) and 2 (a callback stopped).
#define CS_SPLICE_DAMAGED 1
/// Not one sequential Huffman-coded scan of 8-bit samples: cs_rewrite_coefficients applies.
#define CS_SPLICE_NOT_BASELINE 3
/// The file's Huffman tables lack a code a changed block needs: cs_rewrite_coefficients applies.
#define CS_SPLICE_MISSING_CODE 4

/// Tier 2, the entropy splice, for a JPEG of one sequential Huffman scan: only the MCUs whose
/// coefficients `filter` changes (and the MCU after each, whose DC difference changes) are
/// Huffman-coded again; the entropy-coded bytes of every other MCU are copied, bit-shifted where
/// needed, and whole restart intervals without a change byte for byte. `filter` is called for the
/// block rows `wants` names, with the coefficients of the columns it names there (or more). The output is bare, as from
/// cs_rewrite_coefficients (JFIF or Adobe segment, tables, frame, scan; no other markers).
int cs_splice_coefficients(const unsigned char *input, size_t input_length, cs_prepare prepare,
                           cs_wants_row wants, cs_filter_window filter, void *context, unsigned char **output,
                           size_t *output_length, char message[CS_MESSAGE_LENGTH]);

#endif
