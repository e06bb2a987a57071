/*
 * build_body.c - statements of an entry body -> IR (DESIGN.md 4.2-4.8).
 *
 * pyptx hoists declarations: reg.* calls at the top level first, then
 * ptx.var calls, then the statements.  So the top level is walked in three
 * phases: A (.reg via the reg API), B (variables via ptx.var), C (all
 * other statements in order; declarations met here are carried raw, with
 * Reg/RegArray bindings for registers).  Nested blocks are ptx.scope().
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include "codegen/build.h"

enum { PHASE_A, PHASE_B, PHASE_C };

typedef struct walk {
    cg_builder *b;
    cg_stmt **tail;
    int phase;
    int top;
} walk;

static ptx_str tstr(const cg_builder *b, ptx_tok t)
{
    return ptx_tok_str(b->pm, t);
}

static void append(walk *w, cg_stmt *s)
{
    *w->tail = s;
    w->tail = &s->next;
}

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* A _raw line; `indent` (may be empty) precedes the text pieces. */
static cg_stmt *raw_text(walk *w, ptx_tok first, const char *ind, size_t ni,
                         cg_text text, const char *why)
{
    cg_module *m = w->b->m;
    /* (the indentation is whitespace alone: the text decides) */
    if (m->drop_trivia && cg_text_trivia(&text)) {
        w->b->k->trivia_dropped++;
        return NULL;
    }
    cg_stmt *s = cg_stmt_new(m, CG_S_RAW, first);
    if (ni) {
        cg_piece *v = cg_alloc(m, (text.n + 1) * sizeof *v);
        v[0] = (cg_piece){ ind, (uint32_t)ni, CG_NOSYM, -1 };
        memcpy(v + 1, text.v, text.n * sizeof *v);
        text.v = v;
        text.n++;
    }
    s->u.raw.text = text;
    s->u.raw.why = why;
    append(w, s);
    return s;
}

static void raw_lit(walk *w, const char *p, size_t n, const char *why)
{
    raw_text(w, PTX_NOTOK, NULL, 0, cg_text_lit(w->b->m, p, n), why);
}

/* The statement tokens [first, end) verbatim, indented as in the source. */
static void raw_stmt(walk *w, ptx_tok first, ptx_tok end, ptx_tok skip,
                     const char *why)
{
    const ptx_module *pm = w->b->pm;
    const char *src = pm->src, *p = src + pm->toks[first].start;
    const char *ls = p;
    while (ls > src && ls[-1] != '\n' && is_space(ls[-1]))
        ls--;
    if (ls > src && ls[-1] != '\n')
        ls = NULL;
    cg_text t = cg_text_span(w->b, first, end, skip);
    if (ls)
        raw_text(w, first, ls, (size_t)(p - ls), t, why);
    else
        raw_text(w, first, "\t", 1, t, why);
}

/* Most gaps between statements are a newline and indentation: tested in
   one 16-byte load (three calls to memchr cost more) where the load stays
   inside the source (the NUL after the text included), else by memchr. */
typedef signed char v16 __attribute__((vector_size(16)));

/* Bytes of v equal to c: 0xff bytes in two words, the first n
   (at most 16) only. */
static inline void match16(v16 v, char c, size_t n, uint64_t m[2])
{
    v16 r = v == c;
    memcpy(m, &r, 16);
    m[0] &= n >= 8 ? ~0ull : (1ull << (8 * n)) - 1;
    m[1] &= n >= 16 ? ~0ull : n > 8 ? (1ull << (8 * (n - 8))) - 1 : 0;
}

/* 1 if the gap [a, z) holds no '/' and at most one newline (nothing in
   it to keep), 0 if it does. */
static int gap_plain(const ptx_module *pm, uint32_t a, uint32_t z)
{
    const char *g = pm->src + a, *e = pm->src + z;
    if (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && z - a <= 16 &&
        (size_t)a + 16 <= pm->size + 1) {
        v16 v;
        uint64_t sl[2], nl[2];
        memcpy(&v, g, 16);
        match16(v, '/', z - a, sl);
        match16(v, '\n', z - a, nl);
        if (sl[0] | sl[1])
            return 0;
        uint64_t x = nl[0] ? nl[0] : nl[1], rest = nl[0] ? nl[1] : 0;
        x ^= (x & -x) * 0xff; /* drop the first newline */
        return !(x | rest);
    }
    if (memchr(g, '/', (size_t)(e - g)))
        return 0;
    const char *nl1 = memchr(g, '\n', (size_t)(e - g));
    return !nl1 || !memchr(nl1 + 1, '\n', (size_t)(e - nl1 - 1));
}

