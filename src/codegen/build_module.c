/*
 * build_module.c - the module: header values, entries (kernel headers and
 * bodies), the raw segments between them (DESIGN.md 2, 3).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "codegen/build.h"
#include "front/arena.h"

static ptx_str tstr(const ptx_module *pm, ptx_tok t)
{
    return ptx_tok_str(pm, t);
}

static int is_entry_def(const ptx_module *pm, const ptx_stmt *s)
{
    return s->kind == PTX_S_FUNC && s->u.func.body &&
           pm->toks[s->u.func.kw].kind == PTX_T_ENTRY;
}

static ptx_tok decl_last(const ptx_declarator *d)
{
    if (d->init)
        return cg_expr_last(d->init);
    ptx_tok t = d->gt != PTX_NOTOK ? d->gt : d->name;
    for (const ptx_dim *x = d->dims; x; x = x->next)
        t = x->rbrack;
    return t;
}

static const char *dup_span(cg_module *m, ptx_tok i, ptx_tok j)
{
    ptx_str s = cg_span(m->src, i, j);
    return cg_strndup(m, s.p, s.n);
}

static const char *fmt(cg_module *m, const char *f, const char *a, size_t an,
                       const char *b)
{
    char buf[600];
    int n = snprintf(buf, sizeof buf, f, (int)an, a, b);
    return cg_strndup(m, buf, n < (int)sizeof buf ? (size_t)n : sizeof buf - 1);
}

/* a b c[0..cn), in the module's arena (snprintf costs more than the rest
   of a small file's parameter handling) */
static const char *cat(cg_module *m, const char *a, const char *b,
                       const char *c, size_t cn)
{
    size_t an = strlen(a), bn = strlen(b);
    char *s = cg_alloc(m, an + bn + cn + 1);
    memcpy(s, a, an);
    memcpy(s + an, b, bn);
    if (cn) /* c may be NULL then */
        memcpy(s + an + bn, c, cn);
    s[an + bn + cn] = 0;
    return s;
}

/* .ptr .SS .align P NAME -> "TY.ptr.SS.palignP" (DESIGN.md 3.2). */
static int ptr_form(cg_builder *b, const ptx_spec *sp, const ptx_declarator *d,
                    const char *ty, cg_param *cp)
{
    static const char *const ss[] = { ".global", ".shared", ".local", ".const", ".param" };
    const ptx_module *pm = b->pm;
    if (!sp || !sp->next || !sp->next->next || sp->next->next->next ||
        d->dims || d->init || d->count != PTX_NOTOK)
        return 0;
    ptx_str p = tstr(pm, sp->tok), s = tstr(pm, sp->next->tok);
    const ptx_spec *al = sp->next->next;
    ptx_str a = tstr(pm, al->tok);
    if (p.n != 4 || memcmp(p.p, ".ptr", 4) || a.n != 6 || memcmp(a.p, ".align", 6) ||
        !al->arg || al->arg->kind != PTX_E_INT || sp->arg || sp->next->arg)
        return 0;
    ptx_str v = tstr(pm, al->arg->tok);
    if (!cg_is_decimal(v.p, v.n) || v.n > 20)
        return 0;
    for (unsigned i = 0; i < 5; i++)
        if (s.n == strlen(ss[i]) && !memcmp(s.p, ss[i], s.n)) {
            const char *pre = cat(b->m, ty, ".ptr.", ss[i] + 1, strlen(ss[i] + 1));
            cp->typestr = cat(b->m, pre, ".palign", v.p, v.n);
            return 1;
        }
    return 0;
}

