/* runs.h - a large text's pieces on threads, a run of pieces at a time.
 *
 * The round trip (emit/pieces.c) and plain codegen (codegen/pieces.c)
 * take a text of two pieces or more a piece at a time, so that only a
 * piece's tree is held.  With threads, the text is cut into runs, a few
 * for each thread so that a run of large functions does not finish
 * alone, and each thread takes the next run and does its pieces one
 * after another, as one thread does a file.  A piece is then parsed on
 * one thread, its tree in that thread's cache, and no thread waits on
 * another until the end (a 16 MB module's exact round trip at 16 threads
 * ran 7.5 times one thread's speed, where each piece parsed on all of
 * them gave 4.2).  What a run prints goes into a buffer of its own, and
 * the buffers into place, in order, once every run is done.
 */
#ifndef PTX_FRONT_RUNS_H
#define PTX_FRONT_RUNS_H

#include <stddef.h>
#include "ptx/ptx.h"

/* Where the piece that begins at `from` ends: the first cut after about
   `piece` bytes (ptx_cut_after, which reads nothing at or past `to`), or
   `to` where less than that is left.  The one rule for cutting the next
   piece, on one thread and in a run. */
size_t ptx_piece_end(const char *src, size_t from, size_t to, size_t piece);
/* The same where a piece may end in a function's body or a variable's
   list of values: the first cut after a statement, an item or a value
   (ptx_cut_stmt_after, front/piece.h). */
size_t ptx_piece_end_stmt(const char *src, size_t from, size_t to, size_t piece);
/* The piece that begins at `from`, as the two rules give it: take(ctx,
   end) is called on [from, end) for each end in turn, a cut after a
   statement, the next such cut, the next cut among the items, until it
   returns nonzero (the piece parsed, and was done).  A cut in a body is a
   guess (front/piece.h): one inside a block within a body, or in a debug
   section, does not parse.  Returns the end of the piece taken, or 0
   where none was. */
size_t ptx_piece_next(const char *src, size_t from, size_t to, size_t piece,
                      int (*take)(void *ctx, size_t end), void *ctx);

typedef struct ptx_run {
    size_t from, to;    /* its bytes of the text */
    ptx_buf out;        /* what it printed */
} ptx_run;

/* Into how many runs a text of `size` bytes is cut for pieces of `piece`
   bytes on `jobs` threads: a few for each thread, none smaller than a
   piece; 0 where that is fewer than two (the text is taken on one
   thread). */
unsigned ptx_runs_count(size_t size, size_t piece, unsigned jobs);

/* Calls fn(ctx, worker, k) for every run k on up to `jobs` threads
   (worker: the thread's number, below `jobs`, for scratch of its own),
   v[k] bounded first at the cuts ptx_cut_after finds.  The thread of each
   run finds both its bounds, and a bound's scan reads the text before it
   and a few lines after: no run may give back its text's pages while
   others run. */
void ptx_runs_do(const char *src, size_t size, ptx_run *v, unsigned n, unsigned jobs,
                 void (*fn)(void *ctx, unsigned worker, unsigned k), void *ctx);

/* The runs' texts appended to out in order, copied on up to `jobs`
   threads, and freed (out NULL: only freed). */
void ptx_runs_place(ptx_run *v, unsigned n, unsigned jobs, ptx_buf *out);

#endif
