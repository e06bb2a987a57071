/*
 * text.c - carried source text as cg_text pieces (literal bytes and symbol
 * references), so that raw lines follow a renaming.
 */
#include <string.h>
#include "codegen/build.h"

const char *cg_find_slash(const char *p, size_t n, char c)
{
    for (const char *e = p + n; (p = memchr(p, '/', (size_t)(e - p))); p++)
        if (p + 1 < e && p[1] == c)
            return p;
    return NULL;
}

ptx_str cg_span(const ptx_module *pm, ptx_tok i, ptx_tok j)
{
    ptx_str s = { pm->src + pm->toks[i].start, 0 };
    if (j > i)
        s.n = pm->toks[j - 1].start + pm->toks[j - 1].len - pm->toks[i].start;
    return s;
}

cg_text cg_text_lit(cg_module *m, const char *p, size_t n)
{
    cg_text t;
    t.v = cg_alloc(m, sizeof *t.v);
    t.v->p = p;
    t.v->n = (uint32_t)n;
    t.v->sym = CG_NOSYM;
    t.v->index = -1;
    t.n = 1;
    return t;
}

static int may_name(const ptx_module *pm, ptx_tok t)
{
    return pm->toks[t].kind == PTX_T_WORD;
}

cg_text cg_text_span(cg_builder *b, ptx_tok i, ptx_tok j, ptx_tok skip)
{
    const ptx_module *pm = b->pm;
    cg_text t = { 0 };
    uint32_t cap = 0;
    const char *lit = pm->src + pm->toks[i].start;
    const char *end = pm->src + pm->toks[j - 1].start + pm->toks[j - 1].len;
    for (ptx_tok x = i; x <= j; x++) {
        cg_symid id = CG_NOSYM;
        int32_t idx = -1;
        const char *p = x < j ? pm->src + pm->toks[x].start : end;
        if (x < j && x != skip && may_name(pm, x))
            id = cg_resolve(b, p, pm->toks[x].len, &idx);
        if (id == CG_NOSYM && x < j)
            continue;
        if (p > lit) {
            t.v = cg_grow(b->m, t.v, t.n, &cap, sizeof *t.v);
            t.v[t.n++] = (cg_piece){ lit, (uint32_t)(p - lit), CG_NOSYM, -1 };
        }
        if (x < j) {
            t.v = cg_grow(b->m, t.v, t.n, &cap, sizeof *t.v);
            t.v[t.n++] = (cg_piece){ NULL, 0, id, idx };
            b->k->syms[id].uses++;
            lit = p + pm->toks[x].len;
        }
    }
    return t;
}
