/*
 * sugar/repeat.h - what the files of pass "repeat" share: repeat.c finds
 * runs of copies and rolls them; repeat_lists.c keeps the registers a
 * rolled copy allocates and later code reads in a Python list.
 */
#ifndef PTX_SUGAR_REPEAT_H
#define PTX_SUGAR_REPEAT_H

#include "sugar/sugar.h"
#include "util/alloc.h"

/* A hole of a statement's key: a register index or an integer. */
typedef struct leaf {
    cg_opnd *o;
    long long v;       /* index or int value */
    int ok;            /* v holds it (else the text must stay the same) */
} leaf;

/* A statement of the list as the matcher sees it. */
typedef struct item {
    uint32_t shape;     /* its key's number (equal keys, equal numbers), or
                           0: never rolled */
    uint32_t nleaves;
    leaf *leaves;
    cg_symid decl;      /* a declaration's register (fresh: see repeat.c),
                           or CG_NOSYM */
    uint8_t scalars;    /* some leaf is such a scalar */
    uint8_t expr;       /* an expression (SG_S_EXPR) */
} item;

/* A Python list a rolled loop fills (`out = []` before it, `out.append(t)`
   in it): its name, the loop, and how many registers it holds. */
typedef struct reglist {
    cg_opnd *name;      /* SG_O_NAME */
    cg_stmt *owner;     /* the loop; its body names the first copy's
                           register itself */
    uint32_t n;
} reglist;

typedef struct roller {
    cg_module *m;
    cg_kernel *k;
    const char *var;    /* the loop variable */
    sg_key key;
    cg_map shapes;      /* key -> its number */
    sg_scratch list, items, leaves, sketches;   /* the current list's */
    const char *outer[8];   /* the variables of the loops around the list */
    unsigned nouter;
    unsigned made_vars;     /* the variables of the loops made (bit i:
                               sg_loop_vars[i]; a loop's key holds its
                               variable, so a roll keeps the ones it takes) */
    int exprs;              /* expressions roll: a kernel written in pyptx */
    uint32_t *refs;         /* per symbol: its uses in the kernel (and in
                               the appends repeat_lists.c adds); NULL: no
                               fresh scalar, which no copy then allocates */
    /* repeat_lists.c, made on first use: per symbol, uses where no list
       element may stand (odd), uses in the current list (inlist: 0 until
       counted), and 1 + the element it is (elem), or 0 */
    uint32_t *odd, *inlist, *elem;
    cg_stmt **counted;          /* the list inlist counts */
    sg_scratch oddb, inlistb, elemb;
    ptx_buf lists, elems;       /* reglist[], and per element: list, index */
    cg_stmt *pre;               /* the `out = []` of the loop being made */
} roller;

/* repeat.c: the uses of register x among the leaves of the g items from
   `at`. */
uint32_t rp_uses_in(const item *at, unsigned g, cg_symid x);

/* The registers a list holds are read only where the final walk of the
   list reaches them: operands of instructions and of the Python nodes
   that print from their operands (or from the instructions they keep). */

/* repeat_lists.c: may register sym, declared in a copy, be read after the
   loop (through its list)?  head: the list the copies stand in. */
int rl_listable(roller *r, cg_stmt **head, cg_symid sym);
/* Is leaf b of copy c (y: copy 1's) the element of a list that a's is,
   c steps further? */
int rl_list_step(roller *r, const cg_opnd *a, const cg_opnd *y, const cg_opnd *b, unsigned c);
/* The element list[base + stride*var] in place of leaf a of the first
   copy (y: the second copy's), or NULL where a is no list's element. */
cg_opnd *rl_element(roller *r, const char *var, const cg_opnd *a, const cg_opnd *y);
/* The lines the lists of a roll of c copies of g statements at `it`
   take (`out = []`, `out.append(t)`), or -1 where a roll with lists is
   not worth making: copies of declarations alone, which "group" writes in
   one line. */
int rl_list_cost(const roller *r, const item *it, unsigned g, unsigned c);
/* Loop `node` made from c copies of g statements at `it`: for each
   declaration some copy's register of which is read after the run,
   `out = []` (r->pre) and `out.append(t)` at the end of its body, and the
   copies' registers recorded as out's elements; 0 if no name is free
   (nothing recorded). */
int rl_make_lists(roller *r, cg_stmt *node, const item *it, unsigned g, unsigned c);
/* After the rolls of list *head (elements from entry `from` on): every
   read of a recorded register outside its own loop becomes its list's
   element (SG_O_ITEM), a vector of a whole list the list. */
void rl_rewrite_reads(roller *r, cg_stmt **head, uint32_t from);
/* Entries made so far. */
uint32_t rl_nelems(const roller *r);
/* The lists' buffers owned (util/alloc.h) by o, which ptx_free_bufs frees. */
void rl_own(roller *r, ptx_bufs *o);

#endif
