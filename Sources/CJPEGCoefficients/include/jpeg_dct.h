// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
#ifndef CS_JPEG_DCT_H
#define CS_JPEG_DCT_H

// The 8x8 DCT passes and the quantisation of the coefficient stamp, in C because Swift cannot compile a function for
// a wider vector unit picked at run time (AVX-512 and AVX where the CPU has them, SSE2 else).
// Every path does the same double operations in the same order (no fused multiply-add), so
// they all give the same bits.

/// out[i] = sum over k of (sum over j of first[i*8+j] * in[j]) [k] * second[k], each [.] a row
/// of eight, the sums in index order from zero. Only the rows j of `in` whose bit is set in
/// `rows` and the columns k whose bit is set in `columns` are summed (the caller knows the
/// others hold zeros). `middle` holds 64 doubles between the passes.
void cs_dct_two_passes(const double *in, double *out, double *middle, const double *first, const double *second,
                       unsigned rows, unsigned columns);

/// block[k] = coefficients[k] / steps[k], clamped to ±1023 and rounded half away from zero (by
/// truncation), as the Swift the stamp had did it: min(1023, q), then max(-1023, ·).
void cs_dct_quantise(const double *coefficients, const double *steps, short *block);

/// Blends one mark's layer over a block into its samples (level-shifted, -128..127): where
/// alpha[k] > 0, samples[k] = clamp(samples[k] + 128, 0, 255) * (1 - alpha[k]) + value[k] - 128,
/// value premultiplied on the 0..255 scale.
void cs_dct_blend(double *samples, const float *alpha, const float *value);

/// coefficients[k] = block[k] * steps[k]; returns the rows holding anything but zeros (bit v)
/// and, shifted left by 8, the columns (bit u).
unsigned cs_dct_dequantise(const short *block, const double *steps, double *coefficients);

#endif
