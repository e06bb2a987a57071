/*
 * pieces.c - the round trip of a large module one piece at a time.
 *
 * pyptx-roundtrip need not hold a whole module's tree: the text is cut
 * after about `piece` bytes each, after a statement or an item (in a
 * function's body too, so that a function of megabytes is cut as well:
 * front/piece.h; and in a variable's list of values, so that a table on
 * one line is cut too), and each piece is parsed on its own, starting
 * where the one before ended (among the items, in a body or in a list),
 * printed, checked and freed before the next.  A piece that lexes on its
 * own ends outside any comment or string, so the whole text's lexer,
 * reaching the cut, starts the next piece's first token where that piece's
 * own lexer does: the pieces' tokens are the whole text's.  And what a
 * piece is, items, a body's statements or a list's values, the grammar has
 * checked, each piece starting where the one before ended (parser.y,
 * `module`): the pieces' items are the whole parse's.  So when every piece
 * passes and the last ends among the items, the module passes, and its
 * text is the pieces' texts one after another (emit_piece).  When a piece
 * fails, the whole module is what has to be reported on, and the caller
 * takes it.  With threads, each takes runs of pieces (below), cut among
 * the items: the verdicts and texts are the same.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "emit/emit.h"
#include "front/piece.h"
#include "front/runs.h"
#include "util/alloc.h"
#include "util/threads.h"

typedef struct pieces {
    const char *name;
    unsigned jobs, flags;
    ptx_buf *out;
    ptx_buf a, b;       /* scratch, kept from piece to piece */
    atomic_int *failed; /* set where any piece failed: stop */
    int after;          /* text comes before out's (a later run's) */
} pieces;

/* A piece, parsed as a module of its own, printed after what `out` holds
   (and where `after`, after text of earlier pieces elsewhere) on up to
   `jobs` threads: all of it, but in canonical form the whole text's final
   newline only where `last`.  Pieces printed one after another into one
   buffer give the whole module's text. */
static void emit_piece(const ptx_module *m, int canonical, int last, int after,
                       unsigned jobs, ptx_buf *out)
{
    size_t start = out->n;
    if (after)
        ptx_emit_items(m, m->items, NULL, canonical, 1, out);
    else
        ptx_emit_split(m, canonical, jobs, PTX_MIN_PART, out);
    /* The canonical printer ends a module with a newline whenever the text
       (out's included) is not empty: the whole text's, so a piece that is
       not the last takes it back. */
    if (canonical && !last && out->n > start)
        out->n--;
}

static int same(const ptx_buf *x, const char *p, size_t n)
{
    return x->n == n && (!n || !memcmp(x->p, p, n));
}

/* The canonical text of m, parsed again as a piece that starts where m
   does: the same tokens, and it prints itself. */
static int canonical_ok(pieces *ps, const ptx_module *m, ptx_piece_at at, int last)
{
    ps->a.n = ps->b.n = 0;
    emit_piece(m, 1, last, 0, ps->jobs, &ps->a);
    ptx_diag d;
    ptx_piece_at end;
    ptx_module *c = ptx_parse_piece(ps->name, ps->a.p ? ps->a.p : "", ps->a.n,
                                    at, 0, &end, &d);
    size_t at_a, at_b;
    int ok = c && ptx_same_module_tokens_jobs(m, c, ps->jobs, &at_a, &at_b) == 1;
    if (ok)
        emit_piece(c, 1, last, 0, ps->jobs, &ps->b);
    ptx_module_free(c);
    return ok && same(&ps->b, ps->a.p, ps->a.n);
}

/* The piece text[0, n), which starts where *at says: 1 when it passed,
   and *at is then where it ends. */
static int one_piece(pieces *ps, const char *text, size_t n, ptx_piece_at *at, int last)
{
    ptx_diag d;
    ptx_piece_at end;
    /* The canonical check rebuilds each opcode from its parts, and so checks
       them; printed canonically, an opcode not split is its word, the same
       bytes. */
    int whole = !(ps->flags & PTX_PIECES_CANONICAL);
    ptx_module *m = ptx_parse_piece(ps->name, text, n, *at, whole, &end, &d);
    if (!m)
        return 0;
    int ok = 1;
    if (ps->flags & PTX_PIECES_EXACT) {
        ps->a.n = 0;
        ptx_emit_split(m, 0, ps->jobs, PTX_MIN_PART, &ps->a);
        ok = same(&ps->a, text, n);
    }
    if (ok && (ps->flags & PTX_PIECES_CANONICAL))
        ok = canonical_ok(ps, m, *at, last);
    if (ok && ps->out)
        emit_piece(m, !!(ps->flags & PTX_PIECES_PRINT_CANONICAL), last,
                   ps->after, ps->jobs, ps->out);
    ptx_module_free(m);
    if (ok)
        *at = end;
    return ok;
}

