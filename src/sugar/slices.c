/*
 * sugar/slices.c - pass "slices": long register-list operands (wgmma and
 * tcgen05 fragments, vector loads/stores of 8+ registers) written as
 * comprehensions over the register array:
 *
 *     {%f5889, %f5888, ..., %f5762}  ->  [f[k] for k in range(5889, 5761, -1)]
 *     {%r0, ..., %r63, %r70}         ->  [r[k] for k in range(64)] + [r[70]]
 *
 * pyptx 0.1.1's RegArray has no slice indexing (r[0:64] raises), and a
 * Python list operand prints as {e0, e1, ...}, so a comprehension gives
 * the same operand text.  Runs of 4+ registers of one array with a
 * constant index step become one comprehension; the operand is rewritten
 * only when the Python gets shorter.
 */
#include "codegen/build.h"
#include "sugar/sugar.h"
#include "util/alloc.h"

#define MINRUN 4
#define MINVEC 8

static int arr_elem(const cg_kernel *k, const cg_opnd *e)
{
    return e->kind == CG_O_SYM && e->index >= 0 &&
           k->syms[e->sym].kind == CG_SYM_REGARRAY && k->syms[e->sym].py;
}

/* The end of the run of elements of one array, at a constant index step,
   that starts at el[i] (*step 0: no such run; i + 1 then). */
static unsigned run_end(const cg_kernel *k, cg_opnd **el, unsigned n,
                        unsigned i, long *step)
{
    unsigned j = i + 1;
    *step = 0;
    if (arr_elem(k, el[i]) && i + 1 < n && arr_elem(k, el[i + 1]) &&
        el[i + 1]->sym == el[i]->sym) {
        *step = (long)el[i + 1]->index - el[i]->index;
        if (*step != 0) {
            while (j < n && arr_elem(k, el[j]) && el[j]->sym == el[i]->sym &&
                   (long)el[j]->index - el[j - 1]->index == *step)
                j++;
        }
    }
    return j;
}

/* el[i..j) (a run at index step `step`) as a comprehension over its
   array: range(b), range(a, b) or range(a, b, step). */
static cg_opnd *comprehension(cg_module *m, cg_opnd **el, unsigned i, unsigned j, long step)
{
    long a = el[i]->index, b = (long)el[j - 1]->index + (step > 0 ? 1 : -1);
    cg_opnd *o = cg_opnd_new(m, SG_O_COMP), *v[3];
    unsigned n = 0;
    if (step != 1 || a != 0)
        v[n++] = sg_int_opnd(m, a);
    v[n++] = sg_int_opnd(m, b);
    if (step != 1)
        v[n++] = sg_int_opnd(m, step);
    o->sym = el[i]->sym;
    o->elems = sg_opnd_list(v, n);
    return o;
}

/* The parts of vector el[0..n): comprehensions over runs, lists of the
   elements between them; *nruns the comprehensions. */
static cg_opnd *parts(cg_module *m, const cg_kernel *k, cg_opnd **el, unsigned n,
                      unsigned *nruns)
{
    cg_opnd **part = cg_alloc(m, n * sizeof *part), *single = NULL, **tail = NULL;
    unsigned np = 0;
    *nruns = 0;
    for (unsigned i = 0, j; i < n; i = j) {
        long step;
        j = run_end(k, el, n, i, &step);
        if (step != 0 && j - i >= MINRUN) {
            part[np++] = comprehension(m, el, i, j, step);
            single = NULL;
            ++*nruns;
            continue;
        }
        j = i + 1;
        if (!single) {
            single = part[np++] = cg_opnd_new(m, CG_O_VEC);
            tail = &single->elems;
        }
        *tail = sg_copy_opnd(m, el[i]);
        tail = &(*tail)->next;
    }
    return sg_opnd_list(part, np);
}

static int rewrite_vec(cg_module *m, const cg_kernel *k, cg_opnd *v)
{
    unsigned n = 0;
    for (cg_opnd *e = v->elems; e; e = e->next)
        n++;
    if (n < MINVEC)
        return 0;
    cg_opnd **el = cg_alloc(m, n * sizeof *el);
    n = 0;
    for (cg_opnd *e = v->elems; e; e = e->next)
        el[n++] = e;
    unsigned nruns;
    cg_opnd *cat = cg_opnd_new(m, SG_O_CONCAT);
    cat->elems = parts(m, k, el, n, &nruns);
    ptx_buf plain = { 0 }, out = { 0 };
    ptx_bufs ob;
    ptx_own_bufs(&ob, &plain, &out, NULL);
    cg_print_opnd(m, k, v, &plain);
    cg_print_opnd(m, k, cat, &out);
    int ok = nruns > 0 && out.n < plain.n;
    if (ok) {
        v->kind = SG_O_CONCAT;
        v->elems = cat->elems;
    }
    ptx_free_bufs(&ob);
    return ok;
}

typedef struct slicing {
    cg_module *m;
    const cg_kernel *k;
    uint32_t n;
} slicing;

/* A vector's elements (all it holds) are rewrite_vec's: not entered. */
static int slice_opnd(void *ctx, cg_opnd *o)
{
    slicing *c = ctx;
    if (o->kind != CG_O_VEC)
        return SG_VISIT_ON;
    c->n += (uint32_t)rewrite_vec(c->m, c->k, o);
    return SG_VISIT_SKIP;
}

static int slice_stmt(void *ctx, cg_stmt **link)
{
    slicing *c = ctx;
    if ((*link)->kind == CG_S_INST)
        sg_visit_opnds((*link)->u.inst.ops, slice_opnd, c);
    return SG_VISIT_ON;
}

uint32_t sugar_slices(cg_module *m, cg_kernel *k)
{
    slicing c = { m, k, 0 };
    if (k->max_vec < MINVEC)   /* no list long enough: no walk (the passes
                                  before this one make no vector) */
        return 0;
    sg_visit_stmts(&k->body, slice_stmt, &c);
    return c.n;
}
