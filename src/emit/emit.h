/* emit.h - the printers' shared walk, for the parallel printer. */
#ifndef PTX_EMIT_EMIT_H
#define PTX_EMIT_EMIT_H

#include "ptx/ptx.h"

/* Appends the text of the module items from `from` up to (not including)
   `to`; to == NULL: to the end, the end of the file included.  `after`:
   text of earlier items comes before out's (a group printed on a thread of
   its own), so that the canonical layout is the one printing them all in
   one buffer gives. */
void ptx_emit_items(const ptx_module *m, const ptx_stmt *from, const ptx_stmt *to,
                    int canonical, int after, ptx_buf *out);

/* The round trip of a text one piece at a time, so that only one piece's
   tree is held: cut after about `piece` bytes each, after an item, a
   statement of a function's body or a value of a module variable's list
   (front/piece.h), the pieces taken on `jobs` threads, each piece by one
   of them; with PTX_PIECES_EXACT its exact text must be its bytes, with
   PTX_PIECES_CANONICAL its canonical text must have its tokens, parse,
   and print itself again; and where `out` is given its text is appended
   (canonical with PTX_PIECES_PRINT_CANONICAL).  `release`, where given, is told of each
   piece's bytes once it has passed, on one thread: they are not read
   again.
   ptx_pieces_roundtrip returns 1 when every piece passed: the checks and
   the text are then the whole module's; 0 when a piece did not (out as it
   was): the caller takes the whole module, which gives the report or the
   diagnostic. */
enum { PTX_PIECES_EXACT = 1, PTX_PIECES_CANONICAL = 2,
       PTX_PIECES_PRINT_CANONICAL = 4 };
/* A large file is taken one piece at a time (emit/pieces.c;
   codegen has its own size, PTX_CODEGEN_PIECE), so that only a piece's tree is held: 64 KiB of it
   on one thread, whose tree (about nine times the text) a core's cache
   can hold.  Library modules of about 1 MB, where the process's own
   1.5 MB weighs most, peaked at up to 4.7 times the file in the round
   trip with pieces of 128 KiB, 3.9 with 64 (tools/library_bench.py), at
   0.7% more instructions.  With threads, each piece is taken by one of
   them (front/runs.h).  A file under two pieces is taken whole. */
#define PTX_PIECE ((size_t)64 << 10)
typedef struct ptx_pieces_opts {
    size_t piece;
    unsigned jobs, flags;
    ptx_buf *out;
    void (*release)(void *ctx, size_t from, size_t to);
    void *ctx;
} ptx_pieces_opts;

int ptx_pieces_roundtrip(const char *name, const char *src, size_t size,
                         const ptx_pieces_opts *o);

/* ptx_emit_jobs with the smallest group given, in source bytes (tests cut
   small modules), unwinding where memory runs out (util/alloc.h), as the
   two below, the public printers' cores. */
void ptx_emit_split(const ptx_module *m, int canonical, unsigned jobs, size_t min_group,
                    ptx_buf *out);
void ptx_print_token(const ptx_module *m, ptx_tok t, ptx_buf *out);
void ptx_print_stmt(const ptx_module *m, const ptx_stmt *s, int depth, ptx_buf *out);

#endif
