/*
 * print.c - one walk over the tree serves both printers.
 *
 * The walk visits every token a node owns, in source order, and says what
 * canonical spacing belongs in front of it.  The exact printer ignores that
 * hint and prints the token's own trivia instead; the canonical printer
 * ignores the trivia and prints the hint.  Keeping a single walk means the
 * two outputs cannot disagree about which tokens exist.
 */
#include <string.h>
#include "emit/emit.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/threads.h"

typedef enum space {
    SP_NONE,  /* glued to the previous token */
    SP_SPACE, /* one space */
    SP_TAB,   /* a tab (between opcode and operands) */
    SP_LINE,  /* a new line, indented by the current depth */
    SP_LINE0, /* a new line at column 0 (labels, module items) */
    SP_BLANK  /* an empty line, then column 0 (before functions) */
} space;

typedef struct printer {
    const ptx_module *m;
    ptx_buf *out;
    int canonical;
    int depth;
    int after;   /* text comes before `out`'s (a later group of items,
                    printed on a thread of its own: emit_jobs.c) */
    /* The exact printer prints each token with the trivia in front of it.
       Consecutive tokens are adjacent in the source, so its output is runs
       of tokens first..next-1, each copied in one piece when it breaks
       (a token out of order, missing or repeated starts a new run).  next
       starts as PTX_NOTOK, which no token matches, so that the first
       token starts a run without a test of its own on every token. */
    ptx_tok first, next;
    uintptr_t src, src_end;  /* the source, its NUL included (put_src) */
} printer;

/* Source text (a token's spelling or part of it) into the output.  Most
   are short: a fixed 32-byte copy is two moves where a copy of a variable
   length is a call to memcpy, and the bytes it writes past n are
   overwritten by what comes next.  Only where all 32 bytes lie in the
   source buffer (parts of an edited tree may point elsewhere) and the
   output has room for them. */
enum { SHORT_COPY = 32 };
/* n bytes from `at`, which lies in the source or after it: their fixed
   copy stays in the source buffer */
static inline int short_copy_fits(const printer *p, uintptr_t at, size_t n)
{
    return n <= SHORT_COPY && at + SHORT_COPY <= p->src_end;
}

static inline void put_src(printer *p, const char *s, size_t n)
{
    ptx_buf *b = p->out;
    uintptr_t at = (uintptr_t)s;
    if (at >= p->src && short_copy_fits(p, at, n) && b->cap - b->n >= SHORT_COPY) {
        memcpy(b->p + b->n, s, SHORT_COPY);
        b->n += n;
    } else {
        ptx_buf_put(b, s, n);
    }
}

/* Copy the pending run of tokens: the trivia before `first` to the end
   of token next-1. */
static void flush(printer *p)
{
    if (p->first == PTX_NOTOK)
        return;
    uint32_t from = ptx_tok_lead(p->m, p->first);
    const ptx_token *last = &p->m->toks[p->next - 1];
    ptx_buf_put(p->out, p->m->src + from, last->start + last->len - from);
    p->first = PTX_NOTOK;
}

static void run_break(printer *p, ptx_tok t)
{
    flush(p);
    p->first = t;
}

/* A new line (two for SP_BLANK; none at the very start of the output),
   then for SP_LINE the indentation: in one copy from `breaks` where it
   fits, not a byte at a time. */
static void line_break(printer *p, space sp)
{
    static const char breaks[] = "\n\n\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t"
                                 "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t";
    ptx_buf *out = p->out;
    size_t nl = out->n || p->after ? (sp == SP_BLANK ? 2 : 1) : 0;
    size_t tabs = sp == SP_LINE && p->depth > 0 ? (size_t)p->depth : 0;
    if (nl + tabs <= sizeof breaks - 3) {
        char *w = ptx_buf_room(out, sizeof breaks - 3);
        memcpy(w, breaks + 2 - nl, sizeof breaks - 3);
        out->n += nl + tabs;
        return;
    }
    for (size_t i = 0; i < nl; i++)
        ptx_buf_putc(out, '\n');
    for (size_t i = 0; i < tabs; i++)
        ptx_buf_putc(out, '\t');
}

