// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// bench/walk/cwalk JPEG DIR: times the entropy splice's walk alone (skip_mcu over every MCU of a
// baseline JPEG without restart markers, 20 times; then walk_scan, as the splice calls it), and
// decode_mcu over the whole scan (5 times), and leaves in DIR the destuffed scan and the tables
// for walk.swift, the walk in Swift (see bench/walk/run.sh).
#include "../../Sources/CJPEGCoefficients/jpeg_errors.c"
#include "../../Sources/CJPEGCoefficients/jpeg_splice.c"
#include "../../Sources/CJPEGCoefficients/splice_header.c"
#include "../../Sources/CJPEGCoefficients/splice_nearest.c"
#include "../../Sources/CJPEGCoefficients/splice_scan.c"
#include "../../Sources/CJPEGCoefficients/splice_tables.c"
#include "../../Sources/CJPEGCoefficients/splice_writer.c"
#include <time.h>
int main(int argc, char **argv) {
    FILE *f = fopen(argv[1], "rb"); fseek(f, 0, SEEK_END); long n = ftell(f); fseek(f, 0, SEEK_SET);
    unsigned char *in = malloc(n); fread(in, 1, n, f); fclose(f);
    static header h; char text[200], scan_path[4096], tables_path[4096];
    snprintf(scan_path, sizeof scan_path, "%s/scan.bin", argv[2]);
    snprintf(tables_path, sizeof tables_path, "%s/tables.bin", argv[2]);
    if (read_header(in, n, &h, thread_tables(), text)) { printf("header: %s\n", text); return 1; }
    scan s; if (read_scan(in, n, h.scan_start, 1, &s, text)) { printf("scan: %s\n", text); return 1; }
    // Dump the destuffed scan (with the 16 zero bytes the reader may look ahead) and the AC/DC
    // tables for the Swift port.
    FILE *o = fopen(scan_path, "wb"); fwrite(s.data, 1, s.length + 16, o); fclose(o);
    o = fopen(tables_path, "wb");
    for (int c = 0; c < 3; c++) {
        const table *t[2] = {h.dc[c], h.ac[c]};
        for (int j = 0; j < 2; j++) {
            fwrite(t[j]->look, 2, 512, o); fwrite(t[j]->maxcode, 4, 18, o); fwrite(t[j]->valoffset, 4, 17, o);
            fwrite(t[j]->huffval, 1, 256, o); fwrite(t[j]->pair, 2, 1 << FAST, o);
        }
    }
    fclose(o);
    size_t mcus = (size_t)h.mcus_x * h.mcus_y;
    struct timespec a, b; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
    uint64_t pos = 0; int pred[4] = {0};
    for (int r = 0; r < 20; r++) {
        pos = 0; memset(pred, 0, sizeof pred);
        for (size_t i = 0; i < mcus; i++) if (skip_mcu(s.data, &pos, &h.mcu, pred)) { printf("bad %zu\n", i); return 1; }
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
    printf("C walk: %.2f ms CPU per scan, end bit %llu of %zu, MCUs %zu, pred %d %d %d\n",
           ((b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6) / 20, (unsigned long long)pos, s.length * 8, mcus, pred[0], pred[1], pred[2]);
    // walk_scan, as the splice runs it (each MCU's start and predictors kept), marking nothing.
    splice sp = {.h = &h, .s = s, .mcus = mcus, .per_interval = mcus, .intervals = 1};
    int none[4096] = {0};
    if (h.mcus_y > 4096) { printf("more than 4096 MCU rows\n"); return 1; }
    sp.kept.first = sp.kept.end = none;
    sp.starts = malloc(sizeof(uint64_t) * (mcus + 1));
    sp.ends = malloc(sizeof(uint64_t));
    sp.predictors = malloc(sizeof(int) * mcus * (size_t)h.frame.components);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
    for (int r = 0; r < 20; r++)
        if (walk_scan(&sp)) { printf("walk_scan: %s\n", sp.text); return 1; }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
    printf("C walk_scan: %.2f ms CPU per scan, end bit %llu\n",
           ((b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6) / 20, (unsigned long long)sp.ends[0]);
    // decode_mcu (the MCUs the marks reach are decoded whole) over the whole scan, 5 times, and
    // a checksum of the coefficients.
    static int16_t coefficients[10][64];
    int16_t *blocks[10];
    for (int i = 0; i < 10; i++) blocks[i] = coefficients[i];
    uint64_t sum = 0;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
    for (int r = 0; r < 5; r++) {
        pos = 0; memset(pred, 0, sizeof pred);
        for (size_t i = 0; i < mcus; i++) {
            if (decode_mcu(s.data, &pos, &h.mcu, pred, blocks)) { printf("bad %zu\n", i); return 1; }
            for (int j = 0; j < 64; j++) sum = sum * 31 + (uint16_t)coefficients[i % h.mcu.blocks][j];
        }
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
    printf("C decode: %.2f ms CPU per scan, end bit %llu, checksum %016llx\n",
           ((b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6) / 5, (unsigned long long)pos,
           (unsigned long long)sum);
    return 0;
}
