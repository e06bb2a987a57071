/*
 * nodebug.c - the module's text without its debug data (ptx_emit_nodebug;
 * pyptx-codegen --no-debug translates that text).
 *
 * What goes is front/debug.h's rule, the one pyptx-diff --ignore-debug
 * ignores: .loc, .file, @@DWARF lines, .section .debug_* and the labels
 * of a function that only debug data uses.  The rest is copied byte for
 * byte; only the blanks around a dropped statement go with it, and a line
 * it leaves empty goes whole, with the comment that ends it (Triton's
 * ".loc 1 21 25  // k.py:21:25"), so that no blank line is left where
 * the line tables were.  Lines that hold only a // comment go too, and
 * the blank lines before the first line of code and after the last: no
 * token is there, and the reader of --no-debug output wants the code.
 */
#include <string.h>
#include "ptx/ptx.h"
#include "front/debug.h"
#include "util/alloc.h"
#include "util/buf.h"

typedef struct span {
    uint32_t a, b;      /* source bytes [a, b) */
} span;

typedef struct dropper {
    const ptx_module *m;
    ptx_buf spans;      /* span[], in source order */
    ptx_buf labels;     /* the current function's debug labels */
    size_t next_label;  /* the next of them in source order */
} dropper;

/* Drops the statement from its first token to the token before `stop`. */
static void drop(dropper *d, const ptx_stmt *s, ptx_tok stop)
{
    const ptx_token *last = &d->m->toks[stop - 1];
    span sp = { d->m->toks[s->first].start, last->start + last->len };
    ptx_buf_put(&d->spans, (const char *)&sp, sizeof sp);
}

static int debug_label(dropper *d, const ptx_stmt *s)
{
    const ptx_stmt **v = (const ptx_stmt **)d->labels.p;
    if (d->next_label < d->labels.n / sizeof *v && v[d->next_label] == s) {
        d->next_label++;
        return 1;
    }
    return 0;
}

/* A function body's statements, in source order (as ptx_debug_labels
   lists its labels); `end` is the token after the list. */
static void walk(dropper *d, const ptx_stmt *s, ptx_tok end)
{
    for (; s; s = s->next) {
        ptx_tok stop = s->next ? s->next->first : end;
        if (ptx_debug_stmt(d->m, s) || (s->kind == PTX_S_LABEL && debug_label(d, s)))
            drop(d, s, stop);
        else if (s->kind == PTX_S_BLOCK)
            walk(d, s->u.block.stmts, s->u.block.rbrace);
        else if (s->kind == PTX_S_SECTION)
            walk(d, s->u.section.body.stmts, s->u.section.body.rbrace);
    }
}

static void find_spans(dropper *d)
{
    const ptx_module *m = d->m;
    for (const ptx_stmt *s = m->items; s; s = s->next) {
        ptx_tok stop = s->next ? s->next->first : m->ntoks - 1;
        if (ptx_debug_stmt(m, s)) {
            drop(d, s, stop);
        } else if (s->kind == PTX_S_FUNC && s->u.func.body) {
            d->labels.n = 0;
            d->next_label = 0;
            ptx_debug_labels(m, s->u.func.body, &d->labels);
            walk(d, s->u.func.body->stmts, s->u.func.body->rbrace);
        }
    }
}

static int blank(char c)
{
    return c == ' ' || c == '\t';
}

/* Where the line holding byte `at` starts if only blanks come before `at`
   on it, else -1. */
static int64_t blank_before(const char *src, uint32_t at)
{
    while (at > 0 && blank(src[at - 1]))
        at--;
    return at == 0 || src[at - 1] == '\n' ? (int64_t)at : -1;
}

/* Where the next line starts (or the text ends) if only blanks, and with
   `comment` a // comment, come after `at` on its line, else -1.  `at`
   ends a token, so a // there opens a comment. */
static int64_t blank_after(const char *src, size_t size, uint32_t at, int comment)
{
    size_t i = at;
    while (i < size && blank(src[i]))
        i++;
    if (comment && i + 1 < size && src[i] == '/' && src[i + 1] == '/')
        while (i < size && src[i] != '\n')
            i++;
    if (i + 1 < size && src[i] == '\r' && src[i + 1] == '\n')
        i++;
    return i == size ? (int64_t)size : src[i] == '\n' ? (int64_t)i + 1 : -1;
}

