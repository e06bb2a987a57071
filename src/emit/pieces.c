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
 * has to be reported on, and the caller takes it.
 */
#include <string.h>
#include "emit/emit.h"

typedef struct pieces {
    const char *name;
    unsigned jobs, flags;
    ptx_buf *out;
    ptx_buf a, b;       /* scratch, kept from piece to piece */
} pieces;

/* A piece, parsed as a module of its own, printed after what `out` holds
   on up to `jobs` threads: all of it, but in canonical form the whole
   text's final newline only where `last`.  Pieces printed one after
   another into one buffer give the whole module's text. */
static void emit_piece(const ptx_module *m, int canonical, int last,
                       unsigned jobs, ptx_buf *out)
{
    size_t start = out->n;
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
    emit_piece(m, 1, last, ps->jobs, &ps->a);
    ptx_diag d;
    ptx_module *c = ptx_parse_buffer_jobs(ps->name, ps->a.p ? ps->a.p : "",
                                          ps->a.n, ps->jobs, &d);
    size_t at_a, at_b;
    int ok = c && ptx_same_module_tokens_jobs(m, c, ps->jobs, &at_a, &at_b) == 1;
    if (ok)
        emit_piece(c, 1, last, ps->jobs, &ps->b);
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
                       ps->jobs, ps->out);
    ptx_module_free(m);
    return ok;
}

int ptx_pieces_roundtrip(const char *name, const char *src, size_t size,
                         const ptx_pieces_opts *o)
{
    pieces ps = { name, o->jobs, o->flags, o->out, { 0 }, { 0 } };
    size_t start = o->out ? o->out->n : 0, from = 0;
    size_t piece = o->piece ? o->piece : 1;
    int ok = 1;
    do {
        size_t to = size - from <= piece ? size
                  : ptx_cut_after(src, size, from + piece);
        ok = one_piece(&ps, src + from, to - from, to == size);
        if (ok && o->release)
            o->release(o->ctx, from, to);
        from = to;
    } while (ok && from < size);
    if (!ok && o->out)
        o->out->n = start;
    ptx_buf_free(&ps.a);
    ptx_buf_free(&ps.b);
    return ok;
}
