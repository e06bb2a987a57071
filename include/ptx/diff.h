/*
 * ptx/diff.h - compare two PTX modules statement by statement.
 *
 *     ptx_diff_options o = { .flags = PTX_DIFF_IGNORE_DEBUG, .context = 3 };
 *     ptx_diff *d = ptx_diff_run(a, b, &o, err, sizeof err);
 *     if (!ptx_diff_same(d))
 *         ptx_diff_print_unified(d, &out);
 *     ptx_diff_free(d);
 *
 * Each module is cut into units: one per function definition (matched
 * between the two modules by name) and one for everything else at module
 * level.  A unit is a sequence of statements; nested { } blocks become
 * opening and closing lines.  Statements compare by their tokens (so
 * formatting and comments never count) after the normalisations the flags
 * ask for, and each pair of units is aligned with Myers' O(ND) algorithm.
 * Reports show the canonical text of the original statements.
 */
#ifndef PTX_DIFF_H
#define PTX_DIFF_H

#include <stddef.h>
#include <stdint.h>
#include "ptx/ptx.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
    /* drop .loc, .file, @@DWARF, .section .debug_*, and labels that no
       code (only debug data) refers to */
    PTX_DIFF_IGNORE_DEBUG = 1u << 0,
    /* labels compare up to a consistent renaming (per function) */
    PTX_DIFF_IGNORE_LABELS = 1u << 1,
    /* virtual registers compare up to a consistent renaming per function
       and register type; .reg declarations lose their names and counts */
    PTX_DIFF_IGNORE_REGS = 1u << 2,
    /* every declared name (functions, parameters, variables, labels,
       registers) compares up to a consistent renaming; functions are then
       paired by position instead of by name.  Implies the two above. */
    PTX_DIFF_IGNORE_NAMES = 1u << 3
};

typedef struct ptx_diff_options {
    unsigned flags;          /* PTX_DIFF_* */
    int context;             /* lines of context around changes (3) */
    const char *const *functions; /* only these functions, or NULL */
    size_t nfunctions;
    /* threads in all (0: two, one per module); the work is cut by
       function, and the result is the same for any number */
    unsigned jobs;
} ptx_diff_options;

typedef enum ptx_diff_status {
    PTX_DIFF_SAME,
    PTX_DIFF_CHANGED,
    PTX_DIFF_ADDED,          /* only in the second module */
    PTX_DIFF_REMOVED         /* only in the first module */
} ptx_diff_status;

/* One compared unit.  Statement counts: in each run of edits between two
   equal statements, min(removed, added) count as changed and the rest as
   removed or added. */
typedef struct ptx_diff_unit {
    const char *name;        /* function name; "(module)" for the rest */
    ptx_diff_status status;
    uint32_t added, removed, changed;
} ptx_diff_unit;

typedef struct ptx_diff ptx_diff;

/* Compares a with b.  Returns NULL (and the message in *err, line 0,
   where err is not NULL) when an option cannot be honoured, e.g. a
   --function name found in neither module, or memory runs out.  The
   printers below, ptx_tree_print too, return 0, or -1 where memory ran
   out (out->n as it was). */
ptx_diff *ptx_diff_run(const ptx_module *a, const ptx_module *b,
                       const ptx_diff_options *o, ptx_diag *err);
int ptx_diff_same(const ptx_diff *d);
size_t ptx_diff_nunits(const ptx_diff *d);
const ptx_diff_unit *ptx_diff_unit_at(const ptx_diff *d, size_t i);

/* "--- a" / "+++ b" and hunks "@@ -l,n +l,n @@ function (label)"; the
   line numbers are those of the statements in the input files and the
   counts are the printed lines on each side. */
int ptx_diff_print_unified(const ptx_diff *d, ptx_buf *out);
/* One line per differing unit and a summary, like git diff --stat. */
int ptx_diff_print_stat(const ptx_diff *d, ptx_buf *out);
/* The same information as data (one JSON object). */
int ptx_diff_print_json(const ptx_diff *d, ptx_buf *out);
void ptx_diff_free(ptx_diff *d);