/* The bytes that go with a run of dropped statements [a, b) on one line:
   the whole line where nothing else stands on it; else the blanks between
   the run and the end of the line, or whatever follows it. */
static span widen(const ptx_module *m, span r)
{
    const char *src = m->src;
    int64_t from = blank_before(src, r.a), to = blank_after(src, m->size, r.b, 1);
    if (from >= 0 && to >= 0)
        return (span){ (uint32_t)from, (uint32_t)to };
    uint32_t a = r.a, b = r.b;
    while (b < m->size && blank(src[b]))
        b++;
    if (from >= 0)                  /* code after it: keep the indentation */
        return (span){ a, b };
    while (a > 0 && blank(src[a - 1]))
        a--;
    if (blank_after(src, m->size, r.b, 0) >= 0)     /* code before, nothing after */
        return (span){ a, b };
    if (to >= 0)                    /* code before, a comment after */
        return (span){ a, r.b };
    return (span){ r.a, b };        /* code on both sides */
}

enum { L_CODE, L_COMMENT, L_BLANK };

/* What the line at p[i] holds: code (or a block comment, or the inside of
   one, which *in_block says is open where it starts, and is left as it
   ends), only blanks and a // comment, or only blanks; *end: where it
   ends, after its newline. */
static int scan_line(const char *p, size_t n, size_t i, int *in_block, size_t *end)
{
    int code = *in_block, comment = 0;
    for (; i < n && p[i] != '\n'; i++) {
        if (*in_block) {
            if (p[i] == '*' && i + 1 < n && p[i + 1] == '/')
                *in_block = 0, i++;
        } else if (p[i] == '/' && i + 1 < n && p[i + 1] == '/') {
            comment = 1;
            while (i + 1 < n && p[i + 1] != '\n')
                i++;
        } else if (p[i] == '/' && i + 1 < n && p[i + 1] == '*') {
            *in_block = 1, code = 1, i++;
        } else if (!blank(p[i]) && p[i] != '\r') {
            code = 1;
        }
    }
    *end = i < n ? i + 1 : n;
    return code ? L_CODE : comment ? L_COMMENT : L_BLANK;
}

/* Out of out->p[from, n): the lines that hold only a // comment (no
   statement, so no token), and the blank lines before the first line of
   code and after the last, which nothing reads either. */
static void drop_comment_lines(ptx_buf *out, size_t from)
{
    char *p = out->p;
    size_t w = from, code_end = from;
    int in_block = 0;
    for (size_t i = from, e; i < out->n; i = e) {
        int kind = scan_line(p, out->n, i, &in_block, &e);
        if (kind == L_COMMENT || (kind == L_BLANK && code_end == from))
            continue;
        memmove(p + w, p + i, e - i);
        w += e - i;
        if (kind == L_CODE)
            code_end = w;
    }
    out->n = code_end;
}

typedef struct nodebug_call {
    dropper d;          /* its buffers freed by the caller of ptx_protect */
    ptx_buf *out;
} nodebug_call;

static void emit_nodebug(void *ud)
{
    nodebug_call *c = ud;
    const ptx_module *m = c->d.m;
    ptx_buf *out = c->out;
    size_t from = out->n;
    find_spans(&c->d);
    const span *v = (const span *)c->d.spans.p;
    size_t n = c->d.spans.n / sizeof *v, done = 0;
    for (size_t i = 0; i < n;) {
        span r = v[i++];
        /* statements with only blanks between them go as one */
        while (i < n) {
            uint32_t k = r.b;
            while (k < v[i].a && blank(m->src[k]))
                k++;
            if (k != v[i].a)
                break;
            r.b = v[i++].b;
        }
        r = widen(m, r);
        if (r.a < done)
            r.a = (uint32_t)done;
        ptx_buf_put(out, m->src + done, r.a - done);
        done = r.b > done ? r.b : done;
    }
    ptx_buf_put(out, m->src + done, m->size - done);
    drop_comment_lines(out, from);
}

int ptx_emit_nodebug(const ptx_module *m, ptx_buf *out)
{
    nodebug_call c = { { m, { 0 }, { 0 }, 0 }, out };
    int r = ptx_protect_buf(out, emit_nodebug, &c);
    ptx_buf_free(&c.d.spans);
    ptx_buf_free(&c.d.labels);
    return r;
}
