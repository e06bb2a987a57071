/*
 * pair.c - pair the kernels of two trees (the rule: ptx/diff.h).
 *
 * A name's kernels on both sides are one group.  One kernel a side pairs
 * by name.  Otherwise every candidate pair gets a weight: the fields of
 * their tuning keys that agree (a configuration compared across a change
 * of num_warps still agrees on its block sizes), each worth more than all
 * the group's statements, then the statements the two have in common; the
 * assignment of greatest total weight is found with the Hungarian
 * algorithm (O(n^2 m) for n <= m kernels: an autotuner's few dozen
 * variants cost nothing next to reading them).  A pair so chosen is kept
 * where the metadata alone decides it (each is the other's only best
 * match by agreeing fields) or half its statements are in common;
 * otherwise both count as unpaired.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "diff/tree.h"
#include "util/alloc.h"
#include "util/arena.h"

enum { MIN_SIMILARITY = 50 };   /* percent, below which a pair is not made */

static int by_id(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return a < b ? -1 : a > b;
}

static void sort_ids(const ptx_tree_diff *t, int s, tkernel *k)
{
    if (k->ids)
        return;
    const unit *u = &t->s[s].sd[k->file].units[k->unit];
    k->ids = pd_realloc(NULL, (u->n + 1) * sizeof *k->ids);
    for (uint32_t i = 0; i < u->n; i++)
        k->ids[i] = u->v[i].id;
    k->nids = u->n;
    qsort(k->ids, k->nids, sizeof *k->ids, by_id);
}

/* Statements in common, each as often as it occurs in both. */
static uint32_t common(const tkernel *a, const tkernel *b)
{
    uint32_t i = 0, j = 0, n = 0;
    while (i < a->nids && j < b->nids) {
        if (a->ids[i] == b->ids[j])
            n++, i++, j++;
        else if (a->ids[i] < b->ids[j])
            i++;
        else
            j++;
    }
    return n;
}

static unsigned percent(uint32_t common, const tkernel *a, const tkernel *b)
{
    uint64_t total = (uint64_t)a->nids + b->nids;
    return total ? (unsigned)(200 * (uint64_t)common / total) : 100;
}

/* The fields of tuning key k ("a=1;b=[1, 2]") that tuning key l gives
   the same value: the metadata's agreement. */
static unsigned meta_score(const char *k, const char *l)
{
    unsigned n = 0;
    for (const char *f = k; f && *f; f += *f == ';') {
        size_t len = strcspn(f, ";");
        for (const char *g = l; g && *g; g += *g == ';') {
            size_t glen = strcspn(g, ";");
            n += glen == len && memcmp(f, g, len) == 0;
            g += glen;
        }
        f += len;
    }
    return n;
}

/* Is b the only kernel of g[0..n) that agrees with a as much as it does?
   Then the metadata alone tells which pairs with a. */
static int meta_decides(const tkernel *a, const tkernel *b, const tkernel *g, size_t n)
{
    unsigned best = meta_score(a->meta, b->meta), ties = 0;
    if (!best)
        return 0;
    for (size_t j = 0; j < n; j++)
        ties += meta_score(a->meta, g[j].meta) >= best;
    return ties == 1;
}

/* The assignment of rows to columns (n <= m) of least total cost c[i*m+j]:
   col[i] for row i.  The Hungarian algorithm with potentials. */
static void assign(ptx_arena *a, const long long *c, size_t n, size_t m, int *col)
{
    long long *u = ptx_arena_alloc(a, (n + 1) * sizeof *u);
    long long *v = ptx_arena_alloc(a, (m + 1) * sizeof *v);
    long long *minv = ptx_arena_alloc(a, (m + 1) * sizeof *minv);
    size_t *p = ptx_arena_alloc(a, (m + 1) * sizeof *p);
    size_t *way = ptx_arena_alloc(a, (m + 1) * sizeof *way);
    char *used = ptx_arena_alloc(a, m + 1);
    for (size_t i = 1; i <= n; i++) {
        size_t j0 = 0;
        p[0] = i;
        for (size_t j = 0; j <= m; j++)
            minv[j] = LLONG_MAX, used[j] = 0;
        do {
            size_t i0 = p[j0], j1 = 0;
            long long delta = LLONG_MAX;
            used[j0] = 1;
            for (size_t j = 1; j <= m; j++) {
                if (used[j])
                    continue;
                long long cur = c[(i0 - 1) * m + (j - 1)] - u[i0] - v[j];
                if (cur < minv[j])
                    minv[j] = cur, way[j] = j0;
                if (minv[j] < delta)
                    delta = minv[j], j1 = j;
            }
            for (size_t j = 0; j <= m; j++)
                if (used[j])
                    u[p[j]] += delta, v[j] -= delta;
                else
                    minv[j] -= delta;
            j0 = j1;
        } while (p[j0] != 0);
        do {
            size_t j1 = way[j0];
            p[j0] = p[j1];
            j0 = j1;
        } while (j0);
    }
    for (size_t j = 1; j <= m; j++)
        if (p[j])
            col[p[j] - 1] = (int)(j - 1);
}

