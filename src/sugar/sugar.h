/*
 * sugar/sugar.h - shared helpers of the --sugar passes (issue 4).
 *
 * Every pass is an IR-to-IR rewrite over codegen/ir.h, one file per pass
 * (src/sugar/<name>.c, entry point sugar_<name>), listed in the pass table
 * src/codegen/passes.c.  Passes never reorder PTX: a sugar node prints
 * Python that, when traced by pyptx 0.1.1, records exactly the statements
 * it replaced (kept in node->u.sugar.orig), up to the renaming that sugar
 * mode allows.  See src/sugar/NOTES.md for what pyptx emits for each idiom.
 */
#ifndef PTX_SUGAR_H
#define PTX_SUGAR_H

/* Passes that keep per-register tables skip kernels declaring more
   registers than this (no real kernel comes near it). */
#define SG_MAX_TRACKED_REGS (1u << 22)

#include "codegen/ir.h"

/* Pass entry points (rows of cg_passes). */
void sugar_comments(cg_module *m, cg_stats *st);
void sugar_names(cg_module *m, cg_stats *st);
void sugar_labels(cg_module *m, cg_stats *st);
void sugar_wait(cg_module *m, cg_stats *st);
void sugar_loops(cg_module *m, cg_stats *st);
void sugar_slices(cg_module *m, cg_stats *st);
void sugar_repeat(cg_module *m, cg_stats *st);
void sugar_expr(cg_module *m, cg_stats *st);

/* Index of pass `name` in cg_passes (for stats and sugar.pass). */
unsigned sg_pass_index(const char *name);
void sg_count(cg_stats *st, const char *pass, uint32_t n);

/* Install the print hooks of the sugar node kinds (idempotent). */
void sg_install_hooks(void);

/* Statement helpers. */
cg_stmt *sg_copy_stmt(cg_module *m, const cg_stmt *s);   /* shallow, next=NULL */
cg_opnd *sg_copy_opnd(cg_module *m, const cg_opnd *o);   /* deep, next=NULL */
cg_opnd *sg_py_opnd(cg_module *m, const char *text);     /* CG_O_PY */
int sg_opnd_equal(const cg_opnd *a, const cg_opnd *b);   /* same Python/PTX */
cg_text sg_lit(cg_module *m, const char *p, size_t n); /* copied */
int sg_text_equal(const cg_text *a, const cg_text *b);
/* Appends t with each symbol piece as "{sym:index}": a key under which
   texts that differ only in their symbols' spellings still compare equal. */
void sg_text_key(const cg_text *t, ptx_buf *b);
/* Literal text of a one-piece (or all-literal) cg_text into buf; 0 if it
   references a symbol or does not fit. */
int sg_text_lit(const cg_text *t, char *buf, size_t cap);
int sg_inst_is(const cg_stmt *s, const char *op);
int sg_inst_mods(const cg_stmt *s, const char *const *mods, unsigned n);
unsigned sg_nops(const cg_opnd *o);
cg_opnd *sg_op(const cg_stmt *s, unsigned i);            /* i-th operand */

/* A name that appears nowhere in the module: not a symbol spelling of
   kernel k and not a word of the source (so it shadows no global). */
int sg_ptx_name_free(const cg_module *m, const cg_kernel *k, const char *name);
/* A Python name not used by kernel k (register py names, reserved). */
int sg_py_name_free(const cg_module *m, const cg_kernel *k, const char *name);

/* Print one statement (plain printer) into `out` without indentation and
   trailing newline (for building expression text). */
void sg_print_inline(const cg_module *m, const cg_kernel *k, const cg_stmt *s,
                     ptx_buf *out);

/* Per-kernel list of extra Python names a pass has bound (helpers, loop
   variables, aliases), so later passes do not reuse them. */
void sg_py_reserve(cg_module *m, const cg_kernel *k, const char *name);

#endif
