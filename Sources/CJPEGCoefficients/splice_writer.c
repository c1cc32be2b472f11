// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// The output: the headers libjpeg read (tables extended where they were), then each restart
// interval copied byte for byte, or spliced: bits copied (shifted where needed) around the MCUs
// the marks changed, which are Huffman-coded again.
#include "splice.h"

#include <stdlib.h>
#include <string.h>

static int reserve(writer *w, size_t more) {
    if (w->length + more <= w->capacity) return 0;
    size_t capacity = (w->length + more) * 3 / 2;
    uint8_t *grown = realloc(w->data, capacity);
    if (!grown) return -1;
    w->data = grown;
    w->capacity = capacity;
    return 0;
}

// The bytes of the bits waiting, all but the last count % 8, with a zero after each 0xFF.
static inline void flush(writer *w) {
    while (w->count >= 8) {
        uint8_t byte = (uint8_t)(w->bits >> (w->count - 8));
        w->data[w->length++] = byte;
        if (byte == 0xFF) w->data[w->length++] = 0;
        w->count -= 8;
    }
}

// Appends `size` (≤ 32) bits, stuffing a zero after each 0xFF byte; up to 31 bits wait in `bits`
// (flush writes them out). Room reserved by the caller.
static inline void put(writer *w, uint32_t value, int size) {
    w->bits = (w->bits << size) | (value & (size == 32 ? 0xFFFFFFFFu : ((1u << size) - 1)));
    w->count += size;
    if (w->count < 32) return;
    uint32_t word = (uint32_t)(w->bits >> (w->count - 32)), inverted = ~word;
    if ((inverted - 0x01010101u) & ~inverted & 0x80808080u) {
        flush(w);
        return;
    }
    word = __builtin_bswap32(word);
    memcpy(w->data + w->length, &word, 4);
    w->length += 4;
    w->count -= 32;
}

// Pads to a byte with ones, as T.81 F.1.2.3 asks.
static void pad(writer *w) {
    flush(w);
    if (w->count) put(w, 0x7F, 8 - w->count);
    flush(w);
}

static void append(writer *w, const uint8_t *bytes, size_t n) {
    memcpy(w->data + w->length, bytes, n);
    w->length += n;
}

// Encodes one block (natural order) after DC predictor `pred`. 0; -1 when a value is beyond what
// baseline coding holds; -2 when a table has no code for a symbol needed (an optimal table holds
// only the symbols its photo used): the caller then codes the nearest block the tables can say.
static int encode_block(writer *w, const int16_t *block, int pred, const table *dc, const table *ac) {
    int diff = block[0] - pred, magnitude = diff < 0 ? -diff : diff;
    int s = magnitude ? 32 - __builtin_clz((unsigned)magnitude) : 0;
    if (s > 11) return -1;
    if (!dc->size[s]) return -2;
    // A code and its value bits in one put (27 bits at most).
    put(w, (uint32_t)dc->code[s] << s | ((uint32_t)(diff < 0 ? diff - 1 : diff) & ((1u << s) - 1)), dc->size[s] + s);
    // The nonzero coefficients by zigzag position, taken in turn: no branch per zero.
    uint64_t nonzero = 0;
    for (int k = 1; k < 64; k++) nonzero |= (uint64_t)(block[natural[k]] != 0) << k;
    int last = 0;
    for (; nonzero; nonzero &= nonzero - 1) {
        int k = __builtin_ctzll(nonzero), v = block[natural[k]], run = k - last - 1;
        last = k;
        for (; run > 15; run -= 16) {
            if (!ac->size[0xF0]) return -2;
            put(w, ac->code[0xF0], ac->size[0xF0]);
        }
        magnitude = v < 0 ? -v : v;
        s = 32 - __builtin_clz((unsigned)magnitude);
        if (s > 10) return -1;
        int rs = run << 4 | s;
        if (!ac->size[rs]) return -2;
        put(w, (uint32_t)ac->code[rs] << s | ((uint32_t)(v < 0 ? v - 1 : v) & ((1u << s) - 1)), ac->size[rs] + s);
    }
    if (last < 63) {
        if (!ac->size[0]) return -2;
        put(w, ac->code[0], ac->size[0]);
    }
    return 0;
}

// The 64 destuffed bits from bit `from` (peek holds 64 - (from & 7) of them: the rest from the
// ninth byte).
static inline uint64_t bits_at(const uint8_t *data, uint64_t from) {
    return peek(data, from) | (uint64_t)(data[(from >> 3) + 8] >> (8 - (from & 7)));
}

