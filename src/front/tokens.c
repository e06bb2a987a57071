/* tokens.c - compare two texts token by token, trivia ignored. */
#include <stdlib.h>
#include <string.h>
#include "ptx/ptx.h"
#include "front/lexer.h"
#include "util/alloc.h"
#include "util/threads.h"

typedef struct cursor {
    ptx_lexer lx;
    int kind;
    uint32_t start, len;
} cursor;

static int next(cursor *c)
{
    c->kind = ptx_lex(&c->lx, &c->start, &c->len);
    return c->kind;
}

static void lex_error(const char *name, const char *text, size_t n,
                      const cursor *c, ptx_diag *diag)
{
    if (!diag)
        return;
    ptx_module tmp = { 0 };
    tmp.filename = name;
    tmp.src = text;
    tmp.size = n;
    ptx_diag_at(&tmp, c->start, c->lx.err, diag);
}

/* The lexer needs a NUL sentinel at text[n]; the texts we compare come from
   files and buffers that may not have one, so lex private copies. */
static char *sentinel_copy(const char *s, size_t n)
{
    char *p = ptx_malloc(n + 1);
    if (p) {
        if (n) /* s may be NULL for an empty text */
            memcpy(p, s, n);
        p[n] = 0;
    }
    return p;
}

int ptx_same_tokens(const char *a, size_t na, const char *b, size_t nb,
                    size_t *at_a, size_t *at_b, ptx_diag *diag)
{
    char *ca = sentinel_copy(a, na), *cb = sentinel_copy(b, nb);
    int result = -1;
    if (!ca || !cb)
        goto out;
    cursor x = { { (const unsigned char *)ca, (const unsigned char *)ca,
                   (const unsigned char *)ca + na, NULL }, 0, 0, 0 };
    cursor y = { { (const unsigned char *)cb, (const unsigned char *)cb,
                   (const unsigned char *)cb + nb, NULL }, 0, 0, 0 };
    for (;;) {
        if (next(&x) < 0) {
            lex_error("first text", ca, na, &x, diag);
            goto out;
        }
        if (next(&y) < 0) {
            lex_error("second text", cb, nb, &y, diag);
            goto out;
        }
        if (x.kind != y.kind || x.len != y.len ||
            memcmp(ca + x.start, cb + y.start, x.len) != 0) {
            if (at_a) *at_a = x.start;
            if (at_b) *at_b = y.start;
            result = 0;
            goto out;
        }
        if (x.kind == PTX_T_EOF) {
            result = 1;
            goto out;
        }
    }
out:
    free(ca);
    free(cb);
    return result;
}

/* The first of tokens [from, to) that differs between a and b, or `to`. */
static uint32_t first_difference(const ptx_module *a, const ptx_module *b, uint32_t from,
                                 uint32_t to)
{
    for (uint32_t i = from; i < to; i++) {
        const ptx_token *x = &a->toks[i], *y = &b->toks[i];
        if (x->kind != y->kind || x->len != y->len ||
            memcmp(a->src + x->start, b->src + y->start, x->len) != 0)
            return i;
    }
    return to;
}

typedef struct span {
    const ptx_module *a, *b;
    uint32_t from, to, differs;
} span;

static void compare_span(void *arg)
{
    span *s = arg;
    s->differs = first_difference(s->a, s->b, s->from, s->to);
}

int ptx_same_module_tokens(const ptx_module *a, const ptx_module *b, size_t *at_a,
                           size_t *at_b)
{
    return ptx_same_module_tokens_jobs(a, b, 1, at_a, at_b);
}

/* Spans of at least 64K tokens (some 300 KB of text, 5 ms a 12 MB
   module on one thread), each on a thread: the first span with a
   difference has the first one. */
int ptx_same_module_tokens_jobs(const ptx_module *a, const ptx_module *b, unsigned jobs,
                                size_t *at_a, size_t *at_b)
{
    span v[PTX_MAX_THREADS];
    uint32_t n = a->ntoks < b->ntoks ? a->ntoks : b->ntoks;
    unsigned k = ptx_parts(n, jobs, (size_t)1 << 16);
    k = k ? k : 1;
    for (unsigned i = 0; i < k; i++)
        v[i] = (span){ a, b, (uint32_t)((uint64_t)n * i / k),
                       (uint32_t)((uint64_t)n * (i + 1) / k), 0 };
    ptx_each_thread(v, k, sizeof *v, compare_span);
    for (unsigned i = 0; i < k; i++)
        if (v[i].differs < v[i].to) {
            if (at_a) *at_a = a->toks[v[i].differs].start;
            if (at_b) *at_b = b->toks[v[i].differs].start;
            return 0;
        }
    return 1;   /* each ends with its EOF token: the same number of tokens */
}
