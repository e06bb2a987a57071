/*
 * sugar/pieces.c - a large module rewritten a piece at a time
 * (ptx_codegen_pieces with --sugar), so that only one piece's tree and IR
 * is held: a library module's whole tree and IR ran to half a gigabyte,
 * whose pages cost more than most passes.
 *
 * The text is cut among the items alone, after a function's end
 * (ptx_cut_after_brace; ptx_cut_after where that cut does not parse),
 * never in a body: the rows rewrite whole kernels.  Each piece is parsed,
 * built (codegen's pieces: its IR in an arena of its own), its kernels'
 * names learned (free.c), its preludes run, and each kernel rewritten by
 * the rows and printed, as the whole module's driver does (layer.c); then
 * all of it is freed but the names the tail prints.
 *
 * What the whole module decides before any row runs is not known yet:
 * the names of the pieces still to come (a new spelling avoids them) and
 * their kernels' Python names.  free.c keeps every answer that a later
 * piece could change and says when one did (sg_state.clash): then this
 * gives up (0), and the caller translates the whole module, so the output
 * is always the whole module's.  Library modules never clash.
 *
 * The passes allocate from the module; while the rows run and print, its
 * arenas are the piece's, and what outlives the piece (free.c's maps and
 * memos, calls.c's forms) allocates from a copy that keeps the module's
 * (sg_keep).  The
 * preludes run on the module's own arenas: the Python names they give
 * are printed by the tail.
 */
#include <string.h>
#include "codegen/build.h"
#include "util/alloc.h"
#include "util/arena.h"
#include "front/piece.h"
#include "sugar/sugar.h"
#include "front/runs.h"
#include "util/buf.h"
#include "util/threads.h"

typedef struct sugar_pieces {
    cg_module *m;
    const ptx_codegen_options *o;
    const char *name, *src;
    ptx_codegen_stats st;
    ptx_buf *out;
    int was_empty;      /* out had no buffer before the room reserved */
} sugar_pieces;

/* The rows on kernels [from, to) of the piece, each printed at once, with
   the module's arenas the piece's (ir) while they run. */
typedef struct swapped {
    cg_module *m;
    ptx_arena *arena, *stmts;   /* the module's own */
} swapped;

/* Unwinding in the rows: the module's arenas back, the piece's freed. */
static void swap_back(void *arg)
{
    swapped *w = arg;
    ptx_arena_free(w->m->stmts);   /* (the piece's ir is one_piece's) */
    w->m->arena = w->arena;
    w->m->stmts = w->stmts;
}

static void rows(sugar_pieces *c, uint32_t from, uint32_t to, ptx_arena *ir)
{
    cg_module *m = c->m;
    ptx_arena *arena = m->arena, *stmts = m->stmts;
    ptx_arena *piece_stmts = ptx_arena_new();
    m->arena = ir;
    m->stmts = piece_stmts;
    swapped w = { m, arena, stmts };
    ptx_owned own;
    ptx_own(&own, swap_back, &w);
    sg_words_forget(m);   /* the words' arrays are this piece's */
    for (uint32_t i = from; i < to; i++) {
        cg_kernel *k = &m->kernels[i];
        if (k->unsupported)
            continue;
        cg_passes_run(m, m->opt, k);
        cg_print_kernel(m, k, c->out);
    }
    ptx_disown(&own);
    m->arena = arena;
    m->stmts = stmts;
    ptx_arena_free(piece_stmts);
}

/* Does p[0..n) hold a byte >= 0x80?  (The tail then writes the module as
   bytes, and imports sys: print_module.c.)  One OR a byte, which the
   compiler does many bytes at a time. */
static int high_bytes(const char *p, size_t n)
{
    unsigned char any = 0;
    for (size_t i = 0; i < n; i++)
        any |= (unsigned char)p[i];
    return any >= 0x80;
}

/* The piece src[from, end): 1 when it clashed with nothing before it, 0
   when it did; -1, with nothing done, where it does not parse as items
   (to be cut elsewhere). */
