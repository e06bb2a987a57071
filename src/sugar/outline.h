/*
 * sugar/outline.h - what the two files of pass "outline" share: outline.c
 * finds the copies and rewrites them; outline_text.c prints statements as
 * the Python that will be printed, and tokenizes it, which is what the
 * copies are compared as.
 */
#ifndef PTX_SUGAR_OUTLINE_H
#define PTX_SUGAR_OUTLINE_H

#include "sugar/sugar.h"

#define MINRUN 3      /* statements */
#define MAXRUN 64
#define MAXMEMB 32    /* copies per helper */
#define MAXPARAM 6
#define MAXNAMES 64   /* names a copy binds */
#define MINSAVED 4    /* lines a helper must save */

enum { T_NAME, T_INT, T_OTHER, T_EOL };
/* A name's role: R_READ may differ; R_FIXED (attribute, keyword argument,
   Python keyword) never; the rest are bindings. */
enum { R_READ, R_FIXED, R_BIND, R_AUG, R_FOR };

typedef struct tok {
    uint32_t at, n;       /* bytes in o->src */
    uint8_t kind, role, depth;
} tok;

/* A statement as printed (depth 1), tokenized; ok = 0: never moved. */
typedef struct text {
    uint32_t at, n, tok, ntok, lines;
    uint8_t ok;
} text;

typedef struct item {
    cg_stmt *s, **link;
    uint32_t sketch;      /* 0: ends every window */
    uint32_t next;        /* the next window with the same sketches, or 0 */
    int32_t text;         /* index into o->tx, or -1 */
    int32_t loop;         /* the innermost Python for loop around it
                             (index into o->lb), or -1 */
    int32_t up;           /* the item whose statement owns its list, or -1 */
    uint8_t used;         /* in a copy taken (see ol_taken) */
} item;

/* A Python for loop around statements: its variable, the loop around it. */
typedef struct loopvar {
    const char *var;
    int32_t up;
} loopvar;

/* Where the first copy and another differ: tokens [pos, pos+span) of the
   first (span 0: `, pred=V` goes before token pos), the other's value
   (bytes in o->src; vat == NONE: None). */
#define NONE UINT32_MAX
typedef struct diff {
    uint32_t pos, span, vat, vn;
} diff;

/* Names a copy binds: which are its own (local), and for the other copy,
   the pairing of its locals with the first's. */
typedef struct names {
    uint32_t at[MAXNAMES];       /* bytes in o->src */
    uint32_t n[MAXNAMES];
    uint8_t local[MAXNAMES], role[MAXNAMES];
    uint32_t cnt;
} names;

typedef struct member {
    uint32_t at, len;     /* item index; statements that match */
    names nm;
    int32_t pair[MAXNAMES];       /* first's local i -> this copy's, or -1 */
    diff d[4 * MAXPARAM];
    uint32_t nd;
} member;

typedef struct outliner {
    cg_module *m;
    cg_kernel *k;
    item *v;                      /* the arrays live in vb, tb, xb */
    tok *t;
    text *tx;
    uint32_t n, nt, ntx;
    ptx_buf vb, tb, xb, lb, src;
    uint32_t *refs, *inrun;       /* per symbol: the kernel's, a run's */
    cg_map pysym;                 /* Python name -> register symbol */
    int64_t budget;               /* tokens left to compare */
    cg_stmt *defs, **dtail;
} outliner;

/* Appends an element of `size` bytes to the array held in b; the array. */
static inline void *ol_append(ptx_buf *b, const void *e, size_t size)
{
    ptx_buf_put(b, e, size);
    return b->p;
}

/* Statement i of o->v as printed and tokenized (printed on first use: the
   arrays may move, so callers keep indices, not pointers, across calls). */
const text *ol_text(outliner *o, uint32_t i);
/* Token t is spelled s. */
int ol_tok_is(const outliner *o, const tok *t, const char *s);
/* The index of t's name in nm, or -1. */
int ol_name_at(const outliner *o, const names *nm, const tok *t);
/* The names statements at..at+len of o->v bind, and which are the copy's
   own; 0 if a statement is never moved or there are too many names. */
int ol_bound_names(outliner *o, uint32_t at, uint32_t len, names *nm);

#endif