// Writes 64 bits, most significant byte first: at once, or byte by byte with a zero after each
// 0xFF when one is.
static inline uint8_t *put_word(uint8_t *out, uint64_t bytes) {
    uint64_t inverted = ~bytes;
    if (((inverted - 0x0101010101010101ull) & ~inverted & 0x8080808080808080ull) == 0) {
        uint64_t big = __builtin_bswap64(bytes);
        memcpy(out, &big, 8);
        return out + 8;
    }
    for (int shift = 56; shift >= 0; shift -= 8) {
        uint8_t byte = (uint8_t)(bytes >> shift);
        *out++ = byte;
        if (byte == 0xFF) *out++ = 0;
    }
    return out;
}

// Copies destuffed bits [from, to) of one interval; byte for byte when both sides are aligned.
// 0, or -1 out of memory.
static int copy_bits(writer *w, const scan *s, size_t scan_start, const unsigned char *input, uint64_t from,
                     uint64_t to) {
    // A shifted copy can meet a 0xFF more often than the source did: twice the bytes at most.
    if (to <= from) return 0;
    if (reserve(w, (size_t)((to - from) / 4) + 16)) return -1;
    flush(w);
    if (w->count == 0 && (from & 7) == 0 && to - from >= 64) {
        // Through the input byte of the last whole destuffed byte, and its stuffed zero if any.
        size_t a = source_offset(s, scan_start, (size_t)(from >> 3));
        size_t last = source_offset(s, scan_start, (size_t)(to >> 3) - 1);
        size_t b = last + 1 + (input[last] == 0xFF);
        append(w, input + a, b - a);
        from = to & ~(uint64_t)7;
    }
    // Eight bytes at a time: the writer's n pending bits then the data's next 64 - n (the data's
    // last n bits wait in their turn), then the data's 64 bits from n before each 64 taken, at a
    // shift that stays the same.
    const int n = w->count;
    uint64_t pending = w->bits & ((1ull << n) - 1);
    uint8_t *out = w->data + w->length;
    const uint64_t words = (to - from) / 64;
    if (words) {
        uint64_t chunk = bits_at(s->data, from);
        out = put_word(out, (pending << 1) << (63 - n) | chunk >> n); // n = 0: no pending bits
        const uint8_t *next = s->data + ((from + 64 - (uint64_t)n) >> 3);
        const int shift = (int)((from - (uint64_t)n) & 7);
        for (uint64_t k = 1; k < words; k++, next += 8) {
            uint64_t big;
            memcpy(&big, next, 8);
            out = put_word(out, __builtin_bswap64(big) << shift | (uint64_t)(next[8] >> (8 - shift)));
        }
        from += 64 * words;
        pending = bits_at(s->data, from - 64) & ((1ull << n) - 1);
    }
    w->length = (size_t)(out - w->data);
    w->bits = pending;
    while (from < to) {
        int size = to - from < 32 ? (int)(to - from) : 32;
        put(w, (uint32_t)(peek(s->data, from) >> (64 - size)), size);
        from += (uint64_t)size;
    }
    return 0;
}

// The offset of each table's last definition before the scan, the one libjpeg keeps (0: none).
static void last_definitions(const unsigned char *input, size_t scan_start, size_t last[2][NUM_HUFF_TBLS]) {
    memset(last, 0, sizeof(size_t) * 2 * NUM_HUFF_TBLS);
    for (size_t p = 2; p + 4 <= scan_start;) {
        if (input[p] != 0xFF) break;
        if (input[p + 1] == 0xFF) {
            p++;
            continue;
        }
        size_t length = (size_t)input[p + 2] << 8 | input[p + 3];
        for (size_t q = p + 4, count = 0; input[p + 1] == 0xC4 && q + 17 <= p + 2 + length; q += 17 + count) {
            count = 0;
            for (int l = 1; l <= 16; l++) count += input[q + l];
            if ((input[q] >> 4) < 2 && (input[q] & 15) < NUM_HUFF_TBLS) last[input[q] >> 4][input[q] & 15] = q;
        }
        p += length + 2;
    }
}

