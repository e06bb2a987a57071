/*
 * parse_jobs.c - one module parsed on several threads.
 *
 * The input is cut into pieces at top-level boundaries, and each piece is
 * lexed, then parsed, on a thread of its own, with the one grammar:
 *
 *   1. lex: each thread finds its piece's bounds (a share of the text
 *      without a cut of its own makes no piece), then piece p keeps the tokens that start before piece p+1 does, in
 *      an array of its own, and notes the first token that does not.  That
 *      token must be piece p+1's own first one: the lexer's only state is
 *      its position, so from there on both lexers see the same tokens, and
 *      the pieces' tokens are exactly the serial lexer's.
 *   2. the arrays are joined into the module's (each thread copies its own
 *      at the offset the counts before it give);
 *   3. parse: each thread parses its piece from the module's array
 *      (ptx_parser.prelexed), so that its nodes hold the module's token
 *      indices, into an arena of its own.
 * The pieces' item lists are then joined and their arenas given to the
 * module.
 *
 * Why the tree is the serial parse's: a piece starts where ptx_cut_after
 * (cut.c) says, right after a '}' alone at the start of a line and before a
 * directive, where a function or section ends and the next item begins
 * (or after a ';' ending a line before one).  The module is `items`, and the
 * canonical LR parser is in one state after reducing `items`, however they
 * were made, so when every piece parses as `items`, the serial parse makes
 * the same items.  Anything else (a lexical error, tokens that do not meet,
 * a piece that does not parse, a thread that cannot start) and the caller
 * parses the module serially: a diagnostic is always the serial parse's.
 */
#include <stdlib.h>
#include <string.h>
#include "front/parser_state.h"
#include "util/alloc.h"
#include "util/threads.h"

/* The scanner, inlined into lex_piece's loop as into the parser's yylex. */
#define PTX_LEX_INLINE
#include "lexer.c"

typedef struct piece {
    ptx_module *m;
    size_t at, until;      /* where the cuts are looked for, from `at` and `until` */
    uint32_t from, to;     /* the piece's tokens start in [from, to) */
    ptx_token *toks;       /* step 1's, then NULL */
    uint32_t n, cap;
    ptx_token next;        /* the first token at or after `to` */
    uint32_t base;         /* where its tokens go in the module's array */
    int ok;
    ptx_module sub;        /* step 3: its items, in its own arena */
} piece;

/* `want` pieces of about equal size, whose bounds their threads find
   (lex_one): each looks for the cut after its own share's start and after
   the next share's, so that neighbours agree on where they meet, and the
   scans run in parallel too. */
static piece *plan(ptx_module *m, unsigned want)
{
    piece *v = ptx_calloc(want, sizeof *v);
    for (unsigned i = 0; v && i < want; i++)
        v[i] = (piece){ .m = m, .at = m->size / want * i,
                        .until = i + 1 == want ? m->size : m->size / want * (i + 1) };
    return v;
}

static uint32_t cut_after(const ptx_module *m, size_t at)
{
    return (uint32_t)(at == 0 || at >= m->size ? at : ptx_cut_after(m->src, m->size, at));
}

static int grow_piece(piece *p)
{
    ptx_token *g = ptx_realloc(p->toks, (size_t)p->cap * 2 * sizeof *g);
    if (!g)
        return 0;
    p->toks = g;
    p->cap *= 2;
    return 1;
}

/* Step 1: the piece's bounds, then its tokens.  A table's integers are
   lexed as the serial parse's are (lex_int_run); a table ends before its
   ';', so never past the piece's cut. */
static int lex_piece(piece *p)
{
    const ptx_module *m = p->m;
    p->from = cut_after(m, p->at);
    p->to = cut_after(m, p->until);
    if (p->to <= p->from)   /* a share without a cut of its own: no piece */
        return 1;
    ptx_lexer lx = { (const unsigned char *)m->src, (const unsigned char *)m->src + p->from,
                     (const unsigned char *)m->src + m->size, NULL };
    p->cap = (p->to - p->from) / 4 + 64;
    p->toks = ptx_malloc((size_t)p->cap * sizeof *p->toks);
    if (!p->toks)
        return 0;
    for (;;) {
        uint32_t start, len;
        int kind = lex_token(&lx, &start, &len);
        if (kind < 0)
            return 0;
        ptx_token t = { start, len, (uint32_t)kind };
        if (start >= p->to && p->to < m->size) {
            p->next = t;
            return 1;
        }
        if (p->n == p->cap && !grow_piece(p))
            return 0;
        p->toks[p->n++] = t;
        if (kind == '{' && table_opens(p->toks, p->toks + p->n - 1)) {
            ptx_token *end;
            do {
                if (p->cap - p->n < 2 && !grow_piece(p))
                    return 0;
                end = lex_int_run(&lx, p->toks + p->n, p->toks + p->cap);
                p->n = (uint32_t)(end - p->toks);
            } while (p->cap - p->n < 2);
        } else if (kind == PTX_T_EOF) {
            return 1;
        }
    }
}

