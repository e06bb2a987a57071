/*
 * ptx/diff.h - compare two PTX modules statement by statement.
 *
 *     ptx_diff_opts o = { .flags = PTX_DIFF_IGNORE_DEBUG, .context = 3 };
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

typedef struct ptx_diff_opts {
    unsigned flags;          /* PTX_DIFF_* */
    int context;             /* lines of context around changes (3) */
    const char *const *functions; /* only these functions, or NULL */
    size_t nfunctions;
    /* threads in all (0: two, one per module); the work is cut by
       function, and the result is the same for any number */
    unsigned jobs;
} ptx_diff_opts;

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

/* Compares a with b.  Returns NULL (and a message in err) when an option
   cannot be honoured, e.g. a --function name found in neither module. */
ptx_diff *ptx_diff_run(const ptx_module *a, const ptx_module *b,
                       const ptx_diff_opts *o, char *err, size_t errn);
int ptx_diff_same(const ptx_diff *d);
size_t ptx_diff_nunits(const ptx_diff *d);
const ptx_diff_unit *ptx_diff_unit_at(const ptx_diff *d, size_t i);

/* "--- a" / "+++ b" and hunks "@@ -l,n +l,n @@ function (label)"; the
   line numbers are those of the statements in the input files and the
   counts are the printed lines on each side. */
void ptx_diff_print_unified(const ptx_diff *d, ptx_buf *out);
/* One line per differing unit and a summary, like git diff --stat. */
void ptx_diff_print_stat(const ptx_diff *d, ptx_buf *out);
/* The same information as data (one JSON object). */
void ptx_diff_print_json(const ptx_diff *d, ptx_buf *out);
void ptx_diff_free(ptx_diff *d);

/* The alignment core, exposed for tests: Myers' linear-space O(ND) diff of
   two sequences of integers.  Sets del[i] = 1 for every a[i] not kept and
   ins[j] = 1 for every b[j] not kept (both arrays zeroed by the caller) and
   returns the number of edits.  Minimal unless the inputs are large and
   very different, where a cost limit trades minimality for speed. */
size_t ptx_diff_seq(const uint32_t *a, size_t n, const uint32_t *b, size_t m,
                    uint8_t *del, uint8_t *ins);

#ifdef __cplusplus
}
#endif
#endif