// One DHT segment from `p`: each table as it is, or, at its last definition, as extended
// (extend_table; an earlier one is never used, and extending each would grow the headers without
// bound). 0, or -1 when the segment grew past what its length field holds.
static int write_dht(writer *w, const header *h, const unsigned char *input, size_t p, size_t length,
                     size_t last[2][NUM_HUFF_TBLS]) {
    size_t at = w->length, q = p + 4, end = p + 2 + length;
    append(w, input + p, 4);
    while (q + 17 <= end) {
        int k = input[q] >> 4, slot = input[q] & 15;
        size_t count = 0;
        for (int l = 1; l <= 16; l++) count += input[q + l];
        if (q + 17 + count > end) break;
        if (k < 2 && slot < NUM_HUFF_TBLS && h->extended[k][slot] && last[k][slot] == q) {
            const JHUFF_TBL *t = &h->source[k][slot];
            size_t total = 0;
            w->data[w->length++] = input[q];
            for (int l = 1; l <= 16; l++) {
                w->data[w->length++] = t->bits[l];
                total += t->bits[l];
            }
            append(w, t->huffval, total);
        } else {
            append(w, input + q, 17 + count);
        }
        q += 17 + count;
    }
    size_t written = w->length - at - 2;
    if (written > 0xFFFF) return -1;
    w->data[at + 2] = (uint8_t)(written >> 8);
    w->data[at + 3] = (uint8_t)written;
    return 0;
}

// SOI, a JFIF (or, for RGB, Adobe) segment, then the tables, frame, restart interval and scan
// header as they are; no APPn or COM segments. Room for all but the tables' extra codes reserved
// by the caller. 0, or a CS_SPLICE_ status.
static int write_headers(splice *sp) {
    static const uint8_t soi[] = {0xFF, 0xD8};
    writer *w = &sp->w;
    const header *h = sp->h;
    const unsigned char *input = sp->input;
    size_t last[2][NUM_HUFF_TBLS];
    last_definitions(input, h->scan_start, last);
    append(w, soi, 2);
    if (h->frame.colour_space == JCS_RGB) {
        static const uint8_t adobe[] = {0xFF, 0xEE, 0, 14, 'A', 'd', 'o', 'b', 'e', 0, 100, 0, 0, 0, 0, 0};
        append(w, adobe, sizeof adobe);
    } else {
        uint8_t jfif[] = {0xFF, 0xE0, 0, 16, 'J', 'F', 'I', 'F', 0, 1, 1, 0, 0, 1, 0, 1, 0, 0};
        if (h->saw_jfif) {
            jfif[11] = (uint8_t)h->density_unit;
            jfif[12] = (uint8_t)(h->x_density >> 8);
            jfif[13] = (uint8_t)h->x_density;
            jfif[14] = (uint8_t)(h->y_density >> 8);
            jfif[15] = (uint8_t)h->y_density;
        }
        append(w, jfif, sizeof jfif);
    }
    for (size_t p = 2; p + 4 <= h->scan_start;) {
        if (input[p] != 0xFF) break;
        if (input[p + 1] == 0xFF) {
            p++;
            continue;
        }
        size_t length = (size_t)input[p + 2] << 8 | input[p + 3];
        int marker = input[p + 1];
        if (marker == 0xC4) {
            // Each of the 2 * NUM_HUFF_TBLS tables extended once, to 256 symbols at most.
            if (reserve(w, length + 2 + 2 * NUM_HUFF_TBLS * 256)) return out_of_memory(sp->text);
            if (write_dht(w, h, input, p, length, last))
                return splice_failure(sp->text, CS_SPLICE_MISSING_CODE, "a DHT segment too long for its extra codes");
        } else if (!((marker >= 0xE0 && marker <= 0xEF) || marker == 0xFE)) {
            append(w, input + p, length + 2);
        }
        p += length + 2;
    }
    return 0;
}