/* ---- trees: every kernel of two sets of files ----------------------

   A compiler upgrade is compared as two trees of PTX files (a Triton cache
   before and after, nvcc's outputs under two flag sets).  Kernels (function
   definitions, .entry and .func) pair by name across all the files of each
   side, not by path.  Where one name belongs to several kernels of a side
   (an autotuner's variants), they pair first by `meta`, the tuning
   configuration the compiler recorded beside the file (ptx_tree_meta_json:
   the pair whose configurations agree in the most fields), then by
   structure: the assignment that maximises the statements the pairs have
   in common (a statement counts as in common as often as it occurs in
   both).  A pair that the metadata does not decide, with fewer than half
   its statements in common, is not made: its kernels count as added and
   removed.  Each pair is compared as ptx_diff_run compares two functions,
   with the same flags; so is the module level of each pair of files that
   holds a pair of kernels.

       ptx_tree_file a[] = { { "a/x.ptx", ma, "num_warps=4" }, ... };
       ptx_tree_diff *t = ptx_diff_trees(a, na, b, nb, &o, err, sizeof err);
       for (size_t i = 0; i < ptx_tree_nkernels(t); i++)
           ... ptx_tree_kernel_at(t, i)->status ...
       ptx_tree_print(t, PTX_TREE_UNIFIED, NULL, &out);
       ptx_tree_free(t);
*/
typedef struct ptx_tree_file {
    const char *path;        /* as reported */
    const ptx_module *m;     /* NULL: the file could not be read or parsed;
                                `error` says why, and it is reported */
    const char *meta;        /* a tuning key, or NULL */
    const char *error;
} ptx_tree_file;

typedef enum ptx_tree_how {
    PTX_TREE_BY_NAME,        /* the only kernel of its name on each side */
    PTX_TREE_BY_META,        /* each the other's only best match by meta */
    PTX_TREE_BY_SIMILARITY,  /* the assignment by statements in common */
    PTX_TREE_UNPAIRED        /* added or removed */
} ptx_tree_how;

typedef struct ptx_tree_kernel {
    const char *name;        /* the kernel's name; "(module)" for the module
                                level of a pair of files */
    ptx_diff_status status;
    ptx_tree_how how;
    int module;              /* the module level of two files, not a kernel */
    int fa, fb;              /* the file on each side, or -1 */
    unsigned similarity;     /* statements in common, in percent of the
                                pair's (100: all) */
    uint32_t added, removed, changed;
} ptx_tree_kernel;

/* What a kernel uses once compiled (ptx_res_*), for --resources: each
   figure, or -1 where unknown.  `error` (or NULL) says why a side has no
   figures: the file does not compile. */
enum { PTX_RES_REGS, PTX_RES_SPILL_STORES, PTX_RES_SPILL_LOADS, PTX_RES_STACK,
       PTX_RES_SHARED, PTX_RES_LOCAL, PTX_RES_CONST, PTX_RES_INSTS, PTX_RES_N };
typedef struct ptx_res {
    long long v[PTX_RES_N];
    const char *error;
} ptx_res;
/* Their names as the report and --fail-on spell them: "regs", "spill-stores",
   "spill-loads", "stack", "shared", "local", "const", "insts". */
const char *ptx_res_name(unsigned i);

/* The files at paths[0..n) read and parsed on up to `jobs` threads, each
   with the tuning key of the FILE.json beside it, where there is one
   (ptx_tree_meta_json): an array of n that owns everything it points to
   (free with ptx_tree_files_free), NULL only when out of memory.  A file
   that cannot be read or parsed has m NULL and its diagnostic in error
   ("path:line:col: error: ..."). */
