// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// `make sanitize`: the splice (tier 2) and the coefficient rewrite (tier 1) of CJPEGCoefficients
// under AddressSanitizer and UBSan, driven straight through their C functions.
//
//   splice-fuzz --ppm WIDTH HEIGHT SEED > picture.ppm   a grainy synthetic picture for cjpeg
//   splice-fuzz SEED CASES FILE.jpg...                  each file as it is, then CASES mutations
//
// The files must splice and decode as they are. Each mutation (a byte of the SOF, a DHT, the
// SOS/DRI/DQT, junk before a marker, bytes of the scan, the file cut short, bytes anywhere: the
// Swift fuzz's kinds; and a DHT repeated hundreds of times, which libjpeg allows and which the
// splice's writer once extended at each copy) goes through both tiers; whatever either writes must
// decode in libjpeg without a warning. The sanitizers stop the run at the first out-of-range read
// or undefined operation.
#include "jpeg_coefficients.h"

#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>

// SplitMix64, as the Swift fuzz uses: the same cases on every run.
static uint64_t state;
static uint64_t next_random(void) {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static size_t below(size_t n) { return n ? (size_t)(next_random() % n) : 0; }

static int write_ppm(int width, int height, uint64_t seed) {
    state = seed;
    printf("P6 %d %d 255\n", width, height);
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) {
            putchar((x * 3 + (int)below(40)) % 256);
            putchar((y * 5 + (int)below(40)) % 256);
            putchar((x + y) * 2 % 256);
        }
    return 0;
}

// What batch's prepare refuses (JPEGCoefficientStamp.Job.prepare): only grey, RGB and YCbCr,
// 8-bit Huffman, whole-number chroma factors are stamped.
static int prepare(void *context, const cs_frame *frame) {
    (void)context;
    if (frame->arithmetic || frame->precision != 8) return 1;
    if (frame->colour_space < 1 || frame->colour_space > 3) return 1;
    if (frame->components != (frame->colour_space == 1 ? 1 : 3)) return 1;
    for (int c = 0; c < frame->components; c++)
        if (frame->h[c] <= 0 || frame->v[c] <= 0 || frame->max_h % frame->h[c] || frame->max_v % frame->v[c]) return 1;
    return 0;
}

// Block rows 0-2 and every fifth from row 7, columns 1-3: changes at the start and mid-scan.
static int wants(void *context, int component, int row, int *first, int *end) {
    (void)context;
    (void)component;
    if (row > 2 && row % 5 != 2) return 0;
    *first = 1;
    *end = 4;
    return 1;
}

// A small change within baseline's ranges: the DC one step towards zero, the first AC toggled.
static void change(short *block) {
    block[0] = (short)(block[0] > 0 ? block[0] - 1 : block[0] + 1);
    block[1] = (short)(block[1] ? 0 : 1);
}

static int filter_window(void *context, int component, int row, int first, short *blocks, int count) {
    (void)context;
    (void)component;
    for (int b = 0; b < count; b++)
        if (first + b >= 1 && first + b < 4 && (row <= 2 || row % 5 == 2)) change(blocks + 64 * b);
    return 0;
}

static int filter(void *context, int component, int row, short *blocks, int count) {
    return filter_window(context, component, row, 0, blocks, count);
}

typedef struct {
    struct jpeg_error_mgr manager;
    jmp_buf escape;
    int warnings;
    char first[JMSG_LENGTH_MAX]; // the first warning
} decode_errors;

static void decode_fail(j_common_ptr info) { longjmp(((decode_errors *)info->err)->escape, 1); }
static void decode_message(j_common_ptr info, int level) {
    decode_errors *errors = (decode_errors *)info->err;
    if (level < 0 && !errors->warnings++) (*info->err->format_message)(info, errors->first);
}

// Whether libjpeg decodes `data` to pixels, as djpeg does, without an error or a warning.
static int decodes(const unsigned char *data, size_t length, char *why) {
    struct jpeg_decompress_struct info;
    decode_errors errors;
    info.err = jpeg_std_error(&errors.manager);
    errors.manager.error_exit = decode_fail;
    errors.manager.emit_message = decode_message;
    errors.warnings = 0;
    jpeg_create_decompress(&info);
    JSAMPARRAY row = NULL;
    if (setjmp(errors.escape)) {
        (*info.err->format_message)((j_common_ptr)&info, why);
        jpeg_destroy_decompress(&info);
        return 0;
    }
    jpeg_mem_src(&info, data, (unsigned long)length);
    jpeg_read_header(&info, TRUE);
    jpeg_start_decompress(&info);
    JDIMENSION width = info.output_width * (JDIMENSION)info.output_components;
    row = (*info.mem->alloc_sarray)((j_common_ptr)&info, JPOOL_IMAGE, width, 1);
    while (info.output_scanline < info.output_height) jpeg_read_scanlines(&info, row, 1);
    jpeg_finish_decompress(&info);
    int clean = errors.warnings == 0;
    if (!clean) snprintf(why, JMSG_LENGTH_MAX, "%s", errors.first);
    jpeg_destroy_decompress(&info);
    return clean;
}

