/*
 * sugar/util.c - helpers shared by the sugar passes: pass bookkeeping,
 * copying and comparing IR, free names, inline printing, and the print
 * hook of CG_S_PY nodes (Python lines a pass adds: helper definitions,
 * aliases).
 */
#include <stdlib.h>
#include <string.h>
#include "codegen/build.h"
#include "sugar/sugar.h"

unsigned sg_pass_index(const char *name)
{
    for (unsigned i = 0; i < cg_npasses; i++)
        if (!strcmp(cg_passes[i].name, name))
            return i;
    return 0;
}

void sg_count(cg_stats *st, const char *pass, uint32_t n)
{
    if (st)
        st->pass_applied[sg_pass_index(pass)] += n;
}

/* ---- copies and comparisons ---------------------------------------- */

cg_stmt *sg_copy_stmt(cg_module *m, const cg_stmt *s)
{
    cg_stmt *c = cg_alloc(m, sizeof *c);
    *c = *s;
    c->next = NULL;
    return c;
}

cg_opnd *sg_copy_opnd(cg_module *m, const cg_opnd *o)
{
    if (!o)
        return NULL;
    cg_opnd *c = cg_alloc(m, sizeof *c);
    *c = *o;
    c->next = NULL;
    c->a = sg_copy_opnd(m, o->a);
    c->b = sg_copy_opnd(m, o->b);
    cg_opnd **tail = &c->elems;
    *tail = NULL;
    for (const cg_opnd *e = o->elems; e; e = e->next) {
        *tail = sg_copy_opnd(m, e);
        tail = &(*tail)->next;
    }
    return c;
}

cg_opnd *sg_py_opnd(cg_module *m, const char *text)
{
    cg_opnd *o = cg_opnd_new(m, CG_O_PY);
    o->text = sg_lit(m, text, strlen(text));
    return o;
}

void sg_text_key(const cg_text *t, ptx_buf *b)
{
    for (uint32_t i = 0; i < t->n; i++) {
        const cg_piece *p = &t->v[i];
        if (p->sym != CG_NOSYM)
            ptx_buf_printf(b, "{%u:%d}", (unsigned)p->sym, p->index);
        else
            ptx_buf_put(b, p->p, p->n);
    }
}

int sg_text_equal(const cg_text *a, const cg_text *b)
{
    if (a->n != b->n)
        return 0;
    for (uint32_t i = 0; i < a->n; i++) {
        const cg_piece *x = &a->v[i], *y = &b->v[i];
        if (x->sym != y->sym || x->index != y->index)
            return 0;
        if (x->sym == CG_NOSYM &&
            (x->n != y->n || memcmp(x->p, y->p, x->n)))
            return 0;
    }
    return 1;
}

int sg_text_lit(const cg_text *t, char *buf, size_t cap)
{
    size_t n = 0;
    for (uint32_t i = 0; i < t->n; i++) {
        if (t->v[i].sym != CG_NOSYM || n + t->v[i].n >= cap)
            return 0;
        memcpy(buf + n, t->v[i].p, t->v[i].n);
        n += t->v[i].n;
    }
    buf[n] = 0;
    return 1;
}

int sg_opnd_equal(const cg_opnd *a, const cg_opnd *b)
{
    if (!a || !b)
        return a == b;
    if (a->kind != b->kind || a->sym != b->sym || a->index != b->index)
        return 0;
    if (!sg_text_equal(&a->text, &b->text))
        return 0;
    if (!sg_opnd_equal(a->a, b->a) || !sg_opnd_equal(a->b, b->b))
        return 0;
    const cg_opnd *x = a->elems, *y = b->elems;
    for (; x && y; x = x->next, y = y->next)
        if (!sg_opnd_equal(x, y))
            return 0;
    return x == y;
}

int sg_inst_is(const cg_stmt *s, const char *op)
{
    return s && s->kind == CG_S_INST && !strcmp(s->u.inst.op, op);
}

int sg_inst_mods(const cg_stmt *s, const char *const *mods, unsigned n)
{
    if (s->u.inst.nmods != n)
        return 0;
    for (unsigned i = 0; i < n; i++)
        if (strcmp(s->u.inst.mods[i], mods[i]))
            return 0;
    return 1;
}

unsigned sg_nops(const cg_opnd *o)
{
    unsigned n = 0;
    for (; o; o = o->next)
        n++;
    return n;
}

cg_opnd *sg_op(const cg_stmt *s, unsigned i)
{
    cg_opnd *o = s->u.inst.ops;
    while (o && i--)
        o = o->next;
    return o;
}

/* ---- names ---------------------------------------------------------- */