/* One parameter -> raw_params tuple (DESIGN.md 3.2), or a reason. */
static const char *param(cg_builder *b, const ptx_param *p, cg_param *cp)
{
    const ptx_module *pm = b->pm;
    cg_module *m = b->m;
    const ptx_spec *sp = p->specs;
    ptx_str name = tstr(pm, p->decl->name);
    ptx_str t = tstr(pm, sp->tok);
    if (t.n != 6 || memcmp(t.p, ".param", 6) || sp->arg)
        return fmt(m, "parameter \"%.*s\" does not begin with .param%s", name.p, name.n, "");
    sp = sp->next;
    const char *align = NULL;
    size_t alen = 0;
    if (sp && (t = tstr(pm, sp->tok)).n == 6 && !memcmp(t.p, ".align", 6)) {
        ptx_str a = sp->arg && sp->arg->kind == PTX_E_INT ? tstr(pm, sp->arg->tok) : (ptx_str){ "", 0 };
        if (!cg_is_decimal(a.p, a.n) || a.n > 20)
            return fmt(m, "parameter \"%.*s\": .align%s value not decimal", name.p, name.n, "");
        align = a.p;
        alen = a.n;
        sp = sp->next;
    }
    t = sp ? tstr(pm, sp->tok) : (ptx_str){ "", 0 };
    int ti = t.n > 1 && !sp->arg ? cg_type_index(t.p + 1, t.n - 1) : -1;
    if (ti < 0)
        return fmt(m, "parameter \"%.*s\" has type %s, not a pyptx scalar type",
                   name.p, name.n, dup_span(m, sp ? sp->tok : p->decl->name,
                                            sp ? sp->tok + 1 : p->decl->name));
    const char *ty = cat(m, cg_types[ti], align ? ".align" : "", align, alen);
    cp->sym = cg_declare(b, CG_SYM_PARAM, name.p, name.n, NULL, 0);
    cp->pre = cp->rest = "";
    const ptx_declarator *d = p->decl;
    sp = sp->next;
    if (!sp && !d->init && d->count == PTX_NOTOK &&
        (!d->dims || (!d->dims->next && d->dims->size &&
                      d->dims->size->kind == PTX_E_INT &&
                      cg_is_decimal(tstr(pm, d->dims->size->tok).p,
                                    tstr(pm, d->dims->size->tok).n)))) {
        ptx_str z = d->dims ? tstr(pm, d->dims->size->tok) : (ptx_str){ "", 0 };
        cp->typestr = cat(m, ty, d->dims ? ".array" : "", z.p, z.n);
        return NULL;
    }
    if (ptr_form(b, sp, d, ty, cp))
        return NULL;
    cp->typestr = ty;
    if (sp) { /* the name trick: the name carries the rest of the source */
        uint32_t a = pm->toks[sp->tok].start, z = pm->toks[d->name].start;
        cp->pre = cg_strndup(m, pm->src + a, z - a);
    }
    ptx_tok last = decl_last(d);
    if (last > d->name) {
        ptx_str r = cg_span(pm, d->name, last + 1);
        cp->rest = cg_strndup(m, r.p + name.n, r.n - name.n);
    }
    return NULL;
}

static const char *params(cg_builder *b, cg_kernel *k, const ptx_func *f)
{
    if (!f->params)
        return "no parameter list: pyptx always writes \"NAME()\"";
    k->has_params = 1;
    cg_param **tail = &k->params;
    for (const ptx_param *p = f->params->params; p; p = p->next) {
        cg_param *cp = cg_alloc(b->m, sizeof *cp);
        const char *why = param(b, p, cp);
        if (why)
            return why;
        *tail = cp;
        tail = &cp->next;
    }
    return NULL;
}