/* The canonical spacing in front of a token; inline, as it comes with
   every token, and most often is none or one character. */
static inline void spacing(printer *p, space sp)
{
    switch (sp) {
    case SP_NONE: break;
    case SP_SPACE: ptx_buf_putc(p->out, ' '); break;
    case SP_TAB: ptx_buf_putc(p->out, '\t'); break;
    case SP_BLANK: case SP_LINE0: case SP_LINE:
        line_break(p, sp);
        break;
    }
}

/* Inline: called for every token; the exact printer's common case (the
   next token in source order) is a compare and an increment. */
static inline void tok(printer *p, ptx_tok t, space sp)
{
    if (t == PTX_NOTOK)
        return;
    if (!p->canonical) {
        if (t != p->next)
            run_break(p, t);
        p->next = t + 1;
        return;
    }
    spacing(p, sp);
    put_src(p, p->m->src + p->m->toks[t].start, p->m->toks[t].len);
}

/* ---- expressions */

static void expr(printer *p, const ptx_expr *e, space sp);

/* A leaf and the ',' after it, if any, for the canonical printer, where
   the spacing in front is at most one character: one reservation and a
   fixed-size copy (as put_src's) for the three, and no branch on whether
   there is a ','.  0 where the token is too long for that or too near the
   source's end: then tok prints it.  (A token lies in the source: no test
   of the lower bound, which put_src needs.) */
static inline int canonical_leaf(printer *p, const ptx_expr *e, space sp)
{
    static const char blank[] = { [SP_NONE] = ' ', [SP_SPACE] = ' ', [SP_TAB] = '\t' };
    const ptx_token *t = &p->m->toks[e->tok];
    uintptr_t at = p->src + t->start;
    if (!short_copy_fits(p, at, t->len))
        return 0;
    ptx_buf *out = p->out;
    char *w = ptx_buf_room(out, SHORT_COPY + 2), *start = w;
    *w = blank[sp];
    w += sp != SP_NONE;
    memcpy(w, (const char *)at, SHORT_COPY);
    w += t->len;
    *w = ',';
    w += e->sep != PTX_NOTOK;
    out->n += (size_t)(w - start);
    return 1;
}

/* Elements and their separators; juxtaposed elements get a space.  A
   leaf (the kinds up to PTX_E_DOTNAME, which ast.h lists first) is
   printed here without a call to expr: most elements are one, and the
   calls were 4% of the exact round trip's instructions on library PTX. */
static void list(printer *p, const ptx_expr *e, space first)
{
    _Static_assert(PTX_E_NAME == 0 && PTX_E_DOTNAME == 4, "the five leaves first");
    for (space sp = first; e; e = e->next, sp = SP_SPACE) {
        if (p->canonical && e->kind <= PTX_E_DOTNAME && sp <= SP_TAB &&
            canonical_leaf(p, e, sp))
            continue;
        if (e->kind <= PTX_E_DOTNAME)
            tok(p, e->tok, sp);
        else
            expr(p, e, sp);
        if (!p->canonical)
            tok(p, e->sep, SP_NONE);
        else if (e->sep != PTX_NOTOK)  /* a ',' (a byte, not a copy) */
            ptx_buf_putc(p->out, ',');
    }
}

static space binary_space(const printer *p, ptx_tok op)
{
    /* `a%b` would lex as `a` `%b`; = and ?: read better spaced */
    switch (p->m->toks[op].kind) {
    case '%': case '=': case '?': case ':': case PTX_T_ANDAND: case PTX_T_OROR:
        return SP_SPACE;
    default:
        return SP_NONE;
    }
}

