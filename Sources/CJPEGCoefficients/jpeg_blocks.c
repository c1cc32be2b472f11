// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
#include "jpeg_blocks.h"
#include "jpeg_errors.h"
#include "jpeg_frame.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <openssl/evp.h>

struct cs_digest {
    EVP_MD_CTX *context;
};

// The record's bytes are little-endian: fed straight from libjpeg's shorts on such a machine.
static void feed(cs_digest *digest, const short *values, size_t count) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    unsigned char bytes[128];
    for (size_t done = 0; done < count; done += 64) {
        size_t n = count - done < 64 ? count - done : 64;
        for (size_t i = 0; i < n; i++) {
            unsigned short v = (unsigned short)values[done + i];
            bytes[2 * i] = (unsigned char)v;
            bytes[2 * i + 1] = (unsigned char)(v >> 8);
        }
        EVP_DigestUpdate(digest->context, bytes, 2 * n);
    }
#else
    EVP_DigestUpdate(digest->context, values, count * sizeof(short));
#endif
}

cs_digest *cs_digest_new(const cs_frame *frame) {
    cs_digest *digest = malloc(sizeof *digest);
    if (!digest) return NULL;
    digest->context = EVP_MD_CTX_new();
    if (!digest->context || EVP_DigestInit_ex(digest->context, EVP_sha256(), NULL) != 1) {
        EVP_MD_CTX_free(digest->context);
        free(digest);
        return NULL;
    }
    for (int c = 0; c < frame->components && c < CS_MAX_COMPONENTS; c++) {
        short table[64];
        for (int k = 0; k < 64; k++) table[k] = (short)frame->quant[c][k];
        feed(digest, table, 64);
    }
    return digest;
}

void cs_digest_row(cs_digest *digest, const short *blocks, int count, const unsigned char *skip) {
    // Runs of kept blocks in one update each: a row without a mark is one call.
    int start = 0;
    for (int i = 0; i <= count; i++) {
        if (i < count && !(skip && skip[i])) continue;
        if (i > start) feed(digest, blocks + 64 * (size_t)start, 64 * (size_t)(i - start));
        start = i + 1;
    }
}

int cs_digest_finish(cs_digest *digest, unsigned char out[32]) {
    unsigned int length = 0;
    int ok = EVP_DigestFinal_ex(digest->context, out, &length) == 1 && length == 32;
    EVP_MD_CTX_free(digest->context);
    free(digest);
    return ok ? 0 : 1;
}

// A warning is damage as an error is: the blocks read might not be the file's.
static void prepare_source(struct jpeg_decompress_struct *source, cs_error_state *error, jmp_buf *escape, char *text) {
    source->err = cs_catch_errors(error, escape, text);
    jpeg_create_decompress(source);
}

// The coefficients, after the frame's size is checked: a longjmp to `escape` with `text` said
// when it has more than CS_MAX_BLOCKS blocks.
static jvirt_barray_ptr *read_source(struct jpeg_decompress_struct *source, const unsigned char *input,
                                     size_t length, cs_frame *frame, size_t *blocks, jmp_buf *escape,
                                     char *text) {
    jpeg_mem_src(source, input, (unsigned long)length);
    jpeg_read_header(source, TRUE);
    *blocks = 0;
    for (int c = 0; c < source->num_components && c < CS_MAX_COMPONENTS; c++)
        *blocks += (size_t)source->comp_info[c].width_in_blocks * source->comp_info[c].height_in_blocks;
    if (*blocks > CS_MAX_BLOCKS) {
        snprintf(text, JMSG_LENGTH_MAX, "%zu blocks, over camstamp's limit of %d", *blocks, CS_MAX_BLOCKS);
        longjmp(*escape, 1);
    }
    jvirt_barray_ptr *coefficients = jpeg_read_coefficients(source);
    // The components' quantisation tables are latched only once the coefficients are read.
    cs_frame_of(source, frame);
    return coefficients;
}

static JBLOCKROW block_row(struct jpeg_decompress_struct *source, jvirt_barray_ptr array, int row) {
    return (*source->mem->access_virt_barray)((j_common_ptr)source, array, (JDIMENSION)row, 1, FALSE)[0];
}