static void dirs(cg_builder *b, cg_kernel *k, const ptx_func *f)
{
    cg_module *m = b->m;
    cg_dir **tail = &k->dirs;
    for (const ptx_fdir *d = f->dirs; d; d = d->next) {
        cg_dir *cd = cg_alloc(m, sizeof *cd);
        ptx_str n = tstr(b->pm, d->dir);
        cd->name = cg_strndup(m, n.p + 1, n.n - 1);
        uint32_t nv = 0;
        for (const ptx_expr *a = d->args; a; a = a->next)
            nv++;
        cd->vals = cg_alloc(m, (nv + 1) * sizeof *cd->vals);
        cd->is_int = cg_alloc(m, nv + 1);
        for (const ptx_expr *a = d->args; a; a = a->next) {
            ptx_tok last = cg_expr_last(a);
            if (!a->next && d->semi != PTX_NOTOK)
                last = d->semi;
            ptx_str v = cg_span(b->pm, a->kind == PTX_E_BINARY ? a->a->tok : a->tok, last + 1);
            if (a->kind == PTX_E_BINARY || a->kind == PTX_E_COND) {
                const ptx_expr *x = a;
                while (x->kind == PTX_E_BINARY || x->kind == PTX_E_COND)
                    x = x->a;
                v = cg_span(b->pm, x->tok, last + 1);
            }
            cd->is_int[cd->nvals] = a->kind == PTX_E_INT && last == a->tok &&
                                    cg_is_decimal(v.p, v.n);
            cd->vals[cd->nvals++] = cg_strndup(m, v.p, v.n);
        }
        *tail = cd;
        tail = &cd->next;
    }
}

/* Comments in the entry header, which pyptx writes itself. */
static void header_note(cg_builder *b, cg_kernel *k, const ptx_func *f)
{
    const ptx_module *pm = b->pm;
    ptx_buf nb = { 0 };
    for (ptx_tok t = f->kw + 1; t <= f->body->lbrace; t++) {
        uint32_t a = ptx_tok_lead(pm, t), z = pm->toks[t].start;
        const char *g = pm->src + a;
        for (const char *c; (c = memchr(g, '/', z - (uint32_t)(g - pm->src)));) {
            const char *e = c;
            size_t left = pm->src + z - c;
            if (left > 1 && c[1] == '*') {
                const char *x = memmem(c, left, "*/", 2);
                e = x ? x + 2 : pm->src + z;
            } else {
                while (e < pm->src + z && *e != '\n')
                    e++;
            }
            for (const char *q = c; q < e; q++)
                ptx_buf_putc(&nb, *q == '\n' ? ' ' : *q);
            ptx_buf_putc(&nb, '\n');
            g = e;
        }
    }
    if (nb.n)
        k->note = cg_strndup(b->m, nb.p, nb.n);
    ptx_buf_free(&nb);
}

/* The kernel's Python function: its PTX name where that is a free
   identifier, else _k<i> (no PTX name taken as is starts with _k). */
static void kernel_names(cg_module *m, cg_kernel *k, uint32_t i)
{
    size_t n = strlen(k->ptx_name);
    if (!m->pyfns)
        m->pyfns = cg_alloc(m, sizeof *m->pyfns);
    if (cg_is_identifier(k->ptx_name, n) && !cg_py_reserved(k->ptx_name, n) &&
        !(k->ptx_name[0] == '_' && k->ptx_name[1] == 'k') &&
        !cg_map_get(m->pyfns, k->ptx_name, n)) {
        k->py_name = k->ptx_name;
        k->decorated = 1;
    } else {
        char buf[32];
        snprintf(buf, sizeof buf, "_k%u", i);
        k->py_name = cg_strndup(m, buf, strlen(buf));
    }
    cg_map_put(m, m->pyfns, k->py_name, strlen(k->py_name));
}

/* What a kernel's build needs of the others: its PTX name and its Python
   function's, which must differ from theirs (serial, in source order). */
static void kernel_head(cg_module *m, const ptx_stmt *s, cg_kernel *k, uint32_t i)
{
    k->src = s;
    if (!k->ptx_name) {
        ptx_str n = tstr(m->src, s->u.func.name);
        k->ptx_name = cg_strndup(m, n.p, n.n);
    }
    kernel_names(m, k, i);
}

/* The rest of the kernel: parameters, directives, body.  It writes only k
   and what m allocates, so kernels may be built at once, each with a
   module of its own for that (build_jobs.c). */
