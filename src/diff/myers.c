/*
 * myers.c - Myers' O(ND) difference algorithm, linear-space variant.
 *
 * "An O(ND) Difference Algorithm and Its Variations" (Myers, 1986), section
 * 4b: find the middle snake of an optimal path by running the greedy search
 * from both ends at once, then recurse on the two halves.  The layout of
 * the search follows GNU diff's analyze.c: fd[k] / bd[k] hold the furthest
 * x reached on diagonal k = x - y by the forward / backward search.
 *
 * Cost limit: when the two searches have not met after `maxcost` rounds
 * the split takes the most advanced diagonal instead of the middle snake.
 * That only happens for large, very different inputs (the limit grows with
 * the square root of the input), and keeps the worst case far below
 * O((N+M)^2) at the price of a possibly non-minimal script there.
 */
#include <limits.h>
#include <stdlib.h>
#include "ptx/diff.h"
#include "util/alloc.h"

typedef struct myers {
    const uint32_t *a, *b;
    uint8_t *del, *ins;
    long *fd, *bd;       /* indexed by diagonal; offset so k may be < 0 */
    long maxcost;
    size_t edits;
} myers;

typedef struct range {
    long xoff, xlim, yoff, ylim;
} range;

/* The heuristic split after too many rounds: the forward or backward
   frontier point that got furthest from its corner. */
static void give_up(const myers *M, const range *r, long fmin, long fmax,
                    long bmin, long bmax, long *xm, long *ym)
{
    long fxy = -1, fx = r->xoff, bxy = LONG_MAX, bx = r->xlim;
    for (long d = fmax; d >= fmin; d -= 2) {
        long x = M->fd[d] < r->xlim ? M->fd[d] : r->xlim, y = x - d;
        if (y > r->ylim)
            x = r->ylim + d, y = r->ylim;
        if (x + y > fxy)
            fxy = x + y, fx = x;
    }
    for (long d = bmax; d >= bmin; d -= 2) {
        long x = M->bd[d] > r->xoff ? M->bd[d] : r->xoff, y = x - d;
        if (y < r->yoff)
            x = r->yoff + d, y = r->yoff;
        if (x + y < bxy)
            bxy = x + y, bx = x;
    }
    if ((r->xlim + r->ylim) - bxy < fxy - (r->xoff + r->yoff))
        *xm = fx, *ym = fxy - fx;
    else
        *xm = bx, *ym = bxy - bx;
}

/* Middle snake of r (both ends already differ): a point (xm, ym) on an
   optimal path, strictly inside the box in the sense that both halves are
   smaller than r. */
static void split(myers *M, const range *r, long *xm, long *ym)
{
    const uint32_t *a = M->a, *b = M->b;
    long *fd = M->fd, *bd = M->bd;
    long dmin = r->xoff - r->ylim, dmax = r->xlim - r->yoff;
    long fmid = r->xoff - r->yoff, bmid = r->xlim - r->ylim;
    long fmin = fmid, fmax = fmid, bmin = bmid, bmax = bmid;
    int odd = (fmid - bmid) & 1;
    fd[fmid] = r->xoff;
    bd[bmid] = r->xlim;
    for (long c = 1;; c++) {
        if (fmin > dmin) fd[--fmin - 1] = -1; else ++fmin;
        if (fmax < dmax) fd[++fmax + 1] = -1; else --fmax;
        for (long d = fmax; d >= fmin; d -= 2) {
            long lo = fd[d - 1], hi = fd[d + 1];
            long x = lo >= hi ? lo + 1 : hi, y = x - d;
            while (x < r->xlim && y < r->ylim && a[x] == b[y])
                x++, y++;
            fd[d] = x;
            if (odd && bmin <= d && d <= bmax && bd[d] <= x) {
                *xm = x, *ym = y;
                return;
            }
        }
        if (bmin > dmin) bd[--bmin - 1] = LONG_MAX; else ++bmin;
        if (bmax < dmax) bd[++bmax + 1] = LONG_MAX; else --bmax;
        for (long d = bmax; d >= bmin; d -= 2) {
            long lo = bd[d - 1], hi = bd[d + 1];
            long x = lo < hi ? lo : hi - 1, y = x - d;
            while (x > r->xoff && y > r->yoff && a[x - 1] == b[y - 1])
                x--, y--;
            bd[d] = x;
            if (!odd && fmin <= d && d <= fmax && x <= fd[d]) {
                *xm = x, *ym = y;
                return;
            }
        }
        if (c >= M->maxcost) {
            give_up(M, r, fmin, fmax, bmin, bmax, xm, ym);
            return;
        }
    }
}

/* Marks the edits of r.  Recurses on the first half and loops on the
   second, so the stack depth stays logarithmic in practice. */
static void compare(myers *M, range r)
{
    for (;;) {
        while (r.xoff < r.xlim && r.yoff < r.ylim
               && M->a[r.xoff] == M->b[r.yoff])
            r.xoff++, r.yoff++;
        while (r.xlim > r.xoff && r.ylim > r.yoff
               && M->a[r.xlim - 1] == M->b[r.ylim - 1])
            r.xlim--, r.ylim--;
        if (r.xoff == r.xlim || r.yoff == r.ylim) {
            for (long x = r.xoff; x < r.xlim; x++)
                M->del[x] = 1;
            for (long y = r.yoff; y < r.ylim; y++)
                M->ins[y] = 1;
            M->edits += (size_t)(r.xlim - r.xoff) + (size_t)(r.ylim - r.yoff);
            return;
        }
        long xm, ym;
        split(M, &r, &xm, &ym);
        range first = { r.xoff, xm, r.yoff, ym };
        compare(M, first);
        r.xoff = xm, r.yoff = ym;
    }
}

static long isqrt(long v)
{
    long s = 1;
    while (s * s < v)
        s++;
    return s;
}

size_t pd_seq(const uint32_t *a, size_t n, const uint32_t *b, size_t m,
              uint8_t *del, uint8_t *ins)
{
    size_t ndiags = n + m + 3;
    long *mem = ptx_xmalloc(2 * ndiags * sizeof *mem);
    myers M = { a, b, del, ins, mem + m + 1, mem + ndiags + m + 1, 0, 0 };
    M.maxcost = isqrt((long)ndiags);
    if (M.maxcost < 256)
        M.maxcost = 256;
    range r = { 0, (long)n, 0, (long)m };
    compare(&M, r);
    free(mem);
    return M.edits;
}

typedef struct seq_call {
    const uint32_t *a, *b;
    size_t n, m;
    uint8_t *del, *ins;
    size_t edits;
} seq_call;

static void seq(void *ud)
{
    seq_call *c = ud;
    c->edits = pd_seq(c->a, c->n, c->b, c->m, c->del, c->ins);
}

size_t ptx_diff_seq(const uint32_t *a, size_t n, const uint32_t *b, size_t m,
                    uint8_t *del, uint8_t *ins)
{
    seq_call c = { a, b, n, m, del, ins, 0 };
    return ptx_protect(seq, &c) ? (size_t)-1 : c.edits;
}
