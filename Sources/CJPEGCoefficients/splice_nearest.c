// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// A changed block that needs a Huffman code its tables lack (optimal tables hold only the
// symbols their photo used, and those whose codes reach 16 bits leave no room to add any): the
// block the tables can say that is nearest to it. The marks are drawn anyway; what matters is
// that they look as drawn, so the error is measured where the eye sees it, in pixels: JPEG's DCT
// is orthonormal, so a block's squared error in pixels is the sum over its coefficients of
// (change × quantisation step)². Every other block of the photo, and every byte of the scan
// outside the MCUs coded again, stays as it was.
#include "splice.h"

#include <math.h>
#include <stdint.h>

#define NO_WAY INT64_MAX

// The value of `size` bits (baseline: 1–10 for AC, 0–11 for DC) nearest `target`, and its cost.
static int nearest_of_size(int target, int size, int64_t weight, int64_t *cost) {
    int value = 0;
    if (size > 0) {
        int low = 1 << (size - 1), high = (1 << size) - 1, magnitude = target < 0 ? -target : target;
        magnitude = magnitude < low ? low : magnitude > high ? high : magnitude;
        value = target < 0 ? -magnitude : magnitude;
    }
    int64_t d = (int64_t)(value - target);
    *cost = d * d * weight;
    return value;
}

// The DC difference nearest `target` that `dc` has a code for; 0, or -2 when it has none.
static int nearest_difference(int target, const table *dc, int *difference) {
    int64_t best = NO_WAY;
    for (int size = 0; size <= 11; size++) {
        if (!dc->size[size]) continue;
        int64_t cost;
        int value = nearest_of_size(target, size, 1, &cost);
        if (cost < best) {
            best = cost;
            *difference = value;
        }
    }
    return best == NO_WAY ? -2 : 0;
}

// `block` (natural order) as the nearest block that `dc` and `ac` can code after predictor `pred`
// (T.81 F.1.2: a DC size; per value a run of 0-15 zeros and a size of 1-10, 16 zeros at a time
// before it; an end of block unless the last value is at 63), written to `out`. The AC part is a
// shortest path over the zigzag positions: from the last value written (or the start) to the next
// one, each run and size the table has, the zeros between costing what dropping them costs.
// 0, or -2 when no block can be coded with these tables.
int nearest_codable_block(const int16_t *block, int pred, const table *dc, const table *ac,
                          const unsigned short quant[64], int16_t out[64]) {
    int difference = 0;
    if (nearest_difference(block[0] - pred, dc, &difference)) return -2;
    int64_t weight[64], dropped[64]; // dropped[k]: the cost of zeros at positions 1..k
    int target[64];
    dropped[0] = 0;
    for (int k = 1; k < 64; k++) {
        int q = quant[natural[k]] ? quant[natural[k]] : 1, t = block[natural[k]];
        weight[k] = (int64_t)q * q;
        target[k] = t > 1023 ? 1023 : t < -1023 ? -1023 : t;
        dropped[k] = dropped[k - 1] + (int64_t)target[k] * target[k] * weight[k];
    }
    // cheapest[k][r]: the cheapest value at k after a run of r (mod 16) zeros, and its size.
    int64_t cheapest[64][16];
    int8_t size_of[64][16];
    for (int k = 1; k < 64; k++) {
        int64_t by_size[11];
        for (int s = 1; s <= 10; s++) nearest_of_size(target[k], s, weight[k], &by_size[s]);
        for (int r = 0; r < 16; r++) {
            cheapest[k][r] = NO_WAY;
            size_of[k][r] = 0;
            for (int s = 1; s <= 10; s++)
                if (ac->size[r << 4 | s] && by_size[s] < cheapest[k][r]) {
                    cheapest[k][r] = by_size[s];
                    size_of[k][r] = (int8_t)s;
                }
        }
    }
    // best[j]: the cheapest coding of positions 1..j with a value at j (best[0]: the start).
    int64_t best[64];
    int8_t from[64];
    best[0] = 0;
    for (int j = 1; j < 64; j++) {
        best[j] = NO_WAY;
        from[j] = -1;
        for (int k = j - 1; k >= 0; k--) {
            int run = j - k - 1;
            if (run > 15 && !ac->size[0xF0]) break;
            if (best[k] == NO_WAY || cheapest[j][run & 15] == NO_WAY) continue;
            int64_t cost = best[k] + dropped[j - 1] - dropped[k] + cheapest[j][run & 15];
            if (cost < best[j]) {
                best[j] = cost;
                from[j] = (int8_t)k;
            }
        }
    }
    // The last value: at 63, or anywhere before an end of block.
    int last = best[63] == NO_WAY ? -1 : 63;
    int64_t total = last < 0 ? NO_WAY : best[63];
    for (int k = 0; k < 63 && ac->size[0x00]; k++)
        if (best[k] != NO_WAY && best[k] + dropped[63] - dropped[k] < total) {
            total = best[k] + dropped[63] - dropped[k];
            last = k;
        }
    if (last < 0) return -2;
    for (int k = 0; k < 64; k++) out[k] = 0;
    out[0] = (int16_t)(pred + difference);
    for (int j = last; j > 0; j = from[j]) {
        int run = j - from[j] - 1;
        int64_t cost;
        out[natural[j]] = (int16_t)nearest_of_size(target[j], size_of[j][run & 15], 1, &cost);
    }
    return 0;
}

// The squared error in samples between two blocks (natural order) of one quantisation table.
double block_error(const int16_t *asked, const int16_t *coded, const unsigned short quant[64]) {
    double sum = 0;
    for (int k = 0; k < 64; k++) {
        double d = (double)(coded[k] - asked[k]) * quant[k];
        sum += d * d;
    }
    return sum;
}

// The marks must still look as drawn: the blocks coded as the nearest the tables can say may
// differ from those the marks asked for by no more than MARK_PSNR over the changed MCUs' samples
// (most are coded exactly). A photo whose tables cannot say them that closely (a soft or noisy
// photo's optimal tables can lack every large value) goes to tier 1, which rebuilds the tables.
// 0, or CS_SPLICE_MISSING_CODE.
#define MARK_PSNR 35.0
int check_fidelity(splice *sp) {
    if (sp->nearest_error <= 0) return 0;
    size_t changed = 0;
    for (size_t i = 0; i < sp->mcus; i++) changed += sp->changed[i];
    double samples = (double)changed * sp->h->mcu.blocks * 64;
    double psnr = 10 * log10(255.0 * 255.0 * samples / sp->nearest_error);
    if (psnr >= MARK_PSNR) return 0;
    return splice_failure(sp->text, CS_SPLICE_MISSING_CODE,
                          "the Huffman tables cannot code the marks closely enough (%.1f dB)", psnr);
}
