/*
 * build_module.c - the module: header values, entries (kernel headers and
 * bodies), the raw segments between them (DESIGN.md 2, 3).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "codegen/build.h"
#include "util/alloc.h"
#include "util/arena.h"
#include "util/buf.h"

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
    ptx_bufs ob;
    ptx_own_bufs(&ob, &nb, NULL);
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
    ptx_free_bufs(&ob);
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
static void kernel_head(cg_module *m, const ptx_module *pm, const ptx_stmt *s,
                        cg_kernel *k, uint32_t i)
{
    k->src = s;
    if (!k->ptx_name) {
        ptx_str n = tstr(pm, s->u.func.name);
        k->ptx_name = cg_strndup(m, n.p, n.n);
    }
    kernel_names(m, k, i);
}

void cg_builder_at(cg_builder *b, const ptx_module *pm)
{
    size_t readable = pm->size + 1; /* the NUL after the source too */
    b->pm = pm;
    b->load8_lo = (uintptr_t)pm->src;
    b->load8_span = readable >= 8 ? readable - 8 : 0;
    if (readable < 8)
        b->load8_lo = UINTPTR_MAX; /* nothing: no p passes */
}

const char *cg_build_kernel_head(cg_builder *b, cg_kernel *k)
{
    const ptx_func *f = &k->src->u.func;
    k->unsupported = params(b, k, f);
    if (k->unsupported) {
        /* carried as raw text, which keeps its PTX name (--name too) */
        ptx_str n = tstr(b->pm, f->name);
        k->ptx_name = cg_strndup(b->m, n.p, n.n);
        return k->unsupported;
    }
    dirs(b, k, f);
    header_note(b, k, f);
    return NULL;
}

/* The rest of the kernel: parameters, directives, body.  It writes only k
   and what m allocates, so kernels may be built at once, each with a
   module of its own for that (build_jobs.c). */
void cg_build_kernel(cg_module *m, cg_kernel *k)
{
    cg_builder b = { .m = m, .keep = m, .k = k, .gen = 1 };
    cg_builder_at(&b, m->src);
    if (!cg_build_kernel_head(&b, k))
        cg_build_body(&b, k->src->u.func.body, &k->body);
}

/* ---- module ----------------------------------------------------------- */

static const ptx_stmt *first_of(const ptx_module *pm, uint32_t kind)
{
    for (const ptx_stmt *s = pm->items; s; s = s->next)
        if (s->kind == kind)
            return s;
    return NULL;
}

/* @kernel's arch and version: the first .target's and .version's, which
   may come in any piece of the module (m->have_*: found already). */
