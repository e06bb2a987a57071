/*
 * tree.c - compare two trees of PTX files kernel by kernel
 * (ptx_diff_trees; the rule is in ptx/diff.h).
 *
 * Every file's units are built once, into one interner for both trees, so
 * that a line's id means the same in every file: a pair of kernels from
 * any two files aligns as ptx_diff_run aligns two functions, and the
 * statements two kernels have in common are counted by merging their
 * sorted ids (pair.c), without aligning every candidate pair.  The
 * kernels of a side are sorted by name, and the two sorted lists walked
 * together: each name's kernels on both sides form a group, paired by
 * pair.c.
 */
#include <stdlib.h>
#include <string.h>
#include "diff/tree.h"
#include "util/alloc.h"
#include "util/diag.h"

/* Name order, then side order (file, then position in the file), so that
   a group lists its kernels as the tree does. */
static int by_name(const void *x, const void *y)
{
    const tkernel *a = x, *b = y;
    int c = pd_kernel_name_cmp(a, b);
    if (c)
        return c;
    return a->file != b->file ? (a->file < b->file ? -1 : 1)
                              : (a->unit < b->unit ? -1 : a->unit > b->unit);
}

/* Each file of a side built, and its kernels listed in name order. */
static void build_side(ptx_tree_diff *t, int s, const ptx_tree_file *f, size_t n,
                       unsigned flags)
{
    tside *ts = &t->s[s];
    ts->sd = pd_calloc(n + 1, sizeof *ts->sd);
    ts->f = f, ts->n = n;   /* (after: ptx_tree_free walks sd[0..n)) */
    size_t nk = 0;
    for (size_t i = 0; i < n; i++)
        if (f[i].m) {
            pd_side_build(&ts->sd[i], f[i].m, flags, &t->in);
            nk += ts->sd[i].n - 1;
        }
    ts->k = pd_calloc(nk + 1, sizeof *ts->k);
    for (size_t i = 0; i < n; i++)
        for (size_t u = 1; f[i].m && u < ts->sd[i].n; u++)
            ts->k[ts->nk++] = (tkernel){ ts->sd[i].units[u].name, (int)i, (int)u,
                                         f[i].meta, NULL, 0 };
    qsort(ts->k, ts->nk, sizeof *ts->k, by_name);
}

tentry *pd_tree_add(ptx_tree_diff *t, const tkernel *a, const tkernel *b, ptx_tree_how how,
                    unsigned similarity)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 64;
        t->e = pd_realloc(t->e, t->cap * sizeof *t->e);
    }
    tentry *e = &t->e[t->n++];
    memset(e, 0, sizeof *e);
    e->fa = a ? a->file : -1, e->fb = b ? b->file : -1;
    e->p.ua = a ? a->unit : -1, e->p.ub = b ? b->unit : -1;
    ptx_str nm = a ? a->name : b->name;
    char *name = pd_realloc(NULL, nm.n + 1);
    memcpy(name, nm.p, nm.n);
    name[nm.n] = 0;
    e->info.name = e->p.info.name = name;
    e->info.how = how;
    e->info.similarity = similarity;
    return e;
}

/* The module level of every pair of files that holds a pair of kernels,
   once per pair of files. */
static void add_modules(ptx_tree_diff *t)
{
    size_t nk = t->n;
    for (size_t i = 0; i < nk; i++) {
        int fa = t->e[i].fa, fb = t->e[i].fb, seen = fa < 0 || fb < 0;
        for (size_t j = nk; j < t->n && !seen; j++)
            seen = t->e[j].fa == fa && t->e[j].fb == fb;
        if (seen)
            continue;
        static const tkernel none = { { "(module)", 8 }, 0, 0, NULL, NULL, 0 };
        tkernel a = none, b = none;
        a.file = fa, b.file = fb;
        pd_tree_add(t, &a, &b, PTX_TREE_BY_NAME, 0)->info.module = 1;
    }
}

