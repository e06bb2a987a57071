/*
 * pieces.c - the round trip of a large module one piece at a time.
 *
 * pyptx-roundtrip need not hold a whole module's tree: the text is cut
 * where ptx_cut_after says (between top-level items, after about `piece`
 * bytes each), and each piece is parsed as a module of its own, printed,
 * checked and freed before the next.  A piece that lexes on its own ends
 * outside any comment or string, so the whole text's lexer, reaching the
 * cut, starts the next piece's first token where that piece's own lexer
 * does: the pieces' tokens are the whole text's.  And the module is
 * `items`, after which the LR parser is in one state however they were
 * made: the pieces' items are the whole parse's.  So when every piece
 * passes, the module passes, and its text is the pieces' texts one after
 * another (emit_piece).  When a piece fails, the whole module is what
 * has to be reported on, and the caller takes it.  With threads, each
 * takes runs of pieces (below): the verdicts and texts are the same.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "emit/emit.h"
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
        ptx_emit_jobs(m, canonical, jobs, out);
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

/* The canonical text of m, parsed again: the same tokens, and it prints
   itself. */
static int canonical_ok(pieces *ps, const ptx_module *m, int last)
{
    ps->a.n = ps->b.n = 0;
    emit_piece(m, 1, last, 0, ps->jobs, &ps->a);
    ptx_diag d;
    ptx_module *c = ptx_parse_buffer_jobs(ps->name, ps->a.p ? ps->a.p : "",
                                          ps->a.n, ps->jobs, &d);
    size_t at_a, at_b;
    int ok = c && ptx_same_module_tokens_jobs(m, c, ps->jobs, &at_a, &at_b) == 1;
    if (ok)
        emit_piece(c, 1, last, 0, ps->jobs, &ps->b);
    ptx_module_free(c);
    return ok && same(&ps->b, ps->a.p, ps->a.n);
}

static int one_piece(pieces *ps, const char *text, size_t n, int last)
{
    ptx_diag d;
    ptx_module *m = ptx_parse_buffer_jobs(ps->name, text, n, ps->jobs, &d);
    if (!m)
        return 0;
    int ok = 1;
    if (ps->flags & PTX_PIECES_EXACT) {
        ps->a.n = 0;
        ptx_emit_jobs(m, 0, ps->jobs, &ps->a);
        ok = same(&ps->a, text, n);
    }
    if (ok && (ps->flags & PTX_PIECES_CANONICAL))
        ok = canonical_ok(ps, m, last);
    if (ok && ps->out)
        emit_piece(m, !!(ps->flags & PTX_PIECES_PRINT_CANONICAL), last,
                   ps->after, ps->jobs, ps->out);
    ptx_module_free(m);
    return ok;
}

/* The pieces from `from` to `to`, one after another on this thread, each
   cut after about o->piece bytes: 1 when all passed.  No scan reads past
   `to`, whose pages another thread may have given back. */
static int run_pieces(pieces *ps, const ptx_pieces_opts *o, const char *src,
                      size_t size, size_t from, size_t to)
{
    size_t piece = o->piece ? o->piece : 1;
    int ok = 1;
    while (ok && from < to && !atomic_load_explicit(ps->failed, memory_order_relaxed)) {
        size_t end = to - from <= piece ? to : ptx_cut_after(src, to, from + piece);
        ok = one_piece(ps, src + from, end - from, end == size);
        if (ok && o->release)
            o->release(o->ctx, from, end);
        from = end;
    }
    if (!ok)
        atomic_store(ps->failed, 1);
    return ok;
}

/* With threads, the text is cut into runs of pieces, a few for each
   thread so that one run of large functions does not finish alone; each
   thread takes the next run and does its pieces one after another.  A
   piece is then parsed and printed on one thread, its tree in that
   thread's cache, and no thread waits on another until the end (a 16 MB
   module's exact round trip at 16 threads: 7.5 times one thread's speed,
   where each piece parsed on all of them gave 4.2). */
enum { RUNS_PER_JOB = 4 };

typedef struct run {
    size_t from, to;    /* the run's text; once done, from is its output's offset */
    ptx_buf out;
} run;