static void expr(printer *p, const ptx_expr *e, space sp)
{
    switch (e->kind) {
    case PTX_E_NAME: case PTX_E_INT: case PTX_E_FLOAT: case PTX_E_STRING:
    case PTX_E_DOTNAME:
        tok(p, e->tok, sp);
        break;
    case PTX_E_UNARY:
        tok(p, e->tok, sp);
        expr(p, e->a, SP_NONE);
        break;
    case PTX_E_BINARY: {
        space s = binary_space(p, e->tok);
        expr(p, e->a, sp);
        tok(p, e->tok, s);
        expr(p, e->b, s);
        break;
    }
    case PTX_E_COND:
        expr(p, e->a, sp);
        tok(p, e->tok, SP_SPACE);
        expr(p, e->b, SP_SPACE);
        tok(p, e->close, SP_SPACE);
        expr(p, e->c, SP_SPACE);
        break;
    case PTX_E_PAREN: case PTX_E_VECTOR: case PTX_E_ADDRESS:
        /* (an initializer's rest, which a piece starts with, has no '{':
           its first value follows the ',' before it) */
        tok(p, e->tok, sp);
        list(p, e->a, e->tok != PTX_NOTOK ? SP_NONE : sp);
        tok(p, e->close, SP_NONE);
        break;
    case PTX_E_CALL:
        tok(p, e->tok, sp);
        tok(p, e->open, SP_NONE);
        list(p, e->a, SP_NONE);
        tok(p, e->close, SP_NONE);
        break;
    case PTX_E_CAST:
        tok(p, e->tok, sp);
        tok(p, e->open, SP_NONE);
        tok(p, e->close, SP_NONE);
        expr(p, e->a, SP_NONE);
        break;
    }
}

/* ---- declarations */

static void specs(printer *p, const ptx_spec *s, space first)
{
    for (space sp = first; s; s = s->next, sp = SP_SPACE) {
        tok(p, s->tok, sp);
        if (s->arg)
            expr(p, s->arg, s->arg->kind == PTX_E_PAREN ? SP_NONE : SP_SPACE);
    }
}

static void declarator(printer *p, const ptx_declarator *d, space sp)
{
    tok(p, d->name, sp);
    tok(p, d->lt, SP_NONE);
    tok(p, d->count, SP_NONE);
    tok(p, d->gt, SP_NONE);
    for (const ptx_dim *dim = d->dims; dim; dim = dim->next) {
        tok(p, dim->lbrack, SP_NONE);
        if (dim->size)
            expr(p, dim->size, SP_NONE);
        tok(p, dim->rbrack, SP_NONE);
    }
    if (d->init) {  /* (an initializer's rest has no '=') */
        tok(p, d->eq, SP_SPACE);
        expr(p, d->init, SP_SPACE);
    }
    tok(p, d->sep, SP_NONE);
}

static void var(printer *p, const ptx_var *v, space sp)
{
    specs(p, v->specs, sp);
    for (const ptx_declarator *d = v->decls; d; d = d->next)
        declarator(p, d, SP_SPACE);
    tok(p, v->semi, SP_NONE);
}

/* Entry and function parameters one per line, as nvcc writes them; return
   parameters and prototypes on one line. */
static void param_list(printer *p, const ptx_param_list *pl, space sp,
                       int one_per_line)
{
    if (!pl)
        return;
    tok(p, pl->lparen, sp);
    p->depth++;
    space first = one_per_line ? SP_LINE : SP_NONE;
    for (const ptx_param *q = pl->params; q; q = q->next) {
        specs(p, q->specs, first);
        declarator(p, q->decl, SP_SPACE);
        tok(p, q->sep, SP_NONE);
        first = one_per_line ? SP_LINE : SP_SPACE;
    }
    p->depth--;
    tok(p, pl->rparen, pl->params && one_per_line ? SP_LINE : SP_NONE);
}

static void stmt(printer *p, const ptx_stmt *s, space sp);

static void block(printer *p, const ptx_block *b, space open_sp)
{
    tok(p, b->lbrace, open_sp);
    p->depth++;
    for (const ptx_stmt *s = b->stmts; s; s = s->next)
        stmt(p, s, SP_LINE);
    p->depth--;
    tok(p, b->rbrace, SP_LINE);
}