void cg_build_kernel(cg_module *m, cg_kernel *k)
{
    const ptx_func *f = &k->src->u.func;
    cg_builder b = { .m = m, .pm = m->src, .k = k, .gen = 1 };
    size_t readable = m->src->size + 1; /* the NUL after the source too */
    b.load8_lo = (uintptr_t)m->src->src;
    b.load8_span = readable >= 8 ? readable - 8 : 0;
    if (readable < 8)
        b.load8_lo = UINTPTR_MAX; /* nothing: no p passes */
    k->unsupported = params(&b, k, f);
    if (k->unsupported) {
        /* carried as raw text, which keeps its PTX name (--name too) */
        ptx_str n = tstr(m->src, f->name);
        k->ptx_name = cg_strndup(m, n.p, n.n);
        return;
    }
    dirs(&b, k, f);
    header_note(&b, k, f);
    cg_build_body(&b, f->body, &k->body);
}

/* ---- module ----------------------------------------------------------- */

static const ptx_stmt *first_of(const ptx_module *pm, uint32_t kind)
{
    for (const ptx_stmt *s = pm->items; s; s = s->next)
        if (s->kind == kind)
            return s;
    return NULL;
}

static void header_values(cg_module *m)
{
    const ptx_module *pm = m->src;
    const ptx_stmt *v = first_of(pm, PTX_S_VERSION), *t = first_of(pm, PTX_S_TARGET);
    m->arch = "sm_90a";
    m->vmajor = "8";
    m->vminor = "5";
    m->version_ints = 1;
    if (t && t->u.dir.args) {
        const ptx_expr *a = t->u.dir.args;
        while (a->next)
            a = a->next;
        m->arch = dup_span(m, t->u.dir.args->tok, cg_expr_last(a) + 1);
    }
    if (v && v->u.dir.args && !v->u.dir.args->next) {
        ptx_str s = tstr(pm, v->u.dir.args->tok);
        const char *dot = memchr(s.p, '.', s.n);
        if (dot) {
            m->vmajor = cg_strndup(m, s.p, (size_t)(dot - s.p));
            m->vminor = cg_strndup(m, dot + 1, s.n - (size_t)(dot - s.p) - 1);
            m->version_ints = cg_is_decimal(m->vmajor, strlen(m->vmajor)) &&
                              cg_is_decimal(m->vminor, strlen(m->vminor));
        }
    }
}

/* What a raw module segment holds, for the comment above it: the kinds of
   its items in order of first appearance, and "comments".  *from is where
   the items of this segment start (segments come in source order), and is
   left at the first item after it. */
static const char *seg_why(cg_module *m, size_t a, size_t z,
                           const ptx_stmt **from)
{
    const ptx_module *pm = m->src;
    enum { ENTRY_HERE = 11, ENTRY_NEXT, COMMENTS, NWHAT };
    static const char *const what[NWHAT] = {
        "module header", ".file", "debug .section", "module variables",
        ".func / declarations", "@@DWARF", "preprocessor lines", ".alias",
        ".callprototype", ".pragma", ".loc",
        "entry pyptx cannot express", "linkage of the next .entry", "comments",
    };
    static const struct { uint32_t kind, what; } kinds[] = {
        { PTX_S_VERSION, 0 }, { PTX_S_TARGET, 0 }, { PTX_S_ADDRESS_SIZE, 0 },
        { PTX_S_FILE, 1 }, { PTX_S_SECTION, 2 }, { PTX_S_VAR, 3 },
        { PTX_S_FUNC, 4 }, { PTX_S_DWARF, 5 }, { PTX_S_PREPROC, 6 },
        { PTX_S_ALIAS, 7 }, { PTX_S_CALLPROTOTYPE, 8 }, { PTX_S_PRAGMA, 9 },
        { PTX_S_LOC, 10 },
    };
    unsigned order[NWHAT], n = 0, seen = 0;
    const ptx_stmt *s = *from;
    for (; s && pm->toks[s->first].start < z; s = s->next) {
        if (pm->toks[s->first].start < a)
            continue;
        int w = -1;
        if (is_entry_def(pm, s))
            w = pm->toks[s->u.func.kw].start < z ? ENTRY_HERE : ENTRY_NEXT;
        for (unsigned i = 0; w < 0 && i < sizeof kinds / sizeof *kinds; i++)
            if (kinds[i].kind == s->kind)
                w = (int)kinds[i].what;
        if (w >= 0 && !(seen >> w & 1)) {
            seen |= 1u << w;
            order[n++] = (unsigned)w;
        }
    }
    *from = s;
    if (cg_find_slash(pm->src + a, z - a, '/') || cg_find_slash(pm->src + a, z - a, '*'))
        order[n++] = COMMENTS;
    if (!n)
        return NULL;
    ptx_buf buf = { 0 };
    for (unsigned i = 0; i < n; i++) {
        if (i)
            ptx_buf_put(&buf, ", ", 2);
        ptx_buf_puts(&buf, what[order[i]]);
    }
    const char *why = cg_strndup(m, buf.p, buf.n);
    ptx_buf_free(&buf);
    return why;
}

