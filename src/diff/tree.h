/*
 * diff/tree.h - what tree.c (building, aligning), pair.c (pairing the
 * kernels of a name) and tree_report.c share.
 */
#ifndef PTX_DIFF_TREE_H
#define PTX_DIFF_TREE_H

#include <string.h>
#include "diff/internal.h"

/* A kernel of a side: a function unit of one of its files. */
typedef struct tkernel {
    ptx_str name;
    int file, unit;
    const char *meta;
    uint32_t *ids;          /* its lines' ids, sorted (pair.c, on demand) */
    uint32_t nids;
} tkernel;

typedef struct tside {
    const ptx_tree_file *f;
    size_t n;
    side *sd;               /* per file (empty where f[i].m is NULL) */
    tkernel *k;             /* every kernel, in name order */
    size_t nk;
} tside;

/* A reported pair: two kernels, one (added, removed), or the module level
   of two files (units 0). */
typedef struct tentry {
    pair p;
    int fa, fb;
    ptx_tree_kernel info;
} tentry;

struct ptx_tree_diff {
    interner in;
    tside s[2];
    tentry *e;
    size_t n, cap;
    int context, same;
};

/* Kernels' names in byte order (a shorter name first). */
static inline int pd_kernel_name_cmp(const tkernel *a, const tkernel *b)
{
    size_t n = a->name.n < b->name.n ? a->name.n : b->name.n;
    int c = memcmp(a->name.p, b->name.p, n);
    return c ? c : a->name.n < b->name.n ? -1 : a->name.n > b->name.n;
}

/* A new entry for kernels a and b (either NULL: added, removed). */
tentry *pd_tree_add(ptx_tree_diff *t, const tkernel *a, const tkernel *b, ptx_tree_how how,
                    unsigned similarity);
/* pair.c: every kernel of both sides into an entry. */
void pd_tree_pair(ptx_tree_diff *t);

#endif