static void func(printer *p, const ptx_func *f, space sp)
{
    if (f->label != PTX_NOTOK) {
        tok(p, f->label, sp);
        tok(p, f->colon, SP_NONE);
        tok(p, f->kw, SP_SPACE);
    } else if (f->specs) {
        specs(p, f->specs, sp);
        tok(p, f->kw, SP_SPACE);
    } else {
        tok(p, f->kw, sp);
    }
    int is_proto = f->label != PTX_NOTOK;
    param_list(p, f->ret, SP_SPACE, 0);
    tok(p, f->name, SP_SPACE);
    param_list(p, f->params, is_proto ? SP_SPACE : SP_NONE, !is_proto);
    for (const ptx_fdir *d = f->dirs; d; d = d->next) {
        tok(p, d->dir, f->label != PTX_NOTOK ? SP_SPACE : SP_LINE);
        list(p, d->args, SP_SPACE);
        tok(p, d->semi, SP_NONE);
    }
    if (f->body)
        block(p, f->body, f->label != PTX_NOTOK ? SP_SPACE : SP_LINE);
    tok(p, f->semi, SP_NONE);
}

static void instr(printer *p, const ptx_instr *in, space sp)
{
    space opsp = sp;
    if (in->at != PTX_NOTOK) {
        tok(p, in->at, sp);
        tok(p, in->bang, SP_NONE);
        tok(p, in->pred, SP_NONE);
        opsp = SP_SPACE;
    }
    /* the canonical printer rebuilds the opcode word from its parsed parts
       (its round trip checks them); the exact one prints the token */
    if (p->canonical) {
        spacing(p, opsp);
        put_src(p, in->opcode.p, in->opcode.n);
        for (uint32_t i = 0; i < in->nmods; i++) {
            ptx_buf_putc(p->out, '.');
            put_src(p, in->mods[i].p, in->mods[i].n);
        }
    } else {
        tok(p, in->op, opsp);
    }
    list(p, in->operands, SP_TAB);
    tok(p, in->semi, SP_NONE);
}

static void dir(printer *p, const ptx_dir *d, space sp)
{
    if (d->label != PTX_NOTOK) {
        tok(p, d->label, sp);
        tok(p, d->colon, SP_NONE);
        sp = SP_SPACE;
    }
    tok(p, d->dir, sp);
    list(p, d->args, SP_SPACE);
    tok(p, d->semi, SP_NONE);
}

static void stmt(printer *p, const ptx_stmt *s, space sp)
{
    switch (s->kind) {
    case PTX_S_VERSION: case PTX_S_TARGET: case PTX_S_ADDRESS_SIZE:
    case PTX_S_FILE: case PTX_S_LOC: case PTX_S_PRAGMA: case PTX_S_ALIAS:
    case PTX_S_DATA: case PTX_S_CALLTARGETS: case PTX_S_BRANCHTARGETS:
        dir(p, &s->u.dir, sp);
        break;
    case PTX_S_SECTION:
        tok(p, s->u.section.dir, sp == SP_LINE && p->depth == 0 ? SP_BLANK : sp);
        tok(p, s->u.section.name, SP_SPACE);
        block(p, &s->u.section.body, SP_LINE);
        break;
    case PTX_S_DWARF: case PTX_S_PREPROC:
        tok(p, s->u.tok, SP_LINE0);
        break;
    case PTX_S_VAR:
        var(p, &s->u.var, sp);
        break;
    case PTX_S_FUNC:
        func(p, &s->u.func, s->u.func.body ? SP_BLANK : sp);
        break;
    case PTX_S_CALLPROTOTYPE:
        func(p, &s->u.func, sp);
        break;
    case PTX_S_LABEL:
        tok(p, s->u.label.name, SP_LINE0);
        tok(p, s->u.label.colon, SP_NONE);
        break;
    case PTX_S_INSTR:
        instr(p, &s->u.instr, sp);
        break;
    case PTX_S_BLOCK:
        block(p, &s->u.block, sp);
        break;
    }
}

static printer printer_for(const ptx_module *m, ptx_buf *out, int canonical,
                           int depth, int after)
{
    printer p = { m, out, canonical, depth, after, PTX_NOTOK, PTX_NOTOK, 0, 0 };
    if (m->src) {
        p.src = (uintptr_t)m->src;
        p.src_end = p.src + m->size + 1;
    }
    return p;
}

