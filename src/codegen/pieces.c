/*
 * pieces.c - plain codegen of a large module a piece at a time
 * (cg_codegen_pieces, behind ptx_codegen_pieces).
 *
 * The text is cut as the round trip in pieces cuts it, after an item or
 * after a statement of a function's body (src/emit/pieces.c says why the
 * pieces' items are the whole parse's).  A plain kernel's Python depends
 * on its own statement alone, and on what the module carries from piece
 * to piece: the .target and .version first met, the Python names the
 * kernels before it took, and the raw segment open at the cut
 * (build_module.c); a kernel's statements, on its symbols, which a kernel
 * cut by pieces keeps until its '}' (build_open.c).  So the pieces'
 * Python is the whole module's, while only one piece's tree and
 * statements are held at a time; the head, which names the pyptx types
 * the kernels used, is printed last and put in front, as with a layer above.
 *
 * With threads, the text up to the first cut among the items is taken
 * first (it holds the .target and .version), and the rest in runs of
 * pieces (front/runs.h), each run built
 * into a module of its own that follows the first's; the runs are then
 * joined in order (cg_module_join: their names, segments and types), and
 * their Python put in place.  Where a run's kernel names are not the ones
 * the whole module gives (a name taken twice, or a _k<i> name), the
 * joining stops, and the text from that run's start is taken a piece
 * after another.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "codegen/build.h"
#include "util/alloc.h"
#include "util/arena.h"
#include "front/piece.h"
#include "front/runs.h"
#include "util/buf.h"
#include "util/threads.h"

/* The kernels from `from` on, printed: all the tail needs of them is their
   names, which the module's arena holds (kernel_head; an unsupported
   kernel's are copied there), not their IR, which goes with its piece. */
void cg_forget_kernels(cg_module *m, uint32_t from)
{
    for (uint32_t i = from; i < m->nkernels; i++) {
        const cg_kernel *k = &m->kernels[i];
        cg_kernel names = { .ptx_name = k->ptx_name, .py_name = k->py_name,
                            .decorated = k->decorated };
        if (k->unsupported) {
            names.ptx_name = cg_strndup(m, k->ptx_name, strlen(k->ptx_name));
            names.unsupported = cg_strndup(m, k->unsupported, strlen(k->unsupported));
        }
        m->kernels[i] = names;
    }
}

void cg_add_stats(ptx_codegen_stats *to, const ptx_codegen_stats *st)
{
    to->kernels += st->kernels;
    to->unsupported += st->unsupported;
    to->insts += st->insts;
    to->raw_stmts += st->raw_stmts;
    to->decls += st->decls;
}

/* A piece of a module's translation: the module, the kernel a piece
   left open, and where the piece at hand begins. */
typedef struct piecer {
    cg_module *m;
    const char *name, *src;
    size_t from;
    ptx_piece_at at;        /* where the piece begins */
    cg_open open;
    ptx_codegen_stats *st;
    ptx_buf *out;
} piecer;

/* A piece's tree and IR, freed when it is printed, or where memory runs
   out (util/alloc.h). */
void cg_release_piece(void *arg)
{
    cg_piece_held *h = arg;
    ptx_arena_free(h->ir);
    ptx_module_free(h->pm);
}

/* The piece src[from, end) parsed, its kernels built and printed, and all
   of it freed but the module's own (names, raw segments, which point into
   src) and an open kernel's: 1 when it parsed.  What it holds of the body
   of a kernel before it comes first, and may close it; an open kernel at
   its end is begun and printed as far as the piece goes. */