/* Comment lines and blank lines in the trivia in front of token t
   (DESIGN.md 4.7).  The piece before the first newline holds a trailing
   comment of the line above; it is kept on a line of its own. */
static void trivia(walk *w, ptx_tok t)
{
    const ptx_module *pm = w->b->pm;
    uint32_t a = ptx_tok_lead(pm, t), z = pm->toks[t].start;
    const char *g = pm->src + a, *e = pm->src + z;
    if (gap_plain(pm, a, z))
        return;
    if (cg_find_slash(g, (size_t)(e - g), '*')) {
        while (g < e && (is_space(*g) || *g == '\n'))
            g++;
        while (e > g && (is_space(e[-1]) || e[-1] == '\n'))
            e--;
        raw_lit(w, g, (size_t)(e - g), "block comment, kept verbatim");
        return;
    }
    const char *nl = memchr(g, '\n', (size_t)(e - g));
    if (!nl)
        return;
    const char *c = cg_find_slash(g, (size_t)(nl - g), '/');
    if (c) {
        const char *ce = nl;
        while (ce > c && (is_space(ce[-1])))
            ce--;
        char *x = cg_alloc(w->b->m, (size_t)(ce - c) + 2);
        x[0] = '\t';
        memcpy(x + 1, c, (size_t)(ce - c));
        raw_lit(w, x, (size_t)(ce - c) + 1,
                "trailing comment of the line above, on a line of its own");
    }
    for (const char *l = nl + 1;;) {
        const char *le = memchr(l, '\n', (size_t)(e - l));
        if (!le)
            break;
        const char *q = l;
        while (q < le && is_space(*q))
            q++;
        if (q == le)
            raw_lit(w, "", 0, NULL);
        else if (q + 1 < le && q[0] == '/' && q[1] == '/')
            raw_lit(w, l, (size_t)(le - l) - (le[-1] == '\r'), NULL);
        l = le + 1;
    }
}

/* 1 if a comment sits between the tokens of [first, end). */
static int inner_comment(const ptx_module *pm, ptx_tok first, ptx_tok end)
{
    /* no '/' anywhere in the statement, the common case: one scan instead
       of one per gap (a '/' in a token, a division or a string, only
       sends it the long way) */
    if (end <= first + 1)
        return 0;
    uint32_t from = pm->toks[first].start, to = pm->toks[end - 1].start;
    if (!memchr(pm->src + from, '/', to - from))
        return 0;
    for (ptx_tok t = first + 1; t < end; t++) {
        uint32_t a = ptx_tok_lead(pm, t), z = pm->toks[t].start;
        if (z > a && memchr(pm->src + a, '/', z - a))
            return 1;
    }
    return 0;
}

static int lead_comment(const ptx_module *pm, ptx_tok t)
{
    uint32_t a = ptx_tok_lead(pm, t), z = pm->toks[t].start;
    return z > a && memchr(pm->src + a, '/', z - a);
}

static int spec_is(const cg_builder *b, const ptx_spec *s, const char *name)
{
    ptx_str x = tstr(b, s->tok);
    return x.n == strlen(name) && !memcmp(x.p, name, x.n);
}

/* ---- declarations (DESIGN.md 4.3, 4.4) ------------------------------ */

/* The one pyptx type among the specs, or NULL. */
static const char *spec_type(cg_builder *b, const ptx_spec *sp, int *nother)
{
    const char *ty = NULL;
    *nother = 0;
    for (; sp; sp = sp->next) {
        ptx_str x = tstr(b, sp->tok);
        int i = x.n > 1 ? cg_type_index(x.p + 1, x.n - 1) : -1;
        if (i >= 0 && !ty && !sp->arg)
            ty = cg_types[i];
        else
            (*nother)++;
    }
    return ty;
}

static void use_type(cg_builder *b, const char *ty)
{
    int i = cg_type_index(ty, strlen(ty));
    if (i >= 0)
        b->m->types_used |= 1u << i;
}

