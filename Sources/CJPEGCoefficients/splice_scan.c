// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// The scan: destuffed and split at its restart markers, then walked (Huffman-decoded just enough
// to know where each MCU starts and its DC predictors; coefficients kept only for the MCUs the
// marks reach).
#include "splice.h"

#include <stdlib.h>
#include <string.h>

// Decodes one symbol from the top of `w`; its code's length in *length (0: no such code).
static inline int symbol(const table *t, uint64_t w, int *length) {
    uint16_t entry = t->look[w >> (64 - LOOK)];
    if (entry) {
        *length = entry >> 8;
        return entry & 0xFF;
    }
    for (int l = LOOK + 1; l <= 16; l++) {
        int32_t code = (int32_t)(w >> (64 - l));
        if (code <= t->maxcode[l]) {
            *length = l;
            return t->huffval[(code + t->valoffset[l]) & 0xFF];
        }
    }
    *length = 0;
    return 0;
}

static inline int extend(uint64_t w, int s) {
    int v = (int)(w >> (64 - s));
    return v < (1 << (s - 1)) ? v - (1 << s) + 1 : v;
}

static inline uint64_t load_be64(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return __builtin_bswap64(v);
}

// The bit register of the walk (see skip_mcu): `left` valid bits at the top of `w`, refilled from
// the next whole byte it does not hold yet.
#define REFILL() (w |= load_be64(next) >> left, next += (63 - left) >> 3, left |= 56)

// Decodes one MCU from bit *pos: DC predictors in `pred` (by component) updated; the blocks
// (natural order) into `blocks[b]` when `blocks` is given. 0, or -1 for an invalid code.
int decode_mcu(const uint8_t *data, uint64_t *pos, const layout *mcu, int pred[], int16_t **blocks) {
    uint64_t start = *pos;
    const uint8_t *next = data + (start >> 3) + 8;
    uint64_t w = load_be64(next - 8) << (start & 7);
    int left = 64 - (int)(start & 7);
    for (int b = 0; b < mcu->blocks; b++) {
        int16_t *block = blocks ? blocks[b] : NULL;
        if (block) memset(block, 0, 64 * sizeof *block);
        if (left < 27) REFILL();
        int length, s = symbol(mcu->dc[b], w, &length);
        if (!length || s > 11) return -1;
        int c = mcu->component[b];
        if (s) pred[c] += extend(w << length, s);
        w <<= length + s; left -= length + s;
        if (block) block[0] = (int16_t)pred[c];
        const table *ac = mcu->ac[b];
        for (int k = 1; k < 64;) {
            // Each time (`left` is below 64: the DC code took one bit at least): asking whether
            // the 31 bits an AC code and its value may take were there cost more, mispredicted.
            REFILL();
            int rs = symbol(ac, w, &length);
            if (!length) return -1;
            int r = rs >> 4;
            s = rs & 15;
            if (s) {
                k += r;
                if (k > 63) return -1;
                if (block) block[natural[k]] = (int16_t)extend(w << length, s);
                w <<= length + s; left -= length + s;
                k++;
            } else {
                w <<= length; left -= length;
                if (r != 15) break;
                k += 16;
            }
        }
    }
    *pos = (uint64_t)(next - data) * 8 - (uint64_t)left;
    return 0;
}

