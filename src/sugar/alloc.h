/*
 * sugar/alloc.h - a merged declaration's own data (SG_S_ALLOC's
 * sg_alloc.a): what merge.c makes and alloc.c prints and answers about.
 * Private to those two files; the other passes ask through sugar.h.
 */
#ifndef SUGAR_ALLOC_H
#define SUGAR_ALLOC_H
#include "sugar/sugar.h"

/* The forms: reg.scalar(T, init=V), reg.from_(src, T), ptx.global_ptrs,
   ptx.warp.reduce_*, an mbarrier arrival, x = a OP b, smem.load,
   a OP= b. */
enum { INIT, FROM, PTRS, WARP, ARRIVE, OPER, LOAD, AUG };

typedef struct alloc {
    uint8_t form;
    uint32_t n;            /* PTRS: pointers; else 1 */
    cg_symid *regs;        /* the registers declared */
    cg_symid *params;      /* PTRS: their parameters */
    const cg_opnd *src;    /* INIT: the value (what the mov writes, or a
                              float or a call of the same bits); FROM:
                              what the mov writes */
    const char *init;      /* WARP: sum, max, min; ARRIVE: the call; OPER:
                              the operator */
    uint32_t width;        /* WARP: lanes; ARRIVE: 1 if the state is read */
    const cg_opnd *guard;  /* ARRIVE: the instruction's guard */
} alloc;

#endif