static void header_values(cg_module *m, const ptx_module *pm)
{
    const ptx_stmt *v = m->have_version ? NULL : first_of(pm, PTX_S_VERSION);
    const ptx_stmt *t = m->have_target ? NULL : first_of(pm, PTX_S_TARGET);
    m->have_version |= v != NULL;
    m->have_target |= t != NULL;
    if (t && t->u.dir.args) {
        const ptx_expr *a = t->u.dir.args;
        while (a->next)
            a = a->next;
        ptx_str s = cg_span(pm, t->u.dir.args->tok, cg_expr_last(a) + 1);
        m->arch = cg_strndup(m, s.p, s.n);
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

/* The raw segments of _MODULE, the text between the kernels pyptx can
   express, each with a comment that says what it holds: the kinds of its
   items in order of first appearance, and "comments".  A segment is open
   (m->seg_*) while the items are walked, piece after piece, and closed by
   the next kernel or the end of the text. */
#define CG_SEG_NAME(e, s) s,
const char *const cg_seg_kind_names[CG_SEG_NKINDS] = { CG_SEG_KINDS(CG_SEG_NAME) };
#undef CG_SEG_NAME
static const struct { uint32_t kind, what; } seg_kinds[] = {
    { PTX_S_VERSION, CG_SEG_HEADER }, { PTX_S_TARGET, CG_SEG_HEADER },
    { PTX_S_ADDRESS_SIZE, CG_SEG_HEADER }, { PTX_S_FILE, CG_SEG_FILE },
    { PTX_S_SECTION, CG_SEG_SECTION }, { PTX_S_VAR, CG_SEG_VARS },
    { PTX_S_FUNC, CG_SEG_FUNCS }, { PTX_S_DWARF, CG_SEG_DWARF },
    { PTX_S_PREPROC, CG_SEG_PREPROC }, { PTX_S_ALIAS, CG_SEG_ALIAS },
    { PTX_S_CALLPROTOTYPE, CG_SEG_PROTO }, { PTX_S_PRAGMA, CG_SEG_PRAGMA },
    { PTX_S_LOC, CG_SEG_LOC },
};

_Static_assert(CG_SEG_NKINDS <= sizeof ((cg_module *)0)->seg_order, "seg_order holds every kind");
_Static_assert(CG_SEG_NKINDS <= sizeof ((cg_seg *)0)->kinds, "a segment holds every kind");
_Static_assert(CG_SEG_NKINDS <= 32, "seg_seen has a bit per kind");

static void seg_saw(cg_module *m, unsigned w)
{
    if (!(m->seg_seen >> w & 1)) {
        m->seg_seen |= 1u << w;
        m->seg_order[m->seg_n++] = (uint8_t)w;
    }
}

static void seg_item(cg_module *m, const ptx_module *pm, const ptx_stmt *s)
{
    if (is_entry_def(pm, s)) {
        seg_saw(m, CG_SEG_ENTRY_HERE);
        return;
    }
    for (unsigned i = 0; i < sizeof seg_kinds / sizeof *seg_kinds; i++)
        if (seg_kinds[i].kind == s->kind) {
            seg_saw(m, seg_kinds[i].what);
            return;
        }
}

static cg_seg *seg_new(cg_module *m, int32_t kernel)
{
    m->segs = cg_grow(m, m->segs, m->nsegs, &m->capsegs, sizeof *m->segs);
    cg_seg *s = &m->segs[m->nsegs++];
    s->kernel = kernel;
    return s;
}

/* Closes the open segment at byte z of the module's text. */
static void seg_close(cg_module *m, const char *text, size_t z)
{
    size_t a = m->seg_pos;
    cg_seg *s = seg_new(m, -1);
    s->p = text + a;
    s->n = z - a;
    if (cg_find_slash(text + a, z - a, '/') || cg_find_slash(text + a, z - a, '*'))
        seg_saw(m, CG_SEG_COMMENTS);
    s->nkinds = m->seg_n;
    memcpy(s->kinds, m->seg_order, m->seg_n);
    m->seg_seen = m->seg_n = 0;
}

/* pm's items into segments: its kernels are m->kernels[k...], in order. */
static void segments(cg_module *m, const ptx_module *pm, const char *text,
                     size_t at, uint32_t k)
{
    for (const ptx_stmt *s = pm->items; s; s = s->next) {
        if (!is_entry_def(pm, s) || m->kernels[k].unsupported) {
            k += is_entry_def(pm, s);
            seg_item(m, pm, s);
            continue;
        }
        uint32_t first = pm->toks[s->first].start, kw = pm->toks[s->u.func.kw].start;
        if (first < kw)
            seg_saw(m, CG_SEG_ENTRY_NEXT);
        seg_close(m, text, at + kw);
        seg_new(m, (int32_t)k++);
        ptx_tok rb = s->u.func.body->rbrace;
        if (rb != PTX_NOTOK)    /* else where the kernel closes (cg_open_part) */
            m->seg_pos = at + pm->toks[rb].start + pm->toks[rb].len;
    }
}

void cg_module_follow(cg_module *next, const cg_module *m, size_t at)
{
    next->arch = m->arch;
    next->vmajor = m->vmajor;
    next->vminor = m->vminor;
    next->version_ints = m->version_ints;
    next->have_version = m->have_version;
    next->have_target = m->have_target;
    next->seg_pos = at;
}

/* The kernels' names next gave are the ones m would give: each took its
   PTX name (a _k<i> name counts next's kernels, not m's), and none of
   m's kernels has it. */
static int names_follow(const cg_module *m, const cg_module *next)
{
    for (uint32_t i = 0; i < next->nkernels; i++) {
        const cg_kernel *k = &next->kernels[i];
        if (!k->decorated ||
            (m->pyfns && cg_map_get(m->pyfns, k->py_name, strlen(k->py_name))))
            return 0;
    }
    return 1;
}

int cg_module_join(cg_module *m, const cg_module *next, const char *text)
{
    if (!names_follow(m, next))
        return -1;
    m->types_used |= next->types_used;
    uint32_t base = m->nkernels;
    for (uint32_t i = 0; i < next->nkernels; i++) {
        m->kernels = cg_grow(m, m->kernels, m->nkernels, &m->capkernels, sizeof *m->kernels);
        m->kernels[m->nkernels++] = next->kernels[i];
        kernel_names(m, &m->kernels[base + i], base + i);
    }
    /* next began inside m's open segment: its first, closed at next's
       first kernel, is the rest of that one (its comments looked for
       again over the whole) */
    const cg_seg *s = next->segs, *end = next->segs + next->nsegs;
    const uint8_t *kinds = s < end ? s->kinds : next->seg_order;
    unsigned nkinds = s < end ? s->nkinds : next->seg_n;
    for (unsigned i = 0; i < nkinds; i++)
        if (kinds[i] != CG_SEG_COMMENTS)
            seg_saw(m, kinds[i]);
    if (s == end)
        return 0;
    seg_close(m, text, (size_t)(s->p + s->n - text));
    for (s++; s < end; s++) {
        cg_seg *c = seg_new(m, -1);
        *c = *s;
        if (c->kernel >= 0)
            c->kernel += (int32_t)base;
    }
    m->seg_pos = next->seg_pos;
    m->seg_seen = next->seg_seen;
    m->seg_n = next->seg_n;
    memcpy(m->seg_order, next->seg_order, next->seg_n);
    return 0;
}

void cg_module_release(void *m)
{
    cg_module_free(m);
}

cg_module *cg_module_new(const cg_options *o, const char *filename)
{
    cg_module *m = ptx_xcalloc(1, sizeof *m);
    ptx_owned own;
    ptx_own(&own, cg_module_release, m);
    m->arena = ptx_arena_new();
    m->stmts = ptx_arena_new();
    ptx_disown(&own);
    m->opt = o;
    m->srcname = o->srcname ? o->srcname : filename;
    m->arch = "sm_90a";
    m->vmajor = "8";
    m->vminor = "5";
    m->version_ints = 1;
    return m;
}

void cg_build_items(cg_module *m, const ptx_module *pm, const char *text,
                    size_t at, ptx_arena *ir, cg_open *open)
{
    m->src = pm;
    header_values(m, pm);
    uint32_t from = m->nkernels;
    for (const ptx_stmt *s = pm->items; s; s = s->next)
        if (is_entry_def(pm, s)) {
            m->kernels = cg_grow(m, m->kernels, m->nkernels, &m->capkernels,
                                 sizeof *m->kernels);
            cg_kernel *k = &m->kernels[m->nkernels];
            k->ptx_name = m->opt->name;
            kernel_head(m, pm, s, k, m->nkernels++);
        }
    uint32_t to = m->nkernels;
    if (to > from && m->kernels[to - 1].src->u.func.body->rbrace == PTX_NOTOK)
        cg_open_begin(open, m, pm, --to);   /* only pieces end in a body */
    cg_build_kernels(m, from, to, m->opt->jobs, ir);
    segments(m, pm, text, at, from);
}

void cg_build_end(cg_module *m, const char *text, size_t size)
{
    seg_close(m, text, size);
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
    cg_module *m = *out = cg_module_new(o, pm->filename);   /* the caller's to free */
    cg_build_items(m, pm, pm->src, 0, NULL, NULL);
    cg_build_end(m, pm->src, pm->size);
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