/* A group of several kernels: the best assignment, rows on the smaller
   side; *pa[i] the b kernel of a's kernel i, or -1. */
static void best_pairs(ptx_tree_diff *t, ptx_arena *ar, tkernel *a, size_t na, tkernel *b,
                       size_t nb, int *pa)
{
    int swap = na > nb;
    size_t n = swap ? nb : na, m = swap ? na : nb;
    long long big = 1;   /* more than any statements in common */
    for (size_t i = 0; i < na; i++)
        sort_ids(t, 0, &a[i]), big += a[i].nids;
    for (size_t j = 0; j < nb; j++)
        sort_ids(t, 1, &b[j]), big += b[j].nids;
    long long *c = ptx_arena_alloc(ar, n * m * sizeof *c);
    for (size_t i = 0; i < na; i++)
        for (size_t j = 0; j < nb; j++) {
            long long w = common(&a[i], &b[j]) + big * meta_score(a[i].meta, b[j].meta);
            c[swap ? j * m + i : i * m + j] = -w;
        }
    int *col = ptx_arena_alloc(ar, n * sizeof *col);
    assign(ar, c, n, m, col);
    for (size_t i = 0; i < na; i++)
        pa[i] = -1;
    for (size_t r = 0; r < n; r++) {
        size_t i = swap ? (size_t)col[r] : r, j = swap ? r : (size_t)col[r];
        pa[i] = (int)j;
    }
}

static void pair_group(ptx_tree_diff *t, tkernel *a, size_t na, tkernel *b, size_t nb)
{
    if (na == 1 && nb == 1) {
        pd_tree_add(t, a, b, PTX_TREE_BY_NAME, 100);
        return;
    }
    /* the group's scratch in an arena of its own, freed at the end, or
       where memory runs out (util/alloc.h) */
    ptx_arena *ar = ptx_arena_new();
    ptx_owned own;
    ptx_own(&own, ptx_arena_release, ar);
    int *pa = ptx_arena_alloc(ar, (na + 1) * sizeof *pa);
    char *taken = ptx_arena_alloc(ar, nb + 1);
    if (na && nb)
        best_pairs(t, ar, a, na, b, nb, pa);
    else
        for (size_t i = 0; i < na; i++)
            pa[i] = -1;
    for (size_t i = 0; i < na; i++) {
        tkernel *y = pa[i] >= 0 ? &b[pa[i]] : NULL;
        unsigned sim = y ? percent(common(&a[i], y), &a[i], y) : 0;
        int meta = y && meta_decides(&a[i], y, b, nb) && meta_decides(y, &a[i], a, na);
        if (y && (meta || sim >= MIN_SIMILARITY)) {
            pd_tree_add(t, &a[i], y, meta ? PTX_TREE_BY_META : PTX_TREE_BY_SIMILARITY, sim);
            taken[pa[i]] = 1;
        } else {
            pd_tree_add(t, &a[i], NULL, PTX_TREE_UNPAIRED, 0);
        }
    }
    for (size_t j = 0; j < nb; j++)
        if (!taken[j])
            pd_tree_add(t, NULL, &b[j], PTX_TREE_UNPAIRED, 0);
    ptx_disown(&own);
    ptx_arena_free(ar);
}

/* The end of the run of kernels named like k[0]. */
static size_t run_end(const tkernel *k, size_t n, size_t i, const tkernel *like)
{
    while (i < n && pd_kernel_name_cmp(&k[i], like) == 0)
        i++;
    return i;
}

void pd_tree_pair(ptx_tree_diff *t)
{
    tside *a = &t->s[0], *b = &t->s[1];
    size_t i = 0, j = 0;
    while (i < a->nk || j < b->nk) {
        int c = i == a->nk ? 1 : j == b->nk ? -1 : pd_kernel_name_cmp(&a->k[i], &b->k[j]);
        const tkernel *like = c <= 0 ? &a->k[i] : &b->k[j];
        size_t i1 = c <= 0 ? run_end(a->k, a->nk, i, like) : i;
        size_t j1 = c >= 0 ? run_end(b->k, b->nk, j, like) : j;
        pair_group(t, a->k + i, i1 - i, b->k + j, j1 - j);
        i = i1, j = j1;
    }
}
