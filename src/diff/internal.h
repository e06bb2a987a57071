/*
 * diff/internal.h - the pieces of pyptx-diff shared between its files.
 *
 * map.c     string hash maps, stable string storage, line interning
 * units.c   cut a module into units of comparable lines (normalisation)
 * diff.c    pair units, run the alignment, count edits
 * report.c  unified, --stat and --json output
 */
#ifndef PTX_DIFF_INTERNAL_H
#define PTX_DIFF_INTERNAL_H

#include "ptx/diff.h"

/* ---- map.c */

uint64_t pd_hash(const char *p, size_t n);

/* Open addressing; an entry whose epoch is not the map's is empty, so
   pd_map_clear forgets everything in O(1) (one map serves every function). */
typedef struct smap_ent {
    const char *p;
    uint32_t n, epoch;
    uint64_t h;
    uint32_t val;
} smap_ent;

typedef struct smap {
    smap_ent *v;
    size_t cap, count;
    uint32_t epoch;
} smap;

smap_ent *pd_map_get(const smap *m, const char *p, uint32_t n, uint64_t h);
/* Finds or adds; *fresh says which (the caller then sets val). */
smap_ent *pd_map_put(smap *m, const char *p, uint32_t n, uint64_t h, int *fresh);
void pd_map_clear(smap *m);
void pd_map_free(smap *m);

/* Bytes that never move once stored (keys of maps point into them). */
typedef struct chunks {
    char **v;
    size_t n, cap, used, size;
} chunks;

const char *pd_chunks_copy(chunks *c, const char *p, size_t n);
void pd_chunks_free(chunks *c);

/* Equal normalised lines get equal ids, in both modules. */
typedef struct interner {
    smap map;
    chunks store;
    uint32_t next;
} interner;

uint32_t pd_intern(interner *in, const char *p, size_t n);
void pd_interner_free(interner *in);

void *pd_realloc(void *p, size_t n);
void *pd_calloc(size_t n, size_t size);

/* ---- units.c */

enum { DL_STMT, DL_HEAD, DL_OPEN, DL_CLOSE };
/* dline.flags: a label; a .reg declaration; an instruction (its opcode
   word is never a name); printed at column 0 */
enum { DF_LABEL = 1, DF_REG = 2, DF_INSTR = 4, DF_LINE0 = 8 };

/* One comparable line: a statement, a function or section header, or a
   brace of a block. */
typedef struct dline {
    const ptx_stmt *s;
    ptx_tok t0, t1;     /* tokens of the key; OPEN/CLOSE: t0 is the brace */
    uint32_t id;        /* interned normalised key */
    uint16_t depth;     /* indentation of the canonical text */
    uint8_t what;       /* DL_* */
    uint8_t flags;      /* DF_* (units.c) */
} dline;

typedef struct unit {
    ptx_str name;       /* function name; n == 0 for the module unit */
    dline *v;
    uint32_t n, cap;
} unit;

typedef struct side {
    const ptx_module *m;
    unit *units;        /* units[0]: module level; then function definitions */
    size_t n, cap;
    uint32_t *lines;    /* byte offset where each source line starts */
    size_t nlines;
} side;

void pd_side_build(side *sd, const ptx_module *m, unsigned flags, interner *in);
void pd_side_free(side *sd);
/* 1-based source line of a line's first token. */
uint32_t pd_side_line(const side *sd, const dline *l);
/* Canonical text of the original statement, one or more '\n'-ended lines. */
void pd_dline_text(const side *sd, const dline *l, ptx_buf *out);

/* ---- diff.c */

/* A maximal run of one kind of edit script element. */
typedef struct run {
    char op;            /* ' ' kept, '-' only in a, '+' only in b */
    uint32_t i, j, len; /* start in a's and b's lines */
} run;

typedef struct pair {
    int ua, ub;         /* unit index in a / b, or -1 */
    run *runs;
    size_t nruns;
    ptx_diff_unit info;
} pair;

struct ptx_diff {
    side a, b;
    interner in;
    pair *pairs;
    size_t n;
    int context, same;
};

/* ---- report.c */

const unit *pd_pair_unit(const ptx_diff *d, const pair *p, int which_b);

#endif
