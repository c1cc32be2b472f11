// Tier 2, the entropy splice (see jpeg_coefficients.h). libjpeg only reads the headers (tables,
// sampling, colour space); the scan is walked here: Huffman-decoded just enough to know where each
// MCU starts and its DC predictors, coefficients kept only for the MCU rows the marks reach. In C
// rather than Swift for the bit loop (measured: see bench/README.md).
#include "jpeg_coefficients.h"

#include <pthread.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>

// Zigzag position -> natural (row-major) index, ITU T.81 figure A.6.
static const uint8_t natural[64] = {
    0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
    35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63};

#define LOOK 9
// 14 bits: the AC tables of a 4:2:0 photo (two of 32 KiB) stay near the core, and the walk's
// look-ups take 11 bits each on average on the bench's photos (13 bits: 5 % slower).
#define FAST 14

typedef struct {
    int32_t maxcode[18];
    int32_t valoffset[17];
    uint8_t huffval[256];
    // (length << 8 | symbol) of the code starting with these LOOK bits; 0 when longer.
    uint16_t look[1 << LOOK];
    // The walk's table (AC tables only): as many AC codes with their value bits as lie within
    // FAST bits, at once (on noisy photos most codes are 2-5 bits with their values, so often
    // three or four): total length | end of block after them << 4 | advance << 5, where advance
    // is the positions they move on plus one for an end of block, so that `k + advance <= 64`
    // says the whole group is in this block (every code before the last leaves it open, and an
    // end of block comes after a value at 62 at most). 0 when even the first code is longer.
    // The total length, which the walk's next look-up waits for, is in the low bits.
    uint16_t pair[1 << FAST];
    // Encoding: code and length by symbol (length 0: no code).
    uint16_t code[256];
    uint8_t size[256];
} table;

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
        t->pair[k] = (uint16_t)(n | eob << 4 | (a + eob) << 5);
    }
    free(fast);
    return 0;
}

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

static pthread_key_t table_cache_key;
static pthread_once_t table_cache_once = PTHREAD_ONCE_INIT;
static void make_table_cache_key(void) { pthread_key_create(&table_cache_key, free); }

