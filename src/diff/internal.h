/*
 * diff/internal.h - the pieces of pyptx-diff shared between its files.
 *
 * map.c     string hash maps, stable string storage, line interning
 * units.c   cut a module into units of comparable lines (normalisation)
 * sides.c   both modules' units built on threads; source lines and text
 * diff.c    pair units, run the alignment, count edits
 * report.c  unified, --stat and --json output
 */
#ifndef PTX_DIFF_INTERNAL_H
#define PTX_DIFF_INTERNAL_H

#include "ptx/diff.h"
#include "util/alloc.h"

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
/* The same, for a key whose pd_hash is known. */
uint32_t pd_intern_hashed(interner *in, const char *p, size_t n, uint64_t h);
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
    const ptx_stmt *def; /* the function definition; NULL: the module */
    size_t bytes;       /* its source text (the module unit: the rest) */
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

/* A side's normaliser.  Building a side: pd_side_start walks the module
   level, declares the globals and adds an empty unit per function
   definition; pd_norm_units fills functions' units on a fork each (the
   forks of one side may run at once); pd_norm_join takes each fork back, in
   function order; pd_side_finish makes the module unit's keys. */
typedef struct norm norm;

norm *pd_side_start(side *sd, const ptx_module *m, unsigned flags,
                    interner *in);
/* For a thread: z's globals (read-only), its own names and storage, and
   `in`, or an interner of its own where `in` is NULL. */
norm *pd_norm_fork(const norm *z, interner *in);
void pd_norm_units(norm *w, size_t first, size_t last);
/* Exports of w's functions into z, the ids of units [first, last) made
   z's interner's; frees w. */
void pd_norm_join(norm *z, norm *w, size_t first, size_t last);
/* Makes the module unit's keys; frees z. */
void pd_side_finish(norm *z);
/* A normaliser that running out of memory left behind (util/alloc.h):
   pd_norm_join and pd_side_finish free it otherwise.  NULL: nothing. */
void pd_norm_free(norm *z);

/* ---- sides.c */

/* Both sides built with `jobs` threads in all (1 to PTX_MAX_THREADS), functions
   grouped by at least min_part bytes of source; every key interned in
   d->in. */
void pd_sides_build(ptx_diff *d, const ptx_module *a, const ptx_module *b,
                    unsigned flags, unsigned jobs, size_t min_part);
void pd_side_free(side *sd);
/* 1-based source line of a line's first token. */
uint32_t pd_side_line(const side *sd, const dline *l);
/* Canonical text of the original statement, one or more '\n'-ended lines. */
void pd_dline_text(const side *sd, const dline *l, ptx_buf *out);

/* ---- diff.c */

/* A maximal run of one kind of edit script element. */
typedef struct edit_run {
    char op;            /* ' ' kept, '-' only in a, '+' only in b */
    uint32_t i, j, len; /* start in a's and b's lines */
} edit_run;

typedef struct pair {
    int ua, ub;         /* unit index in a / b, or -1 */
    edit_run *runs;
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

/* ptx_diff_run with runs of functions, and of pairs to align, of at least
   min_part bytes (ptx_diff_run: PTX_MIN_PART); for tests, 1 cuts at every
   function. */
ptx_diff *pd_diff_split(const ptx_module *a, const ptx_module *b,
                        const ptx_diff_options *o, size_t min_part, char *err,
                        size_t errn);

/* Aligns units a and b into p's runs, counts and status (p->ua, p->ub
   say which side is missing: -1). */
void pd_align(pair *p, const unit *a, const unit *b);
/* ptx_diff_seq, unwinding where memory runs out (util/alloc.h). */
size_t pd_seq(const uint32_t *a, size_t n, const uint32_t *b, size_t m,
              uint8_t *del, uint8_t *ins);

/* ---- sides.c, for trees */

/* One module's units, built on this thread, every key interned in `in`. */
void pd_side_build(side *sd, const ptx_module *m, unsigned flags, interner *in);

/* ---- report.c */

/* The unit p pairs on a side (an empty one where it has none). */
const unit *pd_pair_unit(const ptx_diff *d, const pair *p, int which_b);
/* A pair's hunks, unified (after its "---"/"+++" lines) and as the JSON
   array's items, as ptx_diff_print_unified and _json print them. */
void pd_unified_hunks(const ptx_diff *d, const pair *p, ptx_buf *out);
void pd_json_hunks(const ptx_diff *d, const pair *p, ptx_buf *out);

#endif