/* Why `.reg ...;` cannot be reg.array / reg.scalar, or NULL. */
static const char *reg_form_why(cg_builder *b, const ptx_var *v)
{
    int other;
    const char *ty = spec_type(b, v->specs, &other);
    const ptx_declarator *d = v->decls;
    if (!ty || other != 1)
        return "type is not one pyptx scalar type (vector, alignment, ...)";
    if (!d || d->next)
        return "several registers in one declaration";
    if (d->dims || d->init)
        return "array dimensions or initializer";
    if (d->count != PTX_NOTOK) {
        ptx_str c = tstr(b, d->count);
        if (!cg_is_decimal(c.p, c.n))
            return "register count not written in decimal";
        if (c.n > 10 || strtoull(c.p, NULL, 10) > 0x7fffffffu)
            return "register count beyond what pyptx's reg.array takes";
    }
    return NULL;
}

static uint32_t decl_count(cg_builder *b, const ptx_declarator *d)
{
    ptx_str c = tstr(b, d->count);
    char buf[32];
    size_t n = c.n < sizeof buf - 1 ? c.n : sizeof buf - 1;
    memcpy(buf, c.p, n);
    buf[n] = 0;
    /* saturate: passes size per-register tables from this and skip
       kernels beyond SG_MAX_TRACKED_REGS */
    unsigned long long v = strtoull(buf, NULL, 0);
    return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

/* Declare the registers of `v`; CG_S_REG (api) or CG_S_BIND statements. */
static void reg_syms(walk *w, const ptx_stmt *s, int api)
{
    cg_builder *b = w->b;
    int other;
    const char *ty = spec_type(b, s->u.var.specs, &other);
    int is_pred = ty && !strcmp(ty, "pred");
    if (!ty)
        ty = "b32"; /* only the binding's operators depend on it */
    use_type(b, ty);
    for (const ptx_declarator *d = s->u.var.decls; d; d = d->next) {
        if (d->dims)
            continue;
        ptx_str n = tstr(b, d->name);
        int arr = d->count != PTX_NOTOK;
        cg_symid id = cg_declare(b, arr ? CG_SYM_REGARRAY : CG_SYM_REG, n.p,
                                 n.n, ty, arr ? decl_count(b, d) : 0);
        b->k->syms[id].is_pred = (uint8_t)is_pred;
        cg_stmt *st = cg_stmt_new(b->m, api ? CG_S_REG : CG_S_BIND, s->first);
        st->u.reg = id;
        append(w, st);
    }
}

/* ptx.var(...) form, or NULL with *why. */
static cg_stmt *var_form(cg_builder *b, const ptx_stmt *s, const char **why)
{
    static const char *const spaces[] = { ".const", ".global", ".local",
        ".param", ".shared", ".shared::cta", ".shared::cluster" };
    static const char *const links[] = { ".visible", ".extern", ".weak", ".common" };
    const ptx_var *v = &s->u.var;
    const ptx_spec *sp = v->specs;
    cg_var cv = { 0 };
    *why = "specifiers ptx.var cannot express (order, .v4, .ptr, type ...)";
    for (unsigned i = 0; sp && i < 4; i++)
        if (spec_is(b, sp, links[i]) && !sp->arg) {
            cv.linking = links[i] + 1;
            sp = sp->next;
            break;
        }
    for (unsigned i = 0; sp && i < 7 && !cv.space; i++)
        if (spec_is(b, sp, spaces[i]) && !sp->arg)
            cv.space = spaces[i] + 1;
    if (!cv.space)
        return NULL;
    sp = sp->next;
    if (sp && spec_is(b, sp, ".align") && sp->arg && sp->arg->kind == PTX_E_INT) {
        ptx_str a = tstr(b, sp->arg->tok);
        if (!cg_is_decimal(a.p, a.n))
            return NULL;
        cv.align = cg_strndup(b->m, a.p, a.n);
        sp = sp->next;
    }
    ptx_str t = sp ? tstr(b, sp->tok) : (ptx_str){ "", 0 };
    int ti = t.n > 1 && !sp->arg ? cg_type_index(t.p + 1, t.n - 1) : -1;
    if (ti < 0 || sp->next)
        return NULL;
    cv.type = cg_types[ti];
    const ptx_declarator *d = v->decls;
    *why = "initializer, several names or array shape ptx.var cannot express";
    if (!d || d->next || d->init || d->count != PTX_NOTOK)
        return NULL;
    int ext = cv.linking && !strcmp(cv.linking, "extern");
    const ptx_dim *dm = d->dims;
    if (ext ? (!dm || dm->size || dm->next) : (dm && (dm->next || !dm->size)))
        return NULL;
    if (dm && dm->size) {
        ptx_str z = dm->size->kind == PTX_E_INT ? tstr(b, dm->size->tok) : (ptx_str){ "", 0 };
        if (!cg_is_decimal(z.p, z.n))
            return NULL;
        cv.size = cg_strndup(b->m, z.p, z.n);
    }
    cg_stmt *st = cg_stmt_new(b->m, CG_S_VAR, s->first);
    st->u.var = cv;
    return st;
}

static void var_syms(cg_builder *b, const ptx_stmt *s)
{
    for (const ptx_declarator *d = s->u.var.decls; d; d = d->next) {
        ptx_str n = tstr(b, d->name);
        cg_declare(b, CG_SYM_VAR, n.p, n.n, NULL, 0);
    }
}

/* Phase A / B: hoisted declarations through the API. */
static int top_decl(walk *w, const ptx_stmt *s, ptx_tok end)
{
    cg_builder *b = w->b;
    if (inner_comment(b->pm, s->first, end))
        return 0;
    if (spec_is(b, s->u.var.specs, ".reg")) {
        if (w->phase != PHASE_A || reg_form_why(b, &s->u.var))
            return 0;
        reg_syms(w, s, 1);
        return 1;
    }
    const char *why;
    cg_stmt *st = var_form(b, s, &why);
    if (!st)
        return 0;
    var_syms(b, s);
    const char *n = b->k->syms[b->k->nsyms - 1].ptx;
    st->u.var.sym = b->k->nsyms - 1;
    (void)n;
    use_type(b, st->u.var.type);
    append(w, st);
    w->phase = PHASE_B;
    return 1;
}

/* Phase C and nested blocks. */
static void late_decl(walk *w, const ptx_stmt *s, ptx_tok end)
{
    cg_builder *b = w->b;
    const char *why;
    if (spec_is(b, s->u.var.specs, ".reg")) {
        why = reg_form_why(b, &s->u.var);
        if (!why && inner_comment(b->pm, s->first, end))
            why = "comment inside the declaration";
        if (!why && !w->top) {
            reg_syms(w, s, 1);
            return;
        }
        if (!why)
            why = "register declaration after the first statement: "
                  "reg.* would hoist it to the top";
        cg_stmt **t0 = w->tail;
        reg_syms(w, s, 0);           /* bindings first: the raw text names them */
        cg_stmt *binds = *t0;
        *t0 = NULL;
        w->tail = t0;
        raw_stmt(w, s->first, end, PTX_NOTOK, why);
        *w->tail = binds;
        while (*w->tail)
            w->tail = &(*w->tail)->next;
        return;
    }
    if (!var_form(b, s, &why))
        ;
    else if (w->top)
        why = "variable declaration after the first statement: ptx.var "
              "would hoist it to the top";
    else
        why = "variable declared in a nested block: ptx.var would hoist it";
    var_syms(b, s);
    raw_stmt(w, s->first, end, PTX_NOTOK, why);
}

static void label_stmt(walk *w, const ptx_stmt *s)
{
    cg_stmt *st = cg_stmt_new(w->b->m, CG_S_LABEL, s->first);
    ptx_str n = tstr(w->b, s->u.label.name);
    int32_t idx;
    st->u.label = cg_resolve(w->b, n.p, n.n, &idx);
    w->b->k->syms[st->u.label].uses++;
    append(w, st);
}

static void walk_list(walk *w, const ptx_block *blk);

static void scope_stmt(walk *w, const ptx_stmt *s)
{
    cg_builder *b = w->b;
    cg_stmt *st = cg_stmt_new(b->m, CG_S_SCOPE, s->first);
    append(w, st);
    uint32_t mark = b->nbinds;
    cg_scope_enter(b);
    walk inner = { b, &st->u.body, PHASE_C, 0 };
    walk_list(&inner, &s->u.block);
    cg_scope_leave(b, mark);
}

static int simple_pragma(const cg_builder *b, const ptx_stmt *s)
{
    const ptx_expr *a = s->u.dir.args;
    return a && !a->next && a->kind == PTX_E_STRING &&
           s->u.dir.semi != PTX_NOTOK;
}

static const char *dir_why(uint32_t kind)
{
    switch (kind) {
    case PTX_S_LOC: return ".loc: ptx.loc() would print \".loc a, b, c;\"";
    case PTX_S_FILE: return ".file: ptx.file_() prints other tokens";
    case PTX_S_PRAGMA: return ".pragma with several values: ptx.pragma takes one";
    case PTX_S_DWARF: return "@@DWARF line: no pyptx construct";
    case PTX_S_PREPROC: return "preprocessor line: no pyptx construct";
    case PTX_S_CALLTARGETS: return ".calltargets: no pyptx construct";
    case PTX_S_BRANCHTARGETS: return ".branchtargets: no pyptx construct";
    case PTX_S_CALLPROTOTYPE: return ".callprototype: no pyptx construct";
    default: return "directive with no pyptx construct";
    }
}

static void other_stmt(walk *w, const ptx_stmt *s, ptx_tok end)
{
    cg_builder *b = w->b;
    if (s->kind == PTX_S_PRAGMA && simple_pragma(b, s) &&
        !inner_comment(b->pm, s->first, end)) {
        cg_stmt *st = cg_stmt_new(b->m, CG_S_PRAGMA, s->first);
        ptx_str q = tstr(b, s->u.dir.args->tok);
        st->u.pragma.p = q.p + 1;
        st->u.pragma.n = q.n - 2;
        append(w, st);
        return;
    }
    if (s->kind == PTX_S_INSTR) {
        const char *why = "comment inside the instruction";
        cg_stmt *st = inner_comment(b->pm, s->first, end) ? NULL
                                                          : cg_build_inst(b, s, &why);
        if (st) {
            append(w, st);
            return;
        }
        raw_stmt(w, s->first, end, s->u.instr.op, why);
        return;
    }
    raw_stmt(w, s->first, end, PTX_NOTOK, dir_why(s->kind));
}

static void one_stmt(walk *w, const ptx_stmt *s, ptx_tok end)
{
    cg_builder *b = w->b;
    if (s->kind == PTX_S_VAR && w->phase != PHASE_C &&
        !lead_comment(b->pm, s->first) && top_decl(w, s, end))
        return;
    if (w->top && w->phase != PHASE_C)
        w->phase = PHASE_C;
    trivia(w, s->first);
    switch (s->kind) {
    case PTX_S_LABEL: label_stmt(w, s); break;
    case PTX_S_BLOCK: scope_stmt(w, s); break;
    case PTX_S_VAR: late_decl(w, s, end); break;
    default: other_stmt(w, s, end); break;
    }
}

/* A block, or a piece's part of a body, which may end before the body's
   '}': its last statement then ends at the piece's end (the cut falls
   right after a ';', so what follows it is the next piece's). */
static void walk_list(walk *w, const ptx_block *blk)
{
    ptx_tok end = blk->rbrace != PTX_NOTOK ? blk->rbrace : w->b->pm->ntoks - 1;
    for (const ptx_stmt *s = blk->stmts; s; s = s->next)
        one_stmt(w, s, s->next ? s->next->first : end);
    if (blk->rbrace != PTX_NOTOK)
        trivia(w, blk->rbrace);
}

/* Labels anywhere in the body are declared first: branches go forward. */
static void declare_labels(cg_builder *b, const ptx_stmt *s)
{
    for (; s; s = s->next) {
        ptx_tok l = PTX_NOTOK;
        if (s->kind == PTX_S_LABEL)
            l = s->u.label.name;
        else if (s->kind == PTX_S_BRANCHTARGETS || s->kind == PTX_S_CALLTARGETS)
            l = s->u.dir.label;
        else if (s->kind == PTX_S_BLOCK)
            declare_labels(b, s->u.block.stmts);
        if (l != PTX_NOTOK) {
            ptx_str n = tstr(b, l);
            cg_declare(b, CG_SYM_LABEL, n.p, n.n, NULL, 0);
        }
    }
}

void cg_build_body_start(cg_builder *b)
{
    b->phase = PHASE_A;
}

/* Labels are declared a part at a time: a branch to a label of a later
   part names it as a string, which prints as the label would. */
void cg_build_body_part(cg_builder *b, const ptx_block *part, cg_stmt **out)
{
    declare_labels(b, part->stmts);
    walk w = { b, out, b->phase, 1 };
    walk_list(&w, part);
    b->phase = (uint8_t)w.phase;
}

void cg_build_body(cg_builder *b, const ptx_block *body, cg_stmt **out)
{
    cg_build_body_start(b);
    cg_build_body_part(b, body, out);
}