// This thread's cache, its call counter moved on: NULL when out of memory.
static table_cache *thread_tables(void) {
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
static const table *built_table(table_cache *cache, const JHUFF_TBL *source, int ac) {
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
static int valid_table(const JHUFF_TBL *t, int ac) {
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
// right after a value, end of block, 16 zeros; a 1 after each run, which encode_block uses to
// shorten a run it has no code for). 1 when symbols were added, 0 when none lacked, -1 when none fit.
static int extend_table(JHUFF_TBL *t, int ac) {
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

typedef struct {
    int blocks; // in an MCU
    int component[10], x[10], y[10];
    const table *dc[10], *ac[10];
} layout;

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
static int decode_mcu(const uint8_t *data, uint64_t *pos, const layout *mcu, int pred[], int16_t **blocks) {
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
            if (left < 31) REFILL();
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
        while (k < 64) {
            if (left < FAST) REFILL();
            uint32_t entry = ac->pair[w >> (64 - FAST)];
            if (entry && k + (int)(entry >> 5) <= 64) {
                n = (int)(entry & 15);
                w <<= n; left -= n;
                if (entry & 16) break;
                k += (int)(entry >> 5);
                continue;
            }
            // One code at a time: a longer one, or a group that would run past the block. An AC
            // code and its value bits take 31 bits at most (16 + 15: libjpeg accepts sizes to 15).
            if (left < 31) REFILL();
            int rs = symbol(ac, w, &length);
            if (!length) return -1;
            s = rs & 15;
            n = length + s;
            w <<= n; left -= n;
            if (s) k += (rs >> 4) + 1;
            else if (rs >> 4 == 15) k += 16;
            else break;
        }
        // A run past the last coefficient (or a 16-zero run ending past it): damaged.
        if (k > 64) return -1;
    }
    *pos = (uint64_t)(next - data) * 8 - (uint64_t)left;
    return 0;
}
#undef REFILL

typedef struct {
    uint8_t *data;
    size_t length, capacity;
    uint64_t bits;
    int count; // bits waiting in `bits`
} writer;

static int reserve(writer *w, size_t more) {
    if (w->length + more <= w->capacity) return 0;
    size_t capacity = (w->length + more) * 3 / 2;
    uint8_t *grown = realloc(w->data, capacity);
    if (!grown) return -1;
    w->data = grown;
    w->capacity = capacity;
    return 0;
}

// Appends `size` (≤ 32) bits, stuffing a zero after each 0xFF byte. Room reserved by the caller.
static inline void put(writer *w, uint32_t value, int size) {
    w->bits = (w->bits << size) | (value & (size == 32 ? 0xFFFFFFFFu : ((1u << size) - 1)));
    w->count += size;
    while (w->count >= 8) {
        uint8_t byte = (uint8_t)(w->bits >> (w->count - 8));
        w->data[w->length++] = byte;
        if (byte == 0xFF) w->data[w->length++] = 0;
        w->count -= 8;
    }
}

// Pads to a byte with ones, as T.81 F.1.2.3 asks.
static void pad(writer *w) {
    if (w->count) put(w, 0x7F, 8 - w->count);
}

static void append(writer *w, const uint8_t *bytes, size_t n) {
    memcpy(w->data + w->length, bytes, n);
    w->length += n;
}

// Encodes one block (natural order) after DC predictor `pred`. 0; -1 when a value is beyond what
// baseline coding holds; -2 when a table has no code for a symbol needed.
static int encode_block(writer *w, const int16_t *block, int pred, const table *dc, const table *ac) {
    int diff = block[0] - pred, magnitude = diff < 0 ? -diff : diff;
    int s = magnitude ? 32 - __builtin_clz((unsigned)magnitude) : 0;
    if (s > 11) return -1;
    if (!dc->size[s]) return -2;
    // A code and its value bits in one put (27 bits at most).
    put(w, (uint32_t)dc->code[s] << s | ((uint32_t)(diff < 0 ? diff - 1 : diff) & ((1u << s) - 1)), dc->size[s] + s);
    int run = 0;
    for (int k = 1; k < 64; k++) {
        int v = block[natural[k]];
        if (!v) {
            run++;
            continue;
        }
        for (; run > 15; run -= 16) {
            if (!ac->size[0xF0]) return -2;
            put(w, ac->code[0xF0], ac->size[0xF0]);
        }
        magnitude = v < 0 ? -v : v;
        s = 32 - __builtin_clz((unsigned)magnitude);
        if (s > 10) return -1;
        int rs = run << 4 | s;
        if (!ac->size[rs]) {
            // A table without this run and size (an optimal table holds only what its photo
            // used): the run is shortened by a +1 at one of its zeros, where that gives two codes
            // the table has, which changes a block that is being changed anyway by one
            // quantisation step at one frequency. A value of a size the table lacks after every
            // shorter run cannot be written without changing it a lot (cut to a smaller size,
            // a text's edges lose their contrast): tier 1 rebuilds the tables instead.
            int split = -1;
            for (int after = run - 1; after >= 0 && split < 0; after--)
                if (ac->size[(run - 1 - after) << 4 | 1] && ac->size[after << 4 | s]) split = after;
            if (split < 0) return -2;
            int before = run - 1 - split;
            put(w, ac->code[before << 4 | 1], ac->size[before << 4 | 1]);
            put(w, 1, 1); // +1
            rs = split << 4 | s;
        }
        put(w, (uint32_t)ac->code[rs] << s | ((uint32_t)(v < 0 ? v - 1 : v) & ((1u << s) - 1)), ac->size[rs] + s);
        run = 0;
    }
    if (run) {
        if (!ac->size[0]) return -2;
        put(w, ac->code[0], ac->size[0]);
    }
    return 0;
}

typedef struct {
    struct jpeg_error_mgr manager;
    jmp_buf escape;
    char *message;
} error_state;

static void fail(j_common_ptr info) {
    error_state *state = (error_state *)info->err;
    (*info->err->format_message)(info, state->message);
    longjmp(state->escape, 1);
}

static void warn(j_common_ptr info, int level) {
    if (level < 0) fail(info);
}

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

// 0, or a CS_SPLICE_ status with `text` saying why.
static int read_header(const unsigned char *input, size_t length, header *h, table_cache *tables, char *text) {
    struct jpeg_decompress_struct info;
    error_state error;
    info.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = fail;
    error.manager.emit_message = warn;
    error.message = text;
    jpeg_create_decompress(&info);
    if (setjmp(error.escape)) {
        jpeg_destroy_decompress(&info);
        return CS_SPLICE_DAMAGED;
    }
    jpeg_mem_src(&info, input, (unsigned long)length);
    jpeg_read_header(&info, TRUE);
    int status = 0;
    if (info.progressive_mode || info.arith_code || info.data_precision != 8 || info.num_components > CS_MAX_COMPONENTS
        || info.comps_in_scan != info.num_components) {
        snprintf(text, JMSG_LENGTH_MAX, "not one sequential Huffman scan");
        status = CS_SPLICE_NOT_BASELINE;
    } else if (info.Ss != 0 || info.Se != DCTSIZE2 - 1 || info.Ah != 0 || info.Al != 0) {
        // What libjpeg warns about only once it starts decoding (jdhuff.c), in its words.
        snprintf(text, JMSG_LENGTH_MAX, "Invalid SOS parameters for sequential JPEG");
        status = CS_SPLICE_DAMAGED;
    }
    memset(&h->frame, 0, sizeof h->frame);
    cs_frame *frame = &h->frame;
    frame->width = (int)info.image_width;
    frame->height = (int)info.image_height;
    frame->components = info.num_components;
    frame->colour_space = info.jpeg_color_space;
    frame->max_h = info.max_h_samp_factor;
    frame->max_v = info.max_v_samp_factor;
    frame->precision = info.data_precision;
    frame->restart_interval = (int)info.restart_interval;
    h->saw_jfif = info.saw_JFIF_marker;
    h->density_unit = info.density_unit;
    h->x_density = info.X_density;
    h->y_density = info.Y_density;
    h->scan_components = info.comps_in_scan;
    for (int c = 0; !status && c < info.num_components; c++) {
        jpeg_component_info *component = &info.comp_info[c];
        if (info.cur_comp_info[c] != component) {
            snprintf(text, JMSG_LENGTH_MAX, "scan components out of frame order");
            status = CS_SPLICE_NOT_BASELINE;
            break;
        }
        frame->h[c] = h->h[c] = component->h_samp_factor;
        frame->v[c] = h->v[c] = component->v_samp_factor;
        frame->width_in_blocks[c] = (int)((info.image_width * (unsigned)component->h_samp_factor + 8u * (unsigned)info.max_h_samp_factor - 1)
                                          / (8u * (unsigned)info.max_h_samp_factor));
        frame->height_in_blocks[c] = (int)((info.image_height * (unsigned)component->v_samp_factor + 8u * (unsigned)info.max_v_samp_factor - 1)
                                           / (8u * (unsigned)info.max_v_samp_factor));
        // libjpeg reads these selectors (a byte, a nibble each) without checking them against
        // its four slots: it does that as it starts decoding, which is never done here.
        if (component->quant_tbl_no < 0 || component->quant_tbl_no >= NUM_QUANT_TBLS || component->dc_tbl_no < 0
            || component->dc_tbl_no >= NUM_HUFF_TBLS || component->ac_tbl_no < 0 || component->ac_tbl_no >= NUM_HUFF_TBLS) {
            snprintf(text, JMSG_LENGTH_MAX, "a table selector out of range");
            status = CS_SPLICE_DAMAGED;
            break;
        }
        JQUANT_TBL *quant = info.quant_tbl_ptrs[component->quant_tbl_no];
        JHUFF_TBL *dc = info.dc_huff_tbl_ptrs[component->dc_tbl_no], *ac = info.ac_huff_tbl_ptrs[component->ac_tbl_no];
        int slots[2] = {component->dc_tbl_no, component->ac_tbl_no};
        JHUFF_TBL *read_tables[2] = {dc, ac};
        for (int k = 0; k < 2 && dc && ac; k++) {
            int slot = slots[k];
            if (!valid_table(read_tables[k], k)) {
                snprintf(text, JMSG_LENGTH_MAX, "Bogus Huffman table definition");
                status = CS_SPLICE_DAMAGED;
                break;
            }
            if (!h->read[k][slot]) {
                h->source[k][slot] = *read_tables[k];
                h->read[k][slot] = 1;
                h->extended[k][slot] = extend_table(&h->source[k][slot], k) > 0;
            }
        }
        if (dc && ac) {
            dc = &h->source[0][slots[0]];
            ac = &h->source[1][slots[1]];
        }
        if (status) break;
        if (!quant || !dc || !ac || !(h->dc[c] = built_table(tables, dc, 0)) || !(h->ac[c] = built_table(tables, ac, 1))) {
            snprintf(text, JMSG_LENGTH_MAX, "a missing or invalid table");
            status = CS_SPLICE_DAMAGED;
            break;
        }
        for (int k = 0; k < 64; k++) frame->quant[c][k] = quant->quantval[k];
    }
    if (!status) {
        layout *mcu = &h->mcu;
        mcu->blocks = 0;
        if (info.num_components == 1) {
            h->mcus_x = frame->width_in_blocks[0];
            h->mcus_y = frame->height_in_blocks[0];
            h->h[0] = h->v[0] = 1;
        } else {
            h->mcus_x = (int)((info.image_width + 8u * (unsigned)info.max_h_samp_factor - 1) / (8u * (unsigned)info.max_h_samp_factor));
            h->mcus_y = (int)((info.image_height + 8u * (unsigned)info.max_v_samp_factor - 1) / (8u * (unsigned)info.max_v_samp_factor));
        }
        for (int c = 0; c < info.num_components; c++)
            for (int y = 0; y < h->v[c]; y++)
                for (int x = 0; x < h->h[c]; x++) {
                    if (mcu->blocks >= 10) {
                        snprintf(text, JMSG_LENGTH_MAX, "more than 10 blocks in an MCU");
                        status = CS_SPLICE_DAMAGED;
                        goto done;
                    }
                    int b = mcu->blocks++;
                    mcu->component[b] = c;
                    mcu->x[b] = x;
                    mcu->y[b] = y;
                    mcu->dc[b] = h->dc[c];
                    mcu->ac[b] = h->ac[c];
                }
        h->scan_start = (size_t)(info.src->next_input_byte - input);
    }
done:
    jpeg_destroy_decompress(&info);
    return status;
}

typedef struct {
    uint8_t *data;          // destuffed, intervals back to back, SPARE zero bytes
    size_t length;
    int intervals;
    size_t *start, *end;    // each interval's destuffed bytes
    size_t *source_start, *source_end; // and its bytes in the input (end: its RST or the EOI)
    size_t *skip_at, *skip_extra;      // input offset of destuffed byte d: scan_start + d + extra of the last skip_at <= d
    size_t skips;
} scan;

static size_t source_offset(const scan *s, size_t scan_start, size_t d) {
    size_t lo = 0, hi = s->skips; // the first skip_at > d
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (s->skip_at[mid] <= d) lo = mid + 1; else hi = mid;
    }
    return scan_start + d + (lo ? s->skip_extra[lo - 1] : 0);
}

static void free_scan(scan *s) {
    free(s->data); free(s->start); free(s->end); free(s->source_start); free(s->source_end);
    free(s->skip_at); free(s->skip_extra);
}

// Destuffs the scan, splitting it at its restart markers; 0, or a CS_SPLICE_ status.
static int read_scan(const unsigned char *input, size_t length, size_t scan_start, int intervals, scan *s, char *text) {
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

// Copies destuffed bits [from, to) of one interval; byte for byte when both sides are aligned.
// 0, or -1 out of memory.
static int copy_bits(writer *w, const scan *s, size_t scan_start, const unsigned char *input, uint64_t from, uint64_t to) {
    // A shifted copy can meet a 0xFF more often than the source did: twice the bytes at most.
    if (to <= from) return 0;
    if (reserve(w, (size_t)((to - from) / 4) + 16)) return -1;
    if (w->count == 0 && (from & 7) == 0 && to - from >= 64) {
        // Through the input byte of the last whole destuffed byte, and its stuffed zero if any.
        size_t a = source_offset(s, scan_start, (size_t)(from >> 3)), last = source_offset(s, scan_start, (size_t)(to >> 3) - 1);
        size_t b = last + 1 + (input[last] == 0xFF);
        append(w, input + a, b - a);
        from = to & ~(uint64_t)7;
    }
    // Seven bytes at a time while none of them is 0xFF (which needs a zero after it).
    while (to - from >= 56) {
        uint64_t chunk = peek(s->data, from) >> 8; // 56 bits
        int n = w->count;
        uint64_t combined = (w->bits & ((1ull << n) - 1)) << 56 | chunk;
        uint64_t bytes = combined >> n; // the next 56 bits out; the last n of the chunk stay pending
        uint64_t inverted = ~bytes & 0x00FFFFFFFFFFFFFFull;
        if (((inverted - 0x0001010101010101ull) & ~inverted & 0x0080808080808080ull) == 0) {
            uint64_t out = __builtin_bswap64(bytes << 8);
            memcpy(w->data + w->length, &out, 8); // its eighth byte is written over next
            w->length += 7;
            w->bits = combined;
        } else {
            put(w, (uint32_t)(chunk >> 24), 32);
            put(w, (uint32_t)(chunk & 0xFFFFFF), 24);
        }
        from += 56;
    }
    while (from < to) {
        int n = to - from < 32 ? (int)(to - from) : 32;
        put(w, (uint32_t)(peek(s->data, from) >> (64 - n)), n);
        from += (uint64_t)n;
    }
    return 0;
}

// The coefficients kept for the marks: MCU row y holds MCU columns [first[y], end[y]) from block
// offset[y]: each component's v block rows of (end - first) * h blocks.
typedef struct {
    int16_t *coefficients;
    int *first, *end;
    size_t *offset;
    int component_offset[CS_MAX_COMPONENTS]; // in blocks of one MCU column, sum of h * v before
    int h[CS_MAX_COMPONENTS];
    const layout *layout;
} kept_rows;

static inline int16_t *kept_block(const kept_rows *k, int mx, int my, int b) {
    int c = k->layout->component[b];
    size_t width = (size_t)(k->end[my] - k->first[my]);
    return k->coefficients + 64 * (k->offset[my] + width * (size_t)k->component_offset[c]
                                   + (size_t)k->layout->y[b] * width * (size_t)k->h[c]
                                   + (size_t)(mx - k->first[my]) * (size_t)k->h[c] + (size_t)k->layout->x[b]);
}

int cs_splice_coefficients(const unsigned char *input, size_t input_length, cs_prepare prepare,
                           cs_wants_row wants, cs_filter_window filter, void *context, unsigned char **output,
                           size_t *output_length, char message[CS_MESSAGE_LENGTH]) {
    char text[JMSG_LENGTH_MAX] = "";
    *output = NULL;
    *output_length = 0;
    message[0] = 0;
    header *h = calloc(1, sizeof *h);
    scan s;
    memset(&s, 0, sizeof s);
    writer w = {0};
    uint64_t *starts = NULL, *ends = NULL;
    int *predictors = NULL;
    kept_rows kept = {0};
    static __thread int16_t scratch[10][64];
    uint8_t *changed = NULL;
    int16_t *coefficients = NULL, *original = NULL;
    int status;
    if (!h) {
        snprintf(text, sizeof text, "out of memory");
        status = CS_SPLICE_DAMAGED;
        goto out;
    }
    table_cache *tables = thread_tables();
    if (!tables) {
        snprintf(text, sizeof text, "out of memory");
        status = CS_SPLICE_DAMAGED;
        goto out;
    }
    if ((status = read_header(input, input_length, h, tables, text))) goto out;
    // Tables that still lack a DC size, or the AC end of block or 16-zero run, after extend_table
    // go to tier 1 at once, before the walk is paid for. An AC size the table lacks after a run of
    // zeros is worked around as the changed blocks are coded; one it lacks right after a value
    // (an optimal table of a large photo has no room to add it: its codes reach 16 bits) sends
    // the photo to tier 1 only if a changed block needs it, which on the bench's ImageMagick-written
    // photos (which all lack such sizes) 5 of 32 marked photos did.
    for (int c = 0; c < h->frame.components; c++)
        for (int symbol = 0; symbol < 256; symbol++) {
            if ((symbol <= 11 && !h->dc[c]->size[symbol]) || ((symbol == 0x00 || symbol == 0xF0) && !h->ac[c]->size[symbol])) {
                snprintf(text, sizeof text, "the Huffman tables lack codes a changed block may need");
                status = CS_SPLICE_MISSING_CODE;
                goto out;
            }
        }
    if (prepare(context, &h->frame) != 0) {
        status = 2;
        goto out;
    }
    const int components = h->frame.components, mcus_x = h->mcus_x, mcus_y = h->mcus_y;
    const size_t mcus = (size_t)mcus_x * (size_t)mcus_y;
    const int restart = h->frame.restart_interval;
    const size_t per_interval = restart ? (size_t)restart : mcus;
    const int intervals = (int)((mcus + per_interval - 1) / per_interval);
    // Every block takes two bits at least (a DC and an end-of-block code): a frame larger than
    // its scan can hold is damaged, and would cost memory by the MCU for nothing.
    if (mcus > (input_length - h->scan_start) * 4 / (size_t)h->mcu.blocks + 1) {
        snprintf(text, sizeof text, "a frame of %zu MCUs in %zu bytes of scan", mcus, input_length - h->scan_start);
        status = CS_SPLICE_DAMAGED;
        goto out;
    }
    if ((status = read_scan(input, input_length, h->scan_start, intervals, &s, text))) goto out;

    // The coefficients kept: in each MCU row the marks reach, the MCU columns they reach there.
    kept.first = malloc(sizeof(int) * (size_t)mcus_y);
    kept.end = calloc((size_t)mcus_y, sizeof(int));
    kept.offset = malloc(sizeof(size_t) * (size_t)mcus_y);
    if (!kept.first || !kept.end || !kept.offset) {
        snprintf(text, sizeof text, "out of memory");
        status = CS_SPLICE_DAMAGED;
        goto out;
    }
    for (int y = 0; y < mcus_y; y++) kept.first[y] = mcus_x;
    for (int c = 0; c < components; c++)
        for (int row = 0; row < h->frame.height_in_blocks[c]; row++) {
            int first = 0, end = 0, y = row / h->v[c];
            if (!wants(context, c, row, &first, &end) || end <= first) continue;
            first /= h->h[c];
            end = (end + h->h[c] - 1) / h->h[c];
            if (first < kept.first[y]) kept.first[y] = first;
            if (end > kept.end[y]) kept.end[y] = end < mcus_x ? end : mcus_x;
        }
    size_t kept_blocks = 0;
    kept.layout = &h->mcu;
    for (int c = 0, sum = 0; c < components; c++) {
        kept.component_offset[c] = sum;
        kept.h[c] = h->h[c];
        sum += h->h[c] * h->v[c];
    }
    for (int y = 0; y < mcus_y; y++) {
        kept.offset[y] = kept_blocks;
        if (kept.end[y] > kept.first[y]) kept_blocks += (size_t)(kept.end[y] - kept.first[y]) * (size_t)h->mcu.blocks;
        else kept.end[y] = kept.first[y] = 0;
    }
    starts = malloc(sizeof(uint64_t) * (mcus + 1));
    ends = malloc(sizeof(uint64_t) * (size_t)intervals);
    predictors = malloc(sizeof(int) * mcus * (size_t)components);
    changed = calloc(mcus + 1, 1);
    kept.coefficients = coefficients = malloc(sizeof(int16_t) * 64 * (kept_blocks ? kept_blocks : 1));
    original = malloc(sizeof(int16_t) * 64 * (kept_blocks ? kept_blocks : 1));
    if (!starts || !ends || !predictors || !changed || !coefficients || !original) {
        snprintf(text, sizeof text, "out of memory");
        status = CS_SPLICE_DAMAGED;
        goto out;
    }
    // 1. The walk: where each MCU starts, its DC predictors, the kept MCUs' coefficients. Every
    // interval is walked, those the marks miss too, and copied only if whole: a decoder would
    // warn about damage there (a bad code, bytes left over), and the photo's note must say so.
    for (int k = 0; k < intervals; k++) {
        size_t first = (size_t)k * per_interval, last = first + per_interval < mcus ? first + per_interval : mcus;
        uint64_t pos = (uint64_t)s.start[k] * 8, limit = (uint64_t)s.end[k] * 8;
        int pred[CS_MAX_COMPONENTS] = {0};
        for (size_t i = first; i < last; i++) {
            starts[i] = pos;
            memcpy(predictors + i * (size_t)components, pred, sizeof(int) * (size_t)components);
            int my = (int)(i / (size_t)mcus_x), mx = (int)(i % (size_t)mcus_x);
            int16_t *blocks[10];
            int keep = mx >= kept.first[my] && mx < kept.end[my];
            if (keep)
                for (int b = 0; b < h->mcu.blocks; b++) blocks[b] = kept_block(&kept, mx, my, b);
            if ((keep ? decode_mcu(s.data, &pos, &h->mcu, pred, blocks) : skip_mcu(s.data, &pos, &h->mcu, pred)) || pos > limit) {
                snprintf(text, sizeof text, "an invalid Huffman code in MCU %zu", i);
                status = CS_SPLICE_DAMAGED;
                goto out;
            }
        }
        // What is left is the padding to a byte: more would be data a decoder warns about.
        if (limit - pos >= 8) {
            // libjpeg's words, though libjpeg-turbo says nothing when its look-ahead met the marker.
            snprintf(text, sizeof text, "Corrupt JPEG data: %llu extraneous bytes before marker 0x%02x",
                     (unsigned long long)((limit - pos) / 8), k + 1 < intervals ? 0xD0 + k % 8 : 0xD9);
            status = CS_SPLICE_DAMAGED;
            goto out;
        }
        ends[k] = pos;
    }

    // 2. The marks: the kept blocks changed in place; an MCU is changed when any block is.
    memcpy(original, coefficients, sizeof(int16_t) * 64 * kept_blocks);
    for (int y = 0; y < mcus_y; y++) {
        if (kept.end[y] <= kept.first[y]) continue;
        for (int c = 0; c < components; c++) {
            for (int by = 0; by < h->v[c]; by++) {
                int row = y * h->v[c] + by, first = 0, end = 0;
                if (row >= h->frame.height_in_blocks[c] || !wants(context, c, row, &first, &end)) continue;
                // The kept columns of this block row, from the block of the first kept MCU.
                int column = kept.first[y] * h->h[c];
                int count = (kept.end[y] - kept.first[y]) * h->h[c];
                if (column + count > h->frame.width_in_blocks[c]) count = h->frame.width_in_blocks[c] - column;
                if (count <= 0) continue;
                int16_t *start = kept.coefficients + 64 * (kept.offset[y] + (size_t)(kept.end[y] - kept.first[y]) * (size_t)kept.component_offset[c]
                                                          + (size_t)by * (size_t)(kept.end[y] - kept.first[y]) * (size_t)h->h[c]);
                if (filter(context, c, row, column, start, count) != 0) {
                    status = 2;
                    goto out;
                }
            }
        }
        for (int mx = kept.first[y]; mx < kept.end[y]; mx++) {
            for (int b = 0; b < h->mcu.blocks; b++) {
                const int16_t *now = kept_block(&kept, mx, y, b);
                if (memcmp(now, original + (now - kept.coefficients), 64 * sizeof(int16_t))) {
                    changed[(size_t)y * (size_t)mcus_x + (size_t)mx] = 1;
                    break;
                }
            }
        }
    }

    // 3. The output: the headers, then each interval copied or spliced.
    if (reserve(&w, input_length + input_length / 16 + 65536)) {
        snprintf(text, sizeof text, "out of memory");
        status = CS_SPLICE_DAMAGED;
        goto out;
    }
    static const uint8_t soi[] = {0xFF, 0xD8};
    append(&w, soi, 2);
    if (h->frame.colour_space == JCS_RGB) {
        static const uint8_t adobe[] = {0xFF, 0xEE, 0, 14, 'A', 'd', 'o', 'b', 'e', 0, 100, 0, 0, 0, 0, 0};
        append(&w, adobe, sizeof adobe);
    } else {
        uint8_t jfif[] = {0xFF, 0xE0, 0, 16, 'J', 'F', 'I', 'F', 0, 1, 1, 0, 0, 1, 0, 1, 0, 0};
        if (h->saw_jfif) {
            jfif[11] = (uint8_t)h->density_unit;
            jfif[12] = (uint8_t)(h->x_density >> 8); jfif[13] = (uint8_t)h->x_density;
            jfif[14] = (uint8_t)(h->y_density >> 8); jfif[15] = (uint8_t)h->y_density;
        }
        append(&w, jfif, sizeof jfif);
    }
    // The tables, frame, restart interval and scan header as they are; no APPn or COM segments.
    for (size_t p = 2; p + 4 <= h->scan_start;) {
        if (input[p] != 0xFF) break;
        if (input[p + 1] == 0xFF) { p++; continue; }
        size_t length = (size_t)input[p + 2] << 8 | input[p + 3];
        int marker = input[p + 1];
        if (marker == 0xC4) {
            // A DHT: each table in it as it is, or as extended (extend_table).
            size_t at = w.length, q = p + 4, end = p + 2 + length;
            append(&w, input + p, 4);
            while (q + 17 <= end) {
                int k = input[q] >> 4, slot = input[q] & 15;
                size_t count = 0;
                for (int l = 1; l <= 16; l++) count += input[q + l];
                if (q + 17 + count > end) break;
                if (k < 2 && slot < NUM_HUFF_TBLS && h->extended[k][slot]) {
                    const JHUFF_TBL *t = &h->source[k][slot];
                    size_t total = 0;
                    w.data[w.length++] = input[q];
                    for (int l = 1; l <= 16; l++) {
                        w.data[w.length++] = t->bits[l];
                        total += t->bits[l];
                    }
                    append(&w, t->huffval, total);
                } else {
                    append(&w, input + q, 17 + count);
                }
                q += 17 + count;
            }
            size_t written = w.length - at - 2;
            w.data[at + 2] = (uint8_t)(written >> 8);
            w.data[at + 3] = (uint8_t)written;
        } else if (!((marker >= 0xE0 && marker <= 0xEF) || marker == 0xFE)) {
            append(&w, input + p, length + 2);
        }
        p += length + 2;
    }
    for (int k = 0; k < intervals; k++) {
        size_t first = (size_t)k * per_interval, last = first + per_interval < mcus ? first + per_interval : mcus;
        int any = 0;
        for (size_t i = first; i < last && !any; i++) any = changed[i];
        if (reserve(&w, (any ? 0 : s.source_end[k] - s.source_start[k]) + 64)) {
            snprintf(text, sizeof text, "out of memory");
            status = CS_SPLICE_DAMAGED;
            goto out;
        }
        if (!any) {
            append(&w, input + s.source_start[k], s.source_end[k] - s.source_start[k]);
        } else {
            uint64_t copied = (uint64_t)s.start[k] * 8;
            int pred[CS_MAX_COMPONENTS] = {0}, previous = 0;
            for (size_t i = first; i < last; i++) {
                int again = changed[i] || (i > first && changed[i - 1]);
                if (!again) {
                    previous = 0;
                    continue;
                }
                int my = (int)(i / (size_t)mcus_x), mx = (int)(i % (size_t)mcus_x);
                // An MCU after a changed one, not kept: decoded again from where the walk found it.
                int16_t *blocks[10];
                if (mx >= kept.first[my] && mx < kept.end[my]) {
                    for (int b = 0; b < h->mcu.blocks; b++) blocks[b] = kept_block(&kept, mx, my, b);
                } else {
                    int again_pred[CS_MAX_COMPONENTS];
                    memcpy(again_pred, predictors + i * (size_t)components, sizeof(int) * (size_t)components);
                    uint64_t at = starts[i];
                    for (int b = 0; b < h->mcu.blocks; b++) blocks[b] = scratch[b];
                    if (decode_mcu(s.data, &at, &h->mcu, again_pred, blocks)) {
                        snprintf(text, sizeof text, "an invalid Huffman code in MCU %zu", i);
                        status = CS_SPLICE_DAMAGED;
                        goto out;
                    }
                }
                if (copy_bits(&w, &s, h->scan_start, input, copied, starts[i]) || reserve(&w, 2 * 10 * 64 * 4 + 64)) {
                    snprintf(text, sizeof text, "out of memory");
                    status = CS_SPLICE_DAMAGED;
                    goto out;
                }
                if (!previous) memcpy(pred, predictors + i * (size_t)components, sizeof(int) * (size_t)components);
                for (int b = 0; b < h->mcu.blocks; b++) {
                    int c = h->mcu.component[b];
                    const int16_t *block = blocks[b];
                    int result = encode_block(&w, block, pred[c], h->mcu.dc[b], h->mcu.ac[b]);
                    if (result == -2) {
                        snprintf(text, sizeof text, "the Huffman tables lack a code the changed blocks need");
                        status = CS_SPLICE_MISSING_CODE;
                        goto out;
                    } else if (result) {
                        snprintf(text, sizeof text, "a changed coefficient beyond baseline coding");
                        status = CS_SPLICE_MISSING_CODE;
                        goto out;
                    }
                    pred[c] = block[0];
                }
                previous = 1;
                copied = i + 1 < last ? starts[i + 1] : ends[k];
            }
            if (copy_bits(&w, &s, h->scan_start, input, copied, ends[k]) || reserve(&w, 16)) {
                snprintf(text, sizeof text, "out of memory");
                status = CS_SPLICE_DAMAGED;
                goto out;
            }
            pad(&w);
        }
        uint8_t marker[2] = {0xFF, k + 1 < intervals ? (uint8_t)(0xD0 + k % 8) : 0xD9};
        append(&w, marker, 2);
    }
    *output = w.data;
    *output_length = w.length;
    w.data = NULL;
    status = 0;
out:
    if (status && status != 2) snprintf(message, CS_MESSAGE_LENGTH, "%s", text);
    free(w.data);
    free_scan(&s);
    free(h); free(starts); free(ends); free(predictors); free(changed);
    free(kept.first); free(kept.end); free(kept.offset);
    free(coefficients); free(original);
    return status;
}