ptx_tree_file *ptx_tree_load(const char *const *paths, size_t n, unsigned jobs);
void ptx_tree_files_free(ptx_tree_file *f, size_t n);

typedef struct ptx_tree_diff ptx_tree_diff;

ptx_tree_diff *ptx_diff_trees(const ptx_tree_file *a, size_t na, const ptx_tree_file *b,
                              size_t nb, const ptx_diff_options *o, ptx_diag *err);
int ptx_tree_same(const ptx_tree_diff *t);
size_t ptx_tree_nkernels(const ptx_tree_diff *t);
const ptx_tree_kernel *ptx_tree_kernel_at(const ptx_tree_diff *t, size_t i);
const ptx_tree_file *ptx_tree_file_at(const ptx_tree_diff *t, int side_b, int f);

typedef enum ptx_tree_format {
    PTX_TREE_UNIFIED,        /* per differing kernel: a header and its hunks */
    PTX_TREE_STAT,           /* a line per differing kernel and a summary */
    PTX_TREE_JSON,           /* everything as one JSON object */
    PTX_TREE_MARKDOWN        /* a summary table, worst first, and each diff
                                folded below it, for a pull request */
} ptx_tree_format;

/* res: NULL, or two figures per kernel (res[2*i] side a, res[2*i+1] side
   b), which the report shows for each changed kernel with their deltas. */
int ptx_tree_print(const ptx_tree_diff *t, ptx_tree_format f, const ptx_res *res,
                   ptx_buf *out);
void ptx_tree_free(ptx_tree_diff *t);

/* The tuning key of a Triton cache's NAME.json (the text of the file):
   "num_warps=4;num_stages=3;..." from the fields that a tuner sets
   (num_warps, num_stages, num_ctas, maxnreg, cluster_dims, and constants
   where the version records them), written into buf; 0, or -1 where the
   text holds none of them. */
int ptx_tree_meta_json(const char *json, size_t n, char *buf, size_t cap);

/* The figures of every kernel of t that differs (two per kernel: res[2*i]
   side a, res[2*i+1] side b; -1 elsewhere), its files compiled by ptxas
   (`ptxas`, or $PTXAS, PATH, /usr/local/cuda/bin) on up to `jobs`
   processes at once, or by the CUDA driver's JIT (`jit`).  A kernel whose
   file the compiler rejects gets the compiler's error line in its
   figures' `error`.  NULL (and the message in *err) where the compiler cannot
   be run at all, or memory ran out (PTX_OUT_OF_MEMORY).  Free with
   ptx_res_free. */
typedef struct ptx_measure_options {
    const char *ptxas;
    int jit;
    unsigned jobs;
} ptx_measure_options;
ptx_res *ptx_tree_measure(const ptx_tree_diff *t, const ptx_measure_options *o, ptx_diag *err);
void ptx_res_free(ptx_res *res, size_t nkernels);

/* Resource figures from a ptxas/JIT info log (-v: registers, spills,
   stack) and the cubin it wrote (registers, stack, shared, local and
   constant bank 0 as cuobjdump -res-usage counts them, and the SASS
   instruction count) for function `name`: 0, -1 where the cubin is
   malformed or does not hold it, -2 where memory ran out. */
int ptx_res_from(const char *log, const void *cubin, size_t n, const char *name,
                 ptx_res *r);

/* The alignment core, exposed for tests: Myers' linear-space O(ND) diff of
   two sequences of integers.  Sets del[i] = 1 for every a[i] not kept and
   ins[j] = 1 for every b[j] not kept (both arrays zeroed by the caller) and
   returns the number of edits ((size_t)-1 where memory ran out).  Minimal
   unless the inputs are large and very different, where a cost limit
   trades minimality for speed. */
size_t ptx_diff_seq(const uint32_t *a, size_t n, const uint32_t *b, size_t m,
                    uint8_t *del, uint8_t *ins);

#ifdef __cplusplus
}
#endif
#endif
