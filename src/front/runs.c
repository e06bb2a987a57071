/* runs.c - a large text's pieces on threads, a run of pieces at a time. */
#include <stdatomic.h>
#include <string.h>
#include "util/alloc.h"
#include "front/runs.h"
#include "front/piece.h"
#include "util/buf.h"
#include "util/threads.h"

enum { RUNS_PER_JOB = 4 };

/* What the threads do, in rounds with a join between them. */
enum { DO_RUNS, PLACE_TEXT };

typedef struct runs {
    const char *src;
    size_t size;
    ptx_run *v;
    unsigned n, round;
    atomic_uint next, workers;
    void (*fn)(void *ctx, unsigned worker, unsigned k);
    void *ctx;
    char *dest;         /* PLACE_TEXT: where the texts go, in order;
                           v[k].from is then run k's offset */
} runs;

/* Where run k begins: the first cut at or after its share of the text
   (so bounds are monotonic, and the runs cover the text without
   overlap); each bound is found by both runs beside it. */
static size_t bound(const runs *r, unsigned k)
{
    if (k == 0 || k == r->n)
        return k ? r->size : 0;
    return ptx_cut_after(r->src, r->size, r->size / r->n * k);
}

static void one_run(runs *r, unsigned worker, unsigned k)
{
    ptx_run *v = &r->v[k];
    switch (r->round) {
    case DO_RUNS:
        v->from = bound(r, k);
        v->to = bound(r, k + 1);
        r->fn(r->ctx, worker, k);
        break;
    case PLACE_TEXT:
        if (v->out.n)
            memcpy(r->dest + v->from, v->out.p, v->out.n);
        ptx_buf_free(&v->out);
        break;
    }
}

static void take_runs(void *arg)
{
    runs *r = arg;
    unsigned worker = atomic_fetch_add(&r->workers, 1), k;
    while ((k = atomic_fetch_add(&r->next, 1)) < r->n)
        one_run(r, worker, k);
}

/* A round on a thread for each job, or each run where there are fewer
   (ptx_each_thread's items are all r), each thread taking the next run
   until none is left. */
static void round_on_threads(runs *r, unsigned round, unsigned jobs)
{
    r->round = round;
    atomic_store(&r->next, 0);
    atomic_store(&r->workers, 0);
    if (ptx_each_thread(r, jobs < r->n ? jobs : r->n, 0, take_runs))
        ptx_oom();   /* (what the runs hold is not freed: see ptx_codegen_pieces) */
}

size_t ptx_piece_end(const char *src, size_t from, size_t to, size_t piece)
{
    return to - from <= piece ? to : ptx_cut_after(src, to, from + piece);
}

size_t ptx_piece_end_stmt(const char *src, size_t from, size_t to, size_t piece)
{
    return to - from <= piece ? to : ptx_cut_stmt_after(src, to, from, from + piece);
}

size_t ptx_piece_next(const char *src, size_t from, size_t to, size_t piece,
                      int (*take)(void *ctx, size_t end), void *ctx)
{
    size_t end = ptx_piece_end_stmt(src, from, to, piece);
    if (take(ctx, end))
        return end;
    if (end < to) {
        end = ptx_piece_end_stmt(src, from, to, end + 1 - from);
        if (take(ctx, end))
            return end;
    }
    size_t top = ptx_piece_end(src, from, to, piece);
    return top != end && take(ctx, top) ? top : 0;
}

unsigned ptx_runs_count(size_t size, size_t piece, unsigned jobs)
{
    size_t most = (size_t)(jobs < PTX_MAX_THREADS ? jobs : PTX_MAX_THREADS) * RUNS_PER_JOB;
    size_t fit = size / (piece ? piece : 1);
    size_t n = fit < most ? fit : most;
    return jobs > 1 && n > 1 ? (unsigned)n : 0;
}

void ptx_runs_do(const char *src, size_t size, ptx_run *v, unsigned n, unsigned jobs,
                 void (*fn)(void *ctx, unsigned worker, unsigned k), void *ctx)
{
    runs r = { src, size, v, n, 0, 0, 0, fn, ctx, NULL };
    round_on_threads(&r, DO_RUNS, jobs);
}

void ptx_runs_place(ptx_run *v, unsigned n, unsigned jobs, ptx_buf *out)
{
    runs r = { NULL, 0, v, n, 0, 0, 0, NULL, NULL, NULL };
    size_t total = 0;
    for (unsigned k = 0; k < n; k++) {
        size_t len = v[k].out.n;
        v[k].from = total;
        total += len;
    }
    if (!out || !total) {   /* nothing to copy: no threads to start */
        for (unsigned k = 0; k < n; k++)
            ptx_buf_free(&v[k].out);
        return;
    }
    ptx_buf_reserve(out, total);
    r.dest = out->p + out->n;
    out->n += total;
    round_on_threads(&r, PLACE_TEXT, jobs);
}