typedef struct {
    unsigned char *data;
    size_t length;
} bytes;

// The header segments up to the SOS: their offsets (of the 0xFF) and length fields.
static int segments(const bytes *d, size_t *at, size_t *length, int *marker, int most) {
    int n = 0;
    size_t p = 2;
    while (n < most && p + 4 <= d->length && d->data[p] == 0xFF) {
        at[n] = p;
        marker[n] = d->data[p + 1];
        length[n] = (size_t)d->data[p + 2] << 8 | d->data[p + 3];
        if (marker[n++] == 0xDA || length[n - 1] < 2) break;
        p += 2 + length[n - 1];
    }
    return n;
}

// A segment among the first n with one of `markers` (0-terminated), or -1.
static int pick(int n, const int *marker, const int *markers) {
    int found[64], count = 0;
    for (int i = 0; i < n; i++)
        for (const int *m = markers; *m; m++)
            if (marker[i] == *m) found[count++] = i;
    return count ? found[below((size_t)count)] : -1;
}

// Whether a restart marker or the EOI starts at i.
static int is_marker(const bytes *d, size_t i) {
    return d->data[i] == 0xFF && d->data[i + 1] >= 0xD0 && d->data[i + 1] <= 0xD9;
}

static void insert_junk(bytes *d) {
    size_t spots = 0;
    for (size_t i = 0; i + 1 < d->length; i++) spots += is_marker(d, i);
    if (!spots) return;
    size_t chosen = below(spots), at = 0;
    for (size_t i = 0; i + 1 < d->length; i++)
        if (is_marker(d, i) && chosen-- == 0) {
            at = i;
            break;
        }
    size_t n = 1 + below(5);
    memmove(d->data + at + n, d->data + at, d->length - at);
    for (size_t i = 0; i < n; i++) d->data[at + i] = (unsigned char)(1 + below(254));
    d->length += n;
}

// The room a mutated file has.
#define ROOM ((size_t)1 << 20)

// A DHT segment repeated `copies` times where it stands (as far as ROOM allows): every copy
// redefines the same tables, and the last one is the one in force.
static void repeat_segment(bytes *d, size_t at, size_t length, size_t copies) {
    size_t size = length + 2;
    if (d->length + 8 + size > ROOM) return;
    size_t most = (ROOM - 8 - d->length) / size;
    if (copies > most) copies = most;
    memmove(d->data + at + size * (copies + 1), d->data + at + size, d->length - at - size);
    for (size_t k = 1; k <= copies; k++) memcpy(d->data + at + size * k, d->data + at, size);
    d->length += size * copies;
}

// A DHT of `d` repeated 1 to 1,500 times.
static void repeat_dht(bytes *d) {
    size_t at[64], length[64];
    int marker[64], n = segments(d, at, length, marker, 64), s;
    static const int dht[] = {0xC4, 0};
    if ((s = pick(n, marker, dht)) >= 0) repeat_segment(d, at[s], length[s], 1 + below(1500));
}