static const unit *entry_unit(const ptx_tree_diff *t, const tentry *e, int s)
{
    static const unit none = { { "", 0 }, NULL, 0, NULL, 0, 0 };
    int f = s ? e->fb : e->fa, u = s ? e->p.ub : e->p.ua;
    return f >= 0 && u >= 0 ? &t->s[s].sd[f].units[u] : &none;
}

static void align_entries(ptx_tree_diff *t)
{
    t->same = 1;
    for (int s = 0; s < 2; s++)
        for (size_t i = 0; i < t->s[s].n; i++)
            t->same &= t->s[s].f[i].m != NULL;
    for (size_t i = 0; i < t->n; i++) {
        tentry *e = &t->e[i];
        pd_align(&e->p, entry_unit(t, e, 0), entry_unit(t, e, 1));
        e->info.status = e->p.info.status;
        e->info.added = e->p.info.added;
        e->info.removed = e->p.info.removed;
        e->info.changed = e->p.info.changed;
        e->info.fa = e->fa, e->info.fb = e->fb;
        t->same &= e->info.status == PTX_DIFF_SAME;
    }
}

typedef struct trees_call {
    const ptx_tree_file *a;
    size_t na;
    const ptx_tree_file *b;
    size_t nb;
    const ptx_diff_options *o;
    ptx_tree_diff *t;   /* freed by ptx_diff_trees if memory runs out */
} trees_call;

static void diff_trees(void *ud)
{
    trees_call *c = ud;
    ptx_tree_diff *t = c->t = pd_calloc(1, sizeof *t);
    t->context = c->o->context >= 0 ? c->o->context : 3;
    build_side(t, 0, c->a, c->na, c->o->flags);
    build_side(t, 1, c->b, c->nb, c->o->flags);
    pd_tree_pair(t);
    add_modules(t);
    align_entries(t);
}

ptx_tree_diff *ptx_diff_trees(const ptx_tree_file *a, size_t na, const ptx_tree_file *b,
                              size_t nb, const ptx_diff_options *o, ptx_diag *err)
{
    size_t errn;
    char *msg = ptx_diag_msgbuf(err, &errn);
    ptx_diff_options none = { 0 };
    if (!o)
        o = &none;
    if (o->nfunctions) {
        if (errn)
            snprintf(msg, errn, "--function is not supported with trees");
        return NULL;
    }
    trees_call c = { a, na, b, nb, o, NULL };
    if (ptx_protect(diff_trees, &c) != 0) {
        ptx_tree_free(c.t);
        ptx_diag_none(err, NULL, PTX_OUT_OF_MEMORY);
        return NULL;
    }
    return c.t;
}

int ptx_tree_same(const ptx_tree_diff *t)
{
    return t->same;
}

size_t ptx_tree_nkernels(const ptx_tree_diff *t)
{
    return t->n;
}

const ptx_tree_kernel *ptx_tree_kernel_at(const ptx_tree_diff *t, size_t i)
{
    return i < t->n ? &t->e[i].info : NULL;
}

const ptx_tree_file *ptx_tree_file_at(const ptx_tree_diff *t, int side_b, int f)
{
    const tside *ts = &t->s[side_b != 0];
    return f >= 0 && (size_t)f < ts->n ? &ts->f[f] : NULL;
}

void ptx_tree_free(ptx_tree_diff *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->n; i++) {
        free(t->e[i].p.runs);
        free((char *)t->e[i].info.name);
    }
    free(t->e);
    for (int s = 0; s < 2; s++) {
        for (size_t i = 0; i < t->s[s].n; i++)
            if (t->s[s].f[i].m)
                pd_side_free(&t->s[s].sd[i]);
        for (size_t k = 0; k < t->s[s].nk; k++)
            free(t->s[s].k[k].ids);
        free(t->s[s].sd);
        free(t->s[s].k);
    }
    pd_interner_free(&t->in);
    free(t);
}
