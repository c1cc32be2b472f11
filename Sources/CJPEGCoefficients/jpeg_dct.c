// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
#include "jpeg_dct.h"

#include <pthread.h>
#include <string.h>

// A multiply then an add, each rounded, as the Swift fallback does: never fused.
#pragma STDC FP_CONTRACT OFF
#pragma clang fp contract(off)

typedef double row8 __attribute__((vector_size(64)));

// Unaligned row loads and stores (macros: a function taking or returning a row8 would change
// the ABI between the variants).
#define LOAD(v, p) memcpy(&(v), (p), sizeof(row8))
#define STORE(p, v) memcpy((p), &(v), sizeof(row8))

static inline __attribute__((always_inline)) void passes(const double *in, double *out, double *middle,
                                                         const double *first, const double *second,
                                                         unsigned rows, unsigned columns) {
    for (int i = 0; i < 8; i++) {
        row8 sum = {0, 0, 0, 0, 0, 0, 0, 0};
        for (int j = 0; j < 8; j++)
            if (rows & (1u << j)) {
                row8 v;
                LOAD(v, in + j * 8);
                sum += first[i * 8 + j] * v;
            }
        STORE(middle + i * 8, sum);
    }
    for (int i = 0; i < 8; i++) {
        row8 sum = {0, 0, 0, 0, 0, 0, 0, 0};
        for (int k = 0; k < 8; k++)
            if (columns & (1u << k)) {
                row8 v;
                LOAD(v, second + k * 8);
                sum += middle[i * 8 + k] * v;
            }
        STORE(out + i * 8, sum);
    }
}

static inline __attribute__((always_inline)) void quantise(const double *coefficients, const double *steps,
                                                           short *block) {
    for (int k = 0; k < 64; k++) {
        double q = coefficients[k] / steps[k];
        q = q < 1023.0 ? q : 1023.0;
        q = q >= -1023.0 ? q : -1023.0;
        block[k] = (short)(int)(q + (q < 0 ? -0.5 : 0.5));
    }
}

static inline __attribute__((always_inline)) void blend(double *restrict samples, const float *restrict alpha,
                                                        const float *restrict value) {
    for (int k = 0; k < 64; k++) {
        const double a = alpha[k];
        // A decoder clamps before showing a sample: the mark covers what it shows.
        double shown = samples[k] + 128;
        shown = shown >= 0 ? shown : 0;
        shown = shown < 255 ? shown : 255;
        const double blended = shown * (1 - a) + (double)value[k] - 128;
        samples[k] = a > 0 ? blended : samples[k];
    }
}

static inline __attribute__((always_inline)) unsigned dequantise(const short *restrict block,
                                                                 const double *restrict steps,
                                                                 double *restrict coefficients) {
    unsigned rows = 0, any = 0;
    for (int v = 0; v < 8; v++) {
        unsigned row = 0;
        for (int u = 0; u < 8; u++) {
            row |= block[v * 8 + u] != 0 ? 1u << u : 0;
            coefficients[v * 8 + u] = (double)block[v * 8 + u] * steps[v * 8 + u];
        }
        rows |= row ? 1u << v : 0;
        any |= row;
    }
    return rows | any << 8;
}

// The dense case (every row and column) apart, with its tests folded away.
#define CS_DCT_VARIANT(suffix, attributes)                                                                \
    attributes static void passes_##suffix(const double *in, double *out, double *middle, const double *first, \
                                           const double *second, unsigned rows, unsigned columns) {      \
        if (rows == 0xFF && columns == 0xFF) passes(in, out, middle, first, second, 0xFF, 0xFF);          \
        else passes(in, out, middle, first, second, rows, columns);                                       \
    }                                                                                                     \
    attributes static void quantise_##suffix(const double *coefficients, const double *steps, short *block) { \
        quantise(coefficients, steps, block);                                                             \
    }                                                                                                     \
    attributes static unsigned dequantise_##suffix(const short *block, const double *steps, double *coefficients) { \
        return dequantise(block, steps, coefficients);                                                    \
    }                                                                                                     \
    attributes static void blend_##suffix(double *samples, const float *alpha, const float *value) {      \
        blend(samples, alpha, value);                                                                     \
    }

typedef struct {
    void (*passes)(const double *, double *, double *, const double *, const double *, unsigned, unsigned);
    void (*quantise)(const double *, const double *, short *);
    void (*blend)(double *, const float *, const float *);
    unsigned (*dequantise)(const short *, const double *, double *);
} kernels;

CS_DCT_VARIANT(portable, )

#if defined(__x86_64__)
CS_DCT_VARIANT(avx512, __attribute__((target("avx512f"))))
CS_DCT_VARIANT(avx, __attribute__((target("avx"))))

static kernels pick(void) {
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) return (kernels){passes_avx512, quantise_avx512, blend_avx512, dequantise_avx512};
    if (__builtin_cpu_supports("avx")) return (kernels){passes_avx, quantise_avx, blend_avx, dequantise_avx};
    return (kernels){passes_portable, quantise_portable, blend_portable, dequantise_portable};
}
#else
static kernels pick(void) { return (kernels){passes_portable, quantise_portable, blend_portable, dequantise_portable}; }
#endif

// Picked once, before any thread uses them (pthread_once: no thread reads them half-stored).
static kernels picked;
static pthread_once_t picking = PTHREAD_ONCE_INIT;
static void pick_once(void) { picked = pick(); }

static const kernels *chosen(void) {
    pthread_once(&picking, pick_once);
    return &picked;
}

void cs_dct_two_passes(const double *in, double *out, double *middle, const double *first, const double *second,
                       unsigned rows, unsigned columns) {
    chosen()->passes(in, out, middle, first, second, rows, columns);
}

void cs_dct_quantise(const double *coefficients, const double *steps, short *block) {
    chosen()->quantise(coefficients, steps, block);
}

void cs_dct_blend(double *samples, const float *alpha, const float *value) { chosen()->blend(samples, alpha, value); }

unsigned cs_dct_dequantise(const short *block, const double *steps, double *coefficients) {
    return chosen()->dequantise(block, steps, coefficients);
}