int cs_block_digest(const unsigned char *input, size_t input_length, const unsigned char *skip,
                    size_t skip_length, cs_frame *frame, unsigned char digest[32],
                    char message[CS_MESSAGE_LENGTH]) {
    struct jpeg_decompress_struct source;
    cs_error_state error;
    char text[JMSG_LENGTH_MAX] = "";
    cs_digest *volatile running = NULL;
    volatile int status = 1;
    jmp_buf escape;
    message[0] = 0;
    prepare_source(&source, &error, &escape, text);
    if (setjmp(escape)) {
        snprintf(message, CS_MESSAGE_LENGTH, "%s", text);
        if (running) cs_digest_finish(running, digest);
        jpeg_destroy_decompress(&source);
        return status;
    }
    size_t blocks = 0;
    jvirt_barray_ptr *coefficients = read_source(&source, input, input_length, frame, &blocks, &escape, text);
    if (source.num_components > CS_MAX_COMPONENTS || (skip && skip_length != blocks)) {
        status = CS_BLOCKS_LAYOUT;
        snprintf(text, sizeof text, "%zu blocks, not %zu", blocks, skip_length);
        longjmp(escape, 1);
    }
    if (!(running = cs_digest_new(frame))) {
        snprintf(text, sizeof text, "out of memory");
        longjmp(escape, 1);
    }
    for (int c = 0; c < frame->components; c++) {
        const int width = frame->width_in_blocks[c];
        for (int row = 0; row < frame->height_in_blocks[c]; row++) {
            cs_digest_row(running, (const short *)block_row(&source, coefficients[c], row), width, skip);
            if (skip) skip += width;
        }
    }
    cs_digest *done = running;
    running = NULL;
    status = cs_digest_finish(done, digest);
    jpeg_finish_decompress(&source);
    jpeg_destroy_decompress(&source);
    if (status) snprintf(message, CS_MESSAGE_LENGTH, "SHA-256 failed");
    return status;
}

// Whether two frames hold blocks that compare one for one: components, sampling, sizes, tables.
static int same_layout(const cs_frame *a, const cs_frame *b) {
    if (a->components != b->components || a->max_h != b->max_h || a->max_v != b->max_v) return 0;
    for (int c = 0; c < a->components && c < CS_MAX_COMPONENTS; c++)
        if (a->h[c] != b->h[c] || a->v[c] != b->v[c] || a->width_in_blocks[c] != b->width_in_blocks[c]
            || a->height_in_blocks[c] != b->height_in_blocks[c]
            || memcmp(a->quant[c], b->quant[c], sizeof a->quant[c]))
            return 0;
    return 1;
}

int cs_block_differences(const unsigned char *a, size_t a_length, const unsigned char *b, size_t b_length,
                         unsigned char **map, size_t *map_length, cs_frame *frame_a, cs_frame *frame_b,
                         char message[CS_MESSAGE_LENGTH]) {
    struct jpeg_decompress_struct first, second;
    cs_error_state first_error, second_error;
    char text[JMSG_LENGTH_MAX] = "";
    unsigned char *volatile differ = NULL;
    volatile int status = 1;
    jmp_buf escape;
    *map = NULL;
    *map_length = 0;
    message[0] = 0;
    prepare_source(&first, &first_error, &escape, text);
    prepare_source(&second, &second_error, &escape, text);
    if (setjmp(escape)) {
        snprintf(message, CS_MESSAGE_LENGTH, "%s", text);
        free(differ);
        jpeg_destroy_decompress(&second);
        jpeg_destroy_decompress(&first);
        return status;
    }
    size_t blocks = 0, other = 0;
    jvirt_barray_ptr *ca = read_source(&first, a, a_length, frame_a, &blocks, &escape, text);
    jvirt_barray_ptr *cb = read_source(&second, b, b_length, frame_b, &other, &escape, text);
    if (first.num_components > CS_MAX_COMPONENTS || !same_layout(frame_a, frame_b)) {
        status = CS_BLOCKS_LAYOUT;
        snprintf(text, sizeof text, "their layouts or tables differ");
        longjmp(escape, 1);
    }
    if (!(differ = calloc(blocks ? blocks : 1, 1))) {
        snprintf(text, sizeof text, "out of memory");
        longjmp(escape, 1);
    }
    size_t at = 0;
    for (int c = 0; c < frame_a->components; c++) {
        const int width = frame_a->width_in_blocks[c];
        for (int row = 0; row < frame_a->height_in_blocks[c]; row++, at += (size_t)width) {
            // Two rows at a time: the second struct's access must not evict the first's row.
            JBLOCKROW ra = block_row(&first, ca[c], row), rb = block_row(&second, cb[c], row);
            for (int x = 0; x < width; x++) differ[at + (size_t)x] = memcmp(ra[x], rb[x], sizeof(JBLOCK)) != 0;
        }
    }
    jpeg_finish_decompress(&second);
    jpeg_finish_decompress(&first);
    jpeg_destroy_decompress(&second);
    jpeg_destroy_decompress(&first);
    *map = differ;
    *map_length = blocks;
    return 0;
}
