/*
 * ptx/codegen.h - PTX module -> Python for the pyptx 0.1.1 DSL.
 *
 *     ptx_codegen_options o = { 0 };        // plain mode
 *     ptx_buf py = { 0 };
 *     ptx_diag err;
 *     if (ptx_codegen(m, &o, &py, &err) != 0) ptx_diag_print(stderr, &err);
 *
 * The generated file defines one pyptx @kernel per .entry definition,
 * KERNELS (PTX entry name -> Kernel), UNSUPPORTED (entry name -> why pyptx
 * 0.1.1 cannot express it; such entries are carried as raw text) and
 * module_ptx(), the whole module rebuilt from the traced kernels and the
 * carried text.  `python k.py` prints module_ptx().  See
 * src/codegen/DESIGN.md and man/pyptx-codegen.1.
 */
#ifndef PTX_CODEGEN_H
#define PTX_CODEGEN_H

#include <stdint.h>
#include "ptx/ast.h"
#include "ptx/ptx.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PTX_CODEGEN_MAX_PASSES 32

/* Filled by ptx_codegen when options.stats is non-NULL (added to). */
typedef struct ptx_codegen_stats {
    uint32_t kernels, unsupported;      /* entries, of which carried raw */
    uint32_t insts, raw_stmts, decls;   /* PTX instructions, _raw lines,
                                           reg/var declarations, counted
                                           before sugar: the same plain
                                           and sugar */
    uint32_t pass_applied[PTX_CODEGEN_MAX_PASSES]; /* rewrites per pass */
    uint64_t pass_ns[PTX_CODEGEN_MAX_PASSES];      /* time per pass (its
                                                      prelude included) */
} ptx_codegen_stats;

typedef struct ptx_codegen_options {
    const char *name;        /* --name: rename the only .entry, or NULL */
    uint32_t sugar;          /* bit i: run sugar pass i (see
                                ptx_codegen_pass_name); 0 = plain */
    int rename_kernels;      /* sugar may give kernels readable Python
                                function names (PTX names never change) */
    ptx_codegen_stats *stats; /* or NULL */
    const char *srcname;     /* shown in the header comment, or NULL */
    unsigned jobs;           /* threads for the kernels' builds and, in plain
                                mode, their printing (0 or 1: this one) */
    /* ptx_codegen_pieces on one thread: told of each range of the text
       that nothing reads again (a kernel's, once printed; not the text
       that _MODULE carries), so that the caller may give its pages back;
       or NULL */
    void (*release)(void *ctx, size_t from, size_t to);
    void *release_ctx;
    /* Sugar kernel by kernel (pyptx-codegen --verify drops, from one
       kernel only, a pass that does not trace back there): kernel i, the
       i-th .entry definition of the module in source order (entries
       pyptx cannot express counted too), runs the passes of
       kernel_sugar[i] instead of `sugar`, where i < nkernel_sugar.  Read
       only when `sugar` is non-zero (which also makes the file's layout
       sugar's); a kernel given 0 is printed without passes.  NULL: every
       kernel runs `sugar`. */
    const uint32_t *kernel_sugar;
    size_t nkernel_sugar;
} ptx_codegen_options;

/* Generate Python for module m into *out (appended).  Returns 0, or -1
   with *err filled (out->n as it was then): an option that cannot be
   honoured, or "out of memory". */
int ptx_codegen(const ptx_module *m, const ptx_codegen_options *o,
                ptx_buf *out, ptx_diag *err);

/* The piece ptx_codegen_pieces takes for `piece` 0, as pyptx-codegen
   does.  Plain codegen holds the text and its Python, about
   3.2 times the file, from start to end (but the kernels' text, given
   back on one thread), which leaves its pieces less room: with 16 KiB a
   1 MB library module peaked at 5.9 times the file before its kernels'
   text was given back, where pieces of 64 KiB gave 7.8 and of 32 KiB
   6.7, at 2.6% more instructions than 64 KiB. */
#define PTX_CODEGEN_PIECE ((size_t)16 << 10)

/* The same from a module's text src[0..size), `name` its file name, taken
   one piece of about `piece` bytes at a time (cut after an item, or
   after a statement of a function's body; 0: the 16 KiB pyptx-codegen
   takes, where a text under two pieces is taken whole, faster than in
   pieces), with o->jobs threads each taking runs of pieces: each piece
   is parsed, its kernels are translated and printed (a kernel that runs
   on past the piece, as far as the piece goes), and its tree and their
   IR are freed before the next, so that a large module needs a small
   part of the memory of its whole tree.  With sugar passes the pieces
   are cut after items only (whole kernels) and taken on one thread, the
   kernels of a piece built on o->jobs.  Returns 1 with the Python
   appended to *out, byte for byte what ptx_codegen writes for the whole
   module; 0 with nothing appended when the whole module must be taken
   instead: --name asked for (or with sugar --rename-kernels or kernel
   rows), a text too small for `piece` 0, a piece that does not parse
   (ptx_parse_* then says where), with sugar a name a later piece brings
   that the whole module would have answered otherwise, or memory that
   ran out (ptx_codegen then says so, if it does not have enough either). */
int ptx_codegen_pieces(const char *name, const char *src, size_t size,
                       size_t piece, const ptx_codegen_options *o,
                       ptx_buf *out);

/* The sugar passes compiled in, in the order they run: name and one-line
   help of pass i (i < ptx_codegen_npasses()), and the mask bit of a name
   (0 if unknown). */
unsigned ptx_codegen_npasses(void);
const char *ptx_codegen_pass_name(unsigned i);
const char *ptx_codegen_pass_help(unsigned i);
uint32_t ptx_codegen_pass_bit(const char *name);

#ifdef __cplusplus
}
#endif
#endif