// decode_mcu without keeping the blocks: only where the MCU ends and the DC predictors. The bits
// stay in a register, most AC codes are taken with their value bits several at once (pair), so
// the loop is a chain of table look-ups and shifts. The register is refilled from the next whole
// byte it does not hold yet, whose address is known long before (F. Giesen's "variant 4"): the
// load waits for nothing, where loading from the bit position waited for the last shift. `left`
// bits are valid at the top of `w`; the bits below them are the data's next ones or zeros, so
// OR-ing the same data in again changes nothing. Reads up to 16 bytes past the MCU's end.
static int skip_mcu(const uint8_t *data, uint64_t *pos, const layout *mcu, int pred[]) {
    uint64_t start = *pos;
    const uint8_t *next = data + (start >> 3) + 8;
    uint64_t w = load_be64(next - 8) << (start & 7);
    int left = 64 - (int)(start & 7);
    for (int b = 0; b < mcu->blocks; b++) {
        // A DC code and its value bits: 16 + 11 bits at most.
        if (left < 27) REFILL();
        int length, s = symbol(mcu->dc[b], w, &length);
        if (!length || s > 11) return -1;
        if (s) pred[mcu->component[b]] += extend(w << length, s);
        int n = length + s;
        w <<= n; left -= n;
        const table *ac = mcu->ac[b];
        int k = 1;
        // One look-up of the walk's table: a group of codes taken, unless it would run past the
        // block (or its first code is longer than FAST bits: `one`). No group is empty.
#define STEP()                                               \
    do {                                                     \
        const group g = ac->pair[w >> (64 - FAST)];          \
        if (k + (g.step >> 1) > 64) goto one;                \
        w <<= g.length;                                      \
        left -= g.length;                                    \
        if (g.step & 1) goto done;                           \
        if ((k += g.step >> 1) >= 64) goto done;             \
    } while (0)
        for (;;) {
            // At least 56 bits after a refill (`left` is below 64: the DC code took one at least),
            // so four look-ups of FAST bits each need no check in between: the branch that asked
            // after each one was mispredicted too often.
            REFILL();
            STEP(); STEP(); STEP(); STEP();
            continue;
        one:
            // One code at a time. An AC code and its value bits take 31 bits at most (16 + 15:
            // libjpeg accepts sizes to 15).
            if (left < 31) REFILL();
            int rs = symbol(ac, w, &length);
            if (!length) return -1;
            s = rs & 15;
            n = length + s;
            w <<= n; left -= n;
            if (s) k += (rs >> 4) + 1;
            else if (rs >> 4 == 15) k += 16;
            else break;
            if (k >= 64) break;
        }
    done:
#undef STEP
        // A run past the last coefficient (or a 16-zero run ending past it): damaged.
        if (k > 64) return -1;
    }
    *pos = (uint64_t)(next - data) * 8 - (uint64_t)left;
    return 0;
}
#undef REFILL

size_t source_offset(const scan *s, size_t scan_start, size_t d) {
    size_t lo = 0, hi = s->skips; // the first skip_at > d
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (s->skip_at[mid] <= d) lo = mid + 1; else hi = mid;
    }
    return scan_start + d + (lo ? s->skip_extra[lo - 1] : 0);
}

void free_scan(scan *s) {
    free(s->data); free(s->start); free(s->end); free(s->source_start); free(s->source_end);
    free(s->skip_at); free(s->skip_extra);
}

// Destuffs the scan, splitting it at its restart markers; 0, or a CS_SPLICE_ status.
int read_scan(const unsigned char *input, size_t length, size_t scan_start, int intervals, scan *s, char *text) {
    memset(s, 0, sizeof *s);
    s->intervals = intervals;
    size_t skip_capacity = 1024;
    s->data = malloc(length - scan_start + SPARE);
    s->start = malloc(sizeof(size_t) * (size_t)intervals);
    s->end = malloc(sizeof(size_t) * (size_t)intervals);
    s->source_start = malloc(sizeof(size_t) * (size_t)intervals);
    s->source_end = malloc(sizeof(size_t) * (size_t)intervals);
    s->skip_at = malloc(sizeof(size_t) * skip_capacity);
    s->skip_extra = malloc(sizeof(size_t) * skip_capacity);
    if (!s->data || !s->start || !s->end || !s->source_start || !s->source_end || !s->skip_at || !s->skip_extra) {
        snprintf(text, JMSG_LENGTH_MAX, "out of memory");
        return CS_SPLICE_DAMAGED;
    }
    size_t p = scan_start, d = 0;
    int k = 0;
    s->start[0] = 0;
    s->source_start[0] = scan_start;
    for (;;) {
        // Plain bytes up to the next 0xFF.
        const unsigned char *ff = memchr(input + p, 0xFF, length - p);
        size_t run = ff ? (size_t)(ff - (input + p)) : length - p;
        memcpy(s->data + d, input + p, run);
        d += run;
        p += run;
        if (p + 1 >= length) {
            snprintf(text, JMSG_LENGTH_MAX, "the scan has no end");
            return CS_SPLICE_DAMAGED;
        }
        unsigned char next = input[p + 1];
        if (next == 0x00) {
            s->data[d++] = 0xFF;
            p += 2;
        } else if (next >= 0xD0 && next <= 0xD7 && k + 1 == intervals && next - 0xD0 == k % 8 &&
                   p + 3 < length && input[p + 2] == 0xFF && input[p + 3] == 0xD9) {
            // A restart marker after the last interval, right before the end (some cameras
            // write one): an empty interval, which the output leaves out.
            s->end[k] = d;
            s->source_end[k] = p;
            break;
        } else if (next >= 0xD0 && next <= 0xD7) {
            if (k + 1 >= intervals || next - 0xD0 != k % 8) {
                snprintf(text, JMSG_LENGTH_MAX, "restart markers out of order");
                return CS_SPLICE_DAMAGED;
            }
            s->end[k] = d;
            s->source_end[k] = p;
            p += 2;
            k++;
            s->start[k] = d;
            s->source_start[k] = p;
        } else {
            if (next != 0xD9) {
                snprintf(text, JMSG_LENGTH_MAX, "more than one scan");
                return CS_SPLICE_NOT_BASELINE;
            }
            if (k + 1 != intervals) {
                snprintf(text, JMSG_LENGTH_MAX, "restart markers missing");
                return CS_SPLICE_DAMAGED;
            }
            s->end[k] = d;
            s->source_end[k] = p;
            break;
        }
        if (s->skips == skip_capacity) {
            skip_capacity *= 2;
            size_t *at = realloc(s->skip_at, sizeof(size_t) * skip_capacity);
            if (at) s->skip_at = at;
            size_t *extra = realloc(s->skip_extra, sizeof(size_t) * skip_capacity);
            if (extra) s->skip_extra = extra;
            if (!at || !extra) {
                snprintf(text, JMSG_LENGTH_MAX, "out of memory");
                return CS_SPLICE_DAMAGED;
            }
        }
        s->skip_at[s->skips] = d;
        s->skip_extra[s->skips] = p - scan_start - d;
        s->skips++;
    }
    memset(s->data + d, 0, SPARE);
    s->length = d;
    return 0;
}

