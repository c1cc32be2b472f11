// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// The splice's Huffman tables: checked as libjpeg checks them, extended with the codes a changed
// block may need, built for the walk, and kept from photo to photo on each thread.
#include "splice.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

// ITU T.81 annex C and F.2.2.3; 0, or -1 for a table that is not a prefix code (or out of
// memory). `ac`: the walk's table too.
static int build(const JHUFF_TBL *source, table *t, int ac) {
    memset(t, 0, sizeof *t);
    int p = 0;
    uint32_t code = 0;
    for (int length = 1; length <= 16; length++) {
        t->valoffset[length] = p - (int32_t)code;
        for (int i = 0; i < source->bits[length]; i++, p++, code++) {
            if (p >= 256) return -1;
            int symbol = source->huffval[p];
            t->huffval[p] = (uint8_t)symbol;
            t->code[symbol] = (uint16_t)code;
            t->size[symbol] = (uint8_t)length;
            if (length <= LOOK)
                for (uint32_t k = code << (LOOK - length); k < (code + 1) << (LOOK - length); k++)
                    t->look[k] = (uint16_t)(length << 8 | symbol);
        }
        // libjpeg's jpeg_make_d_derived_tbl: no code may be all ones.
        if (code >= (1u << length)) return -1;
        t->maxcode[length] = source->bits[length] ? (int32_t)code - 1 : -1;
        code <<= 1;
    }
    t->maxcode[17] = INT32_MAX;
    if (!ac) return 0;
    // One AC code and its value bits within FAST bits: length | (positions advanced) << 5 |
    // end of block << 11; 0 when longer.
    uint16_t *fast = calloc(1u << FAST, sizeof *fast);
    if (!fast) return -1;
    for (int symbol = 0; symbol < 256; symbol++) {
        int length = t->size[symbol], bits = symbol & 15, total = length + bits;
        if (!length || total > FAST) continue;
        int advance = bits ? (symbol >> 4) + 1 : symbol == 0xF0 ? 16 : 0;
        uint16_t entry = (uint16_t)(total | advance << 5 | (!bits && symbol != 0xF0) << 11);
        uint32_t first = (uint32_t)t->code[symbol] << (FAST - length);
        for (uint32_t k = first; k < first + (1u << (FAST - length)); k++) fast[k] = entry;
    }
    for (uint32_t k = 0; k < (1u << FAST); k++) {
        uint16_t first = fast[k];
        if (!first) continue;
        uint32_t n = first & 31, a = (first >> 5) & 63, eob = (first >> 11) & 1;
        while (!eob && n < FAST) {
            uint16_t next = fast[(k << n) & ((1u << FAST) - 1)];
            uint32_t m = next & 31;
            // Valid only when the next code and its bits lie within the known FAST - n bits.
            if (!next || n + m > FAST) break;
            n += m;
            a += (next >> 5) & 63;
            eob = (next >> 11) & 1;
        }
        // An advance past 64 (sixteen-zero runs of short codes) is never taken at once either.
        uint32_t advance = a + eob < 127 ? a + eob : 127;
        t->pair[k] = (group){(uint8_t)n, (uint8_t)(advance << 1 | eob)};
    }
    // A code longer than FAST bits: an advance no block has room for sends the walk to `symbol`.
    for (uint32_t k = 0; k < (1u << FAST); k++)
        if (!t->pair[k].length) t->pair[k] = (group){0, 127 << 1};
    free(fast);
    return 0;
}

static pthread_key_t table_cache_key;
static pthread_once_t table_cache_once = PTHREAD_ONCE_INIT;
static void make_table_cache_key(void) { pthread_key_create(&table_cache_key, free); }

// This thread's cache, its call counter moved on: NULL when out of memory.
table_cache *thread_tables(void) {
    pthread_once(&table_cache_once, make_table_cache_key);
    table_cache *cache = pthread_getspecific(table_cache_key);
    if (!cache) {
        cache = calloc(1, sizeof *cache);
        if (!cache || pthread_setspecific(table_cache_key, cache)) {
            free(cache);
            return NULL;
        }
    }
    cache->call++;
    return cache;
}