// Codes MCU i again: its blocks as the marks left them (kept), or decoded again from where the
// walk found it (the MCU after a changed one, not kept). 0, or a CS_SPLICE_ status.
static int code_mcu_again(splice *sp, size_t i, int pred[]) {
    static __thread int16_t scratch[10][64];
    const header *h = sp->h;
    const size_t components = (size_t)h->frame.components;
    int my = (int)(i / (size_t)h->mcus_x), mx = (int)(i % (size_t)h->mcus_x);
    int16_t *blocks[10];
    if (mx >= sp->kept.first[my] && mx < sp->kept.end[my]) {
        for (int b = 0; b < h->mcu.blocks; b++) blocks[b] = kept_block(&sp->kept, mx, my, b);
    } else {
        int again_pred[CS_MAX_COMPONENTS];
        memcpy(again_pred, sp->predictors + i * components, sizeof(int) * components);
        uint64_t at = sp->starts[i];
        for (int b = 0; b < h->mcu.blocks; b++) blocks[b] = scratch[b];
        if (decode_mcu(sp->s.data, &at, &h->mcu, again_pred, blocks))
            return splice_failure(sp->text, CS_SPLICE_DAMAGED, "an invalid Huffman code in MCU %zu", i);
    }
    if (reserve(&sp->w, 2 * 10 * 64 * 4 + 64)) return out_of_memory(sp->text);
    for (int b = 0; b < h->mcu.blocks; b++) {
        int c = h->mcu.component[b];
        const int16_t *block = blocks[b];
        const writer before = sp->w;
        int16_t nearest[64];
        if (encode_block(&sp->w, block, pred[c], h->mcu.dc[b], h->mcu.ac[b])) {
            // A code the tables lack (or a value beyond baseline coding): the block is coded
            // again, from where it started, as the nearest one they can say.
            sp->w.length = before.length;
            sp->w.bits = before.bits;
            sp->w.count = before.count;
            if (nearest_codable_block(block, pred[c], h->mcu.dc[b], h->mcu.ac[b], h->frame.quant[c], nearest)
                || encode_block(&sp->w, nearest, pred[c], h->mcu.dc[b], h->mcu.ac[b]))
                return splice_failure(sp->text, CS_SPLICE_MISSING_CODE,
                                      "the Huffman tables lack the codes a changed block needs");
            sp->nearest_error += block_error(block, nearest, h->frame.quant[c]);
            block = nearest;
        }
        pred[c] = block[0];
    }
    return 0;
}

// Whether MCU i starts with the DC predictors the input had there: then its bits can be copied.
static int same_predictors(const splice *sp, size_t i, const int pred[]) {
    const size_t components = (size_t)sp->h->frame.components;
    return !memcmp(pred, sp->predictors + i * components, sizeof(int) * components);
}

// Interval k with changes: the bits between the MCUs coded again copied as they were, those MCUs
// (each changed one, and each after one coded again whose predictors it changed: the DC
// differences change) coded again, then padded.
static int splice_interval(splice *sp, int k) {
    const size_t first = interval_first(sp, k), last = interval_end(sp, k);
    const size_t components = (size_t)sp->h->frame.components;
    uint64_t copied = (uint64_t)sp->s.start[k] * 8;
    int pred[CS_MAX_COMPONENTS] = {0}, previous = 0;
    for (size_t i = first; i < last; i++) {
        if (!sp->changed[i] && !(previous && !same_predictors(sp, i, pred))) {
            previous = 0;
            continue;
        }
        if (copy_bits(&sp->w, &sp->s, sp->h->scan_start, sp->input, copied, sp->starts[i]))
            return out_of_memory(sp->text);
        if (!previous) memcpy(pred, sp->predictors + i * components, sizeof(int) * components);
        int status = code_mcu_again(sp, i, pred);
        if (status) return status;
        previous = 1;
        copied = i + 1 < last ? sp->starts[i + 1] : sp->ends[k];
    }
    if (copy_bits(&sp->w, &sp->s, sp->h->scan_start, sp->input, copied, sp->ends[k]) || reserve(&sp->w, 16))
        return out_of_memory(sp->text);
    pad(&sp->w);
    return 0;
}

int write_output(splice *sp) {
    writer *w = &sp->w;
    if (reserve(w, sp->input_length + sp->input_length / 16 + 65536)) return out_of_memory(sp->text);
    int status = write_headers(sp);
    if (status) return status;
    for (int k = 0; k < sp->intervals; k++) {
        int any = 0;
        for (size_t i = interval_first(sp, k); i < interval_end(sp, k) && !any; i++) any = sp->changed[i];
        size_t length = sp->s.source_end[k] - sp->s.source_start[k];
        if (reserve(w, (any ? 0 : length) + 64)) return out_of_memory(sp->text);
        if (!any) {
            append(w, sp->input + sp->s.source_start[k], length);
        } else {
            status = splice_interval(sp, k);
            if (status) return status;
        }
        uint8_t marker[2] = {0xFF, k + 1 < sp->intervals ? (uint8_t)(0xD0 + k % 8) : 0xD9};
        append(w, marker, 2);
    }
    return check_fidelity(sp);
}