static int one_piece(sugar_pieces *c, size_t from, size_t end)
{
    cg_module *m = c->m;
    ptx_diag d;
    ptx_piece_at end_at;
    ptx_module *pm = ptx_parse_piece(c->name, c->src + from, end - from, PTX_AT_ITEMS, 0,
                                     &end_at, &d);
    if (!pm || end_at != PTX_AT_ITEMS) {
        ptx_module_free(pm);
        return -1;
    }
    if (high_bytes(c->src + from, end - from))   /* while the lexer's read is cached */
        m->text_ascii = 0;
    cg_piece_held h = { pm, NULL };
    ptx_owned own;
    ptx_own(&own, cg_release_piece, &h);
    ptx_arena *ir = h.ir = ptx_arena_new();
    uint32_t k0 = m->nkernels, s0 = m->nsegs, o0 = m->nopcodes;
    cg_open open = { 0 };   /* (a piece among the items opens no kernel) */
    cg_build_items(m, pm, c->src, from, ir, &open);
    int ok = !open.active;   /* (a piece that ends among the items: never) */
    cg_open_free(&open);
    if (ok) {
        if (c->o->stats)   /* a walk over every statement: only where asked */
            cg_count_stats(m, k0, &c->st);
        sg_learn(m, k0, s0, o0);
        cg_passes_prelude(m, m->opt, k0, m->nkernels);
        rows(c, k0, m->nkernels, ir);
        ok = !sg_st(m)->clash;
    }
    cg_forget_kernels(m, k0);
    m->src = NULL;
    ptx_disown(&own);
    cg_release_piece(&h);
    if (ok && m->opt->release)
        cg_give_back(m, c->src, s0, from, end, 0);
    return ok;
}

/* Where a piece from `from` may end: after a function's end `piece`
   bytes on or more (ptx_cut_after_brace: ptx_cut_after also looks at
   every line that ends with ';', each instruction of a kernel), or the
   text's end.  A cut that does not parse as items is made where
   ptx_cut_after says. */
static size_t kernel_end(const char *src, size_t from, size_t size, size_t piece)
{
    return size - from <= piece ? size : ptx_cut_after_brace(src, size, from + piece);
}

/* The whole text a piece after another, then the head and tail: 1, or 0
   where a piece did not parse or clashed. */
static int all_pieces(sugar_pieces *c, size_t size, size_t piece, size_t start)
{
    cg_module *m = c->m;
    m->text_ascii = 1;   /* (one_piece: the pieces cover the text) */
    for (size_t from = 0; from < size;) {
        size_t end = kernel_end(c->src, from, size, piece), cut;
        int took = end > from ? one_piece(c, from, end) : -1;
        if (took < 0 && (cut = ptx_piece_end(c->src, from, size, piece)) != end && cut > from)
            took = one_piece(c, from, end = cut);
        if (took <= 0)
            return 0;
        from = end;
    }
    uint32_t s0 = m->nsegs;
    cg_build_end(m, c->src, size);
    sg_learn(m, m->nkernels, s0, m->nopcodes);
    if (sg_st(m)->clash)
        return 0;
    if (c->was_empty && c->out->n == start)
        ptx_buf_free(c->out);   /* no kernel printed: the head says so by NULL */
    cg_print_head_at(m, start, c->out);
    cg_print_tail(m, c->out);
    return 1;
}

int sg_codegen_pieces(const char *name, const char *src, size_t size, size_t piece,
                      const ptx_codegen_options *o, ptx_buf *out)
{
    /* --name and --rename-kernels decide for the whole module (one entry;
       kernels' PTX names that rows of earlier kernels must avoid), and
       per-kernel rows come from --verify, which takes the whole tree */
    if (o->name || o->rename_kernels || o->kernel_sugar)
        return 0;
    if (!piece) {
        piece = PTX_CODEGEN_PIECE;
        if (size / 2 < piece)
            return 0;
    }
    ptx_codegen_options po = *o;
    sugar_pieces c = { .o = o, .name = name, .src = src, .out = out };
    po.stats = o->stats ? &c.st : NULL;   /* added up only where it goes through */
    cg_module *m = c.m = cg_module_new(&po, name);
    ptx_owned own;
    ptx_own(&own, cg_module_release, m);
    m->layer = &sg_layer;
    m->ops_kept = cg_alloc(m, sizeof *m->ops_kept);
    cg_passes_state(m, &po);
    m->drop_trivia = sg_runs(m, "comments");   /* the row's work, done by the build */
    cg_module *keep = cg_alloc(m, sizeof *keep);
    *keep = *m;
    sg_ahead_begin(m, keep);
    size_t start = out->n;
    /* room for the Python at once (about 1.7 bytes per byte of library
       PTX), as codegen/pieces.c reserves it: a buffer that doubles as it
       fills copies itself, and the pages nothing writes cost nothing */
    c.was_empty = !out->p;
    ptx_buf_reserve(out, size * 2);
    int ok = all_pieces(&c, size, piece, start);
    if (ok && o->stats) {
        cg_add_stats(o->stats, &c.st);
        for (unsigned i = 0; i < cg_npasses; i++) {
            o->stats->pass_ns[i] += c.st.pass_ns[i];
            o->stats->pass_applied[i] += c.st.pass_applied[i];
        }
    }
    if (!ok)
        out->n = start;
    ptx_disown(&own);
    cg_module_free(m);
    return ok;
}
