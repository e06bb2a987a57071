/*
 * sugar/labels.c - pass "labels": nvcc's basic-block labels $L__BB13_2
 * become BB2 (the block number), unique in the module (BB13_2 if BB2 is
 * taken, then BB13_2_2 ...; never a word that occurs in the source).
 * Other labels (hand-written, inline-asm LAB_WAIT/DONE, Triton waitLoop)
 * are already readable and stay, and so do labels that debug sections
 * name.  Labels are local names, so the PTX is renamed consistently; the
 * label symbol's spelling is the only place that changes.
 */
#include <stdio.h>
#include <string.h>
#include "codegen/build.h"
#include "sugar/sugar.h"

/* The block number of an nvcc label $L__BB<fn>_<num>, or NULL. */
static const char *block_number(const char *p)
{
    if (strncmp(p, "$L__BB", 6))
        return NULL;
    const char *u = strrchr(p, '_');
    if (u && u > p + 6 && cg_is_decimal(u + 1, strlen(u + 1)))
        return u + 1;
    return NULL;
}

/* BB<v>'s bit in sg_state.bb_taken, where block_number's num (a decimal
   without leading zeros) is v, small; else UINT32_MAX. */
static uint32_t bb_value(const char *num, size_t n)
{
    if (n > 6)
        return UINT32_MAX;
    uint32_t v = 0;
    for (size_t i = 0; i < n; i++)
        v = v * 10 + (uint32_t)(num[i] - '0');
    return v;
}

static int bb_known(const sg_state *st, uint32_t v)
{
    return v != UINT32_MAX && v / 64 < st->nbb_taken && (st->bb_taken[v / 64] >> v % 64 & 1);
}

static void bb_note(cg_module *m, uint32_t v)
{
    sg_state *st = sg_st(m);   /* (sg_word_array: grown zeroed, in sg_keep) */
    st->bb_taken = sg_word_array(m, st->bb_taken, &st->nbb_taken, v / 64, sizeof *st->bb_taken);
    st->bb_taken[v / 64] |= 1ull << v % 64;
}

/* BB<fn>_<n>, the function number kept, into base (64 bytes); 0 if it is
   too long. */
static int fn_spelling(const char *p, const char *num, char *base)
{
    size_t nl = strlen(num), fl = (size_t)(num - (p + 6));
    if (fl + nl + 3 > 64)
        return 0;
    memcpy(base, "BB", 2);
    memcpy(base + 2, p + 6, fl + nl + 1);
    return 1;
}

/* Label p's spellings into base (64 bytes): BB<n> (1), or BB<fn>_<n>
   where BB<n> is known taken (2); 0 where p gets none. */
static int spelling(const sg_state *st, const char *p, char *base)
{
    const char *num = block_number(p);
    size_t nl = num ? strlen(num) : 0;
    if (!num || nl > 40)
        return 0;
    if (!bb_known(st, bb_value(num, nl))) {
        memcpy(base, "BB", 2);
        memcpy(base + 2, num, nl + 1);
        return 1;
    }
    return fn_spelling(p, num, base) ? 2 : 0;
}

/* BB<n>, unless an earlier label took or met it: in a module of many
   kernels, BB<n> is taken after the first.  Another function of the
   module has its BB<n>: keep the function number, as nvcc does
   ($L__BB<fn>_<n> -> BB<fn>_<n>), else BB<fn>_<n>_2 ...  The module's
   words are a cache miss each: the spellings to try first are fetched
   for the whole kernel before any is asked about. */
uint32_t sugar_labels(cg_module *m, cg_kernel *k)
{
    sg_state *st = sg_st(m);
    char base[64];
    for (uint32_t i = 0; i < k->nsyms; i++)
        if (k->syms[i].kind == CG_SYM_LABEL && spelling(st, k->syms[i].ptx, base))
            sg_ptx_prefetch(m, base);
    uint32_t done = 0;
    for (uint32_t i = 0; i < k->nsyms; i++) {
        const char *p = k->syms[i].ptx;
        int first = k->syms[i].kind == CG_SYM_LABEL ? spelling(st, p, base) : 0;
        if (!first || sg_ptx_pinned(m, p))
            continue;
        if (first == 1) {
            const char *num = block_number(p);
            int took = sg_ptx_take(m, k, i, base);
            uint32_t v = bb_value(num, strlen(num));
            if (v != UINT32_MAX)
                bb_note(m, v);   /* given now, or taken before */
            if (took) {
                done++;
                continue;
            }
            if (!fn_spelling(p, num, base))
                continue;
        }
        if (!sg_ptx_take(m, k, i, base) && !sg_rename_ptx(m, k, i, base, 0))
            continue;
        done++;
    }
    return done;
}