/* What the threads do, in three rounds with a join between them. */
enum { FIND_BOUNDS, DO_PIECES, PLACE_TEXT };

typedef struct runs {
    const char *name, *src;
    size_t size;
    const ptx_pieces_opts *o;
    run *v;
    unsigned n, round;
    atomic_uint next;
    atomic_int failed;
    char *dest;         /* PLACE_TEXT: the runs' texts go here, in order */
} runs;

static void one_run(const runs *r, unsigned k, pieces *ps)
{
    run *v = &r->v[k];
    switch (r->round) {
    case FIND_BOUNDS:
        v->from = k ? ptx_cut_after(r->src, r->size, r->size / r->n * k) : 0;
        break;
    case DO_PIECES:
        v->to = k + 1 < r->n ? r->v[k + 1].from : r->size;
        ps->out = r->o->out ? &v->out : NULL;
        ps->after = k > 0;
        run_pieces(ps, r->o, r->src, r->size, v->from, v->to);
        break;
    case PLACE_TEXT:
        if (r->dest && v->out.n)
            memcpy(r->dest + v->from, v->out.p, v->out.n);
        ptx_buf_free(&v->out);
        break;
    }
}

static void take_runs(void *arg)
{
    runs *r = arg;
    pieces ps = { r->name, 1, r->o->flags, NULL, { 0 }, { 0 }, &r->failed, 0 };
    unsigned k;
    while ((k = atomic_fetch_add(&r->next, 1)) < r->n)
        one_run(r, k, &ps);
    ptx_buf_free(&ps.a);
    ptx_buf_free(&ps.b);
}

/* A round on every job's thread (ptx_each_thread's items are all r), each
   taking the next run until none is left. */
static void round_on_threads(runs *r, unsigned round)
{
    r->round = round;
    atomic_store(&r->next, 0);
    ptx_each_thread(r, r->o->jobs, 0, take_runs);
}

/* The text in n runs on the threads: 1 when every piece passed (its text
   appended to o->out), 0 when one did not (o->out as it was), -1 when
   out of memory. */
static int threaded(const char *name, const char *src, size_t size,
                    const ptx_pieces_opts *o, unsigned n)
{
    runs r = { name, src, size, o, calloc(n, sizeof(run)), n, 0, 0, 0, NULL };
    if (!r.v)
        return -1;
    /* Every bound before any piece: a bound's scan reads the text before
       it, whose pages a piece may give back. */
    round_on_threads(&r, FIND_BOUNDS);
    round_on_threads(&r, DO_PIECES);
    int ok = !atomic_load(&r.failed);
    size_t total = 0, before = o->out ? o->out->n : 0;
    for (unsigned k = 0; k < n; k++) {
        size_t len = r.v[k].out.n;
        /* A later run printed its canonical text after earlier text, which
           only pieces without items fail to print (comments before the
           first cut): the whole module then prints it. */
        if (k && len && !before && !total)
            ok = 0;
        r.v[k].from = total;
        total += len;
    }
    if (ok && o->out && total) {
        ptx_buf_reserve(o->out, total);
        r.dest = o->out->p + o->out->n;
        o->out->n += total;
    }
    round_on_threads(&r, PLACE_TEXT);
    free(r.v);
    return ok;
}

int ptx_pieces_roundtrip(const char *name, const char *src, size_t size,
                         const ptx_pieces_opts *o)
{
    size_t piece = o->piece ? o->piece : 1;
    size_t most = (size_t)o->jobs * RUNS_PER_JOB, fit = size / piece;
    unsigned n = (unsigned)(fit < most ? fit : most);
    if (o->jobs > 1 && n > 1) {
        int ok = threaded(name, src, size, o, n);
        if (ok >= 0)
            return ok;
    }
    atomic_int failed = 0;
    pieces ps = { name, o->jobs, o->flags, o->out, { 0 }, { 0 }, &failed, 0 };
    size_t start = o->out ? o->out->n : 0;
    int ok = run_pieces(&ps, o, src, size, 0, size);
    if (!ok && o->out)
        o->out->n = start;
    ptx_buf_free(&ps.a);
    ptx_buf_free(&ps.b);
    return ok;
}