/* Step 3, on the module's array. */
static int parse_piece(piece *p, const ptx_module *m)
{
    p->sub = *m;
    p->sub.items = NULL;
    p->sub.arena = NULL;   /* not m's, for undo, should the next unwind */
    p->sub.arena = ptx_arena_new();
    ptx_parser P = { 0 };
    P.m = &p->sub;
    P.prelexed = 1;
    P.init_base = PTX_NO_INIT;
    P.fuse = 1;
    P.next = P.first = p->base;
    P.end = P.lexed = p->base + p->n;
    P.toks = m->toks;
    return ptx_yyparse(&P) == 0 && !P.err;
}

typedef struct run {
    piece *v;
    unsigned n;
    ptx_module *m;
} run;

static void lex_one(void *arg)
{
    piece *p = arg;
    p->ok = lex_piece(p);
}

static void parse_one(void *arg)
{
    piece *p = arg;
    p->ok = 0;   /* until the parse returns: memory may run out in it */
    memcpy(p->m->toks + p->base, p->toks, (size_t)p->n * sizeof *p->toks);
    free(p->toks);
    p->toks = NULL;
    p->ok = parse_piece(p, p->m);
}

/* Runs fn on every piece, a thread each: 1 if every piece did (one that
   ran out of memory did not: the serial parse then reports). */
static int each_piece(run *r, void (*fn)(void *))
{
    ptx_each_thread(r->v, r->n, sizeof *r->v, fn);
    int ok = 1;
    for (unsigned i = 0; i < r->n; i++)
        ok &= r->v[i].ok;
    return ok;
}

/* Step 2's bookkeeping: the pieces that are not empty kept, in order; they
   cover the text and their tokens meet; where each one's tokens go. */
static int join(run *r)
{
    unsigned k = 0;
    for (unsigned i = 0; i < r->n; i++) {
        if (r->v[i].to <= r->v[i].from)
            continue;
        if (r->v[i].from != (k ? r->v[k - 1].to : 0))
            return 0;
        if (k != i) {   /* moved: undo must not free its tokens twice */
            r->v[k] = r->v[i];
            r->v[i].toks = NULL;
        }
        k++;
    }
    if (!k || r->v[k - 1].to != r->m->size)
        return 0;
    r->n = k;
    uint64_t total = 0;
    for (unsigned i = 0; i < r->n; i++) {
        piece *p = &r->v[i];
        if (i + 1 < r->n) {
            const piece *q = p + 1;
            if (!q->n || memcmp(&p->next, &q->toks[0], sizeof p->next))
                return 0;
        }
        p->base = (uint32_t)total;
        total += p->n;
    }
    if (total > UINT32_MAX - 1)
        return 0;
    r->m->toks = ptx_malloc((size_t)total * sizeof *r->m->toks);
    r->m->ntoks = (uint32_t)total;
    return r->m->toks != NULL;
}

static void undo(run *r)
{
    for (unsigned i = 0; i < r->n; i++) {
        free(r->v[i].toks);
        ptx_arena_free(r->v[i].sub.arena);
    }
    free(r->m->toks);
    r->m->toks = NULL;
    r->m->ntoks = 0;
}

unsigned ptx_parse_pieces(ptx_module *m, unsigned jobs, size_t min_piece)
{
    unsigned want = ptx_parts(m->size, jobs, min_piece);
    if (want < 2)
        return 0;
    run r = { plan(m, want), want, m };
    if (!r.v)
        return 0;
    int ok = each_piece(&r, lex_one) && join(&r) && each_piece(&r, parse_one);
    if (!ok) {
        undo(&r);
        free(r.v);
        return 0;
    }
    ptx_stmt **tail = &m->items;
    for (unsigned i = 0; i < r.n; i++) {
        *tail = r.v[i].sub.items;
        while (*tail)
            tail = &(*tail)->next;
        ptx_arena_adopt(m->arena, r.v[i].sub.arena);
    }
    unsigned n = r.n;
    free(r.v);
    return n;
}