/* A piece's attempt (ptx_piece_next): the text from `from` to `end`. */
typedef struct attempt {
    pieces *ps;
    const char *src;
    size_t size, from;
    ptx_piece_at at;
} attempt;

static int take_piece(void *ctx, size_t end)
{
    attempt *a = ctx;
    return one_piece(a->ps, a->src + a->from, end - a->from, &a->at,
                     end == a->size);
}

/* The pieces from `from` to `to`, one after another on this thread, each
   of about o->piece bytes, ending after a statement, in a function's body
   if need be (ptx_piece_next): 1 when all passed.  Where `release`, each
   piece's bytes are given back once it has passed (one thread: on
   threads, the runs' bounds are found while others run, front/runs.h). */
static int run_pieces(pieces *ps, const ptx_pieces_opts *o, const char *src,
                      size_t size, size_t from, size_t to, int release)
{
    size_t piece = o->piece ? o->piece : 1, end = 1;
    attempt a = { ps, src, size, from, PTX_AT_ITEMS };
    while (end && a.from < to &&
           !atomic_load_explicit(ps->failed, memory_order_relaxed)) {
        end = ptx_piece_next(src, a.from, to, piece, take_piece, &a);
        if (end && release && o->release)
            o->release(o->ctx, a.from, end);
        a.from = end;
    }
    int ok = end && a.at == PTX_AT_ITEMS; /* a body or list the text leaves open */
    if (!ok)
        atomic_store(ps->failed, 1);
    return ok;
}

/* With threads (front/runs.h): each thread's pieces, run after run.  A run
   after the first prints its canonical text as text that follows other
   text. */
typedef struct threaded {
    const char *name, *src;
    size_t size;
    const ptx_pieces_opts *o;
    ptx_run *v;
    pieces *workers;    /* each thread's scratch */
    atomic_int failed;
} threaded;

static void do_run(void *ctx, unsigned worker, unsigned k)
{
    threaded *t = ctx;
    pieces *ps = &t->workers[worker];
    ptx_run *v = &t->v[k];
    ps->out = t->o->out ? &v->out : NULL;
    ps->after = k > 0;
    run_pieces(ps, t->o, t->src, t->size, v->from, v->to, 0);
}

/* The text in n runs on the threads: 1 when every piece passed (its text
   appended to o->out), 0 when one did not (o->out as it was), -1 when
   out of memory. */
static int in_runs(const char *name, const char *src, size_t size,
                   const ptx_pieces_opts *o, unsigned n)
{
    threaded t = { name, src, size, o, ptx_calloc(n, sizeof(ptx_run)),
                   ptx_calloc(o->jobs, sizeof(pieces)), 0 };
    if (!t.v || !t.workers) {
        free(t.v);
        free(t.workers);
        return -1;
    }
    for (unsigned w = 0; w < o->jobs; w++)
        t.workers[w] = (pieces){ name, 1, o->flags, NULL, { 0 }, { 0 }, &t.failed, 0 };
    ptx_runs_do(src, size, t.v, n, o->jobs, do_run, &t);
    int ok = !atomic_load(&t.failed);
    size_t before = o->out ? o->out->n : 0, total = 0;
    /* A later run printed its canonical text after earlier text, which
       only pieces without items fail to print (comments before the first
       cut): the whole module then prints it. */
    for (unsigned k = 1; k < n && ok; k++) {
        total += t.v[k - 1].out.n;
        ok = !(t.v[k].out.n && !before && !total);
    }
    ptx_runs_place(t.v, n, o->jobs, ok ? o->out : NULL);
    for (unsigned w = 0; w < o->jobs; w++) {
        ptx_buf_free(&t.workers[w].a);
        ptx_buf_free(&t.workers[w].b);
    }
    free(t.workers);
    free(t.v);
    return ok;
}

int ptx_pieces_roundtrip(const char *name, const char *src, size_t size,
                         const ptx_pieces_opts *o)
{
    unsigned n = ptx_runs_count(size, o->piece, o->jobs);
    if (n) {
        int ok = in_runs(name, src, size, o, n);
        if (ok >= 0)
            return ok;
    }
    atomic_int failed = 0;
    pieces ps = { name, o->jobs, o->flags, o->out, { 0 }, { 0 }, &failed, 0 };
    size_t start = o->out ? o->out->n : 0;
    int ok = run_pieces(&ps, o, src, size, 0, size, 1);
    if (!ok && o->out)
        o->out->n = start;
    ptx_buf_free(&ps.a);
    ptx_buf_free(&ps.b);
    return ok;
}
