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

uint32_t sugar_labels(cg_module *m, cg_kernel *k)
{
    uint32_t done = 0;
    for (uint32_t i = 0; i < k->nsyms; i++) {
        const char *p = k->syms[i].ptx, *num;
        if (k->syms[i].kind != CG_SYM_LABEL || !(num = block_number(p)))
            continue;
        char base[64];
        size_t nl = strlen(num);
        if (nl > 40)
            continue;
        memcpy(base, "BB", 2);
        memcpy(base + 2, num, nl + 1);
        if (sg_ptx_pinned(m, p))
            continue;
        if (sg_ptx_take(m, k, i, base)) {   /* the common case: one lookup */
            done++;
            continue;
        }
        /* another function of the module has its BB<n>: keep the
           function number, as nvcc does ($L__BB<fn>_<n> -> BB<fn>_<n>) */
        size_t fl = (size_t)(num - (p + 6));
        if (fl + nl + 3 > sizeof base)
            continue;
        memcpy(base + 2, p + 6, fl + nl + 1);
        if (!sg_ptx_take(m, k, i, base) &&
            !sg_rename_ptx(m, k, i, base, 0))   /* BB<fn>_<n>_2 ... */
            continue;
        done++;
    }
    return done;
}
