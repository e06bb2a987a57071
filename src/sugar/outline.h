/*
 * sugar/outline.h - what the files of pass "outline" share: outline.c
 * finds the copies of a block and where they differ; outline_params.c
 * makes the parameters; outline_emit.c the helper, its calls, or a loop.
 */
#ifndef PTX_SUGAR_OUTLINE_H
#define PTX_SUGAR_OUTLINE_H

#include "sugar/sugar.h"
#include "util/buf.h"

#define MINRUN 3      /* statements */
#define MAXRUN 64
#define MAXMEMB 32    /* copies per helper */
#define MAXPARAM 6
#define MAXNAMES 64   /* names a copy binds */
#define MINSAVED 4    /* lines a helper must save */
#define MAXDIFF (4 * MAXPARAM)

typedef struct item {
    cg_stmt *s, **link;
    uint32_t sketch;      /* 0: ends every window */
    uint32_t next;        /* the next window with the same sketches, or 0 */
    int32_t loop;         /* the innermost Python for loop around it
                             (index into o->lb), or -1 */
    int32_t up;           /* the item whose statement owns its list, or -1 */
    uint32_t shape;       /* its key's number (equal keys, equal numbers) */
    uint32_t hole, nholes;    /* its key's holes: o->holes[hole ...] */
    uint32_t slot, nslots;    /* what its key leaves out: instructions'
                                 guards (sg_guard_slot), loops' counts
                                 (sg_count_slot): o->slots[...] */
    uint32_t lines;       /* lines it prints */
    uint8_t keyed;        /* shape, holes, lines and ok are set */
    uint8_t ok;           /* it may move into a helper */
    uint8_t used;         /* in a copy taken (see taken) */
    uint8_t holds;        /* a statement in its body is in a copy taken */
} item;

/* A Python for loop around statements: its variable, the loop around it. */
typedef struct loopvar {
    const char *var;
    int32_t up;
} loopvar;

/* What part of a hole differs: the register (or an element's array), an
   element's index, an int; of a slot, a loop's count, a guard's register,
   or the guard itself (where a copy has none). */
enum { P_NAME, P_INDEX, P_INT, P_COUNT, P_GUARD_REG, P_GUARD };

/* A copy's value at one part: a register, an int, a guard (v: 1 negated,
   0 not, -1 none). */
typedef struct val {
    cg_symid sym;         /* CG_NOSYM for an int, or no guard */
    long long v;
} val;

/* Where a copy differs from the first: the first's hole (an index into
   o->holes; a slot's: into o->slots) and part, and the copy's value
   there. */
typedef struct diff {
    uint32_t pos;
    uint8_t part;
    val v;
} diff;

/* The names a copy binds (`x = `, `x += `), in order, and which are its
   own: registers that nothing outside the copy names. */
typedef struct names {
    cg_symid sym[MAXNAMES];
    uint8_t local[MAXNAMES], role[MAXNAMES];   /* role: SG_BINDS, SG_AUGMENTS */
    uint32_t cnt;
} names;

typedef struct member {
    uint32_t at, len;     /* item index; statements that match */
    names nm;
    int32_t pair[MAXNAMES];       /* first's local i -> this copy's, or -1 */
    diff d[MAXDIFF];
    uint32_t nd;
} member;

/* A parameter: the holes of the first copy it stands for, its name. */
typedef struct param {
    diff key[MAXDIFF];    /* (v unused) */
    uint32_t nkey;
    uint8_t optional;     /* a guard some copy has not: pred=None */
    const char *name;
} param;

typedef struct group {
    uint32_t at[MAXMEMB], c, len;
    member *mb;           /* mb[q - 1]: copy q > 0 */
    names fn;
    param p[MAXPARAM];
    uint32_t np;
} group;

/* A copy to replace, and a hole of a first copy to replace (emit). */
typedef struct call {
    uint32_t at, len;
    cg_opnd *args;        /* the helper's arguments */
    cg_stmt *def;         /* the helper (its body: the first copy), or the
                             loop over the copies; NULL: a later copy */
} call;

typedef struct subst {
    cg_opnd *hole;        /* or NULL: */
    cg_opnd **slot;       /* an instruction's guard */
    cg_opnd *by;          /* the operand that takes its place */
} subst;

typedef struct outliner {
    cg_module *m;
    cg_kernel *k;
    item *v;                      /* the arrays live in vb, hb, sb */
    cg_opnd **holes;
    cg_stmt **slots;
    uint32_t n, nh, ns;
    ptx_buf vb, hb, sb, lb, calls, substs;
    ptx_buf ob;                   /* per hole: an operator's operand (1) */
    ptx_buf ints;                 /* the same per int, while keying */
    sg_key key;
    cg_map shapes;                /* key -> its number */
    uint32_t *refs, *inrun;       /* per symbol: the kernel's, a run's */
    int64_t budget;               /* holes left to compare */
    cg_stmt *defs, **dtail;
} outliner;

/* Appends an element of `size` bytes to the array held in b; the array. */
static inline void *ol_append(ptx_buf *b, const void *e, size_t size)
{
    ptx_buf_put(b, e, size);
    return b->p;
}

/* Item i keyed (on first use); 0 if it may not move. */
int ol_keyed(outliner *o, uint32_t i);

/* outline_params.c: copy q's value at the first copy's hole (or guard
   slot) pos, part; a guard's value. */
val ol_value(const outliner *o, const group *g, uint32_t q, uint32_t pos, uint8_t part);
val ol_guard_value(const cg_opnd *g);
/* Slot t's guard (NULL for a loop's count). */
static inline const cg_opnd *ol_guard(const outliner *o, uint32_t t)
{
    return o->slots[t]->kind == CG_S_INST ? o->slots[t]->u.inst.guard : NULL;
}
/* g's parameters from its copies' differences, named; 0 if there are
   too many or None would reach anything but a guard. */
int ol_make_params(outliner *o, group *g);

/* outline_emit.c: copies of g become calls of a new helper, or one loop. */
void ol_take(outliner *o, group *g);
/* The calls and the helpers put in place; the rewrites. */
uint32_t ol_rewrite(outliner *o);

#endif