static int one_piece(void *ctx, size_t end)
{
    piecer *pc = ctx;
    cg_module *m = pc->m;
    ptx_diag d;
    ptx_piece_at end_at;
    ptx_module *pm = ptx_parse_piece(pc->name, pc->src + pc->from, end - pc->from,
                                     pc->at, 0, &end_at, &d);
    if (!pm)
        return 0;
    const ptx_stmt *s = pm->items;
    if (pc->open.active && (!s || s->kind != PTX_S_BLOCK)) {
        ptx_module_free(pm);   /* no statement: comments held for the next would be lost */
        return 0;
    }
    cg_piece_held h = { pm, NULL };
    ptx_owned own;
    ptx_own(&own, cg_release_piece, &h);
    if (pc->open.active)
        cg_open_part(&pc->open, m, pm, pc->from, &s->u.block, pc->st, pc->out);
    ptx_arena *ir = h.ir = ptx_arena_new();
    uint32_t k0 = m->nkernels;
    int went_on = pc->open.active;
    cg_build_items(m, pm, pc->src, pc->from, ir, &pc->open);
    cg_count_stats(m, k0, pc->st);
    int opened = pc->open.active && !went_on;
    cg_print_plain(m, k0, m->nkernels - (uint32_t)opened, m->opt->jobs, pc->out);
    if (opened) {
        cg_print_kernel_head(m, &pc->open.k, pc->out);
        cg_open_part(&pc->open, m, pm, pc->from, pc->open.first, pc->st, pc->out);
    }
    cg_forget_kernels(m, k0);
    m->src = NULL;
    ptx_disown(&own);
    cg_release_piece(&h);
    pc->at = end_at;
    return 1;
}

/* What a piece src[from, end) held of kernels' text, once it is printed,
   given back (m->opt->release): all but the raw segments of _MODULE that
   it closed (segs from s0 on) and the one open after it, from seg_pos,
   where no kernel is open (`open`) at its end. */
void cg_give_back(const cg_module *m, const char *src, uint32_t s0, size_t from,
                  size_t end, int open)
{
    size_t at = from;   /* what is before it is given back, or kept */
    for (uint32_t i = s0; i < m->nsegs; i++) {
        const cg_seg *g = &m->segs[i];
        if (g->kernel >= 0)
            continue;
        size_t a = (size_t)(g->p - src), z = a + g->n;
        if (a > at)
            m->opt->release(m->opt->release_ctx, at, a);
        at = z > at ? z : at;
    }
    size_t keep = open || m->seg_pos > end ? end : m->seg_pos;
    if (keep > at)
        m->opt->release(m->opt->release_ctx, at, keep);
}

static void release_open(void *o)
{
    cg_open_free(o);
}

/* The pieces of src[from, to) one after another: 1 when all parsed and
   the last ends among the items.  Where `release`, each piece's kernels'
   text is given back once printed (on one thread: runs read the text
   around their bounds while others run, front/runs.h). */
static int run_pieces(cg_module *m, const char *name, const char *src, size_t from,
                      size_t to, size_t piece, ptx_codegen_stats *st, ptx_buf *out,
                      atomic_int *failed, int release)
{
    piecer pc = { .m = m, .name = name, .src = src, .from = from, .st = st, .out = out };
    ptx_owned own;
    ptx_own(&own, release_open, &pc.open);
    size_t end = 1;
    while (end && pc.from < to && !atomic_load_explicit(failed, memory_order_relaxed)) {
        uint32_t s0 = m->nsegs;
        end = ptx_piece_next(src, pc.from, to, piece, one_piece, &pc);
        if (end && release && m->opt->release)
            cg_give_back(m, src, s0, pc.from, end, pc.open.active);
        pc.from = end;
    }
    int ok = end && pc.at == PTX_AT_ITEMS;
    ptx_disown(&own);
    cg_open_free(&pc.open);
    if (!ok)
        atomic_store(failed, 1);
    return ok;
}

/* What cg_codegen_pieces holds: freed at its end, or where memory runs
   out (util/alloc.h).  m's kernel names point into the runs' modules,
   which go after it. */
typedef struct held {
    cg_module *m;
    cg_module **runs_m;
    ptx_run *v;             /* the runs, and what they printed */
    ptx_codegen_stats *st;
    unsigned nruns;
} held;

static void release_held(void *arg)
{
    held *h = arg;
    cg_module_free(h->m);
    for (unsigned k = 0; k < h->nruns; k++) {
        if (h->runs_m)
            cg_module_free(h->runs_m[k]);
        if (h->v)
            ptx_buf_free(&h->v[k].out);
    }
    free(h->runs_m);
    free(h->v);
    free(h->st);
}

