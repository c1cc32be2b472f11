// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// Tier 2, the entropy splice (see jpeg_coefficients.h), inside this target: the types its files
// share. splice_tables.c builds and checks Huffman tables, splice_header.c reads the headers
// through libjpeg, splice_scan.c destuffs and walks the scan, splice_writer.c writes the output,
// jpeg_splice.c runs them in turn.
#ifndef CAMSTAMP_SPLICE_H
#define CAMSTAMP_SPLICE_H

#include "jpeg_coefficients.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <jpeglib.h>

// Zigzag position -> natural (row-major) index, ITU T.81 figure A.6.
static const uint8_t natural[64] = {
    0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5,
    12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
    35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51,
    58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63};

#define LOOK 9
// 14 bits: the AC tables of a 4:2:0 photo (two of 32 KiB) stay near the core, and the walk's
// look-ups take 11 bits each on average on the bench's photos (13 bits: no faster).
#define FAST 14
// skip_mcu takes four look-ups after each refill to 56 bits at least.
_Static_assert(4 * FAST <= 56, "four look-ups of FAST bits per refill");

// An entry of the walk's table (see table.pair): `length` in a byte of its own, so that the shift
// the next look-up waits for takes it as loaded.
typedef struct {
    uint8_t length, step;
} group;

typedef struct {
    int32_t maxcode[18];
    int32_t valoffset[17];
    uint8_t huffval[256];
    // (length << 8 | symbol) of the code starting with these LOOK bits; 0 when longer.
    uint16_t look[1 << LOOK];
    // The walk's table (AC tables only): as many AC codes with their value bits as lie within
    // FAST bits, at once (on noisy photos most codes are 2-5 bits with their values, so often
    // three or four): their total length, and step = advance << 1 | end of block after them,
    // where advance is the positions they move on plus one for an end of block, so that
    // `k + advance <= 64` says the whole group is in this block (every code before the last
    // leaves it open, and an end of block comes after a value at 62 at most). Advance 127 (and
    // length 0) when even the first code is longer.
    group pair[1 << FAST];
    // Encoding: code and length by symbol (length 0: no code).
    uint16_t code[256];
    uint8_t size[256];
} table;

// Tables built on this thread, kept from photo to photo: a batch's photos mostly have the same
// tables (a camera writes the standard ones in every file), and building the walk's costs more
// than comparing them. Freed when the thread ends.
#define KEPT_TABLES 16
typedef struct {
    UINT8 bits[17], huffval[256];
    int ac, used;
    unsigned long call; // the cs_splice_coefficients call on this thread that last used it
    table built;
} kept_table;

typedef struct {
    kept_table entries[KEPT_TABLES];
    unsigned long call;
} table_cache;

// Zero bytes after the destuffed data: the most one MCU can take (10 blocks of a 27-bit DC and 63
// AC codes of 26 bits, 2.1 KB) past the end of damaged data before the walk sees it has run out,
// and the 16 bytes the bit reader looks ahead.
#define SPARE 4096

// The 64 bits from bit `pos` of the destuffed data (which has SPARE zero bytes at its end).
static inline uint64_t peek(const uint8_t *data, uint64_t pos) {
    uint64_t v;
    memcpy(&v, data + (pos >> 3), 8);
    return __builtin_bswap64(v) << (pos & 7);
}

typedef struct {
    int blocks; // in an MCU
    int component[10], x[10], y[10];
    const table *dc[10], *ac[10];
} layout;

typedef struct {
    uint8_t *data;
    size_t length, capacity;
    uint64_t bits;
    int count; // bits waiting in `bits`
} writer;

// What libjpeg read of the headers, and the destuffed scan.
typedef struct {
    cs_frame frame;
    int scan_components, mcus_x, mcus_y;
    int h[CS_MAX_COMPONENTS], v[CS_MAX_COMPONENTS];
    int saw_jfif, density_unit, x_density, y_density;
    const table *dc[CS_MAX_COMPONENTS], *ac[CS_MAX_COMPONENTS]; // in the thread's cache
    // The Huffman tables by class (DC, AC) and slot, as libjpeg read them and extended where
    // they lacked symbols (extend_table); an extended one replaces its slot's DHT in the output.
    JHUFF_TBL source[2][NUM_HUFF_TBLS];
    int read[2][NUM_HUFF_TBLS], extended[2][NUM_HUFF_TBLS];
    layout mcu;
    size_t scan_start; // offset of the entropy-coded data in the input
    size_t header_end;  // end of the SOS segment
} header;