static int src_has_word(const ptx_module *pm, const char *name)
{
    size_t n = strlen(name);
    for (uint32_t t = 0; t < pm->ntoks; t++)
        if (pm->toks[t].len == n && !memcmp(pm->src + pm->toks[t].start, name, n))
            return 1;
    /* words inside raw-looking tokens (strings, #lines) are rare; also
       reject any occurrence as a substring bounded by non-word bytes */
    const char *p = pm->src;
    while ((p = strstr(p, name)) != NULL) {
        int lb = p == pm->src || !(p[-1] == '_' || p[-1] == '$' || p[-1] == '%' ||
                                   (p[-1] >= '0' && p[-1] <= '9') ||
                                   ((p[-1] | 32) >= 'a' && (p[-1] | 32) <= 'z'));
        char c = p[n];
        int rb = !(c == '_' || c == '$' || (c >= '0' && c <= '9') ||
                   ((c | 32) >= 'a' && (c | 32) <= 'z'));
        if (lb && rb)
            return 1;
        p += n;
    }
    return 0;
}

int sg_ptx_name_free(const cg_module *m, const cg_kernel *k, const char *name)
{
    /* the harness checks the whole module with one bijection, so a new
       spelling must be unused in every kernel, not only in k */
    (void)k;
    for (uint32_t j = 0; j < m->nkernels; j++) {
        const cg_kernel *kj = &m->kernels[j];
        if (!strcmp(kj->ptx_name, name))
            return 0;
        for (uint32_t i = 0; i < kj->nsyms; i++)
            if (kj->syms[i].ptx && !strcmp(kj->syms[i].ptx, name))
                return 0;
    }
    return !src_has_word(m->src, name);
}

int sg_py_name_free(const cg_module *m, const cg_kernel *k, const char *name)
{
    size_t n = strlen(name);
    if (!cg_is_identifier(name, n) || cg_py_reserved(name, n))
        return 0;
    if (cg_pyset_has((cg_kernel *)k, name))
        return 0;
    for (uint32_t i = 0; i < k->nsyms; i++)
        if (k->syms[i].py && !strcmp(k->syms[i].py, name))
            return 0;
    for (uint32_t i = 0; i < m->nkernels; i++)
        if (m->kernels[i].py_name && !strcmp(m->kernels[i].py_name, name))
            return 0;
    return 1;
}

void sg_py_reserve(cg_module *m, const cg_kernel *k, const char *name)
{
    cg_pyset_claim(m, (cg_kernel *)k, name, strlen(name));
}

/* ---- printing -------------------------------------------------------- */

void sg_print_inline(const cg_module *m, const cg_kernel *k, const cg_stmt *s,
                     ptx_buf *out)
{
    ptx_buf b = { 0 };
    cg_stmt one = *s;
    one.next = NULL;
    cg_print_stmts(m, k, &one, 0, &b);
    size_t i = 0, n = b.n;
    while (i < n && (b.p[i] == ' ' || b.p[i] == '\t'))
        i++;
    while (n > i && (b.p[n - 1] == '\n' || b.p[n - 1] == ' '))
        n--;
    ptx_buf_put(out, b.p + i, n - i);
    ptx_buf_free(&b);
}

static void indent(ptx_buf *out, int depth)
{
    for (int i = 0; i < depth; i++)
        ptx_buf_puts(out, "    ");
}

/* CG_S_PY: u.sugar.name holds one or more lines of Python (joined by
   '\n'), printed at `depth`; u.sugar.body, if any, at depth + 1. */
static void print_py(const cg_module *m, const cg_kernel *k, const cg_stmt *s,
                     int depth, ptx_buf *out)
{
    const char *t = s->u.sugar.name ? s->u.sugar.name : "";
    while (*t) {
        const char *e = strchr(t, '\n');
        size_t n = e ? (size_t)(e - t) : strlen(t);
        indent(out, depth);
        ptx_buf_put(out, t, n);
        ptx_buf_putc(out, '\n');
        t += n + (e != NULL);
    }
    if (s->u.sugar.body)
        cg_print_stmts(m, k, s->u.sugar.body, depth + 1, out);
}

void sg_hook_loop(const cg_module *, const cg_kernel *, const cg_stmt *, int, ptx_buf *);
void sg_hook_wait(const cg_module *, const cg_kernel *, const cg_stmt *, int, ptx_buf *);
void sg_hook_for(const cg_module *, const cg_kernel *, const cg_stmt *, int, ptx_buf *);
void sg_hook_expr(const cg_module *, const cg_kernel *, const cg_stmt *, int, ptx_buf *);

void sg_install_hooks(void)
{
    cg_print_hooks[CG_S_PY] = print_py;
    cg_print_hooks[CG_S_LOOP] = sg_hook_loop;
    cg_print_hooks[CG_S_WAIT] = sg_hook_wait;
    cg_print_hooks[CG_S_FOR] = sg_hook_for;
    cg_print_hooks[CG_S_EXPR] = sg_hook_expr;
}

cg_text sg_lit(cg_module *m, const char *p, size_t n)
{
    return cg_text_lit(m, cg_strndup(m, p, n), n);
}