typedef struct runs {
    const char *name, *src;
    size_t piece, at;           /* the runs cover src from at on */
    const cg_module *first;     /* the module of the text before them */
    ptx_codegen_options o;      /* the caller's, one job */
    ptx_run *v;
    cg_module **m;              /* each run's */
    ptx_codegen_stats *st;
    atomic_int failed;
} runs;

static void do_run(void *ctx, unsigned worker, unsigned k)
{
    runs *r = ctx;
    ptx_run *v = &r->v[k];
    (void)worker;
    cg_module *m = r->m[k] = cg_module_new(&r->o, r->name);
    cg_module_follow(m, r->first, r->at + v->from);
    run_pieces(m, r->name, r->src, r->at + v->from, r->at + v->to, r->piece,
               &r->st[k], &v->out, &r->failed, 0);
}

/* After the text up to the first cut among the items (built into m, its
   Python in out), the rest of the text, src[at, size), in n runs on the
   threads, joined to m in order and their Python appended to out: 1 when
   every piece parsed, with
   *resume where the text is left to do (size, or the start of the first
   run that did not join: its names are not the whole module's), 0 when
   a piece did not parse (out to be reset by the caller).  The runs'
   modules go into h (m's kernel names then point into them). */
static int in_runs(cg_module *m, const char *name, const char *src, size_t size,
                   size_t at, size_t piece, const ptx_codegen_options *o, unsigned n,
                   ptx_codegen_stats *st, ptx_buf *out, held *h, size_t *resume)
{
    h->v = ptx_xcalloc(n, sizeof(ptx_run));
    h->runs_m = ptx_xcalloc(n, sizeof(cg_module *));
    h->st = ptx_xcalloc(n, sizeof(ptx_codegen_stats));
    h->nruns = n;
    runs r = { name, src, piece, at, m, *o, h->v, h->runs_m, h->st, 0 };
    r.o.jobs = 1;
    ptx_runs_do(src + at, size - at, r.v, n, o->jobs, do_run, &r);
    int ok = !atomic_load(&r.failed);
    unsigned k = 0;
    while (ok && k < n && cg_module_join(m, r.m[k], src) == 0)
        cg_add_stats(st, &r.st[k++]);
    *resume = k < n ? at + r.v[k].from : size;
    ptx_runs_place(r.v, k, o->jobs, ok ? out : NULL);
    ptx_runs_place(r.v + k, n - k, o->jobs, NULL);
    free(h->v);
    free(h->st);
    h->v = NULL, h->st = NULL;
    return ok;
}

int cg_codegen_pieces(const char *name, const char *src, size_t size,
                      size_t piece, const ptx_codegen_options *o, ptx_buf *out)
{
    if (o->name)
        return 0;
    if (!piece) {   /* the programs' pieces: a smaller text goes whole */
        piece = PTX_CODEGEN_PIECE;
        if (size / 2 < piece)
            return 0;
    }
    held h = { 0 };
    ptx_owned own;
    ptx_own(&own, release_held, &h);
    cg_module *m = h.m = cg_module_new(o, name);
    ptx_codegen_stats st = { 0 };
    size_t start = out->n;
    /* Room for the Python at once (plain Python runs to about 2.2 bytes
       per byte of PTX): a buffer that doubles as it fills holds its old
       copy too, and the freed copies stay in the heap; pages of the room
       that nothing writes are never touched, so they cost nothing. */
    ptx_buf_reserve(out, size / 2 * 5);
    atomic_int failed = 0;
    size_t from = ptx_piece_end(src, 0, size, piece);
    int one = o->jobs <= 1;
    int ok = run_pieces(m, name, src, 0, from, piece, &st, out, &failed, one);
    unsigned n = ptx_runs_count(size - from, piece, o->jobs);
    if (ok && n && m->have_target && m->have_version)
        ok = in_runs(m, name, src, size, from, piece, o, n, &st, out, &h, &from);
    if (ok)
        ok = run_pieces(m, name, src, from, size, piece, &st, out, &failed, one);
    if (ok) {
        cg_build_end(m, src, size);
        cg_print_head_at(m, start, out);
        cg_print_tail(m, out);
        if (o->stats)
            cg_add_stats(o->stats, &st);
    } else
        out->n = start;
    ptx_disown(&own);
    release_held(&h);
    return ok;
}