typedef struct {
    uint8_t *data;          // destuffed, intervals back to back, SPARE zero bytes
    size_t length;
    int intervals;
    size_t *start, *end;    // each interval's destuffed bytes
    size_t *source_start, *source_end; // and its bytes in the input (end: its RST or the EOI)
    // The input offset of destuffed byte d: scan_start + d + the skip_extra of the last skip_at <= d.
    size_t *skip_at, *skip_extra;
    size_t skips;
} scan;

// The coefficients kept for the marks: MCU row y holds MCU columns [first[y], end[y]) from block
// offset[y]: each component's v block rows of (end - first) * h blocks.
typedef struct {
    int16_t *coefficients;
    int *first, *end;
    size_t *offset;
    int component_offset[CS_MAX_COMPONENTS]; // in blocks of one MCU column, sum of h * v before
    int h[CS_MAX_COMPONENTS];
    const layout *layout;
    size_t blocks; // in all
} kept_rows;

static inline int16_t *kept_block(const kept_rows *k, int mx, int my, int b) {
    int c = k->layout->component[b];
    size_t width = (size_t)(k->end[my] - k->first[my]);
    return k->coefficients + 64 * (k->offset[my] + width * (size_t)k->component_offset[c]
                                   + (size_t)k->layout->y[b] * width * (size_t)k->h[c]
                                   + (size_t)(mx - k->first[my]) * (size_t)k->h[c] + (size_t)k->layout->x[b]);
}


// One call's state: what each step reads and leaves for the next.
typedef struct {
    const unsigned char *input;
    size_t input_length;
    header *h;
    scan s;
    size_t mcus, per_interval;
    int intervals;
    kept_rows kept;
    uint64_t *starts, *ends; // each MCU's first bit in the destuffed data, each interval's end
    int *predictors;         // the DC predictors before each MCU, by component
    uint8_t *changed;        // by MCU
    int16_t *original;       // the kept coefficients before the marks
    // The squared error, in samples, of the blocks coded as the nearest the tables can say
    // (nearest_codable_block) against the blocks the marks asked for.
    double nearest_error;
    writer w;
    char text[JMSG_LENGTH_MAX];
} splice;

// The first MCU of interval k and the end of its MCUs.
static inline size_t interval_first(const splice *sp, int k) { return (size_t)k * sp->per_interval; }
static inline size_t interval_end(const splice *sp, int k) {
    size_t end = interval_first(sp, k) + sp->per_interval;
    return end < sp->mcus ? end : sp->mcus;
}

// Sets `text` (printf-style) and returns `status`.
int splice_failure(char *text, int status, const char *format, ...) __attribute__((format(printf, 3, 4)));
// splice_failure(text, CS_SPLICE_DAMAGED, "out of memory").
int out_of_memory(char *text);

// splice_tables.c
table_cache *thread_tables(void);
const table *built_table(table_cache *cache, const JHUFF_TBL *source, int ac);
int valid_table(const JHUFF_TBL *t, int ac);
int extend_table(JHUFF_TBL *t, int ac);

// splice_header.c: 0, or a CS_SPLICE_ status with `text` saying why.
int read_header(const unsigned char *input, size_t length, header *h, table_cache *tables, char *text);

// splice_scan.c
int read_scan(const unsigned char *input, size_t length, size_t scan_start, int intervals, scan *s, char *text);
void free_scan(scan *s);
size_t source_offset(const scan *s, size_t scan_start, size_t d);
int decode_mcu(const uint8_t *data, uint64_t *pos, const layout *mcu, int pred[], int16_t **blocks);
int walk_scan(splice *sp);

// splice_writer.c
int write_output(splice *sp);

// splice_nearest.c
int nearest_codable_block(const int16_t *block, int pred, const table *dc, const table *ac,
                          const unsigned short quant[64], int16_t out[64]);
double block_error(const int16_t *asked, const int16_t *coded, const unsigned short quant[64]);
int check_fidelity(splice *sp);

#endif
