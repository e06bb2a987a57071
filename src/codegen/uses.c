/*
 * uses.c - which of the head's names the printed Python uses (readable
 * output imports and defines only those: print_module.c).  A use is a
 * word outside string literals and comments, not an attribute (after a
 * '.') and not a number.
 *
 * The scan reads every byte of the kernels' code (26 MB for a library
 * module), so it is built for speed: a word is compared only with the
 * names of its first byte and its length that are not found yet (mostly
 * none), and on x86-64 sixteen bytes are classified at a time, the words'
 * starts taken from a bit mask: a loop that stopped at every word, space
 * run and bracket spent most of its time on mispredicted branches.  Where
 * the processor has AVX-512BW, sixty-four bytes are, and only the words
 * whose first byte a name not found yet has are looked at: the 14.7 MB of
 * libcublasLt.so.32's Python in 4.4 ms, not 7.2.
 */
#include <string.h>
#include "codegen/build.h"
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define WIDE 1   /* the 64-byte blocks, chosen at run time */
#define AVX512 __attribute__((target("avx512f,avx512bw")))
#endif

/* What a byte of the printed Python starts: a word ([A-Za-z_][A-Za-z0-9_]*),
   a number, an attribute (after a '.'), a comment, a string literal, a
   run of spaces; or nothing. */
enum { B_NONE, B_WORD, B_DIGIT, B_DOT, B_HASH, B_QUOTE, B_SPACE };
#define RANGE(lo, hi, c) [lo ... hi] = c
static const unsigned char byte_class[256] = {
    RANGE('a', 'z', B_WORD), RANGE('A', 'Z', B_WORD), ['_'] = B_WORD,
    RANGE('0', '9', B_DIGIT), ['.'] = B_DOT, ['#'] = B_HASH, ['"'] = B_QUOTE, ['\''] = B_QUOTE,
    [' '] = B_SPACE,
};
#undef RANGE

/* The names by first byte and by length (a bit of the result each). */
typedef struct name_index {
    const char *const *names;
    uint64_t by_first[128];
    uint64_t by_len[16];
    uint64_t all;              /* the bits of all the names */
} name_index;

static void index_names(name_index *x, const char *const *names, unsigned n)
{
    memset(x, 0, sizeof *x);
    x->names = names;
    for (unsigned i = 0; i < n && i < 64; i++) {
        size_t len = strlen(names[i]);
        x->by_first[(unsigned char)names[i][0] & 127] |= 1ull << i;
        if (len < 16)
            x->by_len[len] |= 1ull << i;
        x->all |= 1ull << i;
    }
}

/* The bits of the names the word w[0..n) (a letter or '_' first) is,
   but those of `found`. */
static uint64_t word_bits(const name_index *x, const char *w, size_t n, uint64_t found)
{
    if (n >= 16)
        return 0;
    uint64_t bits = 0;
    for (uint64_t c = x->by_first[(unsigned char)w[0]] & x->by_len[n] & ~found; c; c &= c - 1) {
        unsigned i = (unsigned)__builtin_ctzll(c);
        if (!memcmp(w, x->names[i], n))
            bits |= 1ull << i;
    }
    return bits;
}

/* The end of the run of spaces at p: eight at a time (a third of the
   kernels' Python is indentation). */
static const char *skip_spaces(const char *p, const char *e)
{
    uint64_t eight;
    while (e - p >= 8 && (memcpy(&eight, p, 8), eight == 0x2020202020202020ull))
        p += 8;
    while (p < e && *p == ' ')
        p++;
    return p;
}

/* The end of the word (letters, digits, '_') at p. */
static const char *skip_word(const char *p, const char *e)
{
    while (p < e && (unsigned)(byte_class[(unsigned char)*p] - B_WORD) <= B_DIGIT - B_WORD)
        p++;
    return p;
}

/* The end of the string literal at p (the generated code writes one-line
   "..." and '...' literals, with backslash escapes); on x86-64 sixteen
   bytes at a time to the next quote, newline or backslash, since a
   library module's decorators hold a few hundred kilobytes of them. */
static const char *skip_literal(const char *p, const char *e)
{
    char q = *p++;
#if defined(__SSE2__)
    while (e - p >= 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)p);
        uint32_t stop = (uint32_t)_mm_movemask_epi8(
            _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(q)),
                                      _mm_cmpeq_epi8(v, _mm_set1_epi8('\n'))),
                         _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))));
        if (!stop) {
            p += 16;
            continue;
        }
        p += __builtin_ctz(stop);
        if (*p != '\\')
            return p + 1;
        p += 2;   /* an escape and the byte it escapes */
    }