// One mutation of `d` (which has ROOM bytes).
static void mutate(bytes *d) {
    size_t at[64], length[64];
    int marker[64], n = segments(d, at, length, marker, 64), s;
    static const int sof[] = {0xC0, 0xC1, 0}, dht[] = {0xC4, 0}, others[] = {0xDA, 0xDD, 0xDB, 0};
    switch (below(8)) {
    case 0:
        if ((s = pick(n, marker, sof)) >= 0 && length[s] > 2) {
            size_t p = at[s] + 4 + below(length[s] - 2);
            const unsigned char values[] = {0, 0x40, 0x80, 0xFF, (unsigned char)below(256),
                                            (unsigned char)(d->data[p] ^ (1u << below(8)))};
            if (p < d->length) d->data[p] = values[below(sizeof values)];
        }
        break;
    case 1:
        if ((s = pick(n, marker, dht)) >= 0 && length[s] > 2) {
            size_t p = at[s] + 4 + below(length[s] - 2 < 40 ? length[s] - 2 : 40);
            const unsigned char steps[] = {1, 2, 255, 16, 128};
            if (p < d->length) d->data[p] = (unsigned char)(d->data[p] + steps[below(sizeof steps)]);
        }
        break;
    case 2:
        if ((s = pick(n, marker, others)) >= 0) {
            size_t p = at[s] + 2 + below(length[s]);
            if (p < d->length) d->data[p] = (unsigned char)below(256);
        }
        break;
    case 3:
        insert_junk(d);
        break;
    case 4: {
        size_t start = n ? at[n - 1] + 2 + length[n - 1] : 2;
        for (size_t k = 1 + below(3); k > 0 && start < d->length; k--)
            d->data[start + below(d->length - start)] = (unsigned char)below(256);
        break;
    }
    case 5:
        d->length -= 1 + below(d->length / 2);
        break;
    case 6:
        repeat_dht(d);
        break;
    default:
        for (size_t k = 1 + below(4); k > 0; k--) d->data[2 + below(d->length - 2)] = (unsigned char)below(256);
    }
}

// Both tiers on `input`; 0, or 1 when either wrote a file that does not decode cleanly.
static int stamp_both(const bytes *input, const char *name, long index, int must_splice, long *spliced) {
    unsigned char *output = NULL;
    size_t length = 0;
    char message[CS_MESSAGE_LENGTH], why[JMSG_LENGTH_MAX] = "";
    int status = cs_splice_coefficients(input->data, input->length, prepare, wants, filter_window, NULL, &output,
                                        &length, message);
    int bad = 0;
    if (status == 0) {
        ++*spliced;
        if (!decodes(output, length, why)) {
            fprintf(stderr, "splice-fuzz: %s case %ld: the spliced file does not decode cleanly (%s)\n", name, index,
                    why);
            bad = 1;
        }
    } else if (must_splice) {
        fprintf(stderr, "splice-fuzz: %s is not spliced (%d: %s)\n", name, status, message);
        bad = 1;
    }
    free(output);
    output = NULL;
    if (cs_rewrite_coefficients(input->data, input->length, prepare, filter, NULL, &output, &length, message) == 0
        && !decodes(output, length, why)) {
        fprintf(stderr, "splice-fuzz: %s case %ld: tier 1's file does not decode cleanly (%s)\n", name, index, why);
        bad = 1;
    }
    free(output);
    return bad;
}

static int read_file(const char *path, bytes *b) {
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    b->data = malloc((size_t)size + 16);
    b->length = b->data && size > 0 ? fread(b->data, 1, (size_t)size, f) : 0;
    fclose(f);
    return b->length == (size_t)size && size > 4 ? 0 : -1;
}

int main(int argc, char **argv) {
    if (argc == 5 && !strcmp(argv[1], "--ppm"))
        return write_ppm(atoi(argv[2]), atoi(argv[3]), strtoull(argv[4], NULL, 10));
    if (argc < 4) {
        fprintf(stderr, "usage: splice-fuzz SEED CASES FILE.jpg... | splice-fuzz --ppm WIDTH HEIGHT SEED\n");
        return 64;
    }
    state = strtoull(argv[1], NULL, 10);
    long cases = atol(argv[2]), spliced = 0, failures = 0;
    int files = argc - 3;
    bytes *bases = calloc((size_t)files, sizeof *bases);
    for (int i = 0; i < files; i++) {
        if (read_file(argv[3 + i], &bases[i])) {
            fprintf(stderr, "splice-fuzz: cannot read %s\n", argv[3 + i]);
            return 1;
        }
        failures += stamp_both(&bases[i], argv[3 + i], -1, 1, &spliced);
    }
    bytes mutated = {malloc(ROOM), 0};
    for (long k = 0; k < cases; k++) {
        const bytes *base = &bases[k % files];
        if (base->length + 8 > ROOM) continue;
        memcpy(mutated.data, base->data, base->length);
        mutated.length = base->length;
        mutate(&mutated);
        // A copy of exactly its length, so the sanitizer sees any read past its end.
        bytes exact = {malloc(mutated.length), mutated.length};
        memcpy(exact.data, mutated.data, mutated.length);
        failures += stamp_both(&exact, argv[3 + k % files], k, 0, &spliced);
        free(exact.data);
    }
    printf("splice-fuzz: %ld cases on %d files, %ld spliced, %ld failures\n", cases, files, spliced, failures);
    for (int i = 0; i < files; i++) free(bases[i].data);
    free(bases);
    free(mutated.data);
    return failures ? 1 : 0;
}