// Walks interval k: each MCU's start and DC predictors, the kept MCUs' coefficients. 0, or
// CS_SPLICE_DAMAGED for a bad code or bytes left before the interval's marker.
static int walk_interval(splice *sp, int k) {
    const header *h = sp->h;
    const size_t first = interval_first(sp, k), last = interval_end(sp, k), mcus_x = (size_t)h->mcus_x;
    const size_t components = (size_t)h->frame.components;
    const kept_rows *kept = &sp->kept;
    uint64_t pos = (uint64_t)sp->s.start[k] * 8, limit = (uint64_t)sp->s.end[k] * 8;
    int pred[CS_MAX_COMPONENTS] = {0};
    for (size_t i = first; i < last; i++) {
        sp->starts[i] = pos;
        memcpy(sp->predictors + i * components, pred, sizeof(int) * components);
        int my = (int)(i / mcus_x), mx = (int)(i % mcus_x);
        int16_t *blocks[10];
        int keep = mx >= kept->first[my] && mx < kept->end[my];
        if (keep)
            for (int b = 0; b < h->mcu.blocks; b++) blocks[b] = kept_block(kept, mx, my, b);
        const uint8_t *data = sp->s.data;
        int bad = keep ? decode_mcu(data, &pos, &h->mcu, pred, blocks) : skip_mcu(data, &pos, &h->mcu, pred);
        if (bad || pos > limit)
            return splice_failure(sp->text, CS_SPLICE_DAMAGED, "an invalid Huffman code in MCU %zu", i);
    }
    // What is left is the padding to a byte: more would be data a decoder warns about (libjpeg's
    // words, though libjpeg-turbo says nothing when its look-ahead met the marker first).
    if (limit - pos >= 8)
        return splice_failure(sp->text, CS_SPLICE_DAMAGED,
                              "Corrupt JPEG data: %llu extraneous bytes before marker 0x%02x",
                              (unsigned long long)((limit - pos) / 8), k + 1 < sp->intervals ? 0xD0 + k % 8 : 0xD9);
    sp->ends[k] = pos;
    return 0;
}

// Every interval is walked, those the marks miss too, and copied only if whole: a decoder would
// warn about damage there, and the photo's warning must say so.
int walk_scan(splice *sp) {
    for (int k = 0; k < sp->intervals; k++) {
        int status = walk_interval(sp, k);
        if (status) return status;
    }
    return 0;
}