#endif
    while (p < e && *p != q && *p != '\n')
        p += *p == '\\' && p + 1 < e ? 2 : 1;
    return p < e ? p + 1 : e;
}

/* The token at p (a word of which is looked up in x) skipped: where the
   scan goes on. */
static const char *one_token(const name_index *x, const char *p, const char *e, uint64_t *bits)
{
    const char *w = p;
    switch (byte_class[(unsigned char)*p]) {
    case B_NONE:
        return p + 1;
    case B_SPACE:
        return skip_spaces(p, e);
    case B_DOT:     /* an attribute: the word after the dot */
        return skip_word(p + 1, e);
    case B_DIGIT:
        return skip_word(p, e);
    case B_WORD:
        p = skip_word(p, e);
        *bits |= word_bits(x, w, (size_t)(p - w), *bits);
        return p;
    case B_HASH:
        w = memchr(p, '\n', (size_t)(e - p));
        return w ? w : e;
    default:
        return skip_literal(p, e);
    }
}

#if defined(__SSE2__)
/* Bytes in [lo, lo + n) of v, as a vector of 0xff / 0 (unsigned compare
   through the sign bit). */
static inline __m128i in_range(__m128i v, char lo, int n)
{
    __m128i t = _mm_xor_si128(_mm_sub_epi8(v, _mm_set1_epi8(lo)), _mm_set1_epi8((char)0x80));
    return _mm_cmplt_epi8(t, _mm_set1_epi8((char)(-128 + n)));
}

static inline __m128i word_start_bytes(__m128i v)   /* [A-Za-z_] */
{
    return _mm_or_si128(in_range(_mm_or_si128(v, _mm_set1_epi8(0x20)), 'a', 26),
                        _mm_cmpeq_epi8(v, _mm_set1_epi8('_')));
}

static inline __m128i word_bytes(__m128i v)   /* [A-Za-z0-9_] */
{
    return _mm_or_si128(word_start_bytes(v), in_range(v, '0', 10));
}

/* The 16 bytes at p (p[-1] readable): looks up the words that start among
   them before the first quote or '#', and returns how many bytes it
   took: 16, or where that quote or '#' stands. */
static unsigned sixteen(const name_index *x, const char *p, uint64_t *bits)
{
    __m128i v = _mm_loadu_si128((const __m128i *)p);
    __m128i prev = _mm_loadu_si128((const __m128i *)(p - 1));
    __m128i special = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
                                                _mm_cmpeq_epi8(v, _mm_set1_epi8('\''))),
                                   _mm_cmpeq_epi8(v, _mm_set1_epi8('#')));
    __m128i goes_on = _mm_or_si128(word_bytes(prev), _mm_cmpeq_epi8(prev, _mm_set1_epi8('.')));
    uint32_t stop = (uint32_t)_mm_movemask_epi8(special);
    uint32_t took = stop ? (unsigned)__builtin_ctz(stop) : 16;
    uint32_t starts = (uint32_t)_mm_movemask_epi8(_mm_andnot_si128(goes_on, word_start_bytes(v)));
    uint32_t ends = ~(uint32_t)_mm_movemask_epi8(word_bytes(v));   /* bit 16 up: set */
    starts &= (1u << took) - 1;
    for (; starts; starts &= starts - 1) {
        unsigned i = (unsigned)__builtin_ctz(starts);
        uint64_t cand = x->by_first[(unsigned char)p[i] & 127] & ~*bits;
        if (!cand)
            continue;
        unsigned len = (unsigned)__builtin_ctz(ends >> i);
        if (i + len < 16)
            *bits |= word_bits(x, p + i, len, *bits);
        else   /* the word goes on past these bytes */
            *bits |= word_bits(x, p + i, (size_t)(skip_word(p + i, p + i + 64) - (p + i)), *bits);
    }
    return took;
}
#endif

#if WIDE
/* [A-Za-z_] and [A-Za-z0-9_] among 64 bytes, a bit each. */
AVX512 static inline uint64_t word_starts64(__m512i v)
{
    __m512i low = _mm512_or_si512(v, _mm512_set1_epi8(0x20));
    return _mm512_cmplt_epu8_mask(_mm512_sub_epi8(low, _mm512_set1_epi8('a')),
                                  _mm512_set1_epi8(26)) |
           _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('_'));
}

AVX512 static inline uint64_t words64(__m512i v)
{
    return word_starts64(v) | _mm512_cmplt_epu8_mask(_mm512_sub_epi8(v, _mm512_set1_epi8('0')),
                                                     _mm512_set1_epi8(10));
}