// `source` built (found in the cache, or built into an entry no table of this call uses: a
// call uses at most 2 * CS_MAX_COMPONENTS of the KEPT_TABLES); NULL for an invalid table.
const table *built_table(table_cache *cache, const JHUFF_TBL *source, int ac) {
    kept_table *victim = NULL;
    for (int i = 0; i < KEPT_TABLES; i++) {
        kept_table *e = &cache->entries[i];
        if (e->used && e->ac == ac && !memcmp(e->bits, source->bits, sizeof e->bits)
            && !memcmp(e->huffval, source->huffval, sizeof e->huffval)) {
            e->call = cache->call;
            return &e->built;
        }
        if (e->call != cache->call && (!victim || !e->used || (victim->used && e->call < victim->call))) victim = e;
    }
    victim->used = 0;
    if (build(source, &victim->built, ac)) return NULL;
    memcpy(victim->bits, source->bits, sizeof victim->bits);
    memcpy(victim->huffval, source->huffval, sizeof victim->huffval);
    victim->ac = ac;
    victim->used = 1;
    victim->call = cache->call;
    return &victim->built;
}

// Whether libjpeg's decoder takes `t` as it is (jdhuff.c, jpeg_make_d_derived_tbl): at most 256
// symbols, no length with more codes than it has room for (an all-ones code is never one), DC
// symbols 0-15. Any decoder refuses a file whose scan uses a table it refuses, so such a photo is
// not spliced: the output would be a file nothing opens.
int valid_table(const JHUFF_TBL *t, int ac) {
    int total = 0;
    uint32_t code = 0;
    for (int length = 1; length <= 16; length++) {
        total += t->bits[length];
        code += t->bits[length];
        if (total > 256 || code >= (1u << length)) return 0;
        code <<= 1;
    }
    for (int i = 0; !ac && i < total; i++)
        if (t->huffval[i] > 15) return 0;
    return 1;
}

// Whether a changed block may need `symbol`: DC sizes 0-11; AC end of block, 16 zeros, and each
// run with sizes 1-10 (baseline coding's range).
static int needed_symbol(int ac, int symbol) {
    return ac ? symbol == 0x00 || symbol == 0xF0 || ((symbol & 15) >= 1 && (symbol & 15) <= 10) : symbol <= 11;
}

// Adds to `t` the symbols a changed block may need that it lacks (optimal tables, as ImageMagick
// and cjpeg -optimize write them, have only those the photo used). JPEG's codes are canonical
// (T.81 C.2): each length's codes follow the last code of the length before, and the all-ones code
// of a length is never used, so whatever the table leaves free lies under that all-ones prefix.
// New symbols put there, after every old code (none of them all ones), leave every code the table
// had as it was: the data written with the old table decodes the same with the new one, and only
// the DHT segment changes. An optimal table leaves just its longest length's all-ones code free,
// so there is room for 2^(16 - longest) - 1 codes: all of them at the shortest length with room,
// else as many as fit at 16 bits, those that cannot be worked around first (DC sizes; AC sizes
// right after a value, end of block, 16 zeros; a 1 after each run, with which the nearest codable
// block shortens a run the table has no code for). 1 when symbols were added, 0 when none lacked,
// -1 when none fit.
int extend_table(JHUFF_TBL *t, int ac) {
    int have[256] = {0}, total = 0, longest = 0;
    for (int l = 1; l <= 16; l++) {
        total += t->bits[l];
        if (t->bits[l]) longest = l;
    }
    if (total > 256) return -1;
    for (int i = 0; i < total; i++) have[t->huffval[i]] = 1;
    uint8_t add[256];
    int m = 0;
    for (int pass = 0; pass < 3; pass++)
        for (int symbol = 0; symbol < 256; symbol++) {
            int rank = !ac || symbol <= 10 || symbol == 0xF0 ? 0 : (symbol & 15) == 1 ? 1 : 2;
            if (rank == pass && needed_symbol(ac, symbol) && !have[symbol]) add[m++] = (uint8_t)symbol;
        }
    if (!m) return 0;
    if (!longest) return -1;
    uint32_t code = 0; // the next code of length `longest`
    for (int l = 1; l <= longest; l++) {
        code += t->bits[l];
        if (l < longest) code <<= 1;
    }
    if (code >= (1u << longest)) return -1;
    uint64_t free = (1u << longest) - code; // codes left at this length, the all-ones one included
    uint64_t room = (free << (16 - longest)) - 1;
    if ((uint64_t)m > room) m = (int)room;
    if (!m || total + m > 256) return -1;
    for (int length = longest; length <= 16; length++, free <<= 1)
        if (free > (uint64_t)m) {
            if (t->bits[length] + m > 255) return -1;
            t->bits[length] = (UINT8)(t->bits[length] + m);
            memcpy(t->huffval + total, add, (size_t)m);
            return 1;
        }
    return -1;
}
