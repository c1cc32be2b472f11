// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// The block record of a JPEG stamped in its coefficients (docs/credentials.md): a SHA-256 over the
// quantisation tables and the quantised coefficients of every block outside the changed set, and
// the block-by-block comparison of two JPEGs. In C for libjpeg's error_exit, as the stamp is.
#ifndef CAMSTAMP_JPEG_BLOCKS_H
#define CAMSTAMP_JPEG_BLOCKS_H

#include "jpeg_coefficients.h"

/// The two JPEGs (or a JPEG and the layout it should have) differ in their components, sampling,
/// size in blocks or quantisation tables: their blocks cannot be compared one for one.
#define CS_BLOCKS_LAYOUT 3
/// The most blocks a file or a record may have: three full-resolution components of a picture of
/// camstamp's largest, 250 megapixels. A header may claim far more than its data holds, and
/// libjpeg would set aside (and zero) memory for all of them.
#define CS_MAX_BLOCKS 12000000

/// A running SHA-256 in the record's order (OpenSSL's, which uses the CPU's SHA instructions).
typedef struct cs_digest cs_digest;
/// A new digest, with the tables of `frame`'s components fed in (each component's 64 values,
/// natural order, 16-bit little-endian); NULL when out of memory.
cs_digest *cs_digest_new(const cs_frame *frame);
/// Feeds one block row (`count` blocks of 64 coefficients, natural order, each 16-bit
/// little-endian), leaving out the blocks whose byte in `skip` (count bytes, or NULL) is nonzero.
void cs_digest_row(cs_digest *digest, const short *blocks, int count, const unsigned char *skip);
/// The 32 bytes, and frees the digest. 0, or 1 when OpenSSL failed.
int cs_digest_finish(cs_digest *digest, unsigned char out[32]);

/// Reads `input`'s coefficients and digests every block whose byte in `skip` is zero (`skip`:
/// each component's width×height blocks, row by row, component after component; NULL for none).
/// `frame` gets the file's layout. 0; 1 for a libjpeg error (`message` says which);
/// CS_BLOCKS_LAYOUT when `skip_length` is not the file's number of blocks.
int cs_block_digest(const unsigned char *input, size_t input_length, const unsigned char *skip,
                    size_t skip_length, cs_frame *frame, unsigned char digest[32],
                    char message[CS_MESSAGE_LENGTH]);

/// Compares the coefficients of `a` and `b` block by block: `*map` (malloc'd, the caller frees)
/// gets a byte per block, in cs_block_digest's order, 1 where they differ. 0; 1 for a libjpeg
/// error; CS_BLOCKS_LAYOUT when their layouts or tables differ (`frame_a`, `frame_b` say how).
int cs_block_differences(const unsigned char *a, size_t a_length, const unsigned char *b, size_t b_length,
                         unsigned char **map, size_t *map_length, cs_frame *frame_a, cs_frame *frame_b,
                         char message[CS_MESSAGE_LENGTH]);

#endif