static void add_seg(cg_module *m, size_t a, size_t z, int32_t kernel,
                    const ptx_stmt **from)
{
    cg_seg *s = &m->segs[m->nsegs++];
    s->kernel = kernel;
    if (kernel < 0) {
        s->p = m->src->src + a;
        s->n = z - a;
        s->why = seg_why(m, a, z, from);
    }
}

static int count_entries(const ptx_module *pm)
{
    int n = 0;
    for (const ptx_stmt *s = pm->items; s; s = s->next)
        n += is_entry_def(pm, s);
    return n;
}

int cg_build(const ptx_module *pm, const cg_options *o, cg_module **out,
             ptx_diag *err)
{
    int ne = count_entries(pm);
    if (o->name && ne != 1) {
        ptx_diag_at(pm, 0, "--name needs exactly one .entry definition", err);
        snprintf(err->msg, sizeof err->msg,
                 "--name needs exactly one .entry definition; the file has %d", ne);
        return -1;
    }
    cg_module *m = calloc(1, sizeof *m);
    m->arena = ptx_arena_new();
    m->stmts = ptx_arena_new();
    m->src = pm;
    m->opt = o;
    m->srcname = o->srcname ? o->srcname : pm->filename;
    header_values(m);
    m->kernels = cg_alloc(m, (size_t)(ne + 1) * sizeof *m->kernels);
    m->segs = cg_alloc(m, (size_t)(2 * ne + 2) * sizeof *m->segs);
    for (const ptx_stmt *s = pm->items; s; s = s->next)
        if (is_entry_def(pm, s)) {
            cg_kernel *k = &m->kernels[m->nkernels];
            k->ptx_name = o->name ? o->name : NULL;
            kernel_head(m, s, k, m->nkernels++);
        }
    cg_build_kernels(m, o->jobs);
    /* the raw text between the kernels pyptx can express */
    size_t pos = 0;
    const ptx_stmt *from = pm->items;
    for (uint32_t i = 0; i < m->nkernels; i++) {
        const cg_kernel *k = &m->kernels[i];
        if (k->unsupported)
            continue;
        add_seg(m, pos, pm->toks[k->src->u.func.kw].start, -1, &from);
        add_seg(m, 0, 0, (int32_t)i, NULL);
        ptx_tok rb = k->src->u.func.body->rbrace;
        pos = pm->toks[rb].start + pm->toks[rb].len;
    }
    add_seg(m, pos, pm->size, -1, &from);
    *out = m;
    return 0;
}

void cg_module_free(cg_module *m)
{
    if (!m)
        return;
    ptx_arena_free(m->arena);
    ptx_arena_free(m->stmts);
    free(m);
}