/* The first bytes of the names not found yet, as a set that two table
   lookups test a byte against: bit h of lo[l] where a first byte's high
   and low nibbles are h (< 8: ASCII) and l, and bit h of high_bit[h]. */
typedef struct first_set {
    uint64_t left;             /* the names it is of */
    uint8_t lo[16];
} first_set;

static const uint8_t high_bit[16] = { 1, 2, 4, 8, 16, 32, 64, 128 };   /* 0: not ASCII */

static void make_first_set(first_set *f, const name_index *x, uint64_t left)
{
    memset(f, 0, sizeof *f);
    f->left = left;
    for (unsigned c = 0; c < 128; c++)
        if (x->by_first[c] & left)
            f->lo[c & 15] |= (uint8_t)(1u << (c >> 4));
}

/* sixteen's work on the 64 bytes at p, but for words whose first byte no
   name left has (most words: a branch each, a third of the scan). */
AVX512 static unsigned sixty_four(const name_index *x, const first_set *f, const char *p,
                                  uint64_t *bits)
{
    __m512i v = _mm512_loadu_si512((const void *)p);
    __m512i prev = _mm512_loadu_si512((const void *)(p - 1));
    uint64_t stop = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('"')) |
                    _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('\'')) |
                    _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('#'));
    uint64_t goes_on = words64(prev) | _mm512_cmpeq_epi8_mask(prev, _mm512_set1_epi8('.'));
    unsigned took = stop ? (unsigned)__builtin_ctzll(stop) : 64;
    __m512i lo = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)f->lo));
    __m512i hi = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)high_bit));
    __m512i nib = _mm512_set1_epi8(15);
    uint64_t first = _mm512_test_epi8_mask(
        _mm512_shuffle_epi8(lo, _mm512_and_si512(v, nib)),
        _mm512_shuffle_epi8(hi, _mm512_and_si512(_mm512_srli_epi16(v, 4), nib)));
    uint64_t starts = word_starts64(v) & ~goes_on & first, ends = ~words64(v);
    if (took < 64)
        starts &= (1ull << took) - 1;
    for (; starts; starts &= starts - 1) {
        unsigned i = (unsigned)__builtin_ctzll(starts);
        uint64_t rest = ends >> i;   /* 0: the word goes on past these bytes */
        unsigned len = rest ? (unsigned)__builtin_ctzll(rest) : 64 - i;
        if (rest)
            *bits |= word_bits(x, p + i, len, *bits);
        else
            *bits |= word_bits(x, p + i, (size_t)(skip_word(p + i, p + i + 64) - (p + i)), *bits);
    }
    return took;
}

/* The scan of p[0..e) in 64-byte blocks while room is left: where it stops. */
AVX512 static const char *scan64(const name_index *x, const char *p, const char *e,
                                 uint64_t *bits)
{
    first_set f;
    make_first_set(&f, x, x->all & ~*bits);
    while (e - p >= 64 + 64) {   /* room for a word's 64 bytes past them */
        if ((x->all & ~*bits) != f.left) {   /* a name found: fewer left */
            if (!(x->all & ~*bits))
                return e;   /* every name found: nothing to look for */
            make_first_set(&f, x, x->all & ~*bits);
        }
        unsigned took = sixty_four(x, &f, p, bits);
        p = took < 64 ? one_token(x, p + took, e, bits) : p + 64;
    }
    return p;
}
#endif

uint64_t cg_scan_uses_in(const char *p, size_t n, const char *const *names, unsigned nnames,
                         uint64_t found, unsigned block)
{
    if (!n)
        return found;   /* (an empty buffer's p is NULL) */
    name_index x;
    index_names(&x, names, nnames);
    const char *e = p + n;
    uint64_t bits = found;
    p = one_token(&x, p, e, &bits);   /* then p[-1] is readable */
#if WIDE
    if (block == 64 && __builtin_cpu_supports("avx512bw"))
        p = scan64(&x, p, e, &bits);
#endif
#if defined(__SSE2__)
    while (e - p >= 16 + 64) {   /* room for a word's 64 bytes past them */
        unsigned took = sixteen(&x, p, &bits);
        p = took < 16 ? one_token(&x, p + took, e, &bits) : p + 16;
    }
#endif
    (void)block;
    while (p < e)
        p = one_token(&x, p, e, &bits);
    return bits;
}

uint64_t cg_scan_uses(const char *p, size_t n, const char *const *names, unsigned nnames,
                      uint64_t found)
{
    return cg_scan_uses_in(p, n, names, nnames, found, 64);
}