void ptx_emit_items(const ptx_module *m, const ptx_stmt *from, const ptx_stmt *to,
                    int canonical, int after, ptx_buf *out)
{
    printer p = printer_for(m, out, canonical, 0, after);
    for (const ptx_stmt *s = from; s != to; s = s->next)
        stmt(&p, s, SP_LINE);
    if (to)
        flush(&p);
    else if (canonical) {
        if (out->n || after)
            ptx_buf_putc(out, '\n');
    } else {
        /* the EOF token (length 0) carries the trivia that ends the file */
        tok(&p, m->ntoks - 1, SP_NONE);
        flush(&p);
    }
}

/* The public printers run under ptx_protect (util/alloc.h): one call
   shape for all of them. */
typedef struct emit_call {
    const ptx_module *m;
    const void *what;   /* the expression or statement */
    ptx_tok t;
    int canonical, depth;
    unsigned jobs;
    ptx_buf *out;
} emit_call;

static void emit_all(void *ud)
{
    emit_call *c = ud;
    ptx_emit_split(c->m, c->canonical, c->jobs, PTX_MIN_PART, c->out);
}

int ptx_emit_exact(const ptx_module *m, ptx_buf *out)
{
    emit_call c = { .m = m, .jobs = 1, .out = out };
    return ptx_protect_buf(out, emit_all, &c);
}

int ptx_emit_canonical(const ptx_module *m, ptx_buf *out)
{
    emit_call c = { .m = m, .canonical = 1, .jobs = 1, .out = out };
    return ptx_protect_buf(out, emit_all, &c);
}

int ptx_emit_jobs(const ptx_module *m, int canonical, unsigned jobs, ptx_buf *out)
{
    emit_call c = { .m = m, .canonical = canonical, .jobs = jobs, .out = out };
    return ptx_protect_buf(out, emit_all, &c);
}

static void emit_token(void *ud)
{
    emit_call *c = ud;
    ptx_print_token(c->m, c->t, c->out);
}

int ptx_emit_token(const ptx_module *m, ptx_tok t, ptx_buf *out)
{
    emit_call c = { .m = m, .t = t, .out = out };
    return ptx_protect_buf(out, emit_token, &c);
}

void ptx_print_token(const ptx_module *m, ptx_tok t, ptx_buf *out)
{
    ptx_buf_put(out, m->src + m->toks[t].start, m->toks[t].len);
}

static void emit_expr(void *ud)
{
    emit_call *c = ud;
    printer p = printer_for(c->m, c->out, 1, 0, 0);
    expr(&p, c->what, SP_NONE);
}

int ptx_emit_expr(const ptx_module *m, const ptx_expr *e, ptx_buf *out)
{
    emit_call c = { .m = m, .what = e, .out = out };
    return ptx_protect_buf(out, emit_expr, &c);
}

static void emit_stmt(void *ud)
{
    emit_call *c = ud;
    ptx_print_stmt(c->m, c->what, c->depth, c->out);
}

int ptx_emit_stmt(const ptx_module *m, const ptx_stmt *s, int depth, ptx_buf *out)
{
    emit_call c = { .m = m, .what = s, .depth = depth, .out = out };
    return ptx_protect_buf(out, emit_stmt, &c);
}

void ptx_print_stmt(const ptx_module *m, const ptx_stmt *s, int depth, ptx_buf *out)
{
    /* a private, empty buffer: the statement's leading SP_LINE then adds
       only the indentation (labels and raw lines stay at column 0) */
    ptx_buf tmp = { 0 };
    ptx_bufs own;
    ptx_own_bufs(&own, &tmp, NULL);
    printer p = printer_for(m, &tmp, 1, depth, 0);
    stmt(&p, s, SP_LINE);
    ptx_buf_put(out, tmp.p, tmp.n);
    ptx_buf_putc(out, '\n');
    ptx_free_bufs(&own);
}
